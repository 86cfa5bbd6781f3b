package overlay

import (
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/dialog"
)

// Guarded is an overlay that ignores keys for the stack's guard after it
// comes on top: the agent's questions, so an enter typed for the composer
// never answers a request the user has not seen.
type Guarded interface{ GuardKeys() }

// Stack holds the open overlays, the top one last. Keys and pastes
// go to the top; when the stack is empty they go on to the app's keys,
// the focused pane and the composer (ui/doc.go, "Routing").
type Stack struct {
	items    []dialog.Overlay
	now      func() time.Time
	guard    time.Duration
	topSince time.Time     // when the top one came on top
	looks    *dialog.Looks // SetLooks
}

// SetLooks draws every overlay pushed from now on in l (dialog.Dress).
func (s *Stack) SetLooks(l dialog.Looks) { s.looks = &l }

func (s *Stack) dress(o dialog.Overlay) {
	if s.looks != nil {
		dialog.Dress(o, *s.looks)
	}
}

// NewStack is an empty stack on clock (nil: the real one); guard is how
// long a Guarded overlay ignores keys after it comes on top.
func NewStack(clock interface{ Now() time.Time }, guard time.Duration) *Stack {
	now := time.Now
	if clock != nil {
		now = clock.Now
	}
	return &Stack{now: now, guard: guard}
}

// Now is the stack's clock's time.
func (s *Stack) Now() time.Time { return s.now() }

// Len is how many overlays are open.
func (s *Stack) Len() int { return len(s.items) }

// Top is the overlay on top (nil: none).
func (s *Stack) Top() dialog.Overlay {
	if len(s.items) == 0 {
		return nil
	}
	return s.items[len(s.items)-1]
}

// Push opens o on top.
func (s *Stack) Push(o dialog.Overlay) {
	s.dress(o)
	s.items = append(s.items, o)
	s.topSince = s.now()
}

// PushUnder opens o under the run of overlays at the top for which same
// is true (the agent's questions queue in the order they came, above
// whatever else is open), on top when there is none.
func (s *Stack) PushUnder(o dialog.Overlay, same func(dialog.Overlay) bool) {
	i := len(s.items)
	for i > 0 && same(s.items[i-1]) {
		i--
	}
	if i == len(s.items) {
		s.Push(o)
		return
	}
	s.dress(o)
	s.items = append(s.items[:i], append([]dialog.Overlay{o}, s.items[i:]...)...)
}

// Remove closes every overlay for which match is true.
func (s *Stack) Remove(match func(dialog.Overlay) bool) {
	top := s.Top()
	s.items = slices.DeleteFunc(s.items, match)
	if s.Top() != top {
		s.topSince = s.now()
	}
}

// Update gives msg to the top overlay and keeps what it returns. handled
// false means the stack is empty or the top passed the key on.
func (s *Stack) Update(msg tea.Msg) (cmd tea.Cmd, result any, handled bool) {
	top := s.Top()
	if top == nil {
		return nil, nil, false
	}
	if _, key := msg.(tea.KeyPressMsg); key && s.Guarding() > 0 {
		return nil, nil, true // just appeared: not seen yet
	}
	next, cmd, result := top.Update(msg)
	s.replace(top, next)
	if _, pass := result.(dialog.PassKey); pass {
		return cmd, nil, false
	}
	return cmd, result, true
}

// Guarding is how long the top overlay still ignores keys (0: it takes
// them).
func (s *Stack) Guarding() time.Duration {
	if _, ok := s.Top().(Guarded); !ok || s.guard <= 0 {
		return 0
	}
	return max(0, s.guard-s.now().Sub(s.topSince))
}

// GuardDone redraws the screen once a question's guard is over (its
// hint bar says its keys work).
type GuardDone struct{}

// GuardTick is the command that redraws when the guard ends (nil: no
// guard runs).
func (s *Stack) GuardTick() tea.Cmd {
	d := s.Guarding()
	if d <= 0 {
		return nil
	}
	return tea.Tick(d, func(time.Time) tea.Msg { return GuardDone{} })
}

// Deliver gives msg to the topmost overlay for which match is true (a
// result it waits for: a list loaded, a file stored) and keeps what it
// returns; ok false when none is open.
func (s *Stack) Deliver(match func(dialog.Overlay) bool, msg tea.Msg) (cmd tea.Cmd, result any, ok bool) {
	for i := len(s.items) - 1; i >= 0; i-- {
		if o := s.items[i]; match(o) {
			next, cmd, result := o.Update(msg)
			s.replace(o, next)
			return cmd, result, true
		}
	}
	return nil, nil, false
}

// replace puts next in old's place (nil: old closed).
func (s *Stack) replace(old, next dialog.Overlay) {
	for i := len(s.items) - 1; i >= 0; i-- {
		if s.items[i] != old {
			continue
		}
		wasTop := i == len(s.items)-1
		switch {
		case next == nil:
			s.items = append(s.items[:i], s.items[i+1:]...)
		case next != old:
			s.dress(next)
			s.items[i] = next
		}
		if wasTop && s.Top() != old {
			s.topSince = s.now()
		}
		return
	}
}

// Of is the topmost open overlay of type T.
func Of[T dialog.Overlay](s *Stack) (T, bool) {
	for i := len(s.items) - 1; i >= 0; i-- {
		if o, ok := s.items[i].(T); ok {
			return o, true
		}
	}
	var zero T
	return zero, false
}

// Is matches overlays of type T (for Deliver, Remove and PushUnder).
func Is[T dialog.Overlay](o dialog.Overlay) bool {
	_, ok := o.(T)
	return ok
}

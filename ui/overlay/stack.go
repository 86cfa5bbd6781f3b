package overlay

import (
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/ui/keymap"
)

// Overlay is one thing open over the app: a popup (help, attach, the
// thread list, the stash, a confirmation, the history search), the agent's
// question, a picker of the app's (`/`, modes) or the quote prompt. It is a
// value on the app's overlay stack: it updates itself and returns what
// happened as a typed result for the app; it never holds the app.
type Overlay interface {
	// Update takes a key, a paste or a message meant for it. It returns
	// the overlay to keep (nil: it closed), a command, and a result for
	// the app to act on (nil: none; PassKey: the key is not its own and
	// routing goes on below it).
	Update(msg tea.Msg) (Overlay, tea.Cmd, any)
	// View draws it in at most height lines of width columns.
	View(width, height int) []string
	// Hints is the hint bar while it is on top ("": the pane's).
	Hints() string
	// keymap.Scope is where its keys act (the key table, F1).
	Scope() keymap.Scope
}

// PassKey is the result of an overlay that leaves a key to what is below
// it: the `/` picker lets typing reach the composer.
type PassKey struct{}

// Guarded is an overlay that ignores keys for the stack's guard after it
// comes on top: the agent's questions, so an enter typed for the composer
// never answers a request the user has not seen.
type Guarded interface{ GuardKeys() }

// Placement says where an overlay is drawn.
type Placement int

const (
	InArea   Placement = iota // in the main area's place (the default)
	AtBottom                  // over the main area's last rows (the / and modes pickers)
	OnFooter                  // on the footer row (the quote prompt)
)

// Placed is an overlay drawn elsewhere than in the main area's place.
type Placed interface{ Placement() Placement }

// PlaceOf is where o is drawn.
func PlaceOf(o Overlay) Placement {
	if p, ok := o.(Placed); ok {
		return p.Placement()
	}
	return InArea
}

// Stack holds the open overlays, the top one last. Keys and pastes
// go to the top; when the stack is empty they go on to the app's keys,
// the focused pane and the composer (ui/doc.go, "Routing").
type Stack struct {
	items    []Overlay
	now      func() time.Time
	guard    time.Duration
	topSince time.Time // when the top one came on top
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
func (s *Stack) Top() Overlay {
	if len(s.items) == 0 {
		return nil
	}
	return s.items[len(s.items)-1]
}

// Push opens o on top.
func (s *Stack) Push(o Overlay) {
	s.items = append(s.items, o)
	s.topSince = s.now()
}

// PushUnder opens o under the run of overlays at the top for which same
// is true (the agent's questions queue in the order they came, above
// whatever else is open), on top when there is none.
func (s *Stack) PushUnder(o Overlay, same func(Overlay) bool) {
	i := len(s.items)
	for i > 0 && same(s.items[i-1]) {
		i--
	}
	if i == len(s.items) {
		s.Push(o)
		return
	}
	s.items = append(s.items[:i], append([]Overlay{o}, s.items[i:]...)...)
}

// Remove closes every overlay for which match is true.
func (s *Stack) Remove(match func(Overlay) bool) {
	top := s.Top()
	s.items = slices.DeleteFunc(s.items, match)
	if s.Top() != top {
		s.topSince = s.now()
	}
}

// Clear closes every overlay.
func (s *Stack) Clear() { s.items = nil }

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
	if _, pass := result.(PassKey); pass {
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
func (s *Stack) Deliver(match func(Overlay) bool, msg tea.Msg) (cmd tea.Cmd, result any, ok bool) {
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
func (s *Stack) replace(old, next Overlay) {
	for i := len(s.items) - 1; i >= 0; i-- {
		if s.items[i] != old {
			continue
		}
		wasTop := i == len(s.items)-1
		if next == nil {
			s.items = append(s.items[:i], s.items[i+1:]...)
		} else {
			s.items[i] = next
		}
		if wasTop && s.Top() != old {
			s.topSince = s.now()
		}
		return
	}
}

// Of is the topmost open overlay of type T.
func Of[T Overlay](s *Stack) (T, bool) {
	for i := len(s.items) - 1; i >= 0; i-- {
		if o, ok := s.items[i].(T); ok {
			return o, true
		}
	}
	var zero T
	return zero, false
}

// Is matches overlays of type T (for Deliver, Remove and PushUnder).
func Is[T Overlay](o Overlay) bool {
	_, ok := o.(T)
	return ok
}

// TopIs reports whether the top overlay is a T.
func TopIs[T Overlay](s *Stack) bool {
	_, ok := s.Top().(T)
	return ok
}

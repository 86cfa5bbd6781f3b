package notify

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
	"unicode"
)

// Event is what may notify ([notify] on).
type Event string

const (
	TurnEnd  Event = "turn_end" // a turn ended done
	Question Event = "question" // the agent asks (a permission, a sign-in)
	Error    Event = "error"    // a turn ended in an error
)

// Events are the events, in the order the config lists them.
var Events = []Event{TurnEnd, Question, Error}

// Method is how a notification is written ([notify] method).
type Method string

const (
	Auto   Method = "auto" // OSC 9, OSC 777 where preferred, BEL inside tmux without passthrough
	OSC9   Method = "osc9"
	OSC777 Method = "osc777"
	Bell   Method = "bell"
	Off    Method = "off"
)

// Methods are the allowed methods.
var Methods = []Method{Auto, OSC9, OSC777, Bell, Off}

// DefaultMinTurn is [notify] min_turn_seconds' default.
const DefaultMinTurn = 10 * time.Second

// Settings are the [notify] table, parsed.
type Settings struct {
	On      []Event
	Method  Method
	MinTurn time.Duration // when focus is never reported, shorter turns do not notify
}

// Default is every event, auto, 10 s.
func Default() Settings {
	return Settings{On: slices.Clone(Events), Method: Auto, MinTurn: DefaultMinTurn}
}

// Focus is what the terminal said of its focus.
type Focus int

const (
	FocusUnknown Focus = iota // never reported
	Focused
	Blurred
)

// Decide says whether ev notifies, given the focus as reported and how long
// the turn has run (the decision table in doc.go).
func Decide(s Settings, f Focus, ev Event, turn time.Duration) bool {
	if s.Method == Off || !slices.Contains(s.On, ev) {
		return false
	}
	switch f {
	case Focused:
		return false
	case Blurred:
		return true
	}
	return turn >= s.MinTurn
}

// Terminal is what is known of the terminal at start (Probe).
type Terminal struct {
	Program     string // $TERM_PROGRAM
	Term        string // $TERM
	VTE         bool   // $VTE_VERSION set (GNOME Terminal and other VTE terminals)
	Tmux        bool   // $TMUX set
	Passthrough bool   // tmux allow-passthrough is on (or all)
	FocusEvents bool   // tmux focus-events is on (outside tmux: true, the terminal may report)
}

// ReportFocus says whether to ask the terminal for focus reports: tmux
// without focus-events never forwards them.
func (t Terminal) ReportFocus() bool { return !t.Tmux || t.FocusEvents }

// Probe reads the environment and, inside tmux, `tmux show -gv
// focus-events` and `allow-passthrough` (an error reading them: off, as
// tmux 3.3 defaults both).
func Probe() Terminal {
	return Detect(os.Getenv, func(option string) (string, error) {
		out, err := exec.Command("tmux", "show", "-gv", option).Output()
		return string(out), err
	})
}

// Detect is Probe over given readers of the environment and tmux options.
func Detect(getenv func(string) string, tmuxShow func(option string) (string, error)) Terminal {
	t := Terminal{Program: getenv("TERM_PROGRAM"), Term: getenv("TERM"), VTE: getenv("VTE_VERSION") != "", Tmux: getenv("TMUX") != ""}
	if !t.Tmux {
		t.FocusEvents = true
		return t
	}
	on := func(option string) bool {
		v, err := tmuxShow(option)
		v = strings.TrimSpace(v)
		return err == nil && (v == "on" || v == "all")
	}
	t.FocusEvents, t.Passthrough = on("focus-events"), on("allow-passthrough")
	return t
}

// Resolve is the method a notification is written with: auto becomes
// OSC 777 where the terminal is known to prefer it (rxvt, foot, VTE
// terminals), else OSC 9; inside tmux without passthrough every OSC
// method becomes BEL (tmux would swallow the sequence).
func Resolve(m Method, t Terminal) Method {
	if m == Auto {
		m = OSC9
		if t.VTE || strings.HasPrefix(t.Term, "rxvt") || strings.HasPrefix(t.Term, "foot") {
			m = OSC777
		}
	}
	if t.Tmux && !t.Passthrough && (m == OSC9 || m == OSC777) {
		m = Bell
	}
	return m
}

// maxText bounds the title and the reason, in runes.
const maxText = 120

// Encode is the bytes that notify with method m (resolved here) on t: the
// title and reason sanitized, the OSC wrapped in tmux's passthrough inside
// tmux. Off is "".
func Encode(m Method, t Terminal, title, reason string) string {
	title, reason = Sanitize(title, maxText), Sanitize(reason, maxText)
	var seq string
	switch Resolve(m, t) {
	case Off:
		return ""
	case Bell:
		return "\a"
	case OSC777:
		seq = "\x1b]777;notify;" + title + ";" + reason + "\a"
	default:
		text := reason
		if title != "" {
			text = title + ": " + reason
		}
		seq = "\x1b]9;" + text + "\a"
	}
	if t.Tmux {
		seq = "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\"
	}
	return seq
}

// Sanitize is s on one line with no control characters (C0, DEL, C1),
// no bidi controls or other format characters and no ';' (a sequence's
// separator: ','), invalid UTF-8 replaced, runs of white space one space,
// cut to max runes (max >= 1; an ellipsis marks a cut).
func Sanitize(s string, max int) string {
	out := make([]rune, 0, min(len(s), max+1))
	space := false
	for _, r := range s { // invalid UTF-8 ranges as U+FFFD
		switch {
		case unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
			space = len(out) > 0
			continue
		case r == ';':
			r = ','
		}
		if space {
			out, space = append(out, ' '), false
		}
		if out = append(out, r); len(out) > max {
			return strings.TrimSpace(string(out[:max-1])) + "…"
		}
	}
	return string(out)
}

// Notifier holds the settings, the terminal and its reported focus, and
// when each thread's turn began.
type Notifier struct {
	s       Settings
	t       Terminal
	focus   Focus
	now     func() time.Time
	started map[string]time.Time
	// The last focus report's time and the focus before it, so an event
	// that happened before the report (and reached the notifier after it)
	// is decided with the focus of its moment.
	focusAt  time.Time
	previous Focus
}

// New is a notifier with settings s and a clock (nil: the real one), before
// the terminal is probed: a terminal not yet known is taken from the
// environment alone (inside tmux: BEL until Probe says passthrough is on).
func New(s Settings, clock interface{ Now() time.Time }) *Notifier {
	now := time.Now
	if clock != nil {
		now = clock.Now
	}
	noTmux := func(string) (string, error) { return "", fmt.Errorf("not probed") }
	return &Notifier{s: s, t: Detect(os.Getenv, noTmux), now: now, started: map[string]time.Time{}}
}

// SetTerminal takes Probe's result.
func (n *Notifier) SetTerminal(t Terminal) { n.t = t }

// Terminal is what is known of the terminal.
func (n *Notifier) Terminal() Terminal { return n.t }

// SetFocus takes a focus report.
func (n *Notifier) SetFocus(focused bool) {
	f := Blurred
	if focused {
		f = Focused
	}
	n.previous, n.focus, n.focusAt = n.focus, f, n.now()
}

// focusWhen is the focus to decide an event of t with (zero: now):
// focused if the terminal was focused at t or is now (a user looking at
// the screen, then or since, has no need of a notification).
func (n *Notifier) focusWhen(t time.Time) Focus {
	if !t.IsZero() && t.Before(n.focusAt) && n.previous == Focused {
		return Focused
	}
	return n.focus
}

// Started notes that a thread's turn began at.
func (n *Notifier) Started(threadID string, at time.Time) { n.started[threadID] = at }

// Ended is the bytes to write when a thread's turn ended at ("": none;
// zero at: now): failed is an error, stopped (by the user) never
// notifies. A turn that ended while the terminal was focused does not
// notify because the terminal was blurred before its end was handled.
func (n *Notifier) Ended(threadID, title string, failed, stopped bool, at time.Time) string {
	ev, reason := TurnEnd, "turn ended"
	if failed {
		ev, reason = Error, "turn failed"
	}
	s := n.notify(ev, threadID, title, reason, at)
	delete(n.started, threadID)
	if stopped && !failed {
		return ""
	}
	return s
}

// Asked is the bytes to write when the agent asks about what ("": none).
func (n *Notifier) Asked(threadID, title, what string) string {
	return n.Notify(Question, threadID, title, "the agent asks: "+what)
}

// Notify is the bytes to write for ev in a thread now ("": none): the
// turn's length is since Started.
func (n *Notifier) Notify(ev Event, threadID, title, reason string) string {
	return n.notify(ev, threadID, title, reason, time.Time{})
}

// notify is Notify for an event that happened at (zero: now).
func (n *Notifier) notify(ev Event, threadID, title, reason string, at time.Time) string {
	end := at
	if end.IsZero() {
		end = n.now()
	}
	var turn time.Duration
	if began, ok := n.started[threadID]; ok {
		turn = end.Sub(began)
	}
	if !Decide(n.s, n.focusWhen(at), ev, turn) {
		return ""
	}
	return Encode(n.s.Method, n.t, title, reason)
}

package notify

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

func TestDecide(t *testing.T) {
	s := Default()
	for _, c := range []struct {
		f    Focus
		ev   Event
		turn time.Duration
		want bool
	}{
		{Blurred, TurnEnd, 0, true},
		{Blurred, Question, time.Second, true},
		{Blurred, Error, 0, true},
		{Focused, TurnEnd, time.Hour, false},
		{Focused, Question, time.Hour, false},
		{FocusUnknown, TurnEnd, 9 * time.Second, false},
		{FocusUnknown, TurnEnd, 10 * time.Second, true},
		{FocusUnknown, Error, time.Minute, true},
	} {
		if got := Decide(s, c.f, c.ev, c.turn); got != c.want {
			t.Errorf("Decide(focus %d, %s, %v) = %v, want %v", c.f, c.ev, c.turn, got, c.want)
		}
	}
	if Decide(Settings{On: []Event{Question}, Method: Auto}, Blurred, TurnEnd, time.Hour) {
		t.Error("an event not in [notify] on notified")
	}
	if Decide(Settings{On: Events, Method: Off}, Blurred, TurnEnd, time.Hour) {
		t.Error(`method "off" notified`)
	}
}

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestDetectReadsTmuxOptions(t *testing.T) {
	var asked []string
	show := func(opts map[string]string) func(string) (string, error) {
		return func(o string) (string, error) {
			asked = append(asked, o)
			if v, ok := opts[o]; ok {
				return v + "\n", nil
			}
			return "", errors.New("invalid option")
		}
	}
	out := Detect(env(map[string]string{"TERM": "xterm-256color"}), show(nil))
	if out.Tmux || !out.FocusEvents || len(asked) != 0 {
		t.Errorf("outside tmux: %+v, asked %v", out, asked)
	}
	in := Detect(env(map[string]string{"TMUX": "/tmp/tmux-0/default,1,0"}), show(map[string]string{"focus-events": "on", "allow-passthrough": "off"}))
	if !in.Tmux || !in.FocusEvents || in.Passthrough {
		t.Errorf("tmux focus-events on, passthrough off: %+v", in)
	}
	all := Detect(env(map[string]string{"TMUX": "x"}), show(map[string]string{"focus-events": "off", "allow-passthrough": "all"}))
	if all.FocusEvents || !all.Passthrough || all.ReportFocus() {
		t.Errorf("passthrough all, focus-events off: %+v, report focus %v", all, all.ReportFocus())
	}
	if old := Detect(env(map[string]string{"TMUX": "x"}), show(nil)); old.Passthrough || old.FocusEvents {
		t.Errorf("a tmux without the options (an error): %+v, want both off", old)
	}
}

func TestEncode(t *testing.T) {
	plain := Terminal{Term: "xterm-256color", FocusEvents: true}
	for _, c := range []struct {
		name string
		m    Method
		t    Terminal
		want string
	}{
		{"auto is OSC 9", Auto, plain, "\x1b]9;fix the bug: turn ended\a"},
		{"auto on VTE is OSC 777", Auto, Terminal{VTE: true}, "\x1b]777;notify;fix the bug;turn ended\a"},
		{"auto on foot is OSC 777", Auto, Terminal{Term: "foot"}, "\x1b]777;notify;fix the bug;turn ended\a"},
		{"bell", Bell, plain, "\a"},
		{"off", Off, plain, ""},
		{"tmux without passthrough: BEL", Auto, Terminal{Tmux: true}, "\a"},
		{"tmux osc777 without passthrough: BEL", OSC777, Terminal{Tmux: true}, "\a"},
		{"tmux with passthrough: wrapped", Auto, Terminal{Tmux: true, Passthrough: true}, "\x1bPtmux;\x1b\x1b]9;fix the bug: turn ended\a\x1b\\"},
		{"tmux bell with passthrough: BEL, not wrapped", Bell, Terminal{Tmux: true, Passthrough: true}, "\a"},
	} {
		if got := Encode(c.m, c.t, "fix the bug", "turn ended"); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	// A hostile title cannot end the sequence or start another.
	got := Encode(OSC777, Terminal{}, "a\x07b\x1b]52;c;x\x1b\\;\u202e", "r\nr")
	if want := "\x1b]777;notify;a b ]52,c,x \\,;r r\a"; got != want {
		t.Errorf("hostile title: %q, want %q", got, want)
	}
}

func TestSanitize(t *testing.T) {
	for in, want := range map[string]string{
		"  plain  ":              "plain",
		"two\n\nlines\tand tabs": "two lines and tabs",
		"bad \xff utf8":          "bad \uFFFD utf8",
		"c1 \u009b31m":           "c1 31m",
		"bidi \u202eevil\u2066":  "bidi evil",
		"semi;colon":             "semi,colon",
		strings.Repeat("x", 130): strings.Repeat("x", 119) + "…",
	} {
		if got := Sanitize(in, maxText); got != want {
			t.Errorf("Sanitize(%q) = %q, want %q", in, got, want)
		}
	}
}

type clock struct{ t time.Time }

func (c *clock) Now() time.Time { return c.t }

func TestNotifierTurnLength(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := &clock{}
	n := New(Default(), c)
	n.SetTerminal(Terminal{FocusEvents: true})
	at := func(d time.Duration) { c.t = t0.Add(d) }
	n.Started("t1", t0)
	if at(3 * time.Second); n.Ended("t1", "title", false, false, time.Time{}) != "" {
		t.Error("a 3 s turn, focus never reported: notified")
	}
	n.Started("t1", t0)
	if at(11 * time.Second); n.Asked("t1", "title", "run make") != "\x1b]9;title: the agent asks: run make\a" {
		t.Error("a question 11 s into the turn, focus never reported: not notified")
	}
	if at(12 * time.Second); n.Ended("t1", "title", true, true, time.Time{}) != "\x1b]9;title: turn failed\a" {
		t.Error("the turn's error at 12 s: not notified (the question must not end the turn)")
	}
	n.Started("t1", t0)
	if at(time.Hour); n.Ended("t1", "title", false, true, time.Time{}) != "" {
		t.Error("a turn the user stopped notified")
	}
	if n.Ended("t2", "title", false, false, time.Time{}) != "" {
		t.Error("a turn never seen starting (length 0) notified with focus unknown")
	}
	n.Started("t1", t0)
	n.SetFocus(true)
	if n.Ended("t1", "title", false, false, time.Time{}) != "" {
		t.Error("focused: notified")
	}
	n.Started("t1", t0)
	n.SetFocus(false)
	if at(time.Second); n.Ended("t1", "title", false, false, time.Time{}) != "\x1b]9;title: turn ended\a" {
		t.Error("blurred, a 1 s turn: not notified")
	}
}

// A turn that ended while the terminal was focused does not notify when
// its end reaches the notifier after a blur (the events come in batches;
// the screen already showed the turn over), and one that ended blurred
// still does after the terminal is focused again.
func TestNotifierDecidesWithTheFocusOfTheEnd(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := &clock{t: t0}
	n := New(Default(), c)
	n.SetTerminal(Terminal{FocusEvents: true})
	n.SetFocus(true)
	n.Started("t1", t0)
	c.t = t0.Add(20 * time.Second)
	ended := c.t
	c.t = ended.Add(5 * time.Millisecond)
	n.SetFocus(false)
	if s := n.Ended("t1", "title", false, false, ended); s != "" {
		t.Errorf("ended focused, handled after a blur: notified %q", s)
	}
	n.Started("t1", t0)
	c.t = t0.Add(30 * time.Second)
	ended = c.t
	c.t = ended.Add(5 * time.Millisecond)
	n.SetFocus(true)
	if s := n.Ended("t1", "title", false, false, ended); s != "" {
		t.Errorf("ended blurred, handled after the focus came back: notified %q (focused now)", s)
	}
	n.SetFocus(false)
	n.Started("t1", t0)
	c.t = t0.Add(40 * time.Second)
	if s := n.Ended("t1", "title", false, false, c.t); s != "\x1b]9;title: turn ended\a" {
		t.Errorf("ended blurred, handled blurred: %q", s)
	}
}

// FuzzEncode: whatever the title and reason, the notification is one
// sequence whose text holds no control character, no ';' and no ESC, so
// nothing the agent or the user titled can reach the terminal as a
// sequence of its own.
func FuzzEncode(f *testing.F) {
	f.Add("title", "reason", true, true)
	f.Add("a\x07\x1b]52;c;x\x1b\\", "\u202e\xff", false, true)
	f.Fuzz(func(t *testing.T, title, reason string, tmux, vte bool) {
		for _, s := range []string{Sanitize(title, maxText), Sanitize(reason, maxText)} {
			if !utf8.ValidString(s) || utf8.RuneCountInString(s) > maxText || strings.ContainsRune(s, ';') {
				t.Fatalf("Sanitize: %q", s)
			}
			for _, r := range s {
				if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r != ' ' && unicode.IsSpace(r) {
					t.Fatalf("Sanitize kept %U in %q", r, s)
				}
			}
		}
		term := Terminal{Tmux: tmux, Passthrough: tmux, VTE: vte}
		got := Encode(Auto, term, title, reason)
		inner := got
		if tmux {
			if !strings.HasPrefix(got, "\x1bPtmux;\x1b\x1b]") || !strings.HasSuffix(got, "\a\x1b\\") {
				t.Fatalf("not one passthrough: %q", got)
			}
			inner = strings.TrimSuffix(strings.TrimPrefix(got, "\x1bPtmux;\x1b"), "\x1b\\")
			inner = strings.ReplaceAll(inner, "\x1b\x1b", "\x1b")
		}
		prefix := "\x1b]9;"
		if vte {
			prefix = "\x1b]777;notify;"
		}
		if !strings.HasPrefix(inner, prefix) || !strings.HasSuffix(inner, "\a") {
			t.Fatalf("not one OSC: %q", inner)
		}
		text := strings.TrimSuffix(strings.TrimPrefix(inner, prefix), "\a")
		if strings.ContainsAny(text, "\x1b\a\u009c") || vte && strings.Count(text, ";") != 1 || !vte && strings.Contains(text, ";") {
			t.Fatalf("text %q can end the sequence or split it", text)
		}
	})
}

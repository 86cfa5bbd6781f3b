package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Notifications (issue 27, [notify]): chipchat in tmux, the bytes it
// writes to the pty read through pipe-pane, the terminal's focus reports
// sent to its input as a terminal sends them (CSI I, CSI O).

// notifySession starts chipchat in tmux with the tmux options given set
// before it starts (it reads them once at start), its output piped to a
// file, and a [notify] table of config.
func notifySession(t *testing.T, options map[string]string, config string) (*tmuxSession, func() string) {
	t.Helper()
	bin := chipchatBinary(t)
	root := t.TempDir()
	proj, home := filepath.Join(root, "proj"), filepath.Join(root, "home")
	writeFile(t, filepath.Join(proj, "README"), "x\n")
	writeFile(t, filepath.Join(home, ".config", "chipchat", "config.toml"), config)
	gate, raw := filepath.Join(root, "go"), filepath.Join(root, "raw")
	// The golden screens' fake agent answers when a config names it
	// (goldenAgentConfig); the default one is echo.
	command := fmt.Sprintf("until [ -e %q ]; do sleep 0.05; done; cd %q && env HOME=%q XDG_CONFIG_HOME=%q TERM=xterm-256color %s=1 %q --data-dir %q; echo EXITED=$?; sleep 600",
		gate, proj, home, filepath.Join(home, ".config"), goldenAgentEnv, bin, filepath.Join(root, "data"))
	s := startTmux(t, command)
	for k, v := range options {
		s.run("set", "-g", k, v)
	}
	s.run("pipe-pane", "-O", "-t", s.name, "cat >> "+raw)
	writeFile(t, gate, "")
	s.waitFor("chipchat · New thread · agent ", "enter send")
	read := func() string {
		b, err := os.ReadFile(raw)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		return string(b)
	}
	return s, read
}

// oscs matches the OSC sequences Bubble Tea writes itself (the window
// title), so a BEL of chipchat's can be told from their terminators.
var oscs = regexp.MustCompile("\x1b\\][^\x07\x1b]*(\x07|\x1b\\\\)")

// notifyOSCs matches OSC 9 and 777, bare or in tmux's passthrough.
var notifyOSCs = regexp.MustCompile("\x1bPtmux;\x1b\x1b\\](9|777);[^\x07]*\x07\x1b\\\\|\x1b\\](9|777);[^\x07]*\x07")

// notifications are the notifications in raw output: OSC 9 and 777 (bare
// or in tmux's passthrough) and every BEL that ends no OSC.
func notifications(raw string) (osc []string, bells int) {
	osc = notifyOSCs.FindAllString(raw, -1)
	return osc, strings.Count(oscs.ReplaceAllString(raw, ""), "\x07")
}

// turn sends text and waits for the echo agent's reply to it.
func turn(s *tmuxSession, text string) {
	s.t.Helper()
	s.text(text)
	s.keys("Enter")
	s.waitFor("Echo agent", text)
	// The composer's placeholder too: the text typed shows in the
	// composer at once, with the last turn's reply and the idle hints
	// still on screen, before Enter is handled.
	s.waitUntil("the turn's end", func(scr string) bool {
		return !strings.Contains(scr, "esc cancel turn") && strings.Contains(scr, "enter send") && strings.Contains(scr, "Write a message")
	})
}

// waitRaw polls the pty's bytes until ok holds for them.
func waitRaw(t *testing.T, read func() string, what string, ok func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		raw := read()
		if ok(raw) {
			return raw
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pty never showed %s:\n%q", what, raw)
		}
		time.Sleep(50 * time.Millisecond) // the polling pace
	}
}

func TestEndToEndNotifyTmuxPassthrough(t *testing.T) {
	for _, c := range []struct {
		passthrough string
		want        string // the blurred turn's notification
	}{
		{"on", "\x1bPtmux;\x1b\x1b]9;first words: turn ended\x07\x1b\\"},
		{"off", "\x07"},
	} {
		t.Run("allow-passthrough "+c.passthrough, func(t *testing.T) {
			s, read := notifySession(t, map[string]string{"allow-passthrough": c.passthrough, "focus-events": "on"}, "")
			// Focus reporting (DECSET 1004) is asked for once the probe
			// read focus-events on; tmux then reports the pane blurred
			// (no client), and the terminal focused (CSI I). A turn ends
			// focused: nothing is written.
			waitRaw(t, read, "DECSET 1004", func(r string) bool { return strings.Contains(r, "\x1b[?1004h") })
			s.keys("-H", "1b", "5b", "49") // CSI I
			turn(s, "first words")
			raw := read()
			if osc, bells := notifications(raw); len(osc) != 0 || bells != 0 {
				t.Fatalf("focused: notified %q, %d BEL:\n%q", osc, bells, raw)
			}
			// Blurred: the next turn's end notifies, even a short one.
			s.keys("-H", "1b", "5b", "4f") // CSI O
			before := len(read())
			turn(s, "second words")
			raw = waitRaw(t, read, "a notification", func(r string) bool { osc, bells := notifications(r[before:]); return len(osc)+bells > 0 })
			osc, bells := notifications(raw[before:])
			if c.passthrough == "on" && (len(osc) != 1 || osc[0] != c.want || bells != 0) {
				t.Errorf("passthrough on: %q and %d BEL, want %q", osc, bells, c.want)
			}
			if c.passthrough == "off" && (len(osc) != 0 || bells != 1) {
				t.Errorf("passthrough off: %q and %d BEL, want one BEL", osc, bells)
			}
		})
	}
}

// tmux with focus-events off never forwards focus: chipchat does not ask
// for it, and only turns as long as min_turn_seconds notify.
func TestEndToEndNotifyWithoutFocusReports(t *testing.T) {
	s, read := notifySession(t, map[string]string{"allow-passthrough": "on", "focus-events": "off"}, "")
	turn(s, "quick one") // shorter than the default 10 s
	raw := read()
	if osc, bells := notifications(raw); len(osc) != 0 || bells != 0 {
		t.Fatalf("a short turn, focus never reported: notified %q, %d BEL", osc, bells)
	}
	if strings.Contains(raw, "\x1b[?1004h") {
		t.Error("focus reporting asked for with tmux focus-events off")
	}

	s, read = notifySession(t, map[string]string{"allow-passthrough": "on", "focus-events": "off"}, "[notify]\nmin_turn_seconds = 0\nmethod = \"osc777\"\n")
	turn(s, "quick one")
	waitRaw(t, read, "an OSC 777 notification", func(r string) bool {
		return strings.Contains(r, "\x1bPtmux;\x1b\x1b]777;notify;chipchat;turn ended\x07\x1b\\") ||
			strings.Contains(r, "\x1bPtmux;\x1b\x1b]777;notify;quick one;turn ended\x07\x1b\\")
	})
}

// goldenAgentConfig is a config line naming the golden screens' fake ACP
// agent (TestGoldenAgentProcess): a prompt with "Edit" gets a tool call
// that waits for permission.
func goldenAgentConfig() string {
	return fmt.Sprintf("agent = %q\n", "acp:"+os.Args[0]+" -test.run=^TestGoldenAgentProcess$")
}

// The agent's question notifies while the terminal is blurred, as soon as
// it is asked (the turn still runs): OSC 9 in tmux's passthrough with
// allow-passthrough on, else BEL; focused, nothing.
func TestEndToEndNotifyQuestion(t *testing.T) {
	for _, c := range []struct {
		passthrough string
		want        string
	}{
		{"on", "\x1bPtmux;\x1b\x1b]9;Edit app.py: the agent asks: Edit app.py\x07\x1b\\"},
		{"off", "\x07"},
	} {
		t.Run("allow-passthrough "+c.passthrough, func(t *testing.T) {
			s, read := notifySession(t, map[string]string{"allow-passthrough": c.passthrough, "focus-events": "on"},
				goldenAgentConfig()+"[ui]\nquestion_guard = \"0\"\n")
			waitRaw(t, read, "DECSET 1004", func(r string) bool { return strings.Contains(r, "\x1b[?1004h") })
			// Focused: the question and the turn's end write nothing.
			s.keys("-H", "1b", "5b", "49") // CSI I
			s.text("Edit app.py")
			s.keys("Enter")
			s.waitFor("Allow once", "Reject")
			s.keys("Enter") // allow once: the turn ends
			s.waitUntil("the turn's end", func(scr string) bool {
				return !strings.Contains(scr, "Reject") && !strings.Contains(scr, "esc cancel turn") && strings.Contains(scr, "enter send")
			})
			if raw := read(); func() bool { osc, bells := notifications(raw); return len(osc)+bells > 0 }() {
				osc, bells := notifications(raw)
				t.Fatalf("focused: notified %q, %d BEL:\n%q", osc, bells, raw)
			}
			// Blurred: the question notifies while the prompt waits.
			s.keys("-H", "1b", "5b", "4f") // CSI O
			before := len(read())
			s.text("Edit app.py again")
			s.keys("Enter")
			s.waitFor("Allow once", "Reject")
			raw := waitRaw(t, read, "the question's notification", func(r string) bool {
				osc, bells := notifications(r[before:])
				return len(osc)+bells > 0
			})
			osc, bells := notifications(raw[before:])
			if c.passthrough == "on" && (len(osc) != 1 || osc[0] != c.want || bells != 0) {
				t.Errorf("passthrough on: %q and %d BEL, want %q", osc, bells, c.want)
			}
			if c.passthrough == "off" && (len(osc) != 0 || bells != 1) {
				t.Errorf("passthrough off: %q and %d BEL, want one BEL:\n%q", osc, bells, raw[before:])
			}
			if !strings.Contains(s.screen(), "Reject") {
				t.Error("the notification came after the question was gone")
			}
			// Quit, so nothing of chipchat's is written while the test's
			// directory is removed.
			s.keys("C-q")
			s.waitFor("EXITED=0")
		})
	}
}

package terminal

import (
	"strings"
	"syscall"
	"testing"
	"time"
)

// waitFor polls the screen until cond holds.
func waitFor(t *testing.T, term *Terminal, what string, cond func(s *Screen) bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		ok := false
		term.Do(func(s *Screen) { ok = cond(s) })
		if ok {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	term.Do(func(s *Screen) {
		t.Fatalf("timeout waiting for %s; screen:\n%s", what, strings.Join(s.Lines(s.FirstLine(), s.LastLine()), "\n"))
	})
}

func findLine(s *Screen, text string) int64 {
	for n := s.FirstLine(); n <= s.LastLine(); n++ {
		if s.Lines(n, n)[0] == text {
			return n
		}
	}
	return -1
}

func TestShellCapture(t *testing.T) {
	term := NewTerminal("term-1", "Terminal 1", 80, 10, 1000)
	if err := term.Start(t.TempDir(), "/bin/sh"); err != nil {
		t.Fatal(err)
	}
	defer term.Close()
	// print 30 known lines so some go to the scrollback
	term.Write([]byte("i=0; while [ $i -lt 30 ]; do printf 'known %02d\\n' $i; i=$((i+1)); done; printf 'DONE\\n'\n"))
	waitFor(t, term, "DONE", func(s *Screen) bool { return findLine(s, "DONE") >= 0 })
	var a int64
	term.Do(func(s *Screen) { a = findLine(s, "known 05") })
	if a < 0 {
		t.Fatal("known 05 not in history")
	}
	var text string
	var start, end int64
	term.Do(func(s *Screen) {
		rec, err := CaptureLines(s, term.ID, term.Label, a, a+2, "1")
		if err != nil {
			t.Fatal(err)
		}
		text, start, end = rec.Text, rec.LineStart, rec.LineEnd
		if rec.Label != "Terminal 1 lines "+itoa(int(a+1))+"-"+itoa(int(a+3)) {
			t.Errorf("label %q", rec.Label)
		}
	})
	if text != "known 05\nknown 06\nknown 07" || start != a+1 || end != a+3 {
		t.Fatalf("%q %d-%d", text, start, end)
	}
	// more output: the same absolute range keeps its text
	term.Write([]byte("printf 'x\\n%.0s' 1 2 3 4 5 6 7 8 9 10 11 12; echo END2\n"))
	waitFor(t, term, "END2", func(s *Screen) bool { return findLine(s, "END2") >= 0 })
	term.Do(func(s *Screen) {
		if got := strings.Join(s.Lines(a, a+2), "\n"); got != text {
			t.Fatalf("line numbers moved: %q", got)
		}
	})
}

func TestCloseKillsGroup(t *testing.T) {
	term := NewTerminal("t", "T", 80, 10, 0)
	if err := term.Start(t.TempDir(), "/bin/sh", "-c", "sleep 1000 & sleep 1000 & echo started; wait"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, term, "started", func(s *Screen) bool { return findLine(s, "started") >= 0 })
	pgid := term.Pgid()
	if err := syscall.Kill(-pgid, 0); err != nil {
		t.Fatalf("group not alive: %v", err)
	}
	term.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		err := syscall.Kill(-pgid, 0)
		if err == syscall.ESRCH {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("process group %d still alive after Close (kill: %v, members %v)", pgid, err, sessionMembers(pgid))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestQueryReply(t *testing.T) {
	term := NewTerminal("t", "T", 80, 10, 0)
	// the program asks for the cursor position and device attributes and
	// reads the answers with a 2 s timeout
	script := `stty -icanon -echo min 0 time 20; printf '\033[6n'; r=$(dd bs=1 count=6 2>/dev/null | od -An -c | tr -d ' \n'); printf '\033[c'; d=$(dd bs=1 count=9 2>/dev/null | od -An -c | tr -d ' \n'); echo "R=$r D=$d"`
	if err := term.Start(t.TempDir(), "/bin/sh", "-c", script); err != nil {
		t.Fatal(err)
	}
	defer term.Close()
	waitFor(t, term, "reply", func(s *Screen) bool {
		for _, l := range s.Lines(s.FirstLine(), s.LastLine()) {
			if strings.HasPrefix(l, "R=") {
				return true
			}
		}
		return false
	})
	term.Do(func(s *Screen) {
		for _, l := range s.Lines(s.FirstLine(), s.LastLine()) {
			if strings.HasPrefix(l, "R=") {
				if l != `R=033[1;1R D=033[?62;22c` {
					t.Fatalf("got %q", l)
				}
			}
		}
	})
}

func TestExitAndRestart(t *testing.T) {
	term := NewTerminal("t", "T", 80, 10, 0)
	if err := term.Start(t.TempDir(), "/bin/sh", "-c", "exit 3"); err != nil {
		t.Fatal(err)
	}
	msg := term.Wait()()
	for {
		if _, ok := msg.(ExitedMsg); ok {
			break
		}
		msg = term.Wait()()
	}
	if m := msg.(ExitedMsg); m.Code != 3 {
		t.Fatalf("%+v", m)
	}
	waitFor(t, term, "exit note", func(s *Screen) bool { return findLine(s, "[process exited 3]") >= 0 })
	if err := term.Start(t.TempDir(), "/bin/sh", "-c", "echo again; sleep 5"); err != nil {
		t.Fatal(err)
	}
	defer term.Close()
	waitFor(t, term, "again", func(s *Screen) bool { return findLine(s, "again") >= 0 })
}

// A program ended by a signal says so with the signal's name, on screen
// and in the pane's tab, instead of "[process exited -1]" (issue 25 item
// 12).
func TestKilledProgramNamesTheSignal(t *testing.T) {
	p := NewPane(t.TempDir())
	p.SetSize(60, 8)
	term := NewTerminal("t", "Shell 1", 60, 7, 0)
	p.terms = []*Terminal{term}
	if err := term.Start(t.TempDir(), "/bin/sh", "-c", "echo started; kill -KILL $$"); err != nil {
		t.Fatal(err)
	}
	defer term.Close()
	for {
		if _, ok := term.Wait()().(ExitedMsg); ok {
			break
		}
	}
	if got := term.ExitNote(); got != "killed (SIGKILL)" {
		t.Errorf("ExitNote %q, want killed (SIGKILL)", got)
	}
	waitFor(t, term, "kill note", func(s *Screen) bool { return findLine(s, "[process killed (SIGKILL)]") >= 0 })
	term.Do(func(s *Screen) {
		if findLine(s, "exited -1") >= 0 {
			t.Error("the screen still says exited -1")
		}
	})
	if title := p.title(); !strings.Contains(title, "Shell 1 [killed (SIGKILL)]") {
		t.Errorf("tab %q does not name the signal", title)
	}
	if got := signalNote(syscall.SIGTERM); got != "terminated (SIGTERM)" {
		t.Errorf("SIGTERM: %q", got)
	}
}

package main

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/terminal"
)

// startTerm starts spec through the host as the agent does; the tab's
// process ends with the test.
func startTerm(t *testing.T, h agentTerms, spec agent.TerminalSpec) *agentTerm {
	t.Helper()
	term, err := h.Start(spec)
	if err != nil {
		t.Fatal(err)
	}
	at := term.(*agentTerm)
	t.Cleanup(at.t.Close)
	return at
}

func waitExit(t *testing.T, term agent.Terminal) agent.TerminalExit {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ex, err := term.Wait(ctx)
	if err != nil {
		t.Fatalf("wait_for_exit: %v", err)
	}
	return ex
}

// The agent reads a terminal's output (without the pane's exit line) and
// its exit code, the output cut to its limit at a character boundary; the
// tab is named after the tool call, else its command line.
func TestAgentTerminalOutput(t *testing.T) {
	h := agentTerms{terminal.NewAgentTerminals(0)}
	term := startTerm(t, h, agent.TerminalSpec{ID: "term-1", Name: "Run the tests", Command: "printf 'first\\nsecond é\\n'; exit 3", OutputLimit: 1000})
	if term.t.ID != "agent-term-1" || term.t.Label != "agent: Run the tests" {
		t.Fatalf("tab %s %q", term.t.ID, term.t.Label)
	}
	ex := waitExit(t, term)
	if ex.ExitCode == nil || *ex.ExitCode != 3 || ex.Signal != "" {
		t.Fatalf("exit %+v", ex)
	}
	out, truncated, exit := term.Output()
	if out != "first\nsecond é" || truncated || exit == nil || *exit.ExitCode != 3 {
		t.Fatalf("output %q truncated %v exit %+v", out, truncated, exit)
	}
	// The limit keeps the end, at a character boundary.
	cut := startTerm(t, h, agent.TerminalSpec{ID: "term-2", Command: "printf", Args: []string{"abcé"}, OutputLimit: 2})
	waitExit(t, cut)
	if out, truncated, _ := cut.Output(); out != "é" || !truncated {
		t.Fatalf("cut output %q truncated %v", out, truncated)
	}
	if cut.t.Label != "agent: printf abcé" {
		t.Fatalf("a tab without a tool call is named after its command: %q", cut.t.Label)
	}
}

// kill ends the command and keeps its output readable; release after a
// kill is fine, and a second release does nothing more.
func TestAgentTerminalKillRelease(t *testing.T) {
	h := agentTerms{terminal.NewAgentTerminals(0)}
	term := startTerm(t, h, agent.TerminalSpec{ID: "term-1", Command: "echo started; exec sleep 30"})
	select {
	case <-term.t.Done():
		t.Fatal("the command ended before the kill")
	default:
	}
	// terminal.Terminal.Wait is the sync point: it returns after the
	// screen's next update (one kept when it came before).
	for out, _, _ := term.Output(); out != "started"; out, _, _ = term.Output() {
		term.t.Wait()()
	}
	if err := term.Kill(); err != nil {
		t.Fatal(err)
	}
	if ex := waitExit(t, term); ex.Signal != "killed" || ex.ExitCode != nil {
		t.Fatalf("exit after kill %+v", ex)
	}
	if out, _, exit := term.Output(); out != "started" || exit == nil {
		t.Fatalf("after kill: %q %+v", out, exit)
	}
	if err := term.Release(); err != nil {
		t.Fatal(err)
	}
	if err := term.Release(); err != nil {
		t.Fatal(err)
	}
}

// screenText never returns more than the limit, always starts at a
// character, and reports truncation whenever it cut.
func FuzzScreenText(f *testing.F) {
	f.Add([]byte("hello\r\nworld é\r\n"), 5, false)
	f.Add([]byte("\x1b[31mred\x1b[0m\r\n[process exited 1]"), 100, true)
	f.Add([]byte(strings.Repeat("long line that wraps ", 20)), 30, false)
	f.Fuzz(func(t *testing.T, data []byte, limit int, exited bool) {
		if limit <= 0 || limit > 1<<16 {
			return
		}
		s := terminal.NewScreen(20, 5, 50)
		_, _ = s.Write(data)
		out, truncated := screenText(s, limit, exited)
		if len(out) > limit {
			t.Fatalf("%d bytes over the limit %d", len(out), limit)
		}
		if out != "" && !utf8.RuneStart(out[0]) {
			t.Fatalf("starts inside a character: %q", out)
		}
		full, _ := screenText(s, 1<<20, exited)
		if !strings.HasSuffix(full, out) {
			t.Fatalf("%q is not the end of %q", out, full)
		}
		if len(out) < len(full) && !truncated {
			t.Fatalf("cut %d of %d bytes without saying so", len(full)-len(out), len(full))
		}
	})
}

// The agent reads a terminal's output at most as far back as its limit:
// with 10,000 lines of scrollback, a 4 KiB read costs a small fraction of
// copying the whole history (the reference, measured in the same run as
// x-full-copy; 0.006 measured), and a 1 MiB read, which takes it all, under
// twice as much (1.8).
func BenchmarkAgentTerminalOutput(b *testing.B) {
	s := terminal.NewScreen(100, 40, 10000)
	line := []byte(strings.Repeat("output of a long build step ", 3) + "\r\n")
	for i := 0; i < 10040; i++ {
		_, _ = s.Write(line)
	}
	full := func() { _ = strings.Join(s.Lines(s.FirstLine(), s.LastLine()), "\n") }
	for _, limit := range []int{4 << 10, 64 << 10, 1 << 20} {
		b.Run(strconv.Itoa(limit>>10)+"KiB", func(b *testing.B) {
			start := time.Now()
			for i := 0; i < b.N; i++ {
				full()
			}
			ref := time.Since(start)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_, _ = screenText(s, limit, false)
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed())/float64(ref), "x-full-copy")
		})
	}
}

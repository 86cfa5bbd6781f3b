package ui

import (
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/chipchat/chipchat/terminal"
)

// splitCommand reads a slash command or says it is none; a name is never
// empty, never holds a space, a slash or a control, and the text starts
// with "/" and it.
func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{"/new", "/init tests please", "/etc/hosts is odd", "/", "//x", " /mode plan ", "/memory show x", "hello", "/x\ny"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		name, args, ok := splitCommand(s)
		if !ok {
			return
		}
		if name == "" || strings.ContainsAny(name, " /\n\t") {
			t.Fatalf("%q: name %q", s, name)
		}
		if !strings.HasPrefix(strings.TrimSpace(s), "/"+name) {
			t.Fatalf("%q: name %q is not its start", s, name)
		}
		if args != strings.TrimSpace(args) {
			t.Fatalf("%q: args %q not trimmed", s, args)
		}
	})
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

package tty

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/terminal"
)

// screenOf feeds a painter's output to chipchat's own emulator.
type screenOf struct {
	t   testing.TB
	p   *Painter
	vt  *terminal.Screen
	out bytes.Buffer // every byte written
}

func newScreenOf(t testing.TB, cols, rows int, profile colorprofile.Profile) *screenOf {
	s := &screenOf{t: t, p: NewPainter(cols, rows, profile), vt: terminal.NewScreen(cols, rows, 0)}
	s.write(s.p.Start())
	return s
}

func (s *screenOf) write(b []byte) {
	s.out.Write(b)
	_, _ = s.vt.Write(b)
}

func (s *screenOf) frame(content string, m Modes) []byte {
	b := s.p.Frame(content, m)
	s.write(b)
	return b
}

// text is the emulator's screen, a line per row, trailing blanks cut.
func (s *screenOf) text() []string {
	lines := s.vt.Lines(s.vt.ScreenTop(), s.vt.LastLine())
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}

// want is what a frame must leave on the screen: its lines without
// styles, cut to the width, blanks for the missing ones.
func want(content string, cols, rows int) []string {
	lines := strings.Split(content, "\n")
	out := make([]string, rows)
	for i := range out {
		if i < len(lines) {
			out[i] = strings.TrimRight(ansi.Strip(ansi.Truncate(lines[i], cols, "")), " ")
		}
	}
	return out
}

func (s *screenOf) check(content string) {
	s.t.Helper()
	cols, rows := s.p.Size()
	got, w := s.text(), want(content, cols, rows)
	if strings.Join(got, "\n") != strings.Join(w, "\n") {
		s.t.Fatalf("screen:\n%s\nwant:\n%s\nbytes: %q", strings.Join(got, "\n"), strings.Join(w, "\n"), s.out.String())
	}
}

func TestPainterStartTakesTheScreenAndStopGivesItBack(t *testing.T) {
	s := newScreenOf(t, 20, 4, colorprofile.TrueColor)
	if !s.vt.AltScreen() || !s.vt.BracketedPaste() {
		t.Fatalf("after Start: alt %v, bracketed paste %v", s.vt.AltScreen(), s.vt.BracketedPaste())
	}
	if _, _, visible := s.vt.Cursor(); visible {
		t.Fatal("the cursor shows")
	}
	s.frame("hello", Modes{Mouse: true, Title: "chipchat"})
	if mode, sgr := s.vt.MouseMode(); mode != 1002 || !sgr {
		t.Fatalf("mouse mode %d, sgr %v", mode, sgr)
	}
	if s.vt.Title() != "chipchat" {
		t.Fatalf("title %q", s.vt.Title())
	}
	s.write(s.p.Stop())
	if s.vt.AltScreen() || s.vt.BracketedPaste() {
		t.Fatalf("after Stop: alt %v, bracketed paste %v", s.vt.AltScreen(), s.vt.BracketedPaste())
	}
	if mode, _ := s.vt.MouseMode(); mode != 0 {
		t.Fatalf("mouse mode %d after Stop", mode)
	}
	if _, _, visible := s.vt.Cursor(); !visible {
		t.Fatal("the cursor is still hidden")
	}
	for _, seq := range []string{ansi.PopKittyKeyboard(1), ansi.ResetModifyOtherKeys, ansi.SetModeAutoWrap} {
		if !strings.Contains(s.out.String(), seq) {
			t.Errorf("Stop does not write %q", seq)
		}
	}
}

// A frame writes the lines that changed, and nothing when none did.
func TestPainterWritesOnlyTheChangedLines(t *testing.T) {
	s := newScreenOf(t, 40, 6, colorprofile.TrueColor)
	lines := []string{"header", "first line", "\x1b[1msecond\x1b[m line", "third line", "", "footer"}
	s.frame(strings.Join(lines, "\n"), Modes{})
	s.check(strings.Join(lines, "\n"))
	if b := s.frame(strings.Join(lines, "\n"), Modes{}); b != nil {
		t.Fatalf("the same frame again wrote %q", b)
	}
	lines[3] = "third line, edited"
	b := s.frame(strings.Join(lines, "\n"), Modes{})
	s.check(strings.Join(lines, "\n"))
	for _, l := range []string{"header", "first line", "second", "footer"} {
		if bytes.Contains(b, []byte(l)) {
			t.Errorf("an unchanged line %q was written again: %q", l, b)
		}
	}
	if !bytes.HasPrefix(b, []byte(ansi.SetModeSynchronizedOutput)) || !bytes.HasSuffix(b, []byte(ansi.ResetModeSynchronizedOutput)) {
		t.Errorf("the frame is not one synchronized update: %q", b)
	}
	// A shorter line leaves nothing of the longer one behind.
	lines[3] = "3"
	s.frame(strings.Join(lines, "\n"), Modes{})
	s.check(strings.Join(lines, "\n"))
}

// Lines as wide as the screen keep their last cell; wider ones are cut,
// never wrapped over the next line; wide characters and styles survive.
func TestPainterFullAndOverlongLines(t *testing.T) {
	s := newScreenOf(t, 10, 3, colorprofile.TrueColor)
	c := "0123456789\n0123456789ABCDEF\n日本語のテキスト"
	s.frame(c, Modes{})
	s.check(c)
	c = "\x1b[31m012345678\x1b[m9\nxy\n日本"
	s.frame(c, Modes{})
	s.check(c)
	if st := s.vt.CellAt(0, s.vt.ScreenTop()).Style; st.Fg == 0 {
		t.Fatalf("the red went: %+v", st)
	}
}

// A resize repaints every line at the new size; Invalidate repaints.
func TestPainterResizeAndInvalidateRepaint(t *testing.T) {
	s := newScreenOf(t, 20, 4, colorprofile.TrueColor)
	c := "a\nb\nc\nd"
	s.frame(c, Modes{})
	s.p.Invalidate()
	_, _ = s.vt.Write([]byte("\x1b[2J")) // another program cleared it
	s.frame(c, Modes{})
	s.check(c)
	s.p.Resize(30, 6)
	s.vt = terminal.NewScreen(30, 6, 0)
	_, _ = s.vt.Write(s.p.Start())
	c = "a\nb\nc\nd\ne\nf"
	s.frame(c, Modes{})
	s.check(c)
}

// Below TrueColor the colours are converted, the text and the cursor
// movement kept.
func TestPainterConvertsColoursToTheProfile(t *testing.T) {
	for _, prof := range []colorprofile.Profile{colorprofile.ANSI256, colorprofile.ANSI, colorprofile.ASCII, colorprofile.NoTTY} {
		s := newScreenOf(t, 30, 3, prof)
		c := "\x1b[38;2;255;0;0mred\x1b[m text\nplain\n\x1b[1mbold\x1b[m"
		b := s.frame(c, Modes{})
		s.check(c)
		if bytes.Contains(b, []byte("38;2;")) {
			t.Errorf("%v: a true colour was written: %q", prof, b)
		}
		if prof >= colorprofile.ANSI && s.vt.CellAt(0, s.vt.ScreenTop()).Style.Fg == 0 {
			t.Errorf("%v: the red went", prof)
		}
	}
}

// randomFrame is a frame of up to rows+2 lines, each a few words, some
// styled, some wide, some longer than the screen.
func randomFrame(r *rand.Rand, cols, rows int) string {
	words := []string{"a", "bb", "ccc", "日本", "\x1b[1mbold\x1b[m", "\x1b[38;2;1;2;3mrgb\x1b[m", "\x1b[41m bg \x1b[m", "é", strings.Repeat("x", cols)}
	n := r.IntN(rows + 3)
	lines := make([]string, n)
	for i := range lines {
		var b strings.Builder
		for k := r.IntN(6); k > 0; k-- {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteByte(' ')
		}
		lines[i] = b.String()
	}
	return strings.Join(lines, "\n")
}

// Any sequence of frames leaves exactly the last one on the screen.
func TestPainterRandomFrames(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for run := 0; run < 50; run++ {
		cols, rows := 5+r.IntN(40), 1+r.IntN(12)
		s := newScreenOf(t, cols, rows, colorprofile.TrueColor)
		for f := 0; f < 30; f++ {
			c := randomFrame(r, cols, rows)
			s.frame(c, Modes{})
			s.check(c)
		}
	}
}

func FuzzPainter(f *testing.F) {
	f.Add("a\nb\nc", "a\nB\n", uint8(10), uint8(3))
	f.Add("日本語のテキスト\nxx", "\x1b[1m0123456789AB\x1b[m", uint8(8), uint8(2))
	f.Fuzz(func(t *testing.T, first, second string, cols, rows uint8) {
		c, r := 1+int(cols%60), 1+int(rows%20)
		// The app's frames are printable text and SGR: drop the rest, as
		// the app's views do (text from outside is stripped before it is
		// drawn).
		first, second = printable(first), printable(second)
		s := newScreenOf(t, c, r, colorprofile.TrueColor)
		for _, content := range []string{first, second, first} {
			s.frame(content, Modes{})
			s.check(content)
		}
	})
}

// printable keeps text and SGR sequences only, and characters whose
// width the emulator and the app agree on (the emulator's own tests own
// the rest).
func printable(s string) string {
	var b strings.Builder
	for _, r := range ansi.Strip(s) {
		switch {
		case r == '\n', r >= ' ' && r < 0x7f, r >= 0xc0 && r < 0x250, r >= 0x3040 && r < 0x30a0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// benchLines is n styled lines, each its own.
func benchLines(n int) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("\x1b[38;2;200;200;200mline %d of the transcript, with some words in it\x1b[m", i)
	}
	return lines
}

func BenchmarkPainterOneLineChanged(b *testing.B) {
	lines := benchLines(40)
	p := NewPainter(120, 40, colorprofile.TrueColor)
	p.Start()
	p.Frame(strings.Join(lines, "\n"), Modes{})
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		lines[38] = fmt.Sprintf("> typed %d", i)
		p.Frame(strings.Join(lines, "\n"), Modes{})
	}
}

// A screenful scrolled by a line is one scroll and one line written, up
// or down, inside the rows that moved.
func TestPainterScrollsInsteadOfRewriting(t *testing.T) {
	s := newScreenOf(t, 60, 12, colorprofile.ANSI256)
	all := make([]string, 40)
	for i := range all {
		all[i] = fmt.Sprintf("\x1b[38;2;10;200;30mtranscript line %02d\x1b[m with words", i)
	}
	view := func(top int) string {
		lines := append([]string{"header"}, all[top:top+9]...)
		return strings.Join(append(lines, "composer", "footer"), "\n")
	}
	s.frame(view(0), Modes{})
	s.check(view(0))
	for _, c := range []struct {
		top, fresh int // the first line shown, the lines that come into view
		seq        string
	}{{1, 1, "\x1b[1S"}, {4, 3, "\x1b[3S"}, {3, 1, "\x1b[1T"}} {
		b := s.frame(view(c.top), Modes{})
		s.check(view(c.top))
		if !bytes.Contains(b, []byte(c.seq)) {
			t.Errorf("top %d: no scroll %q in %q", c.top, c.seq, b)
		}
		if n := bytes.Count(b, []byte("transcript line")); n != c.fresh {
			t.Errorf("top %d: %d lines written for a scroll: %q", c.top, n, b)
		}
		if bytes.Contains(b, []byte("header")) || bytes.Contains(b, []byte("footer")) {
			t.Errorf("top %d: a line that did not move was written: %q", c.top, b)
		}
	}
}

// Frames that scroll a random part of the last one by a random amount,
// with lines changed around it, leave exactly the frame on the screen.
func TestPainterRandomScrolls(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for run := 0; run < 200; run++ {
		cols, rows := 10+r.IntN(30), 4+r.IntN(20)
		s := newScreenOf(t, cols, rows, colorprofile.TrueColor)
		lines := make([]string, rows)
		fresh := 0
		line := func() string {
			fresh++
			if r.IntN(8) == 0 {
				return ""
			}
			return fmt.Sprintf("\x1b[3%dml%d\x1b[m %s", fresh%8, fresh, strings.Repeat("w", r.IntN(cols)))
		}
		for i := range lines {
			lines[i] = line()
		}
		for f := 0; f < 20; f++ {
			a := r.IntN(rows)
			b := a + r.IntN(rows-a)
			k := r.IntN(b-a+1) - (b-a)/2
			region := slices.Clone(lines[a : b+1])
			for i := range region {
				src := i + k
				if src >= 0 && src < len(region) {
					lines[a+i] = region[src]
				} else {
					lines[a+i] = line()
				}
			}
			if r.IntN(3) == 0 {
				lines[r.IntN(rows)] = line()
			}
			c := strings.Join(lines, "\n")
			s.frame(c, Modes{})
			s.check(c)
		}
	}
}

func BenchmarkPainterScrollByOne(b *testing.B) {
	all := benchLines(4000)
	p := NewPainter(120, 40, colorprofile.TrueColor)
	p.Start()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		top := i % (len(all) - 40)
		p.Frame(strings.Join(all[top:top+40], "\n"), Modes{})
	}
}

// Converting a line sequence by sequence gives what colorprofile's
// Writer gives for the whole line.
func FuzzConvert(f *testing.F) {
	f.Add("\x1b[38;2;255;0;0mred\x1b[m \x1b[1;48;5;200mbg\x1b[0m")
	f.Add("\x1b]8;;https://x\x1b\\link\x1b]8;;\x1b\\ \x1b[?25l \x1b[3H\x1b[38:2::1:2:3mx")
	f.Add("\x1b[\x1b[31\x1b[31;m\x1b")
	f.Fuzz(func(t *testing.T, line string) {
		for _, prof := range []colorprofile.Profile{colorprofile.ANSI256, colorprofile.ANSI, colorprofile.ASCII} {
			p := NewPainter(80, 24, prof)
			got := p.convert(line) // never panics
			want, ok := writerOutput(line, prof)
			if ok && got != want {
				t.Fatalf("%v: %q\nconvert:  %q\nWriter:   %q", prof, line, got, want)
			}
		}
	})
}

// writerOutput is colorprofile's Writer on the whole line; ok false when
// it panics (v0.4.3 on "\x1b[38m"), where convert drops the sequence.
func writerOutput(line string, prof colorprofile.Profile) (out string, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	var b bytes.Buffer
	w := colorprofile.Writer{Forward: &b, Profile: prof}
	_, _ = w.WriteString(line)
	return b.String(), true
}

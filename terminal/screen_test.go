package terminal

import (
	"strings"
	"testing"
)

func feed(s *Screen, str string) { s.Write([]byte(str)) }

func screenText(s *Screen) []string { return s.Lines(s.ScreenTop(), s.LastLine()) }

func TestPrintAndWrap(t *testing.T) {
	s := NewScreen(5, 3, 100)
	feed(s, "abcde")
	if x, y, _ := s.Cursor(); x != 4 || y != 0 {
		t.Fatalf("pending wrap cursor %d,%d", x, y)
	}
	feed(s, "f")
	got := screenText(s)
	if got[0] != "abcde" || got[1] != "f" {
		t.Fatalf("%q", got)
	}
	if !s.LineWrapped(0) {
		t.Fatal("line 0 should be wrapped")
	}
	// CR at pending wrap stays on the line
	s = NewScreen(5, 3, 100)
	feed(s, "abcde\r\nx")
	if got := screenText(s); got[0] != "abcde" || got[1] != "x" {
		t.Fatalf("%q", got)
	}
}

func TestCursorMoves(t *testing.T) {
	s := NewScreen(10, 5, 0)
	feed(s, "\x1b[3;4H")
	if x, y, _ := s.Cursor(); x != 3 || y != 2 {
		t.Fatalf("CUP %d,%d", x, y)
	}
	feed(s, "\x1b[2A\x1b[5C")
	if x, y, _ := s.Cursor(); x != 8 || y != 0 {
		t.Fatalf("CUU/CUF %d,%d", x, y)
	}
	feed(s, "\x1b[99B\x1b[99D")
	if x, y, _ := s.Cursor(); x != 0 || y != 4 {
		t.Fatalf("clamp %d,%d", x, y)
	}
	feed(s, "\x1b[7G\x1b[2d")
	if x, y, _ := s.Cursor(); x != 6 || y != 1 {
		t.Fatalf("CHA/VPA %d,%d", x, y)
	}
	feed(s, "\x1b[2E")
	if x, y, _ := s.Cursor(); x != 0 || y != 3 {
		t.Fatalf("CNL %d,%d", x, y)
	}
	feed(s, "\x1b[5;5f\x1b[F")
	if x, y, _ := s.Cursor(); x != 0 || y != 3 {
		t.Fatalf("HVP/CPL %d,%d", x, y)
	}
	feed(s, "ab\tc\x08\x08d")
	if got := screenText(s)[3]; got != "ab     dc" {
		t.Fatalf("tab/bs %q", got)
	}
}

func TestWideChars(t *testing.T) {
	s := NewScreen(5, 2, 10)
	feed(s, "a世界")
	got := screenText(s)
	if got[0] != "a世界" {
		t.Fatalf("%q", got)
	}
	// a wide char that does not fit wraps
	s = NewScreen(5, 2, 10)
	feed(s, "abcd世")
	got = screenText(s)
	if got[0] != "abcd" || got[1] != "世" {
		t.Fatalf("%q", got)
	}
	// overwriting half of a wide char clears the other half
	s = NewScreen(5, 2, 10)
	feed(s, "世界\x1b[1;2Hx")
	if got := screenText(s)[0]; got != " x界" {
		t.Fatalf("%q", got)
	}
	// combining marks attach
	s = NewScreen(5, 2, 10)
	feed(s, "e\u0301x")
	if got := screenText(s)[0]; got != "e\u0301x" {
		t.Fatalf("%q", got)
	}
}

func TestErase(t *testing.T) {
	s := NewScreen(6, 3, 0)
	feed(s, "abcdef\r\nghijkl\r\nmnopqr\x1b[2;3H\x1b[K")
	if got := screenText(s); got[1] != "gh" || got[0] != "abcdef" {
		t.Fatalf("EL0 %q", got)
	}
	feed(s, "\x1b[1;3H\x1b[1K")
	if got := screenText(s)[0]; got != "   def" {
		t.Fatalf("EL1 %q", got)
	}
	feed(s, "\x1b[3;2H\x1b[2X")
	if got := screenText(s)[2]; got != "m  pqr" {
		t.Fatalf("ECH %q", got)
	}
	feed(s, "\x1b[3;2H\x1b[2P")
	if got := screenText(s)[2]; got != "mpqr" {
		t.Fatalf("DCH %q", got)
	}
	feed(s, "\x1b[3;2H\x1b[2@")
	if got := screenText(s)[2]; got != "m  pqr" {
		t.Fatalf("ICH %q", got)
	}
	feed(s, "\x1b[2;1H\x1b[J")
	if got := screenText(s); got[1] != "" || got[2] != "" || got[0] != "   def" {
		t.Fatalf("ED0 %q", got)
	}
	feed(s, "\x1b[2J")
	if got := strings.Join(screenText(s), ""); got != "" {
		t.Fatalf("ED2 %q", got)
	}
}

func TestScrollRegionAndLines(t *testing.T) {
	s := NewScreen(4, 5, 100)
	feed(s, "1\r\n2\r\n3\r\n4\r\n5")
	feed(s, "\x1b[2;4r")   // region rows 2..4
	feed(s, "\x1b[4;1H\n") // LF at bottom of region scrolls it
	got := screenText(s)
	want := []string{"1", "3", "4", "", "5"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("region scroll %q", got)
	}
	if s.FirstLine() != 0 || s.ScreenTop() != 0 {
		t.Fatal("region scroll must not feed scrollback")
	}
	feed(s, "\x1b[2;1H\x1bM") // RI at top of region
	got = screenText(s)
	want = []string{"1", "", "3", "4", "5"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("RI %q", got)
	}
	feed(s, "\x1b[3;1H\x1b[L")
	got = screenText(s)
	want = []string{"1", "", "", "3", "5"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("IL %q", got)
	}
	feed(s, "\x1b[2;1H\x1b[2M")
	got = screenText(s)
	want = []string{"1", "3", "", "", "5"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("DL %q", got)
	}
	feed(s, "\x1b[r\x1b[S")
	if s.ScreenTop() != 1 || s.Lines(0, 0)[0] != "1" {
		t.Fatalf("SU full screen feeds scrollback: top %d", s.ScreenTop())
	}
	feed(s, "\x1b[T")
	if got := screenText(s); got[0] != "" || got[1] != "3" {
		t.Fatalf("SD %q", got)
	}
}

func TestScrollbackNumbering(t *testing.T) {
	s := NewScreen(10, 3, 5)
	for i := 0; i < 20; i++ {
		feed(s, "line"+itoa(i)+"\r\n")
	}
	// 21 lines written (last empty); screen holds lines 18..20
	if s.ScreenTop() != 18 || s.FirstLine() != 13 {
		t.Fatalf("top %d first %d", s.ScreenTop(), s.FirstLine())
	}
	for n := s.FirstLine(); n < 20; n++ {
		if got := s.Lines(n, n)[0]; got != "line"+itoa(int(n)) {
			t.Fatalf("line %d = %q", n, got)
		}
	}
}

func itoa(i int) string {
	return strings.TrimSpace(strings.Repeat(" ", 0) + func() string { return fmtInt(i) }())
}

func fmtInt(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for i > 0 {
		b = append([]byte{byte('0' + i%10)}, b...)
		i /= 10
	}
	return string(b)
}

func TestAltScreen(t *testing.T) {
	s := NewScreen(10, 3, 100)
	feed(s, "main\x1b[?1049h")
	if !s.AltScreen() {
		t.Fatal("not in alt")
	}
	feed(s, "alt1\r\nalt2\r\nalt3\r\nalt4\r\n")
	if s.ScreenTop() != 0 || s.FirstLine() != 0 {
		t.Fatal("alt screen fed the scrollback")
	}
	feed(s, "\x1b[?1049l")
	if s.AltScreen() {
		t.Fatal("still alt")
	}
	if got := screenText(s)[0]; got != "main" {
		t.Fatalf("main screen lost: %q", got)
	}
	if x, y, _ := s.Cursor(); x != 4 || y != 0 {
		t.Fatalf("cursor not restored %d,%d", x, y)
	}
	feed(s, "\x1b[?47hX\x1b[?47l")
	if got := screenText(s)[0]; got != "main" {
		t.Fatalf("47: %q", got)
	}
}

func TestSGR(t *testing.T) {
	s := NewScreen(20, 2, 0)
	feed(s, "\x1b[1;31mA\x1b[0;38;5;200;48;2;1;2;3mB\x1b[38:2::10:20:30;4;7mC\x1b[22;24;27;39;49mD\x1b[3;2;94;101mE")
	cases := []Style{
		{Fg: PaletteColor(1), Attr: AttrBold},
		{Fg: PaletteColor(200), Bg: RGBColor(1, 2, 3)},
		{Fg: RGBColor(10, 20, 30), Bg: RGBColor(1, 2, 3), Attr: AttrUnderline | AttrReverse},
		{},
		{Fg: PaletteColor(12), Bg: PaletteColor(9), Attr: AttrItalic | AttrFaint},
	}
	for i, want := range cases {
		if got := s.CellAt(i, 0).Style; got != want {
			t.Errorf("cell %d style %+v want %+v", i, got, want)
		}
	}
	r := s.Render(0, nil)[0]
	if !strings.Contains(r, "\x1b[0;1;31mA") || !strings.Contains(r, "38;5;200") {
		t.Fatalf("render %q", r)
	}
}

func TestReplies(t *testing.T) {
	s := NewScreen(20, 5, 0)
	feed(s, "\x1b[3;7H\x1b[6n\x1b[5n\x1b[c\x1b[0c\x1b[>c")
	got := string(s.Replies())
	want := "\x1b[3;7R\x1b[0n\x1b[?62;22c\x1b[?62;22c\x1b[>1;10;0c"
	if got != want {
		t.Fatalf("replies %q want %q", got, want)
	}
	if len(s.Replies()) != 0 {
		t.Fatal("replies not cleared")
	}
}

func TestModesTitleMarks(t *testing.T) {
	s := NewScreen(20, 5, 0)
	feed(s, "\x1b[?25l\x1b[?2004h\x1b[?1h\x1b]0;hi\x07there\x1b\\\x1b]2;t\x01\u202ex\x07")
	if _, _, vis := s.Cursor(); vis {
		t.Fatal("cursor visible")
	}
	if !s.BracketedPaste() || !s.AppCursorKeys() {
		t.Fatal("modes")
	}
	if s.Title() != "tx" {
		t.Fatalf("title %q", s.Title())
	}
	feed(s, "\x1b]133;A\x07$ \x1b]133;B\x07ls\r\n\x1b]133;C\x07out\r\n\x1b]133;D;3\x07")
	m := s.Marks()
	if len(m) != 4 || m[0].Line != 0 || m[2].Line != 1 || m[3].Line != 2 || m[3].Code != 3 {
		t.Fatalf("marks %+v", m)
	}
	if p := s.Prompts(); len(p) != 1 || p[0] != 0 {
		t.Fatalf("prompts %v", p)
	}
	// DCS/APC strings are skipped
	feed(s, "\x1bPq#0;1;2\x1b\\\x1b_Gabc\x1b\\Z")
	if got := screenText(s)[2]; got != "Z" {
		t.Fatalf("string skip %q", got)
	}
}

func TestDECSCAndCharset(t *testing.T) {
	s := NewScreen(10, 3, 0)
	feed(s, "\x1b[2;3H\x1b[31m\x1b7\x1b[H\x1b[0mx\x1b8y")
	if s.CellAt(2, 1).Rune != 'y' || s.CellAt(2, 1).Style.Fg != PaletteColor(1) {
		t.Fatal("DECRC")
	}
	feed(s, "\x1b[3;1H\x1b(0qx\x1b(Bq")
	if got := screenText(s)[2]; got != "─│q" {
		t.Fatalf("charset %q", got)
	}
}

func TestResize(t *testing.T) {
	s := NewScreen(10, 5, 100)
	feed(s, "a\r\nb\r\nc\r\nd\r\ne")
	s.Resize(6, 3)
	if got := screenText(s); strings.Join(got, ",") != "c,d,e" {
		t.Fatalf("%q", got)
	}
	if s.Lines(0, 0)[0] != "a" || s.ScreenTop() != 2 {
		t.Fatal("shrink should push to scrollback")
	}
	s.Resize(20, 6)
	feed(s, "\x1b[6;20Hz")
	if s.CellAt(19, s.ScreenTop()+5).Rune != 'z' {
		t.Fatal("grown screen")
	}
}

package terminal

import "testing"

func FuzzScreen(f *testing.F) {
	for _, seed := range []string{
		"hello\r\nworld", "\x1b[2;3r\x1b[5;1H\n\n\x1bM", "世界\x1b[1;2Hx\x1b[3@\x1b[2P",
		"\x1b[?1049h\x1b[10;10Habc\x1b[?1049l", "\x1b[38:2::1:2:3;48;5;9m\x1b[6n\x1b[c",
		"\x1b]133;A\x07$ \x1b]133;C\x07", "\x1b[?6h\x1b[2;4r\x1b[10Bx\x1b[?7lxxxxxxxxxxxxxxxxxx",
		"e\u0301\u200d\x1b[b\x1b[999b", "\x1bP1$r\x1b\\\x1b(0lqk",
	} {
		f.Add([]byte(seed), uint8(10), uint8(5))
	}
	f.Fuzz(func(t *testing.T, data []byte, c, r uint8) {
		cols, rows := int(c%40)+1, int(r%20)+1
		s := NewScreen(cols, rows, 50)
		half := len(data) / 2
		s.Write(data[:half])
		check(t, s)
		s.Resize(int(r%30)+1, int(c%15)+1)
		check(t, s)
		s.Write(data[half:])
		check(t, s)
		s.Render(s.FirstLine(), nil)
		s.Lines(s.FirstLine(), s.LastLine())
	})
}

func check(t *testing.T, s *Screen) {
	x, y, _ := s.Cursor()
	if x < 0 || x >= s.cols || y < 0 || y >= s.rows {
		t.Fatalf("cursor %d,%d outside %dx%d", x, y, s.cols, s.rows)
	}
	if s.FirstLine() < 0 || s.sbLen > s.sbMax {
		t.Fatalf("scrollback %d/%d first %d", s.sbLen, s.sbMax, s.FirstLine())
	}
	for n := s.ScreenTop(); n <= s.LastLine(); n++ {
		l := s.line(n)
		if len(l.Cells) != s.cols {
			t.Fatalf("row %d has %d cells, cols %d", n, len(l.Cells), s.cols)
		}
		w := 0
		for i, c := range l.Cells {
			if c.Width == 2 && (i+1 >= len(l.Cells) || l.Cells[i+1].Width != 0) {
				t.Fatalf("wide cell at %d without continuation", i)
			}
			if c.Width == 0 && (i == 0 || l.Cells[i-1].Width != 2) {
				t.Fatalf("orphan continuation at %d on row %d", i, n)
			}
			w += int(c.Width)
		}
		if w > s.cols {
			t.Fatalf("row width %d > %d", w, s.cols)
		}
	}
}

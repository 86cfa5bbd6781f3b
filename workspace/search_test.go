package workspace

import (
	"testing"
	"unicode"

	"github.com/chipchat/chipchat/store"
)

func TestMarkedLine(t *testing.T) {
	on, off := store.MarkOn, store.MarkOff
	line, marks := markedLine("…the\n\n" + on + "parser" + off + " fails  on\t" + on + "tabs" + off + "\x1b[31m\n")
	if line != "…the parser fails on tabs [31m" {
		t.Fatalf("line %q", line)
	}
	if len(marks) != 2 || line[marks[0][0]:marks[0][1]] != "parser" || line[marks[1][0]:marks[1][1]] != "tabs" {
		t.Fatalf("marks %v in %q", marks, line)
	}
}

func FuzzMarkedLine(f *testing.F) {
	for _, s := range []string{"a\x02b\x03c", "\x02\x03", "\x03x\x02", "a\n\x02 b \x03 c", "\x02ü\x1b\x03"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		line, marks := markedLine(s)
		last := 0
		for _, m := range marks {
			if m[0] < last || m[1] < m[0] || m[1] > len(line) {
				t.Fatalf("marks %v of %q (%q)", marks, line, s)
			}
			last = m[1]
		}
		for _, r := range line {
			if unicode.IsControl(r) {
				t.Fatalf("control %q in %q", r, line)
			}
		}
	})
}

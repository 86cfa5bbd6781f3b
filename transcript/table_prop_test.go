package transcript

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// tableCell is one generated cell: its Markdown and the characters a
// reader must find of it, in order (markers and spaces aside).
type tableCell struct{ src, core string }

func randomCell(r *rand.Rand) tableCell {
	word := func() string {
		const letters = "abcdefghijklmnopqrstuvwxyz0123456789._"
		n := 1 + r.IntN(12)
		b := make([]byte, n)
		for i := range b {
			b[i] = letters[r.IntN(len(letters))]
		}
		return string(b)
	}
	var src, core []string
	for range 1 + r.IntN(3) {
		w := word()
		k := r.IntN(6)
		if k != 0 { // outside code, "_" may be emphasis
			w = strings.ReplaceAll(w, "_", "-")
		}
		switch k {
		case 0:
			src = append(src, "`"+w+"`")
		case 1:
			src = append(src, "**"+w+"**")
		case 2:
			w = strings.Trim(w, "._")
			if w == "" {
				w = "x"
			}
			src = append(src, "*"+w+"*")
		case 3:
			w = "漢字" + w
			src = append(src, w)
		default:
			src = append(src, w)
		}
		core = append(core, w)
	}
	return tableCell{src: strings.Join(src, " "), core: strings.Join(core, "")}
}

// columnsText is each column's text as drawn, top to bottom, without
// spaces: the columns are cut at the separators of the delimiter row.
func columnsText(t *testing.T, lines []string) []string {
	var plain []string
	delim := -1
	for _, l := range lines {
		p := ansi.Strip(l)
		if q := strings.TrimSpace(p); delim < 0 && q != "" && strings.Trim(q, "─┼-|") == "" {
			delim = len(plain)
		}
		plain = append(plain, p)
	}
	if delim < 0 {
		return nil // drawn as a list
	}
	var cuts []int
	for k, r := range []rune(plain[delim]) {
		if r == '┼' || r == '|' {
			cuts = append(cuts, k)
		}
	}
	cols := make([]strings.Builder, len(cuts)+1)
	for i, p := range plain {
		if i == delim || strings.HasPrefix(strings.TrimSpace(p), "[") {
			continue // the delimiter row, a footnote
		}
		lo := 0
		for j := range cols {
			hi := 1 << 20
			if j < len(cuts) {
				hi = cuts[j]
			}
			for _, r := range ansi.Cut(p, lo, hi) {
				if !unicode.IsSpace(r) {
					cols[j].WriteRune(r)
				}
			}
			lo = hi + 1
		}
	}
	out := make([]string, len(cols))
	for j := range cols {
		out[j] = cols[j].String()
	}
	return out
}

// subsequence reports whether every rune of want is in s, in order.
func subsequence(want, s string) bool {
	rs := []rune(s)
	k := 0
	for _, w := range want {
		for k < len(rs) && rs[k] != w {
			k++
		}
		if k == len(rs) {
			return false
		}
		k++
	}
	return true
}

// Tables never lose text: random tables (inline code, emphasis, wide
// runes) at random widths, with and without colour, show every cell's
// characters in its column (wrapped when the screen is narrow), and no
// line is wider than the screen.
func TestTablesKeepEveryCell(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 7))
	models := map[string]*Model{"colour": New(nil), "no colour": newTest(80, 20)}
	lists := 0
	for name, m := range models {
		for n := range 150 {
			cols, rows := 1+r.IntN(5), 1+r.IntN(6)
			cw := 12*cols + r.IntN(140)
			m.SetSize(cw+2, 40)
			grid := make([][]tableCell, rows+1)
			var src strings.Builder
			for i := range grid {
				grid[i] = make([]tableCell, cols)
				src.WriteString("|")
				for j := range grid[i] {
					grid[i][j] = randomCell(r)
					src.WriteString(" " + grid[i][j].src + " |")
				}
				src.WriteString("\n")
				if i == 0 {
					src.WriteString(strings.Repeat("|---", cols) + "|\n")
				}
			}
			lines := m.markdown(src.String(), cw)
			for _, l := range lines {
				if w := ansi.StringWidth(l); w > cw {
					t.Fatalf("%s #%d: a line %d wide at %d: %q", name, n, w, cw, ansi.Strip(l))
				}
			}
			got := columnsText(t, lines)
			if got == nil { // far too narrow: a list of "header: cell" lines
				var want strings.Builder
				for i := 1; i < len(grid); i++ {
					for j := range cols {
						want.WriteString(grid[0][j].core + grid[i][j].core)
					}
				}
				all := strings.Join(strings.Fields(ansi.Strip(strings.Join(lines, ""))), "")
				if !subsequence(want.String(), all) {
					t.Fatalf("%s #%d at width %d: the table as a list lost text: want %q in %q", name, n, cw, want.String(), all)
				}
				lists++
				continue
			}
			if len(got) != cols {
				t.Fatalf("%s #%d: %d columns drawn, want %d:\n%s", name, n, len(got), cols, ansi.Strip(strings.Join(lines, "\n")))
			}
			natural := 0
			for _, l := range m.markdown(src.String(), tableWide) {
				natural = max(natural, ansi.StringWidth(strings.TrimRight(ansi.Strip(l), " ")))
			}
			narrow := natural > cw // then a cell may be cut, with "…"
			for j := range cols {
				if narrow && strings.Contains(got[j], "…") {
					continue
				}
				var want strings.Builder
				for i := range grid {
					want.WriteString(grid[i][j].core)
				}
				if !subsequence(want.String(), got[j]) {
					t.Fatalf("%s #%d at width %d: column %d lost text: want %q in %q\nsource:\n%s\ndrawn:\n%s", name, n, cw, j, want.String(), got[j],
						src.String(), ansi.Strip(strings.Join(lines, "\n")))
				}
			}
		}
	}
	t.Logf("%d of the tables drawn as lists", lists)
}

// The table of issue 22: inline code in the first column, "timeout
// 384.1" the widest cell of the last, at 120 columns.
func TestTableInlineCodeKeepsLastColumn(t *testing.T) {
	src := "| case | a | b | result |\n|---|---|---|---|\n| `case_384_1` | x | y | timeout 384.1 |\n| `case_2` | xx | yy | ok |\n"
	for _, m := range []*Model{New(nil), newTest(120, 20)} {
		m.SetSize(122, 20)
		v := ansi.Strip(strings.Join(m.markdown(src, 120), "\n"))
		if !strings.Contains(v, "timeout 384.1") {
			t.Errorf("the last column is cut:\n%s", v)
		}
		for _, l := range strings.Split(v, "\n") {
			if strings.Contains(l, "───") && ansi.StringWidth(strings.TrimSpace(l)) > 60 {
				t.Errorf("the table is stretched: %q", l)
			}
		}
	}
}

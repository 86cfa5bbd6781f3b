package transcript

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/message"
)

// The words a text selection covers are highlighted where the reply draws
// them (issue 25 item 14), not only marked in the gutter and shown in the
// box. The selection is of the Markdown source; a block's drawn lines hold
// its words as shownWords has them, in order: each word of the block is
// looked for from where the last one was found (a word drawn otherwise, a
// list bullet or a table's pipes, is skipped), and the selected ones are
// drawn in reverse video. Only the covered blocks on screen are walked.

const (
	selOn  = "\x1b[7m"
	selOff = "\x1b[27m"
)

// highlightSelection is ls (the drawn lines of part q, a covered block)
// with the selected words in reverse video; ls itself is not changed.
func (m *Model) highlightSelection(q ppos, ls []string) []string {
	s := &m.sel2
	if !s.active || s.diff || len(s.words) == 0 {
		return ls
	}
	iv := m.views(q.i)[q.it]
	if iv.it.Kind != message.ItemText {
		return ls
	}
	bl := m.textOf(q.i, q.it).part(q.k)
	if bl == nil {
		return ls
	}
	lo, hi := s.wordRange()
	type span struct{ from, to int } // cells
	marks := make([][]span, len(ls))
	plain := make([]string, len(ls))
	for k, l := range ls {
		plain[k] = ansi.Strip(l)
	}
	line, at := 0, 0 // where the next word is looked for: line, byte in it
	for wi, w := range s.words {
		if w.item != q.it || w.hi <= bl.lo || w.lo >= max(bl.hi, bl.lo+1) {
			continue
		}
		shown := shownWords(iv.it.Body().Slice(w.lo, w.hi))
		if shown == "" {
			continue
		}
		for l := line; l < len(plain); l++ {
			from := 0
			if l == line {
				from = at
			}
			j := strings.Index(plain[l][from:], shown)
			if j < 0 {
				continue
			}
			j += from
			if wi >= lo && wi <= hi {
				a := ansi.StringWidth(plain[l][:j])
				marks[l] = append(marks[l], span{a, a + ansi.StringWidth(shown)})
			}
			line, at = l, j+len(shown)
			break
		}
	}
	var out []string
	for k, l := range ls {
		if len(marks[k]) == 0 {
			if out != nil {
				out = append(out, l)
			}
			continue
		}
		if out == nil {
			out = append(make([]string, 0, len(ls)), ls[:k]...)
		}
		// Join touching spans (the space between two selected words too).
		var b strings.Builder
		end := 0
		sp := marks[k]
		for i := 0; i < len(sp); i++ {
			from, to := sp[i].from, sp[i].to
			for i+1 < len(sp) && sp[i+1].from <= to+1 {
				i++
				to = sp[i].to
			}
			b.WriteString(ansi.Cut(l, end, from))
			inner := ansi.Cut(l, from, to)
			inner = strings.ReplaceAll(inner, "\x1b[m", "\x1b[m"+selOn)
			inner = strings.ReplaceAll(inner, "\x1b[0m", "\x1b[0m"+selOn)
			b.WriteString(selOn + inner + selOff)
			end = to
		}
		b.WriteString(ansi.Cut(l, end, ansi.StringWidth(l)))
		out = append(out, b.String())
	}
	if out == nil {
		return ls
	}
	return out
}

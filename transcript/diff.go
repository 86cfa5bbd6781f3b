package transcript

import (
	"fmt"
	"path"
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/message"
)

// Diff content: a unified diff of the old and new text (three lines of
// context), each row "<line number> <sign> <code>", added rows on a green
// background and deleted ones on a red one, the code in chroma's syntax
// colours (the lexer chosen by the file name). Each side of a hunk is
// lexed on its own, so lexing costs the hunk, not the file.

const diffContext = 3

// diffLine is one row of a unified diff.
type diffLine struct {
	kind   udiff.OpKind
	text   string // without its newline
	number int    // the old line number for a deletion, else the new one
	old    int    // the old line number (0 for an insertion)
	new    int    // the new line number (0 for a deletion)
	hunk   bool   // a hunk header (text holds it)
}

// unifiedLines is the diff of a diff content's old and new text as rows,
// with diffContext lines of context, numbered by the lines of the file
// (ToolContent.Line: where a snippet starts).
func unifiedLines(c message.ToolContent) []diffLine {
	old := ""
	if c.OldText != nil {
		old = *c.OldText
	}
	return unifiedContext(old, c.NewText, diffContext, c.Line)
}

// unifiedContext is the diff of old and new with ctx lines of context,
// old and new starting at line first of the file (≤ 1: the first line;
// message.LineUnknown: unknown, the rows unnumbered).
func unifiedContext(old, new string, ctx, first int) []diffLine {
	edits := udiff.Lines(old, new)
	if len(edits) == 0 {
		return nil
	}
	u, err := udiff.ToUnifiedDiff("a", "b", old, edits, ctx)
	if err != nil {
		return nil
	}
	shift := max(first, 1) - 1
	unknown := first == message.LineUnknown
	var out []diffLine
	for _, h := range u.Hunks {
		on, nn := h.FromLine+shift, h.ToLine+shift
		var dels, adds int
		for _, l := range h.Lines {
			switch l.Kind {
			case udiff.Delete:
				dels++
			case udiff.Insert:
				adds++
			default:
				dels++
				adds++
			}
		}
		if unknown {
			// A snippet not found in its file: no numbers rather than
			// wrong ones (rows numbered 0 draw a blank gutter).
			out = append(out, diffLine{hunk: true, text: fmt.Sprintf("@@ -?,%d +?,%d @@ (not found in the file: no line numbers)", dels, adds)})
		} else {
			out = append(out, diffLine{hunk: true, text: fmt.Sprintf("@@ -%d,%d +%d,%d @@", on, dels, nn, adds)})
		}
		for _, l := range h.Lines {
			d := diffLine{kind: l.Kind, text: strings.TrimSuffix(l.Content, "\n")}
			switch l.Kind {
			case udiff.Delete:
				d.number, d.old = on, on
				on++
			case udiff.Insert:
				d.number, d.new = nn, nn
				nn++
			default:
				d.number, d.old, d.new = nn, on, nn
				on++
				nn++
			}
			if unknown {
				d.number, d.old, d.new = 0, 0, 0
			}
			out = append(out, d)
		}
	}
	return out
}

// lineNo is a row's number for its gutter, blank for none.
func lineNo(n, w int) string {
	if n <= 0 {
		return strings.Repeat(" ", w)
	}
	return fmt.Sprintf("%*d", w, n)
}

// diffSize is the number of rows of a diff content's diff.
func diffSize(c message.ToolContent) int { return len(unifiedLines(c)) }

// renderDiff adds one diff's rows to b: a path line, then the hunks.
func renderDiff(c message.ToolContent, width int, o contentOpts, b *lineBudget) {
	l := o.looks
	old := ""
	label := chips.SanitizeLine(c.Path)
	if c.OldText == nil {
		label += l.Faint.Render(" (new file)")
	} else {
		old = *c.OldText
	}
	ctx := diffContext
	if o.maxLines > 0 && o.maxLines <= 2*collapsedLines {
		ctx = 1 // collapsed: the change itself, not its surroundings
	}
	rows := unifiedContext(old, c.NewText, ctx, c.Line)
	if len(rows) == 0 {
		b.add(l.Path.Render("✎ ")+l.Path.Render(label), l.Faint.Render("  (no change)"))
		return
	}
	b.add(l.Path.Render("✎ " + label))
	if b.full() {
		b.hidden += len(rows)
		return
	}
	numW := 1
	for _, r := range rows {
		if n := len(fmt.Sprint(r.number)); n > numW {
			numW = n
		}
	}
	hl := newDiffHighlighter(o.style, c.Path)
	// Lex each hunk side by side, only as far as rows are wanted.
	for k := 0; k < len(rows); {
		if b.full() {
			b.hidden += len(rows) - k
			return
		}
		if !rows[k].hunk {
			k++
			continue
		}
		end := k + 1
		for end < len(rows) && !rows[end].hunk {
			end++
		}
		b.add(l.Hunk.Render(rows[k].text))
		hunk := rows[k+1 : end]
		oldToks, newToks := hl.sides(hunk)
		oi, ni := 0, 0
		for j, r := range hunk {
			if b.full() {
				b.hidden += len(hunk) - j + (len(rows) - end)
				return
			}
			var toks []chroma.Token
			switch r.kind {
			case udiff.Delete:
				toks = lineAt(oldToks, oi)
				oi++
			case udiff.Insert:
				toks = lineAt(newToks, ni)
				ni++
			default:
				toks = lineAt(newToks, ni)
				oi++
				ni++
			}
			b.add(diffRow(r, toks, numW, width, o, hl)...)
		}
		k = end
	}
}

func lineAt(lines [][]chroma.Token, i int) []chroma.Token {
	if i < len(lines) {
		return lines[i]
	}
	return nil
}

// diffRow draws one diff line, wrapped under its code column.
func diffRow(r diffLine, toks []chroma.Token, numW, width int, o contentOpts, hl *diffHighlighter) []string {
	l := o.looks
	sign, signSt, bg := " ", l.Faint, []byte(nil)
	switch r.kind {
	case udiff.Delete:
		sign, signSt, bg = "-", l.Del, l.DelBG
	case udiff.Insert:
		sign, signSt, bg = "+", l.Add, l.AddBG
	}
	if o.noColor {
		bg = nil
	}
	gutter := l.LineNo.Render(lineNo(r.number, numW)) + " " + signSt.Render(sign) + " "
	gw := numW + 3
	text := chips.SanitizeLine(chips.ExpandTabs(r.text))
	var code string
	if len(toks) > 0 && hl.style != nil && !o.noColor {
		code = hl.paint(toks, bg)
	} else {
		code = string(bg) + text
	}
	cw := max(1, width-gw)
	var out []string
	pieces := strings.Split(ansi.Hardwrap(code, cw, true), "\n")
	for k, p := range pieces {
		g := gutter
		if k > 0 {
			g = strings.Repeat(" ", gw)
		}
		if bg != nil {
			if pad := cw - ansi.StringWidth(p); pad > 0 {
				p += string(bg) + strings.Repeat(" ", pad)
			}
			p = string(bg) + p // each row opens its own background
		}
		out = append(out, g+p+"\x1b[m")
	}
	return out
}

// diffHighlighter lexes hunk sides with one file's lexer.
type diffHighlighter struct {
	style *chroma.Style
	lexer chroma.Lexer
}

func newDiffHighlighter(style, file string) *diffHighlighter {
	h := &diffHighlighter{}
	if style == "" || file == "" {
		return h
	}
	h.lexer = lexers.Match(path.Base(file))
	if h.lexer == nil {
		return h
	}
	h.lexer = chroma.Coalesce(h.lexer)
	h.style = styles.Get(style)
	return h
}

// sides lexes a hunk's old side (context and deleted lines) and new side
// (context and added lines), line by line.
func (h *diffHighlighter) sides(hunk []diffLine) (old, new [][]chroma.Token) {
	if h.lexer == nil || h.style == nil {
		return nil, nil
	}
	var o, n strings.Builder
	for _, r := range hunk {
		t := chips.SanitizeLine(chips.ExpandTabs(r.text)) + "\n"
		switch r.kind {
		case udiff.Delete:
			o.WriteString(t)
		case udiff.Insert:
			n.WriteString(t)
		default:
			o.WriteString(t)
			n.WriteString(t)
		}
	}
	return h.lines(o.String()), h.lines(n.String())
}

func (h *diffHighlighter) lines(src string) [][]chroma.Token {
	it, err := h.lexer.Tokenise(nil, src)
	if err != nil {
		return nil
	}
	ls := chroma.SplitTokensIntoLines(it.Tokens())
	for k, l := range ls { // drop the newline tokens
		for j := range l {
			l[j].Value = strings.TrimRight(l[j].Value, "\n")
		}
		ls[k] = l
	}
	return ls
}

// paint writes tokens in their syntax colours over background bg.
func (h *diffHighlighter) paint(toks []chroma.Token, bg []byte) string {
	var b strings.Builder
	b.Write(bg)
	for _, t := range toks {
		if t.Value == "" {
			continue
		}
		e := h.style.Get(t.Type)
		if e.Colour.IsSet() {
			fmt.Fprintf(&b, "\x1b[38;2;%d;%d;%dm", e.Colour.Red(), e.Colour.Green(), e.Colour.Blue())
		}
		b.WriteString(t.Value)
		if e.Colour.IsSet() {
			b.WriteString("\x1b[39m")
		}
	}
	return b.String()
}

const (
	diffDelete = udiff.Delete
	diffInsert = udiff.Insert
	diffEqual  = udiff.Equal
)

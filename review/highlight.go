package review

import (
	"path"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"

	"github.com/chipchat/chipchat/chips"
)

// Syntax colour comes from chroma, lexed once per file in the background
// (lexCmd, one file per command, the cursor's file first): until a
// file's tokens arrive (lexedMsg) its lines are drawn plain, so neither a
// key nor the first frame waits for the lexer. Each side of a hunk is
// lexed on its own (the old side: context and deleted lines; the new
// side: context and added lines), in chunks of chunkLines lines, so a
// string or a comment that spans lines is coloured as in the file. Tokens
// do not depend on the width and stay cached across resizes.

const chunkLines = 64

// maxLexedLines bounds the lines holding tokens (tens of megabytes); the
// files past it stay plain.
const maxLexedLines = 400_000

// tok is a piece of a line's display text and its syntax style.
type tok struct {
	text  string
	style chroma.StyleEntry
}

type highlighter struct {
	style  *chroma.Style
	lexers map[string]chroma.Lexer // per file name; nil: plain text
	files  map[int32][][][]tok     // per lexed file, per hunk, per line
	lines  int                     // lines in files
	busy   bool                    // a lexCmd is under way
}

func newHighlighter(styleName string) *highlighter {
	h := &highlighter{lexers: map[string]chroma.Lexer{}, files: map[int32][][][]tok{}}
	if styleName != "" {
		h.style = styles.Get(styleName)
	}
	return h
}

// maxDisplayBytes bounds the part of a line that is lexed and drawn: no
// terminal shows more of it (the pane cuts lines, it does not wrap them),
// and a minified megabyte on one line must not stall the lexer.
const maxDisplayBytes = 512

// displayText is the text a line shows: cut to maxDisplayBytes, tabs
// expanded, then sanitized as a whole (so an escape sequence goes whole,
// not token by token).
func displayText(s string) string {
	if len(s) > maxDisplayBytes {
		cut := maxDisplayBytes
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return chips.SanitizeLine(chips.ExpandTabs(s))
}

// reset forgets the tokens (the diff changed), not the lexers.
func (h *highlighter) reset() { h.files, h.lines, h.busy = map[int32][][][]tok{}, 0, false }

// tokens is the syntax tokens of line li of hunk hi of file fi: plain
// until the file is lexed.
func (h *highlighter) tokens(dc *doc, fi, hi, li int32) []tok {
	if f, ok := h.files[fi]; ok && f != nil {
		return f[hi][li]
	}
	return []tok{{text: displayText(dc.diff.Files[fi].Hunks[hi].Lines[li].Text)}}
}

// lexedMsg is a file's tokens, lexed in the background for the diff dc.
type lexedMsg struct {
	pane uint64
	dc   *doc
	file int32
	toks [][][]tok // nil: plain text (no lexer, or past maxLexedLines)
	// the lexer found for the file's base name (newLexer: looked up)
	base     string
	lexer    chroma.Lexer
	newLexer bool
}

// nextToLex is the first file from the cursor's on that is not lexed yet,
// or -1.
func (h *highlighter) nextToLex(dc *doc, cursorFile int) int32 {
	n := len(dc.diff.Files)
	for k := range n {
		fi := int32((max(cursorFile, 0) + k) % n)
		if _, ok := h.files[fi]; !ok {
			return fi
		}
	}
	return -1
}

// lexCmd lexes file fi of dc off the UI goroutine. The lexer is looked
// up here (the highlighter's map belongs to the UI goroutine); chroma's
// lexers and styles are safe to share.
func (h *highlighter) lexCmd(pane uint64, dc *doc, fi int32) tea.Cmd {
	f := dc.diff.Files[fi]
	base := path.Base(f.Path())
	lx, known := h.lexers[base]
	st, budget := h.style, maxLexedLines-h.lines
	return func() tea.Msg {
		msg := lexedMsg{pane: pane, dc: dc, file: fi, base: base}
		if st == nil || f.Path() == "" || known && lx == nil {
			return msg
		}
		if !known {
			// chroma's Match tries every lexer's patterns: a millisecond
			// for a name none matches, once per name.
			if lx = lexers.Match(base); lx != nil {
				lx = chroma.Coalesce(lx)
			}
			msg.lexer, msg.newLexer = lx, true
			if lx == nil {
				return msg
			}
		}
		lines := 0
		for _, hk := range f.Hunks {
			lines += len(hk.Lines)
		}
		if lines > budget {
			return msg
		}
		msg.toks = make([][][]tok, len(f.Hunks))
		for hi, hk := range f.Hunks {
			per := make([][]tok, 0, len(hk.Lines))
			for from := 0; from < len(hk.Lines); from += chunkLines {
				per = append(per, lexChunk(st, lx, hk.Lines[from:min(len(hk.Lines), from+chunkLines)])...)
			}
			msg.toks[hi] = per
		}
		return msg
	}
}

// lexed keeps a file's tokens; false when they are for another diff.
func (h *highlighter) lexed(msg lexedMsg, dc *doc) bool {
	if msg.dc != dc || dc == nil {
		return false
	}
	if _, ok := h.files[msg.file]; ok {
		return false
	}
	h.busy = false
	if msg.newLexer {
		h.lexers[msg.base] = msg.lexer
	}
	h.files[msg.file] = msg.toks
	for _, hk := range msg.toks {
		h.lines += len(hk)
	}
	return true
}

func lexChunk(st *chroma.Style, lx chroma.Lexer, lines []Line) [][]tok {
	out := make([][]tok, len(lines))
	for _, side := range []LineKind{LineDeleted, LineAdded} {
		var idx []int
		var b strings.Builder
		for i, l := range lines {
			if l.Kind == side || l.Kind == LineContext && side == LineAdded {
				idx = append(idx, i)
				b.WriteString(displayText(l.Text))
				b.WriteByte('\n')
			}
		}
		if len(idx) == 0 {
			continue
		}
		per := lexLines(st, lx, b.String(), len(idx))
		for k, i := range idx {
			out[i] = per[k]
		}
	}
	return out
}

// lexLines lexes text of n LF-ended lines into tokens per line; when the
// lexer fails the lines stay plain.
func lexLines(st *chroma.Style, lx chroma.Lexer, text string, n int) [][]tok {
	per := make([][]tok, n)
	it, err := lx.Tokenise(&chroma.TokeniseOptions{State: "root", EnsureLF: false}, text)
	if err != nil {
		return plainLines(text, n)
	}
	line := 0
	total := 0
	for t := it(); t != chroma.EOF; t = it() {
		total += len(t.Value)
		entry := st.Get(t.Type)
		v := t.Value
		for v != "" && line < n {
			i := strings.IndexByte(v, '\n')
			if i < 0 {
				per[line] = append(per[line], tok{text: v, style: entry})
				break
			}
			if i > 0 {
				per[line] = append(per[line], tok{text: v[:i], style: entry})
			}
			line++
			v = v[i+1:]
		}
	}
	if total != len(text) {
		// A lexer that dropped or added text: trust the text, not the tokens.
		return plainLines(text, n)
	}
	return per
}

func plainLines(text string, n int) [][]tok {
	per := make([][]tok, n)
	for i, l := range strings.SplitN(text, "\n", n+1) {
		if i < n {
			per[i] = []tok{{text: l}}
		}
	}
	return per
}

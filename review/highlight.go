package review

import (
	"path"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"

	"github.com/chipchat/chipchat/chips"
)

// Syntax colour comes from chroma. A hunk is lexed in chunks of
// chunkLines lines, each side on its own (the old side: context and
// deleted lines; the new side: context and added lines), so a string or a
// comment that spans lines is coloured as in the file, and a huge hunk is
// lexed only where it is looked at. Tokens do not depend on the width and
// stay cached across resizes.

const chunkLines = 64

// maxChunks bounds the token cache; past it the cache starts over.
const maxChunks = 2048

// tok is a piece of a line's display text and its syntax style.
type tok struct {
	text  string
	style chroma.StyleEntry
}

type chunkKey struct{ file, hunk, chunk int32 }

type highlighter struct {
	style  *chroma.Style
	lexers map[string]chroma.Lexer // per file name; nil: plain text
	chunks map[chunkKey][][]tok    // per chunk, per line of the chunk
}

func newHighlighter(styleName string) *highlighter {
	h := &highlighter{lexers: map[string]chroma.Lexer{}, chunks: map[chunkKey][][]tok{}}
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

// lexer is the lexer for a file name, found once per name (chroma's Match
// tries every lexer's patterns: a millisecond for a name none matches).
func (h *highlighter) lexer(name string) chroma.Lexer {
	base := path.Base(name)
	if lx, ok := h.lexers[base]; ok {
		return lx
	}
	var lx chroma.Lexer
	if h.style != nil && name != "" {
		lx = lexers.Match(base)
		if lx != nil {
			lx = chroma.Coalesce(lx)
		}
	}
	h.lexers[base] = lx
	return lx
}

// reset forgets the tokens (the diff changed), not the lexers.
func (h *highlighter) reset() { h.chunks = map[chunkKey][][]tok{} }

// tokens is the syntax tokens of line li of hunk hi of file fi.
func (h *highlighter) tokens(dc *doc, fi, hi, li int32) []tok {
	f := dc.diff.Files[fi]
	hk := f.Hunks[hi]
	lx := h.lexer(f.Path())
	if lx == nil {
		return []tok{{text: displayText(hk.Lines[li].Text)}}
	}
	key := chunkKey{fi, hi, li / chunkLines}
	c, ok := h.chunks[key]
	if !ok {
		if len(h.chunks) >= maxChunks {
			h.chunks = map[chunkKey][][]tok{}
		}
		from := int(key.chunk) * chunkLines
		to := min(len(hk.Lines), from+chunkLines)
		c = h.lexChunk(lx, hk.Lines[from:to])
		h.chunks[key] = c
	}
	return c[int(li)%chunkLines]
}

func (h *highlighter) lexChunk(lx chroma.Lexer, lines []Line) [][]tok {
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
		per := h.lexLines(lx, b.String(), len(idx))
		for k, i := range idx {
			out[i] = per[k]
		}
	}
	return out
}

// lexLines lexes text of n LF-ended lines into tokens per line; when the
// lexer fails the lines stay plain.
func (h *highlighter) lexLines(lx chroma.Lexer, text string, n int) [][]tok {
	per := make([][]tok, n)
	it, err := lx.Tokenise(&chroma.TokeniseOptions{State: "root", EnsureLF: false}, text)
	if err != nil {
		return plainLines(text, n)
	}
	line := 0
	total := 0
	for t := it(); t != chroma.EOF; t = it() {
		total += len(t.Value)
		entry := h.style.Get(t.Type)
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

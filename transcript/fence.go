package transcript

import (
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"

	"github.com/chipchat/chipchat/chips"
)

// A tool output wholly wrapped in one Markdown code fence (Claude Code
// sends a command's output as "```console\n…\n```") is drawn as its
// content, in the fence language's syntax colours, without the fence
// lines.

// wholeFence reports whether s (blank lines around it aside) is one fenced
// code block: an opening line of three or more backticks or tildes and an
// info string, a closing line of the same character at least as long,
// and no line between that would close it. lang is the info string's
// first word; body is what is between the fence lines.
func wholeFence(s string) (lang, body string, ok bool) {
	s = strings.Trim(s, "\n")
	s = strings.TrimRight(s, " \t\r\n")
	open, rest, found := strings.Cut(s, "\n")
	if !found {
		return "", "", false
	}
	open = strings.TrimRight(open, " \t\r")
	if ind := len(open) - len(strings.TrimLeft(open, " ")); ind > 3 {
		return "", "", false
	}
	open = strings.TrimLeft(open, " ")
	c := byte(0)
	if open != "" {
		c = open[0]
	}
	if c != '`' && c != '~' {
		return "", "", false
	}
	n := len(open) - len(strings.TrimLeft(open, string(c)))
	if n < 3 {
		return "", "", false
	}
	info := strings.TrimSpace(open[n:])
	if c == '`' && strings.Contains(info, "`") {
		return "", "", false
	}
	closes := func(line string) bool {
		line = strings.TrimRight(line, " \t\r")
		t := strings.TrimLeft(line, " ")
		if len(line)-len(t) > 3 {
			return false
		}
		m := len(t) - len(strings.TrimLeft(t, string(c)))
		return m >= n && m == len(t)
	}
	last, inner := rest, ""
	if i := strings.LastIndexByte(rest, '\n'); i >= 0 {
		last, inner = rest[i+1:], rest[:i]
	}
	if !closes(last) {
		return "", "", false
	}
	for l := range strings.SplitSeq(inner, "\n") {
		if inner != "" && closes(l) {
			return "", "", false
		}
	}
	if f := strings.Fields(info); len(f) > 0 {
		lang = f[0]
	}
	return lang, inner, true
}

// fenceLexer is the lexer of a fence's language, nil when chroma knows
// none (or colour is off).
func fenceLexer(lang string, o contentOpts) (chroma.Lexer, *chroma.Style) {
	if lang == "" || o.style == "" || o.noColor {
		return nil, nil
	}
	lx := lexers.Get(lang)
	if lx == nil {
		return nil, nil
	}
	return chroma.Coalesce(lx), styles.Get(o.style)
}

// fenced adds a fenced output's body: every line sanitized, in the
// language's colours, wrapped; only the lines that fit are drawn.
func (b *lineBudget) fenced(lang, body string, width int, o contentOpts) {
	lines := strings.Split(chips.Sanitize(chips.ExpandTabs(body)), "\n")
	if body == "" {
		return
	}
	shown := len(lines)
	if b.max > 0 {
		shown = min(shown, max(b.max-len(b.lines), 0))
	}
	var toks [][]chroma.Token
	lx, st := fenceLexer(lang, o)
	h := &diffHighlighter{lexer: lx, style: st}
	if lx != nil && st != nil && shown > 0 {
		toks = h.lines(strings.Join(lines[:shown], "\n") + "\n")
	}
	for k, l := range lines {
		if b.full() {
			b.hidden += len(lines) - k
			return
		}
		if k < len(toks) && len(toks[k]) > 0 {
			l = h.paint(toks[k], nil) + "\x1b[m"
		}
		b.add(wrapPlain(l, width, noStyle)...)
	}
}

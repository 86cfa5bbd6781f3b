package transcript

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
)

// gutterWidth is the columns left of every message for the focus marker.
func (m *Model) gutterWidth() int {
	if m.width >= 4 {
		return 2
	}
	return 0
}

// contentWidth is the width blocks are rendered at.
func (m *Model) contentWidth() int {
	return max(1, m.width-m.gutterWidth())
}

// resolve computes a user message's text, records and chips once per
// generation.
func (m *Model) resolve(e *entry) {
	if e.rok && e.rgen == e.gen {
		return
	}
	e.rok, e.rgen = true, e.gen
	e.chips = nil
	if e.msg.Role != message.RoleUser {
		e.text, e.records = e.msg.Text, nil
		return
	}
	e.text, e.records = ResolveUserMessageContext(e.msg.Text, e.context())
	occs := contextref.Scan(e.text)
	var cits []contextref.CitationOccurrence
	if contextref.HasCitations(e.text) {
		cits = contextref.ValidCitations(e.text)
	}
	if len(occs) == 0 && len(cits) == 0 {
		return
	}
	// Records by exact context id; an id held by two records is missing,
	// as in the provider projection.
	byID := make(map[string]contextref.Record, len(e.records))
	dup := map[string]bool{}
	for _, r := range e.records {
		b := baseOf(r)
		if b == nil {
			continue
		}
		if _, ok := byID[b.ContextID]; ok {
			dup[b.ContextID] = true
		}
		byID[b.ContextID] = r
	}
	e.chips = make([]chipRef, 0, len(occs)+len(cits))
	for _, o := range occs {
		r := byID[o.ContextID]
		if dup[o.ContextID] {
			r = nil
		}
		e.chips = append(e.chips, chipRef{occ: o, rec: r})
	}
	if len(cits) > 0 {
		// Assistant quotes are chips too (DESIGN.md 3.8), in text order; a
		// quote overlapping a reference link (cannot happen in valid text)
		// is left as text.
		all := e.chips[:0:0]
		k := 0
		for _, c := range cits {
			for k < len(e.chips) && e.chips[k].occ.Start < c.Start {
				all = append(all, e.chips[k])
				k++
			}
			if len(all) > 0 && all[len(all)-1].occ.End > c.Start || k < len(e.chips) && e.chips[k].occ.Start < c.End {
				continue
			}
			all = append(all, chipRef{occ: contextref.Occurrence{Kind: "citation", Label: contextref.CitationLinkLabel, Start: c.Start, End: c.End}, cit: c.Citation})
		}
		e.chips = append(all, e.chips[k:]...)
	}
}

// baseOf is r.RecordBase(), nil for a nil record (typed or not).
func baseOf(r contextref.Record) (b *contextref.Base) {
	if r == nil {
		return nil
	}
	defer func() {
		if recover() != nil {
			b = nil
		}
	}()
	return r.RecordBase()
}

// renderHead draws message e's head at content width cw: its header line
// and, for a user message, its body. selChip is the chip drawn selected
// (-1 none). It returns the lines and, for user messages, the line of each
// chip.
func (m *Model) renderHead(e *entry, cw, selChip int) ([]string, []int) {
	m.renders++
	out := []string{m.header(e, cw)}
	if e.msg.Role == message.RoleUser {
		body, rows := m.renderUser(e, cw, selChip)
		for k := range rows {
			rows[k]++
		}
		return append(out, body...), rows
	}
	return out, nil
}

func (m *Model) header(e *entry, cw int) string {
	var name string
	if e.msg.Role == message.RoleUser {
		name = m.sty.user.Render("You")
	} else {
		name = m.sty.agent.Render("Agent")
	}
	var st string
	switch e.msg.Status {
	case message.StatusStreaming:
		st = m.sty.status.Render("… streaming")
	case message.StatusInterrupted:
		st = m.sty.status.Render("interrupted")
	case message.StatusError:
		st = m.sty.bad.Render("error")
	case "", message.StatusDone:
	default:
		st = m.sty.status.Render(chips.SanitizeLine(string(e.msg.Status)))
	}
	h := name
	if st != "" {
		h += m.sty.status.Render(" · ") + st
	}
	if ansi.StringWidth(h) > cw {
		h = ansi.Truncate(h, cw, "…")
	}
	return h
}

// ---- user messages ----

// renderUser lays out the prose with chips inline: words wrap at spaces,
// a word wider than the row is broken, a chip is never split (the registry
// cuts it to the row). Hard line breaks are kept; leading and trailing
// blank lines are not.
func (m *Model) renderUser(e *entry, cw, selChip int) ([]string, []int) {
	m.resolve(e)
	text := e.text
	var lines []string
	rows := make([]int, len(e.chips))
	var cur strings.Builder
	x := 0
	flush := func() {
		lines = append(lines, strings.TrimRight(cur.String(), " "))
		cur.Reset()
		x = 0
	}
	emit := func(seg string) {
		seg = chips.Sanitize(seg)
		for k, ln := range strings.Split(seg, "\n") {
			if k > 0 {
				flush()
			}
			for ln != "" {
				if ln[0] == ' ' {
					n := len(ln) - len(strings.TrimLeft(ln, " "))
					if x+n <= cw {
						cur.WriteString(ln[:n])
						x += n
					} else if x > 0 {
						flush() // a soft break eats the spaces
					}
					ln = ln[n:]
					continue
				}
				n := strings.IndexByte(ln, ' ')
				if n < 0 {
					n = len(ln)
				}
				word := ln[:n]
				ln = ln[n:]
				w := ansi.StringWidth(word)
				if x+w > cw && x > 0 {
					flush()
				}
				if w <= cw {
					cur.WriteString(word)
					x += w
					continue
				}
				parts := strings.Split(ansi.Hardwrap(word, cw, true), "\n")
				for p, part := range parts {
					if p > 0 {
						flush()
					}
					if ansi.StringWidth(part) > cw { // a wide character in one column
						part = ansi.Truncate(part, cw, "")
					}
					cur.WriteString(part)
					x += ansi.StringWidth(part)
				}
			}
		}
	}
	pos := 0
	for k, c := range e.chips {
		emit(text[pos:c.occ.Start])
		pos = c.occ.End
		s := c.compact(m.reg, false, cw)
		w := ansi.StringWidth(s)
		if k == selChip {
			s = fit(c.compact(m.reg, true, cw), w)
		}
		if x+w > cw && x > 0 {
			flush()
		}
		rows[k] = len(lines)
		cur.WriteString(s)
		x += w
	}
	emit(text[pos:])
	flush()
	// Drop blank lines at both ends (keeping chip rows right).
	lo, hi := 0, len(lines)
	for lo < hi && strings.TrimSpace(lines[lo]) == "" {
		lo++
	}
	for hi > lo && strings.TrimSpace(lines[hi-1]) == "" {
		hi--
	}
	for k := range rows {
		rows[k] -= lo
	}
	return lines[lo:hi], rows
}

// fit makes s exactly w columns wide.
func fit(s string, w int) string {
	sw := ansi.StringWidth(s)
	if sw > w {
		return ansi.Truncate(s, w, "")
	}
	return s + strings.Repeat(" ", w-sw)
}

func blank(l string) bool { return strings.TrimSpace(ansi.Strip(l)) == "" }

// closeLine makes a line close every style and hyperlink it opened, so
// nothing bleeds into the gutter or the next line.
func closeLine(l string) string {
	if strings.IndexByte(l, 0x1b) < 0 {
		return l
	}
	if strings.Contains(l, "\x1b]8;") {
		l += "\x1b]8;;\x1b\\"
	}
	return l + "\x1b[m"
}

// trimPadding cuts the trailing blanks glamour pads each line with (one SGR
// sequence per space); blanks drawn with a background (or reversed) are
// kept, since they show.
func trimPadding(l string) string {
	if !strings.HasSuffix(l, " ") && !strings.HasSuffix(l, "m") {
		return l
	}
	cut := 0    // end of the last thing to keep
	bg := false // a background (or reverse) is in effect
	for i := 0; i < len(l); {
		c := l[i]
		switch {
		case c == 0x1b && i+1 < len(l) && l[i+1] == '[':
			j := i + 2
			for j < len(l) && (l[j] < 0x40 || l[j] > 0x7e) {
				j++
			}
			if j >= len(l) {
				return l
			}
			if l[j] == 'm' {
				bg = sgrBackground(l[i+2:j], bg)
			} else {
				cut = j + 1
			}
			i = j + 1
		case c == 0x1b && i+1 < len(l) && l[i+1] == ']':
			j := i + 2
			for j < len(l) && l[j] != 0x07 && (l[j] != 0x1b || j+1 >= len(l) || l[j+1] != '\\') {
				j++
			}
			if j >= len(l) {
				return l
			}
			if l[j] == 0x07 {
				j++
			} else {
				j += 2
			}
			cut = j // a hyperlink is kept with what it wraps
			i = j
		case c == ' ' && !bg:
			i++
		default:
			i++
			for i < len(l) && l[i]&0xc0 == 0x80 {
				i++
			}
			cut = i
		}
	}
	if cut == len(l) {
		return l
	}
	kept := l[:cut]
	if strings.IndexByte(kept, 0x1b) >= 0 {
		return kept + "\x1b[m"
	}
	return kept
}

// sgrBackground says whether a background (or reverse) is in effect after
// SGR parameters p, given whether one was before. It errs on "yes".
func sgrBackground(p string, was bool) bool {
	if p == "" {
		return false
	}
	for len(p) > 0 {
		i := strings.IndexAny(p, ";:")
		f := p
		if i >= 0 {
			f, p = p[:i], p[i+1:]
		} else {
			p = ""
		}
		switch {
		case f == "":
		case f == "0" || f == "00" || f == "49" || f == "27":
			was = false
		case f == "48", f == "7":
			was = true
		case len(f) == 2 && f[0] == '4' && f[1] >= '0' && f[1] <= '7':
			was = true
		case len(f) == 3 && f[0] == '1' && f[1] == '0' && f[2] >= '0' && f[2] <= '7':
			was = true
		}
	}
	return was
}

// escapeMarkdown backslash-escapes ASCII punctuation so a label reads as
// plain text.
func escapeMarkdown(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 && strings.ContainsRune("\\`*_{}[]()#+-.!|<>~&", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

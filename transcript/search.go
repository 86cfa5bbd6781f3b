package transcript

import (
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
)

// Search in the thread (issue 27 item 1). Search takes the messages as
// they are (string and slice headers only: a reply's items are copied on
// their next change, ownItems) and looks for the query in a command, off
// the UI goroutine: every message's text as shown (a chip by its label),
// every item's whole text (a folded tool call's output, a thought). The
// matches come back as SearchDoneMsg; from then on the next or previous
// match is an index step and a jump to one message, whatever the length
// of the thread. Matches are highlighted in the rows on screen only.

// SearchAskMsg asks the app for the search field, filled with Query (the
// search kept, "" none).
type SearchAskMsg struct{ Query string }

// SearchDoneMsg is a search's matches, delivered to Update.
type SearchDoneMsg struct {
	gen  int
	hits []searchHit
}

// searchHit is one occurrence: the message, its item (-1: a user
// message's head) and the occurrence's rank in that text.
type searchHit struct{ i, it, nth int }

type searchState struct {
	query   string // as typed
	low     string // lowercased, what is looked for
	gen     int
	pending bool
	hits    []searchHit
	at      int // the current hit, -1 none
}

// Search looks for query (case-insensitive) in the whole thread; the
// first match is focused when the matches arrive (SearchDoneMsg). An
// empty query clears the search.
func (m *Model) Search(query string) tea.Cmd {
	m.srch.gen++
	gen := m.srch.gen
	if strings.TrimSpace(query) == "" {
		m.srch = searchState{gen: gen, at: -1}
		return nil
	}
	low := strings.ToLower(query)
	m.srch = searchState{query: query, low: low, gen: gen, pending: true, at: -1}
	docs := make([]Message, len(m.ents))
	for i := range m.ents {
		docs[i] = m.ents[i].msg
		m.ents[i].owned = false // a later SetItem copies the slice the search reads
	}
	return func() tea.Msg { return SearchDoneMsg{gen: gen, hits: findAll(docs, low)} }
}

// findAll is every occurrence of low in msgs, in thread order.
func findAll(msgs []Message, low string) []searchHit {
	var hits []searchHit
	add := func(i, it int, text string) {
		t := strings.ToLower(text)
		for n, at := 0, 0; ; n++ {
			j := strings.Index(t[at:], low)
			if j < 0 {
				return
			}
			hits = append(hits, searchHit{i, it, n})
			at += j + len(low)
		}
	}
	for i, msg := range msgs {
		switch {
		case msg.Role == message.RoleUser:
			add(i, -1, shownText(msg.Text))
		case len(msg.Items) == 0:
			add(i, 0, msg.Text)
		default:
			for k, it := range msg.Items {
				add(i, k, pagerText(it))
			}
		}
	}
	return hits
}

// shownText is a user message's text with each reference drawn as its
// chip's label.
func shownText(text string) string {
	occ := contextref.Scan(text)
	if len(occ) == 0 {
		return text
	}
	var b strings.Builder
	at := 0
	for _, o := range occ {
		b.WriteString(text[at:o.Start])
		b.WriteString(o.Label)
		at = o.End
	}
	b.WriteString(text[at:])
	return b.String()
}

// searchDone takes a search's matches (a stale search's are dropped) and
// goes to the first.
func (m *Model) searchDone(msg SearchDoneMsg) {
	if msg.gen != m.srch.gen || !m.srch.pending {
		return
	}
	m.srch.pending, m.srch.hits = false, msg.hits
	if len(msg.hits) > 0 {
		m.srch.at = 0
		m.jumpTo(msg.hits[0])
	}
}

// SearchStep goes to the next (d > 0) or previous match, cycling.
func (m *Model) SearchStep(d int) {
	s := &m.srch
	if len(s.hits) == 0 {
		return
	}
	s.at = ((s.at+d)%len(s.hits) + len(s.hits)) % len(s.hits)
	m.jumpTo(s.hits[s.at])
}

// SearchStatus is the search's query, the current match (1-based; 0
// none) and the number of matches; pending: still looking.
func (m *Model) SearchStatus() (query string, at, total int, pending bool) {
	s := &m.srch
	return s.query, s.at + 1, len(s.hits), s.pending
}

// ClearSearch drops the search; false when there was none.
func (m *Model) ClearSearch() bool {
	if m.srch.query == "" {
		return false
	}
	m.srch = searchState{gen: m.srch.gen + 1, at: -1}
	return true
}

// jumpTo focuses the hit's message or item (a folded item unfolds) and
// scrolls to the row that shows the occurrence when it is found there.
func (m *Model) jumpTo(h searchHit) {
	if h.i < 0 || h.i >= len(m.ents) {
		return
	}
	s := stop{h.i, h.it}
	if h.it >= 0 {
		vs := m.views(h.i)
		if h.it >= len(vs) {
			return
		}
		if iv := vs[h.it]; iv.it.Kind != message.ItemText && !iv.expanded {
			iv.expanded = true
			iv.gen++
		}
	}
	m.pop = popover{}
	m.follow = false
	m.setStop(s)
	m.chip = -1
	m.normalize()
	m.ensureStop(s)
	m.revealHit(s, h.nth)
}

// revealHit scrolls to the nth occurrence as drawn in stop s (the last
// one drawn when fewer are: Markdown may draw the source otherwise).
func (m *Model) revealHit(s stop, nth int) {
	first, last := m.stopFirst(s), m.stopLast(s)
	row, found, n := 0, -1, 0
	for q := first; ; {
		if q.it == s.it || s.it < 0 {
			for r, l := range m.plines(q) {
				c := strings.Count(strings.ToLower(ansi.Strip(l)), m.srch.low)
				if c > 0 {
					found = row + m.gap(q) + r
				}
				if n += c; n > nth {
					break
				}
			}
		}
		if n > nth || q == last {
			break
		}
		row += m.ph(q)
		var ok bool
		if q, ok = m.next(q); !ok {
			break
		}
	}
	if found >= 0 {
		m.ensureSpan(first, found, found+1, m.height)
	}
}

// The dark and no-colour themes draw a match in reverse video; the light
// one on LightSearchHit (text selections are reversed there too).
const (
	hitOn       = "\x1b[7m"
	hitOff      = "\x1b[27m"
	lightHitOn  = "\x1b[48;2;254;240;138m"
	lightHitOff = "\x1b[49m"
)

// LightSearchHit is the background of a search match under WithLight.
const LightSearchHit = "#FEF08A"

// highlightHits is ls with every occurrence of the search drawn in the
// theme's match look (looks.hitOn); ls itself is not changed. Only parts
// on screen come here.
func (m *Model) highlightHits(ls []string) []string {
	low := m.srch.low
	if low == "" || len(m.srch.hits) == 0 {
		return ls
	}
	var out []string
	for k, l := range ls {
		plain := ansi.Strip(l)
		t := strings.ToLower(plain)
		if len(t) != len(plain) || !strings.Contains(t, low) {
			if out != nil {
				out = append(out, l)
			}
			continue
		}
		if out == nil {
			out = append(make([]string, 0, len(ls)), ls[:k]...)
		}
		var b strings.Builder
		end := 0
		for at := 0; ; {
			j := strings.Index(t[at:], low)
			if j < 0 {
				break
			}
			j += at
			from := ansi.StringWidth(plain[:j])
			to := from + ansi.StringWidth(plain[j:j+len(low)])
			b.WriteString(ansi.Cut(l, end, from))
			inner := ansi.Cut(l, from, to)
			on, off := m.sty.hitOn, m.sty.hitOff
			inner = strings.ReplaceAll(inner, "\x1b[m", "\x1b[m"+on)
			inner = strings.ReplaceAll(inner, "\x1b[0m", "\x1b[0m"+on)
			b.WriteString(on + inner + off)
			end = to
			at = j + max(len(low), 1)
			if !utf8.ValidString(t[at:]) {
				break
			}
		}
		b.WriteString(ansi.Cut(l, end, ansi.StringWidth(l)))
		out = append(out, b.String())
	}
	if out == nil {
		return ls
	}
	return out
}

// Reveal focuses the message with that id and scrolls to it; false when
// the thread has no such message.
func (m *Model) Reveal(id string) bool {
	i, ok := m.index(id)
	if !ok {
		return false
	}
	m.pop = popover{}
	m.follow = false
	m.setStop(stop{i, -1})
	m.chip = -1
	m.normalize()
	m.ensureStop(stop{i, -1})
	return true
}

package transcript

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/message"
)

// The layout is a sequence of parts, each rendered on its own and cached
// for one width: a message's head (its header line; a user message's body
// too), then each item of a reply — one part per item, except text items
// (one part per block of their text, plus the elision line of a huge one)
// and an expanded thought (its line, then its blocks). A position is a
// part (ppos); walks go from part to neighbouring part, so nothing beyond
// what they reach is built, scanned or rendered.

// part is the rendered lines of one part for one width and generation.
type part struct {
	lines []string
	w     int
	gen   uint64
	ok    bool
}

func (p *part) get(w int, gen uint64) ([]string, bool) {
	if p.ok && p.w == w && p.gen == gen {
		return p.lines, true
	}
	return nil, false
}

func (p *part) set(lines []string, w int, gen uint64) []string {
	if lines == nil {
		lines = []string{}
	}
	*p = part{lines: lines, w: w, gen: gen, ok: true}
	return lines
}

// itemView is one item of a reply with its caches.
type itemView struct {
	it       message.Item
	gen      uint64 // bumped by every change of the item
	expanded bool
	one      part // the whole item (kinds without blocks); a thought's line

	tv    *textView // text items; a thought's text while expanded
	tvGen uint64    // the item generation tv was brought to
	mode  int       // the mode tv was made with
}

// set replaces the item. A text item's new text is scanned only when it
// is next drawn.
func (iv *itemView) set(it message.Item) {
	if it.Kind != iv.it.Kind {
		iv.tv = nil
	}
	iv.it = it
	iv.gen++
}

// ppos is a part: message i, item it (-1: the head), part k of the item.
type ppos struct{ i, it, k int }

// before reports whether a comes before b.
func before(a, b ppos) bool {
	if a.i != b.i {
		return a.i < b.i
	}
	if a.it != b.it {
		return a.it < b.it
	}
	return a.k < b.k
}

// stop is a focus stop: an item of a reply, or a message's head when it
// has no item to show (a user message, an empty reply).
type stop struct{ i, it int }

func stopBefore(a, b stop) bool {
	if a.i != b.i {
		return a.i < b.i
	}
	return a.it < b.it
}

// views is the item views of message i, made on first use: the reply's
// items, or one text item holding the text of a reply that has none.
func (m *Model) views(i int) []*itemView {
	e := &m.ents[i]
	if e.built {
		return e.items
	}
	e.built = true
	e.items = nil
	switch {
	case len(e.msg.Items) > 0:
		e.items = make([]*itemView, len(e.msg.Items))
		for k, it := range e.msg.Items {
			e.items[k] = &itemView{it: it}
		}
	case e.msg.Role != message.RoleUser:
		e.synth = true
		e.items = []*itemView{{it: message.Item{Kind: message.ItemText, Text: e.msg.Text}}}
	}
	return e.items
}

// replyMode is the text mode of message i's text items: Markdown, unless
// the message may be plain text and its first plainProbe bytes do not look
// like Markdown. The decision is taken once, when the first text item has
// plainProbe bytes or the reply is over; until then the text is drawn as
// plain text.
func (m *Model) replyMode(i int) int {
	e := &m.ents[i]
	if !e.msg.PlainText {
		return modeMarkdown
	}
	if e.modeSet {
		return e.mode
	}
	// The reply's first plainProbe bytes: its text items, joined.
	n := 0
	for _, iv := range m.views(i) {
		if iv.it.Kind == message.ItemText {
			n += iv.it.TextLen() + 2
		}
	}
	if n < plainProbe && !final(e.msg.Status) {
		return modePlain
	}
	var probe strings.Builder
	for _, iv := range m.views(i) {
		if iv.it.Kind != message.ItemText || probe.Len() >= plainProbe {
			continue
		}
		if probe.Len() > 0 {
			probe.WriteString("\n\n")
		}
		t := iv.it.Body()
		head := t.Slice(0, min(t.Len(), plainProbe+utf8.UTFMax)) // a character cut at plainProbe is seen whole
		probe.WriteString(head[:runeStart(head, min(len(head), max(0, plainProbe-probe.Len())))])
	}
	e.modeSet = true
	e.mode = modePlain
	if looksLikeMarkdown(probe.String()) {
		e.mode = modeMarkdown
	}
	return e.mode
}

func final(s message.Status) bool { return s == "" || s.Final() }

// textOf brings item it of message i's text view up to date and returns
// it (nil for an item without one).
func (m *Model) textOf(i, it int) *textView {
	iv := m.views(i)[it]
	switch iv.it.Kind {
	case message.ItemText:
	case message.ItemThought:
		if !iv.expanded {
			return nil
		}
	default:
		return nil
	}
	mode := modePlain
	if iv.it.Kind == message.ItemText {
		mode = m.replyMode(i)
	}
	if iv.tv == nil || iv.mode != mode {
		iv.tv, iv.mode, iv.tvGen = newTextView(mode, m.replyBytes), mode, iv.gen-1
		iv.tv.ring = &m.ring
	}
	if iv.tvGen != iv.gen {
		iv.tv.update(iv.it.Body())
		iv.tvGen = iv.gen
	}
	return iv.tv
}

// nparts is the number of parts of item it of message i.
func (m *Model) nparts(i, it int) int {
	iv := m.views(i)[it]
	switch iv.it.Kind {
	case message.ItemText:
		return m.textOf(i, it).count()
	case message.ItemThought:
		if tv := m.textOf(i, it); tv != nil {
			return 1 + tv.count()
		}
	}
	return 1
}

// firstItem is the first item of message i at or after from that has a
// part.
func (m *Model) firstItem(i, from int) (int, bool) {
	vs := m.views(i)
	for k := max(0, from); k < len(vs); k++ {
		if m.nparts(i, k) > 0 {
			return k, true
		}
	}
	return 0, false
}

// lastItem is the last item of message i before `before` that has a part.
func (m *Model) lastItem(i, before int) (int, bool) {
	vs := m.views(i)
	for k := min(before, len(vs)) - 1; k >= 0; k-- {
		if m.nparts(i, k) > 0 {
			return k, true
		}
	}
	return 0, false
}

func (m *Model) firstPart(i int) ppos { return ppos{i, -1, 0} }

func (m *Model) lastPart(i int) ppos {
	if it, ok := m.lastItem(i, len(m.views(i))); ok {
		return ppos{i, it, m.nparts(i, it) - 1}
	}
	return ppos{i, -1, 0}
}

func (m *Model) next(p ppos) (ppos, bool) {
	if p.it >= 0 && p.k+1 < m.nparts(p.i, p.it) {
		return ppos{p.i, p.it, p.k + 1}, true
	}
	if it, ok := m.firstItem(p.i, p.it+1); ok {
		return ppos{p.i, it, 0}, true
	}
	if p.i+1 < len(m.ents) {
		return m.firstPart(p.i + 1), true
	}
	return p, false
}

func (m *Model) prev(p ppos) (ppos, bool) {
	if p.it >= 0 {
		if p.k > 0 {
			return ppos{p.i, p.it, p.k - 1}, true
		}
		if it, ok := m.lastItem(p.i, p.it); ok {
			return ppos{p.i, it, m.nparts(p.i, it) - 1}, true
		}
		return m.firstPart(p.i), true
	}
	if p.i > 0 {
		return m.lastPart(p.i - 1), true
	}
	return p, false
}

// valid clamps p to a part that exists.
func (m *Model) valid(p ppos) ppos {
	n := len(m.ents)
	if p.i >= n {
		return m.lastPart(n - 1)
	}
	if p.i < 0 {
		return m.firstPart(0)
	}
	if p.it < 0 {
		return ppos{p.i, -1, 0}
	}
	vs := m.views(p.i)
	if p.it >= len(vs) {
		return m.lastPart(p.i)
	}
	np := m.nparts(p.i, p.it)
	if np == 0 {
		if it, ok := m.lastItem(p.i, p.it); ok {
			return ppos{p.i, it, m.nparts(p.i, it) - 1}
		}
		return ppos{p.i, -1, 0}
	}
	if p.k >= np {
		return ppos{p.i, p.it, np - 1}
	}
	return p
}

// inline kinds sit on consecutive rows with no blank row between them
// (itemKind.Inline).
func inline(k message.ItemKind) bool { return itemKinds[k].Inline }

// gap is the blank rows drawn before part p: one between messages, one
// between Markdown blocks, one between items (none between consecutive
// tool calls and permissions, nor after a reply's header).
func (m *Model) gap(p ppos) int {
	if p.it < 0 {
		if p.i > 0 {
			return 1
		}
		return 0
	}
	iv := m.views(p.i)[p.it]
	if p.k > 0 {
		if iv.it.Kind == message.ItemText {
			if b := m.textOf(p.i, p.it).part(p.k); b != nil {
				return int(b.gap)
			}
			return 1
		}
		return 0
	}
	pit, ok := m.lastItem(p.i, p.it)
	if !ok {
		return 0
	}
	if inline(iv.it.Kind) && inline(m.views(p.i)[pit].it.Kind) {
		return 0
	}
	return 1
}

// plines is part p's lines at the current width, rendered when needed.
func (m *Model) plines(p ppos) []string {
	cw := m.contentWidth()
	e := &m.ents[p.i]
	if p.it < 0 {
		if ls, ok := e.head.get(cw, e.gen); ok {
			return ls
		}
		ls, rows := m.renderHead(e, cw, -1)
		e.chipRows = rows
		return e.head.set(ls, cw, e.gen)
	}
	iv := m.views(p.i)[p.it]
	switch iv.it.Kind {
	case message.ItemText:
		tv := m.textOf(p.i, p.it)
		b := tv.part(p.k)
		if b == nil {
			if ls, ok := tv.elis.get(cw, 0); ok {
				return ls
			}
			m.renders++
			return tv.elis.set([]string{m.sty.status.Render(tv.elision())}, cw, 0)
		}
		if tv.mode == modeMarkdown && e.msg.Status == message.StatusStreaming {
			if ls, ok := m.streamPart(tv, b, cw); ok {
				return ls
			}
		}
		bp := tv.cache(b)
		if ls, ok := bp.get(cw, 0); ok {
			return ls
		}
		m.renders++
		m.ring.add(bp)
		c := m.itemContext(cw)
		c.Plain = tv.mode == modePlain
		return bp.set(m.itemReg.Render(chips.Compact, message.Item{Kind: message.ItemText, Text: tv.source(b)}, c), cw, 0)
	case message.ItemThought:
		if p.k > 0 {
			tv := m.textOf(p.i, p.it)
			b := tv.part(p.k - 1)
			if b == nil {
				return []string{m.sty.status.Render(tv.elision())}
			}
			bp := tv.cache(b)
			if ls, ok := bp.get(cw, 0); ok {
				return ls
			}
			m.renders++
			m.ring.add(bp)
			return bp.set(m.itemReg.Render(chips.Expanded, message.Item{Kind: message.ItemThought, Text: tv.source(b)}, m.itemContext(cw)), cw, 0)
		}
		if ls, ok := iv.one.get(cw, iv.gen); ok {
			return ls
		}
		m.renders++
		return iv.one.set(m.itemReg.Render(chips.Compact, iv.it, m.itemContext(cw)), cw, iv.gen)
	}
	if ls, ok := iv.one.get(cw, iv.gen); ok {
		return ls
	}
	m.renders++
	s := chips.Compact
	if iv.expanded {
		s = chips.Expanded
	}
	return iv.one.set(m.itemReg.Render(s, iv.it, m.itemContext(cw)), cw, iv.gen)
}

func (m *Model) itemContext(w int) ItemContext {
	return ItemContext{Width: w, NoColor: m.noColor, Looks: m.ilooks, md: m.markdown}
}

// ph is the rows of part p, its gap included.
func (m *Model) ph(p ppos) int { return m.gap(p) + len(m.plines(p)) }

// drawLines is plines(p) as drawn: a focused user message with its
// focused chip selected (same rows).
func (m *Model) drawLines(p ppos) []string {
	base := m.plines(p)
	if p.it >= 0 || !m.focused || p.i != m.sel || m.chip < 0 {
		return base
	}
	e := &m.ents[p.i]
	cw := m.contentWidth()
	if m.fc.idx != p.i || m.fc.w != cw || m.fc.chip != m.chip || m.fc.gen != e.gen || m.fc.lines == nil {
		m.fc.lines, _ = m.renderHead(e, cw, m.chip)
		m.fc.idx, m.fc.w, m.fc.chip, m.fc.gen = p.i, cw, m.chip, e.gen
	}
	if len(m.fc.lines) != len(base) { // cannot happen; never break the layout
		return base
	}
	return m.fc.lines
}

// ---- focus stops ----

func (m *Model) stopOf(p ppos) stop {
	if p.it >= 0 {
		return stop{p.i, p.it}
	}
	if it, ok := m.firstItem(p.i, 0); ok {
		return stop{p.i, it}
	}
	return stop{p.i, -1}
}

// stopFirst is the first part of stop s (a reply's first item starts with
// the reply's head).
func (m *Model) stopFirst(s stop) ppos {
	if s.it < 0 {
		return ppos{s.i, -1, 0}
	}
	if it, ok := m.firstItem(s.i, 0); !ok || it == s.it {
		return ppos{s.i, -1, 0}
	}
	return ppos{s.i, s.it, 0}
}

func (m *Model) stopLast(s stop) ppos {
	if s.it < 0 {
		return ppos{s.i, -1, 0}
	}
	return ppos{s.i, s.it, max(0, m.nparts(s.i, s.it)-1)}
}

func (m *Model) nextStop(s stop) (stop, bool) {
	if s.it >= 0 {
		if it, ok := m.firstItem(s.i, s.it+1); ok {
			return stop{s.i, it}, true
		}
	}
	if s.i+1 < len(m.ents) {
		return m.stopOf(m.firstPart(s.i + 1)), true
	}
	return s, false
}

func (m *Model) prevStop(s stop) (stop, bool) {
	if s.it >= 0 {
		if it, ok := m.lastItem(s.i, s.it); ok {
			return stop{s.i, it}, true
		}
	}
	if s.i > 0 {
		return m.stopOf(m.lastPart(s.i - 1)), true
	}
	return s, false
}

// lastStop is the stop of the last message's last part.
func (m *Model) lastStop() stop { return m.stopOf(m.lastPart(len(m.ents) - 1)) }

// cur is the focused stop, made valid.
func (m *Model) cur() stop {
	if m.sel < 0 || m.sel >= len(m.ents) {
		return stop{-1, -1}
	}
	s := stop{m.sel, m.selIt}
	if s.it >= 0 {
		vs := m.views(s.i)
		if s.it >= len(vs) || m.nparts(s.i, s.it) == 0 {
			s = m.stopOf(m.lastPart(s.i))
		}
	} else if _, ok := m.firstItem(s.i, 0); ok {
		s = m.stopOf(m.lastPart(s.i)) // a reply as a whole: its last item
	}
	return s
}

func (m *Model) setStop(s stop) {
	if s.i != m.sel {
		m.chip = -1
	}
	m.sel, m.selIt = s.i, s.it
}

// stopRows is the rows of stop s (gaps included), counted up to limit.
func (m *Model) stopRows(s stop, limit int) int {
	last := m.stopLast(s)
	rows := 0
	for q := m.stopFirst(s); ; {
		rows += m.ph(q)
		if q == last || rows > limit {
			return rows
		}
		var ok bool
		if q, ok = m.next(q); !ok {
			return rows
		}
	}
}

// ---- the text of a reply ----

// replyText is the Markdown of message i's text items, joined by a blank
// line (a user message: its resolved text).
func (m *Model) replyText(i int) string {
	e := &m.ents[i]
	if e.msg.Role == message.RoleUser {
		m.resolve(e)
		return e.text
	}
	var parts []string
	for _, iv := range m.views(i) {
		if iv.it.Kind == message.ItemText {
			parts = append(parts, iv.it.Body().String())
		}
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts, "\n\n")
}

// ownItems makes message i's Items its own slice before it is changed.
func (e *entry) ownItems() {
	if !e.owned {
		e.msg.Items = slices.Clone(e.msg.Items)
		e.owned = true
	}
}

// maxRenderedBytes is how much rendered text the text blocks keep: the
// blocks rendered longest ago lose their lines past it (and are rendered
// again if they are drawn again), so scrolling through a huge reply keeps
// only what was near the viewport lately, while a thread of ten thousand
// messages stays rendered once per width (about 15 MB of lines).
const maxRenderedBytes = 48 << 20

// renderRing remembers the text blocks rendered, oldest first, and how
// many bytes of lines they keep. A block is added as it is rendered (its
// lines are set right before or right after): its size is taken at the
// next add.
type renderRing struct {
	limit   int // bytes kept; 0: maxRenderedBytes
	queue   []kept
	head    int // queue[head:] are kept
	bytes   int // of the settled entries
	pending *part
}

type kept struct {
	p     *part
	lines []string // what p held when added: a part rendered again since is another entry
	n     int
}

func linesBytes(ls []string) int {
	n := 0
	for _, l := range ls {
		n += len(l) + 16
	}
	return n
}

func (r *renderRing) add(p *part) {
	if q := r.pending; q != nil {
		k := kept{p: q, lines: q.lines, n: linesBytes(q.lines)}
		r.queue = append(r.queue, k)
		r.bytes += k.n
	}
	r.pending = p
	limit := r.limit
	if limit <= 0 {
		limit = maxRenderedBytes
	}
	for r.bytes > limit && r.head < len(r.queue) {
		old := r.queue[r.head]
		r.queue[r.head] = kept{}
		r.head++
		r.bytes -= old.n
		if old.p != p && old.p.ok && len(old.lines) > 0 && len(old.p.lines) == len(old.lines) && &old.p.lines[0] == &old.lines[0] {
			*old.p = part{}
		}
	}
	if r.head > len(r.queue)/2 && r.head > 1024 {
		r.queue = append(r.queue[:0], r.queue[r.head:]...)
		r.head = 0
	}
}

package transcript

import (
	"fmt"
	"strings"

	"github.com/chipchat/chipchat/message"
)

// Text modes of a text item.
const (
	modeMarkdown = iota
	modePlain
)

// DefaultReplyBytes is the text of one item shown in full; beyond it the
// item shows its head and its tail (WithReplyBytes).
const DefaultReplyBytes = 4 << 20

// plainProbe is how much of a reply that may be plain text decides its
// mode.
const plainProbe = 4 << 10

// textView is a growing text item cut into blocks. Completed blocks are
// kept with their rendered lines; the open last block is re-scanned and
// re-rendered when the text grows. Beyond limit bytes the item keeps its
// first blocks (the head, about limit/2 bytes) and its last ones (the
// tail), and one elision line between them; the blocks in between are
// scanned past, never kept.
type textView struct {
	src   message.Text
	mode  int
	limit int

	blocks []blk // completed blocks of the head (all of them when not elided)
	elided bool
	tail   []blk // completed blocks of the tail
	open   blk   // the last block, still growing (hi == lo: none)
	at     cut   // where the open block starts
	elis   part  // the elision line

	// The rendered lines of the completed blocks drawn so far (keyed by
	// their range), and of the open block.
	parts map[[2]int]*part
	openP part
	ring  *renderRing // where kept lines are counted (nil: not bounded)
	// stream draws the open block while the reply streams (stream.go).
	stream streamDraw
	closed streamDraw // stream as it was when its block completed

	// gen counts changes of the open block (its render is cached per gen).
	gen uint64
}

func newTextView(mode, limit int) *textView {
	if limit <= 0 {
		limit = DefaultReplyBytes
	}
	return &textView{mode: mode, limit: limit}
}

// update brings the view to src. A text that extends the previous one
// keeps every completed block (only the end of the last completed block
// and what follows are compared, so an update costs the open block and the
// new bytes); any other text starts over.
func (tv *textView) update(src message.Text) {
	if src.Same(tv.src) || src.Len() == tv.src.Len() && src.Len() <= message.TextPiece && src.String() == tv.src.String() {
		return
	}
	if !tv.extends(src) {
		*tv = textView{mode: tv.mode, limit: tv.limit, gen: tv.gen + 1, ring: tv.ring}
	}
	tv.src = src
	tv.gen++
	// What a scan reads: from the open block on, as a window of the text
	// (scanWindow); where a scan reaches the window's end before the
	// text's, the window is taken again from where the scan started, twice
	// as long. A window's end is like the end of a shorter text, where a
	// scan only completes blocks the rest of the text cannot change.
	want := scanWindow
	w := windowAt(src, min(tv.at.next, src.Len()), want)
	for {
		lo := tv.at.next
		if tv.mode == modeMarkdown && tv.at.fence == 0 {
			lo = skipBlank(w, lo) // a fence continuation keeps its blank lines
		}
		if lo >= w.len() && w.len() < src.Len() {
			want = max(2*want, 2*(w.len()-tv.at.next))
			w = windowAt(src, tv.at.next, want)
			continue
		}
		if lo >= src.Len() {
			tv.setOpen(blk{lo: lo, hi: lo})
			break
		}
		var hi int
		var c cut
		var done bool
		if tv.mode == modePlain {
			hi, c, done = scanPlain(w, lo)
		} else {
			hi, c, done = scanMarkdown(w, lo, tv.at.fence)
		}
		if !done && w.len() < src.Len() {
			want = max(want, 2*(w.len()-tv.at.next))
			w = windowAt(src, tv.at.next, want)
			continue
		}
		b := blk{lo: lo, hi: hi, gap: tv.at.gap, fence: tv.at.fence}
		if !done {
			if tv.mode == modeMarkdown {
				b.hi = trimEndBlank(w, lo, hi)
			}
			tv.setOpen(b)
			break
		}
		b.closeFence = c.fence
		tv.add(b)
		tv.at = c
		want = scanWindow
	}
	if !tv.elided && src.Len() > tv.limit {
		tv.elide()
	}
	if tv.elided {
		tv.trimTail()
	}
}

// extends reports whether src continues the view's text: longer, and the
// same where the last completed block ends and the open block starts.
func (tv *textView) extends(src message.Text) bool {
	old := tv.src
	if src.Len() < old.Len() || old.Len() == 0 {
		return old.Len() == 0
	}
	from := tv.at.next
	if n := len(tv.tail); n > 0 {
		from = tv.tail[n-1].lo
	} else if n := len(tv.blocks); n > 0 && !tv.elided {
		from = tv.blocks[n-1].lo
	}
	from = max(0, min(from, old.Len()))
	head := min(64, old.Len())
	return src.Slice(from, old.Len()) == old.From(from) && src.Slice(0, head) == old.Slice(0, head)
}

func trimEndBlank(src win, lo, hi int) int {
	for hi > lo && (src.at(hi-1) == '\n' || src.at(hi-1) == ' ' || src.at(hi-1) == '\t' || src.at(hi-1) == '\r') {
		hi--
	}
	return hi
}

// setOpen makes b the open block; its rendered lines are kept when its
// range is the same.
func (tv *textView) setOpen(b blk) {
	if b.lo != tv.open.lo || b.hi != tv.open.hi || b.fence != tv.open.fence {
		tv.openP = part{}
	}
	tv.open = b
}

// cache is block b's render cache.
func (tv *textView) cache(b *blk) *part {
	if b == &tv.open {
		return &tv.openP
	}
	k := [2]int{b.lo, b.hi}
	p := tv.parts[k]
	if p == nil {
		if tv.parts == nil {
			tv.parts = map[[2]int]*part{}
		}
		p = &part{}
		tv.parts[k] = p
	}
	return p
}

func (tv *textView) add(b blk) {
	if tv.stream.ok && tv.stream.lo == b.lo && tv.stream.fence == b.fence {
		tv.closed, tv.stream = tv.stream, streamDraw{}
	}
	if b.lo == tv.open.lo && b.hi == tv.open.hi && b.fence == tv.open.fence && b.closeFence == 0 && tv.openP.ok {
		// The open block completed as it was drawn: keep its lines.
		p := tv.openP
		if tv.parts == nil {
			tv.parts = map[[2]int]*part{}
		}
		tv.parts[[2]int{b.lo, b.hi}] = &p
		tv.openP = part{}
		if tv.ring != nil {
			tv.ring.add(&p)
		}
	}
	if tv.elided {
		tv.tail = append(tv.tail, b)
		return
	}
	tv.blocks = append(tv.blocks, b)
}

// elide splits the blocks into head and tail once the text outgrows the
// limit.
func (tv *textView) elide() {
	tv.elided = true
	head := tv.limit / 2
	k := 0
	for k < len(tv.blocks) && tv.blocks[k].hi <= head {
		k++
	}
	tv.tail = append([]blk(nil), tv.blocks[k:]...)
	tv.blocks = tv.blocks[:k:k]
}

// trimTail drops tail blocks that start before the last limit/2 bytes.
func (tv *textView) trimTail() {
	from := tv.src.Len() - tv.limit/2
	k := 0
	for k < len(tv.tail) && tv.tail[k].lo < from {
		k++
	}
	if k > 0 {
		for _, b := range tv.tail[:k] {
			delete(tv.parts, [2]int{b.lo, b.hi})
		}
		// Moved down in place, not resliced: a resliced tail loses its
		// room at the front, and each append past it allocates the tail
		// again (78 MB of garbage over a 50 MB reply).
		n := copy(tv.tail, tv.tail[k:])
		tv.tail = tv.tail[:n]
		tv.elis = part{}
	}
}

// hidden is the number of bytes between the head and the tail.
func (tv *textView) hidden() int {
	end := 0
	if n := len(tv.blocks); n > 0 {
		end = tv.blocks[n-1].hi
	}
	start := tv.open.lo
	if len(tv.tail) > 0 {
		start = tv.tail[0].lo
	}
	return max(0, start-end)
}

// count is the number of parts: head blocks, the elision line, tail
// blocks, the open block.
func (tv *textView) count() int {
	n := len(tv.blocks) + len(tv.tail)
	if tv.elided {
		n++
	}
	if tv.open.hi > tv.open.lo {
		n++
	}
	return n
}

// part returns part k: a block, or nil for the elision line.
func (tv *textView) part(k int) *blk {
	if k < len(tv.blocks) {
		return &tv.blocks[k]
	}
	k -= len(tv.blocks)
	if tv.elided {
		if k == 0 {
			return nil
		}
		k--
	}
	if k < len(tv.tail) {
		return &tv.tail[k]
	}
	return &tv.open
}

// source is block b's Markdown as it is rendered: the fence it continues
// before it, a closing fence after it when it was cut inside one (an open
// block's fence is closed by the end of the text).
func (tv *textView) source(b *blk) string {
	s := tv.src.Slice(b.lo, b.hi)
	if b.fence == 0 && b.closeFence == 0 {
		return s
	}
	var sb strings.Builder
	if b.fence != 0 {
		sb.WriteString(fenceAt(tv.src, b.fence))
		sb.WriteByte('\n')
	}
	sb.WriteString(strings.TrimRight(s, "\n"))
	if c, n, ok := fenceOpen(fenceAt(tv.src, b.closeFence)); ok {
		sb.WriteString("\n" + strings.Repeat(string(c), n))
	}
	return sb.String()
}

// elision is the text of the elision line.
func (tv *textView) elision() string {
	return fmt.Sprintf("… %s not shown — o opens the whole reply in $PAGER", humanBytes(tv.hidden()))
}

// humanBytes writes n bytes as KB or MB with one decimal.
func humanBytes(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

package transcript

import (
	"strings"

	"github.com/chipchat/chipchat/message"
)

// Block splitting. A growing text item is cut into blocks, each rendered
// on its own and cached; only the open last block is rendered again while
// the text grows. Cutting is done on the Markdown source, line by line,
// and is resumable: a completed block never changes, so each update scans
// only the open block and the new bytes.
//
// Markdown blocks end at a blank line, except where a blank line does not
// end the construct: inside a fenced code block (whatever its indentation,
// so fences nested in list items count), and in a list when the next
// non-blank line is indented or another list item. A line indented four
// columns after a blank line continues the block too (indented code or a
// continuation paragraph). A block longer than maxBlock bytes (a table:
// eight times that) is cut at a line boundary, and a line longer than
// maxBlock at a space, so the open block stays small; a cut inside a fence carries
// the fence's opening line into the next block, which is rendered inside
// the same fence (and the cut block with a closing fence).
//
// Plain text is cut into groups of plainLines lines (or maxBlock bytes),
// any newline being a boundary.

const (
	maxBlock   = 2 << 10 // bytes a block grows to before it is cut (a table: 8×)
	plainLines = 48      // lines of a plain-text block
)

// blk is one block of a text item's source. It holds no pointer (a huge
// reply has tens of thousands), so the collector never scans them.
type blk struct {
	lo, hi int // source range; trailing blank lines excluded
	// fence is where the fence opening line the block continues starts
	// (a cut inside a fenced code block), plus one; 0 for none.
	// closeFence: the block was cut inside the fence opened by the line
	// there (plus one), and is drawn with a closing one.
	fence, closeFence int32
	gap               int8 // blank rows drawn before the block
}

// fenceAt is the fence opening line starting at off-1 in src ("" for off
// 0).
func fenceAt(src message.Text, off int32) string {
	if off <= 0 || int(off-1) >= src.Len() {
		return ""
	}
	end := src.IndexByte(int(off-1), src.Len(), '\n')
	if end < 0 {
		end = src.Len()
	}
	return strings.TrimLeft(src.Slice(int(off-1), end), " \t")
}

// win is the part of a text item's source a scan reads: its bytes from
// base to the end in one string (a view, or a copy where they span pieces
// of a long text), read at offsets into the whole text. A fence line
// before base is read from the text itself.
type win struct {
	t    message.Text
	s    string // t from base on
	base int
}

// scanWindow is the least a window holds past where a scan starts: a
// block is cut at maxBlock bytes (a table at eight times that), so a
// block fits in one, but for a long line.
const scanWindow = 4 * maxBlock

// windowAt is src from lo on: to the end of the piece lo is in (a view,
// all of a text in one string), or want bytes joined when that piece ends
// sooner.
func windowAt(src message.Text, lo, want int) win {
	end := src.PieceEnd(lo)
	if end-lo < want {
		end = min(src.Len(), lo+want)
	}
	return win{t: src, s: src.Slice(lo, end), base: lo}
}

func (w win) len() int               { return w.base + len(w.s) }
func (w win) from(i int) string      { return w.s[i-w.base:] }
func (w win) sl(i, j int) string     { return w.s[i-w.base : j-w.base] }
func (w win) at(i int) byte          { return w.s[i-w.base] }
func (w win) runeStart(i int) int    { return w.base + runeStart(w.s, i-w.base) }
func (w win) fenceAt(o int32) string { return fenceAt(w.t, o) }

// cut is where a scan left off: the start of the next block and the fence
// it continues (an offset plus one, as in blk).
type cut struct {
	next  int
	fence int32
	gap   int8
}

// fenceOpen reports whether line (no newline) opens a fenced code block,
// and returns its marker character and length.
func fenceOpen(line string) (byte, int, bool) {
	t := strings.TrimLeft(line, " \t")
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return 0, 0, false
	}
	c := t[0]
	n := 0
	for n < len(t) && t[n] == c {
		n++
	}
	if n < 3 {
		return 0, 0, false
	}
	if c == '`' && strings.IndexByte(t[n:], '`') >= 0 {
		return 0, 0, false
	}
	return c, n, true
}

// fenceCloses reports whether line closes a fence of c repeated n times.
func fenceCloses(line string, c byte, n int) bool {
	t := strings.TrimSpace(line)
	if len(t) < n {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] != c {
			return false
		}
	}
	return true
}

func isBlank(line string) bool { return strings.TrimSpace(line) == "" }

// listMarker reports whether line starts a list item.
func listMarker(line string) bool {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || t == "" {
		return false
	}
	if t[0] == '-' || t[0] == '*' || t[0] == '+' {
		return len(t) == 1 || t[1] == ' ' || t[1] == '\t'
	}
	i := 0
	for i < len(t) && i < 9 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 || i >= len(t) || (t[i] != '.' && t[i] != ')') {
		return false
	}
	return i+1 == len(t) || t[i+1] == ' ' || t[i+1] == '\t'
}

// indented reports whether line starts with a tab or at least n spaces.
func indented(line string, n int) bool {
	if strings.HasPrefix(line, "\t") {
		return true
	}
	return len(line) >= n && strings.TrimLeft(line[:n], " ") == ""
}

// skipBlank returns the start of the first non-blank line at or after
// pos (a line start), or len(src) when only blank lines follow; a partial
// last line counts as non-blank unless it is empty.
func skipBlank(src win, pos int) int {
	for pos < src.len() {
		nl := strings.IndexByte(src.from(pos), '\n')
		if nl < 0 {
			if strings.TrimSpace(src.from(pos)) == "" {
				return src.len()
			}
			return pos
		}
		if !isBlank(src.sl(pos, pos+nl)) {
			return pos
		}
		pos += nl + 1
	}
	return pos
}

// scanMarkdown scans the block starting at lo (a non-blank line start;
// fence: the fence it continues). complete is false when the text so far
// cannot tell where the block ends (then hi is the end of its text); when
// complete, [lo, hi) is the block and c says where the next one starts.
func scanMarkdown(src win, lo int, fence int32) (hi int, c cut, complete bool) {
	var fc byte
	var fn int
	inFence := false
	if fence != 0 {
		fc, fn, inFence = fenceOpen(src.fenceAt(fence))
	}
	list := false
	first := true
	table := false // the block is a table (its rows are not cut early)
	lines := 0
	blankAt := -1 // start of the blank run after content, -1 none
	pos := lo
	for pos < src.len() {
		nl := strings.IndexByte(src.from(pos), '\n')
		end := src.len()
		if nl >= 0 {
			end = pos + nl
		}
		line := src.sl(pos, end)
		terminated := nl >= 0
		lines++
		if lines == 2 && !inFence && tableDelim(line) && strings.Contains(src.sl(lo, pos), "|") {
			table = true
		}
		limit := maxBlock
		if table && strings.Contains(line, "|") {
			limit = 8 * maxBlock
		}
		// A cut of an over-long block, at a line start.
		if pos-lo >= limit && blankAt < 0 && !first {
			if inFence {
				return pos, cut{next: pos, fence: fenceLine(src, lo, fence, pos)}, true
			}
			return pos, cut{next: pos}, true
		}
		// A line longer than maxBlock is cut too (at a space when it can),
		// so no block grows without bound.
		if end-pos > maxBlock && inFence {
			c := cutLine(src, pos)
			return c, cut{next: c, fence: fenceLine(src, lo, fence, pos)}, true
		}
		if inFence {
			if terminated && fenceCloses(line, fc, fn) {
				inFence = false
			}
			first = false
			if !terminated {
				break
			}
			pos = end + 1
			continue
		}
		if isBlank(line) {
			if !terminated {
				break
			}
			if blankAt < 0 {
				blankAt = pos
			}
			pos = end + 1
			continue
		}
		if blankAt >= 0 {
			// The first line after blank lines: does it continue the block?
			if !terminated && len(line) < 16 && mayContinue(line[0]) {
				return src.len(), cut{}, false // cannot tell yet
			}
			cont := indented(line, 4) || (list && (listMarker(line) || indented(line, 1)))
			if !cont {
				return trimEndBlank(src, lo, blankAt), cut{next: pos, gap: 1}, true
			}
			blankAt = -1
		}
		if end-pos > maxBlock {
			c := cutLine(src, pos)
			return c, cut{next: c}, true
		}
		if first {
			list = listMarker(line)
			first = false
		}
		if c, n, ok := fenceOpen(line); ok && terminated {
			fc, fn, inFence = c, n, true
		}
		if !terminated {
			break
		}
		pos = end + 1
	}
	if blankAt >= 0 {
		return trimEndBlank(src, lo, blankAt), cut{}, false
	}
	return src.len(), cut{}, false
}

// cutLine is where a line starting at pos and longer than maxBlock is
// cut: after the last space in its first maxBlock bytes, else at a
// character boundary there.
func cutLine(src win, pos int) int {
	if i := strings.LastIndexByte(src.sl(pos+1, pos+maxBlock), ' '); i >= 0 {
		return pos + 1 + i + 1
	}
	return max(pos+1, src.runeStart(pos+maxBlock))
}

// mayContinue reports whether a line starting with c may continue a
// block after a blank line (an indented line, a list item).
func mayContinue(c byte) bool {
	return c == ' ' || c == '\t' || c == '-' || c == '*' || c == '+' || (c >= '0' && c <= '9')
}

// fenceLine is where the opening line of the fence open at pos starts
// (plus one), in the block starting at lo (which itself may continue
// fence).
func fenceLine(src win, lo int, fence int32, pos int) int32 {
	open := fence
	var fc byte
	var fn int
	in := false
	if fence != 0 {
		fc, fn, in = fenceOpen(src.fenceAt(fence))
	}
	for p := lo; p < pos; {
		nl := strings.IndexByte(src.sl(p, pos), '\n')
		end := pos
		if nl >= 0 {
			end = p + nl
		}
		line := src.sl(p, end)
		if in {
			if fenceCloses(line, fc, fn) {
				in = false
			}
		} else if c, n, ok := fenceOpen(line); ok {
			fc, fn, in, open = c, n, true, int32(p+1)
		}
		p = end + 1
	}
	return open
}

// scanPlain scans a plain-text block: plainLines lines or maxBlock bytes.
// A line longer than maxBlock is cut at a rune boundary.
func scanPlain(src win, lo int) (hi int, c cut, complete bool) {
	pos := lo
	for n := 0; n < plainLines; n++ {
		nl := strings.IndexByte(src.from(pos), '\n')
		if nl < 0 {
			if src.len()-lo >= maxBlock {
				if n > 0 { // as when the line ends: cut before it
					return pos, cut{next: pos}, true
				}
				e := src.runeStart(lo + maxBlock)
				return e, cut{next: e}, true
			}
			return src.len(), cut{}, false
		}
		if pos+nl-lo >= maxBlock && n > 0 {
			return pos, cut{next: pos}, true
		}
		if pos+nl-lo >= maxBlock {
			e := src.runeStart(lo + maxBlock)
			return e, cut{next: e}, true
		}
		pos += nl + 1
	}
	return pos, cut{next: pos}, true
}

// runeStart moves i back to the start of the UTF-8 sequence it is in (at
// most three bytes: further back the bytes are not UTF-8, and any place
// will do).
func runeStart(s string, i int) int {
	for k := 0; k < 3 && i > 0 && i < len(s) && s[i]&0xc0 == 0x80; k++ {
		i--
	}
	return i
}

// looksLikeMarkdown decides from a reply's first bytes whether it is
// Markdown: a fence, a heading, a table or a few list items, emphasis or
// links.
func looksLikeMarkdown(s string) bool {
	score := 0
	for _, line := range strings.Split(s, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case t == "":
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			return true
		case strings.HasPrefix(t, "#"):
			h := strings.TrimLeft(t, "#")
			if len(t)-len(h) <= 6 && strings.HasPrefix(h, " ") {
				return true
			}
		case strings.HasPrefix(t, "|") && strings.Contains(t, "---"):
			return true
		case listMarker(line):
			score++
		}
		if strings.Contains(t, "**") || strings.Contains(t, "](") {
			score++
		}
		if strings.Count(t, "`") >= 2 {
			score++
		}
		if score >= 3 {
			return true
		}
	}
	return false
}

package review

import (
	"os"
	"strings"
)

// This file computes diffs in Go, for agent edits (old and new text of one
// file), untracked files and word-level changes: Myers' O(ND) algorithm
// in linear space (the middle-snake bisection), over sequences of ints.

// editBudget bounds the work of one diff (diagonal steps); past it the
// parts still open become "delete all, insert all", so two unrelated large
// texts cost a bounded time instead of O(N·D).
const editBudget = 20_000_000

type differ struct {
	a, b       []int
	modA, modB []bool
	budget     int
}

// diffInts marks the elements of a that are deleted and of b that are
// inserted in a shortest edit script from a to b.
func diffInts(a, b []int) (modA, modB []bool) {
	d := &differ{a: a, b: b, modA: make([]bool, len(a)), modB: make([]bool, len(b)), budget: editBudget}
	d.compare(0, len(a), 0, len(b))
	return d.modA, d.modB
}

func (d *differ) compare(aLo, aHi, bLo, bHi int) {
	for aLo < aHi && bLo < bHi && d.a[aLo] == d.b[bLo] {
		aLo++
		bLo++
	}
	for aLo < aHi && bLo < bHi && d.a[aHi-1] == d.b[bHi-1] {
		aHi--
		bHi--
	}
	switch {
	case aLo == aHi:
		for j := bLo; j < bHi; j++ {
			d.modB[j] = true
		}
		return
	case bLo == bHi:
		for i := aLo; i < aHi; i++ {
			d.modA[i] = true
		}
		return
	}
	x, y, ok := d.bisect(aLo, aHi, bLo, bHi)
	if !ok {
		for i := aLo; i < aHi; i++ {
			d.modA[i] = true
		}
		for j := bLo; j < bHi; j++ {
			d.modB[j] = true
		}
		return
	}
	d.compare(aLo, x, bLo, y)
	d.compare(x, aHi, y, bHi)
}

// bisect finds a point (x, y) on a shortest edit path of a[aLo:aHi] to
// b[bLo:bHi] by running the forward and the reverse search until they
// meet. Both ranges are non-empty and differ at both ends, so the point
// splits the problem into two strictly smaller ones.
func (d *differ) bisect(aLo, aHi, bLo, bHi int) (int, int, bool) {
	n, m := aHi-aLo, bHi-bLo
	maxD := (n + m + 1) / 2
	off := maxD + 1
	size := 2*maxD + 3
	v1 := make([]int, size)
	v2 := make([]int, size)
	for i := range v1 {
		v1[i], v2[i] = -1, -1
	}
	v1[off+1], v2[off+1] = 0, 0
	delta := n - m
	front := delta%2 != 0
	var k1start, k1end, k2start, k2end int
	for D := 0; D < maxD+1; D++ {
		if d.budget -= 2*D + 2; d.budget < 0 {
			return 0, 0, false
		}
		for k1 := -D + k1start; k1 <= D-k1end; k1 += 2 {
			i := off + k1
			var x1 int
			if k1 == -D || (k1 != D && v1[i-1] < v1[i+1]) {
				x1 = v1[i+1]
			} else {
				x1 = v1[i-1] + 1
			}
			y1 := x1 - k1
			for x1 < n && y1 < m && d.a[aLo+x1] == d.b[bLo+y1] {
				x1++
				y1++
			}
			v1[i] = x1
			switch {
			case x1 > n:
				k1end += 2
			case y1 > m:
				k1start += 2
			case front:
				j := off + delta - k1
				if j >= 0 && j < size && v2[j] != -1 {
					if x2 := n - v2[j]; x1 >= x2 {
						return aLo + x1, bLo + y1, true
					}
				}
			}
		}
		for k2 := -D + k2start; k2 <= D-k2end; k2 += 2 {
			i := off + k2
			var x2 int
			if k2 == -D || (k2 != D && v2[i-1] < v2[i+1]) {
				x2 = v2[i+1]
			} else {
				x2 = v2[i-1] + 1
			}
			y2 := x2 - k2
			for x2 < n && y2 < m && d.a[aHi-x2-1] == d.b[bHi-y2-1] {
				x2++
				y2++
			}
			v2[i] = x2
			switch {
			case x2 > n:
				k2end += 2
			case y2 > m:
				k2start += 2
			case !front:
				j := off + delta - k2
				if j >= 0 && j < size && v1[j] != -1 {
					x1 := v1[j]
					y1 := off + x1 - j
					if x1 >= n-x2 {
						return aLo + x1, bLo + y1, true
					}
				}
			}
		}
	}
	return 0, 0, false
}

// splitLines splits text into lines without their LF; noNewline reports a
// last line with no LF after it.
func splitLines(s string) (lines []string, noNewline bool) {
	if s == "" {
		return nil, false
	}
	lines = strings.Split(s, "\n")
	if lines[len(lines)-1] == "" {
		return lines[:len(lines)-1], false
	}
	return lines, true
}

// interner gives each distinct string a small int, so diffs compare ints.
type interner map[string]int

// all interns key(0) … key(n-1).
func (in interner) all(n int, key func(int) string) []int {
	out := make([]int, n)
	for i := range out {
		k := key(i)
		id, ok := in[k]
		if !ok {
			id = len(in)
			in[k] = id
		}
		out[i] = id
	}
	return out
}

// lineOp is one step of a line edit script; ai and bi are the positions in
// the old and new lines when the step is taken.
type lineOp struct {
	kind   LineKind
	ai, bi int
}

// diffLines is the edit script from old to new lines. A last line without
// LF differs from the same text with one.
func diffLines(a []string, aNoNL bool, b []string, bNoNL bool) []lineOp {
	in := interner{}
	keys := func(lines []string, noNL bool) []int {
		return in.all(len(lines), func(i int) string {
			if noNL && i == len(lines)-1 {
				return lines[i] + "\x00\\ No newline"
			}
			return lines[i]
		})
	}
	ai, bi := keys(a, aNoNL), keys(b, bNoNL)
	modA, modB := diffInts(ai, bi)
	ops := make([]lineOp, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && modA[i]:
			ops = append(ops, lineOp{LineDeleted, i, j})
			i++
		case j < len(b) && modB[j]:
			ops = append(ops, lineOp{LineAdded, i, j})
			j++
		default:
			ops = append(ops, lineOp{LineContext, i, j})
			i++
			j++
		}
	}
	return ops
}

// DefaultContext is the number of context lines around a change, as git's
// -U3.
const DefaultContext = 3

// buildHunks groups an edit script into hunks with ctx lines of context.
func buildHunks(ops []lineOp, a []string, aNoNL bool, b []string, bNoNL bool, ctx int) []*Hunk {
	var hunks []*Hunk
	i := 0
	for i < len(ops) {
		if ops[i].kind == LineContext {
			i++
			continue
		}
		start := max(0, i-ctx)
		last := i
		j := i
		for j < len(ops) {
			if ops[j].kind != LineContext {
				last = j
				j++
				continue
			}
			k := j
			for k < len(ops) && ops[k].kind == LineContext {
				k++
			}
			if k == len(ops) || k-j > 2*ctx {
				break
			}
			j = k
		}
		stop := min(len(ops), last+1+ctx)
		hunks = append(hunks, makeHunk(ops[start:stop], a, aNoNL, b, bNoNL))
		i = stop
	}
	return hunks
}

func makeHunk(ops []lineOp, a []string, aNoNL bool, b []string, bNoNL bool) *Hunk {
	h := &Hunk{}
	for _, op := range ops {
		var l Line
		switch op.kind {
		case LineContext:
			l = Line{Kind: LineContext, Old: op.ai + 1, New: op.bi + 1, Text: b[op.bi]}
			l.NoNewline = bNoNL && op.bi == len(b)-1
			h.OldLines++
			h.NewLines++
		case LineDeleted:
			l = Line{Kind: LineDeleted, Old: op.ai + 1, Text: a[op.ai]}
			l.NoNewline = aNoNL && op.ai == len(a)-1
			h.OldLines++
		case LineAdded:
			l = Line{Kind: LineAdded, New: op.bi + 1, Text: b[op.bi]}
			l.NoNewline = bNoNL && op.bi == len(b)-1
			h.NewLines++
		}
		h.Lines = append(h.Lines, l)
	}
	h.OldStart, h.NewStart = ops[0].ai, ops[0].bi
	if h.OldLines > 0 {
		h.OldStart++
	}
	if h.NewLines > 0 {
		h.NewStart++
	}
	return h
}

// DiffText is the diff of one file from oldText to newText (oldText nil: a
// new file), with ctx lines of context (DefaultContext when < 0).
func DiffText(path string, oldText *string, newText string, ctx int) *File {
	if ctx < 0 {
		ctx = DefaultContext
	}
	f := &File{OldPath: path, NewPath: path, Status: Modified}
	old := ""
	if oldText == nil {
		f.Status, f.OldPath = Added, ""
	} else {
		old = *oldText
	}
	if looksBinary(old) || looksBinary(newText) {
		f.Binary = true
		return f
	}
	a, aNoNL := splitLines(old)
	b, bNoNL := splitLines(newText)
	f.Hunks = buildHunks(diffLines(a, aNoNL, b, bNoNL), a, aNoNL, b, bNoNL, ctx)
	return f
}

// looksBinary is git's test: a NUL byte in the first 8000 bytes.
func looksBinary(s string) bool {
	if len(s) > 8000 {
		s = s[:8000]
	}
	return strings.IndexByte(s, 0) >= 0
}

// shiftLines numbers f's hunks from line by+1 of the file on: a snippet's
// diff, numbered by its file.
func shiftLines(f *File, by int) {
	if by <= 0 {
		return
	}
	for i := range f.Hunks {
		h := f.Hunks[i]
		if h.OldLines > 0 || h.OldStart > 0 {
			h.OldStart += by
		}
		if h.NewLines > 0 || h.NewStart > 0 {
			h.NewStart += by
		}
		for j := range h.Lines {
			if h.Lines[j].Old > 0 {
				h.Lines[j].Old += by
			}
			if h.Lines[j].New > 0 {
				h.Lines[j].New += by
			}
		}
	}
}

// locateSnippet is the line at which the file at path, as it is now, holds
// the agent's snippet: its new text found exactly once (the edit made),
// else its old text; 0 when neither (the numbers stay the snippet's).
func locateSnippet(path string, oldText *string, newText string) int {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 16<<20 {
		return 0
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	file := string(b)
	for _, s := range []string{newText, deref(oldText)} {
		if i := strings.Index(file, s); s != "" && i >= 0 && !strings.Contains(file[i+1:], s) {
			return 1 + strings.Count(file[:i], "\n")
		}
	}
	return 0
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

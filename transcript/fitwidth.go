package transcript

import (
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Drawing a short block at a narrower width. Glamour pads every line it
// draws to the full width, one SGR sequence per blank, and passes each of
// them through several writers a rune at a time: most of what a short
// paragraph or list costs to draw is its padding, which trimPadding then
// cuts. A block made only of paragraphs and flat lists whose lines all fit
// in a narrower width is drawn at that width: glamour wraps nothing at
// either, and the lines differ only in the padding that is cut
// (TestFitWidthSameLines, FuzzFitWidth check the lines are the same).

// fitStep is the step of the narrower widths (few renderers are made).
const fitStep = 16

// fitSlack is the room left beyond the widest line the source can draw:
// list markers and code spans draw as wide as their source, and the rest
// of what a safe line holds no wider.
const fitSlack = 8

// fitWidth is the width, at most w, glamour can draw src at with the lines
// it draws at w: w itself unless every line of src is safe (fitSafe), else
// the widest paragraph or list item as one line, with slack, rounded up to
// a multiple of fitStep.
func fitWidth(src string, w int) int {
	need, run := 0, 0 // the widest run of joined lines; the current one
	for l := range strings.Lines(src) {
		l = strings.TrimSuffix(l, "\n")
		if isBlank(l) {
			run = 0
			continue
		}
		if !fitSafe(l) {
			return w
		}
		lw := ansi.StringWidth(l)
		if run == 0 || bulletItem(l) {
			run = lw
		} else {
			run += 1 + lw // a soft break draws as a space
		}
		need = max(need, run)
		if need+fitSlack >= w {
			return w
		}
	}
	return min(w, (need+fitSlack+fitStep-1)/fitStep*fitStep)
}

// bulletItem says whether l starts a bullet list item, which starts a new
// paragraph even after a paragraph's line.
func bulletItem(l string) bool {
	return len(l) > 2 && (l[0] == '-' || l[0] == '*' || l[0] == '+') && l[1] == ' ' && l[2] != ' '
}

// fitSafe says whether line l can only be part of a paragraph or a flat
// list item drawn no wider than its source: it starts with no blank (no
// nested list, indented code or continuation) and no block marker
// (heading, quote, table, fence, HTML), is no thematic break or setext
// underline, and holds no link, image, autolink or HTML (drawn with their
// targets, or as their source).
func fitSafe(l string) bool {
	switch l[0] {
	case ' ', '\t', '#', '>', '|', '<', '=', '`', '~':
		return false
	}
	if strings.Trim(l, "-*_= ") == "" {
		return false
	}
	if strings.ContainsAny(l, "[]<>|@\\&:") || strings.Contains(l, "www.") {
		return false
	}
	for i := 0; i < len(l); i++ {
		if c := l[i]; c < 0x20 || c == 0x7f {
			return false
		}
	}
	return true
}

// fitProbe is drawn at two widths to see whether a style draws short
// blocks the same at both (it does unless its text has a background,
// whose padding shows).
const fitProbe = "Some *text* with **bold** and `code`.\n\n- one\n- two, longer\n\n1. three\n2. four"

// fitDraws says whether short blocks may be drawn at a narrower width in
// this style: the probe's lines are the same drawn at two widths (found
// once per transcript).
func (m *Model) fitDraws() bool {
	if m.fitOK == 0 {
		m.fitOK = -1
		a := drawWith(m.newGlamour(2*fitProbeWidth), fitProbe, 2*fitProbeWidth, true)
		b := drawWith(m.newGlamour(fitProbeWidth), fitProbe, 2*fitProbeWidth, true)
		if len(a) > 0 && slices.Equal(a, b) {
			m.fitOK = 1
		}
	}
	return m.fitOK > 0
}

// fitProbeWidth is the narrower width the probe is drawn at.
const fitProbeWidth = 48

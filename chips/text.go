package chips

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Sanitize makes text that came from outside (labels, file names, terminal
// text, diffs, payloads) safe to put on a terminal, keeping line breaks:
//
//   - invalid UTF-8 becomes U+FFFD (so no stray byte can act as a C1 control
//     or swallow the byte after it);
//   - every escape sequence (CSI, OSC — hyperlinks and titles included —,
//     DCS, SOS, PM, APC, and 8-bit forms) is removed with ansi.Strip;
//   - the remaining C0 and C1 control characters and DEL are removed; a tab
//     becomes one space, CR is dropped (so CRLF becomes LF), U+2028 and
//     U+2029 become LF;
//   - invisible characters that can reorder or hide text — the bidi
//     controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C),
//     zero-width and invisible format characters (U+200B, U+2060–U+2064,
//     U+FEFF, U+180E, U+FFF9–U+FFFB) and tag characters outside an emoji
//     flag — are never written raw: each is drawn as a visible mark such
//     as ⟨U+202E⟩ (InvisibleMark), so nothing can reorder what is drawn
//     after it and nothing hides in plain sight. ZWJ and ZWNJ, which
//     emoji and several scripts need, are kept.
//
// Printable text is kept as it is.
func Sanitize(s string) string { return sanitize(s, true) }

// SanitizeLine is Sanitize for one-line use: a line break becomes a space.
func SanitizeLine(s string) string { return sanitize(s, false) }

func sanitize(s string, keepNL bool) string {
	if isPlain(s, keepNL) {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	if hasC1(s) {
		s = sevenBit(s)
	}
	if strings.IndexByte(s, 0x1b) >= 0 {
		s = ansi.Strip(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	inFlag := false // after U+1F3F4: tag characters spell a subdivision flag
	for _, r := range s {
		switch {
		case r == '\n' || r == '\u2028' || r == '\u2029':
			if keepNL {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		case r == '\t':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f:
			// C0 (CR, BEL, ESC left over, …), DEL and C1: dropped.
		case inFlag && r >= 0xe0020 && r <= 0xe007f:
			b.WriteRune(r)
			inFlag = r != 0xe007f
			continue
		default:
			if m, ok := InvisibleMark(r); ok {
				b.WriteString(m)
			} else {
				b.WriteRune(r)
			}
		}
		inFlag = r == 0x1f3f4
	}
	return b.String()
}

// IsInvisible reports the characters Sanitize draws as marks: bidi
// controls, zero-width and invisible format characters, tag characters.
func IsInvisible(r rune) bool {
	switch {
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, // embeddings, overrides, isolates
		r == 0x200e, r == 0x200f, r == 0x061c, // LRM, RLM, ALM
		r == 0x200b, r >= 0x2060 && r <= 0x2064, r == 0xfeff, r == 0x180e, // zero-width, invisible operators, BOM
		r >= 0xfff9 && r <= 0xfffb,   // interlinear annotation
		r >= 0xe0000 && r <= 0xe007f: // tags
		return true
	}
	return false
}

// InvisibleMark is the visible mark drawn for an invisible character
// (IsInvisible), such as ⟨U+202E⟩; ok is false for any other rune. The
// text it stands for is kept as it is wherever it is stored.
func InvisibleMark(r rune) (string, bool) {
	if !IsInvisible(r) {
		return "", false
	}
	return fmt.Sprintf("⟨U+%04X⟩", r), true
}

// isPlain reports whether s is printable ASCII only (plus LF when allowed),
// the common case that needs no work.
func isPlain(s string, keepNL bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f || c == '\n' && keepNL {
			continue
		}
		return false
	}
	return true
}

// hasC1 reports whether valid UTF-8 s holds a C1 control character
// (U+0080–U+009F).
func hasC1(s string) bool {
	for i := 0; i < len(s)-1; i++ {
		if s[i] == 0xc2 && s[i+1] >= 0x80 && s[i+1] <= 0x9f {
			return true
		}
	}
	return false
}

// sevenBit rewrites each C1 control as its 7-bit form, ESC followed by the
// control minus 0x40 (U+009B CSI → ESC '[', U+009D OSC → ESC ']', …), so
// that ansi.Strip removes a whole C1-introduced sequence the way a terminal
// that honours C1 would read it, parameters included.
func sevenBit(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9f {
			b.WriteByte(0x1b)
			b.WriteByte(s[i+1] - 0x40)
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// oneLine is SanitizeLine with white space runs folded to one space and the
// ends trimmed: the form of a label inside a chip or a heading.
func oneLine(s string) string {
	return strings.Join(strings.Fields(SanitizeLine(s)), " ")
}

// Truncate cuts s to at most width display columns, ending it with "…" when
// anything was cut. Widths are those of ansi.StringWidth: East Asian wide
// characters and emoji take two columns, combining marks none, and a
// grapheme cluster is never split. Escape sequences in s are kept and do not
// count, but s is meant to be sanitized text (invalid UTF-8 becomes
// U+FFFD first, so a stray byte cannot pass for a C1 control). width ≤ 0
// gives "".
func Truncate(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if ansi.StringWidth(s) <= width {
		return s
	}
	out := ansi.Truncate(s, width, "…")
	if ansi.StringWidth(out) > width {
		// A malformed escape made measuring and cutting disagree: cut the
		// sanitized text instead, so the width holds for any input.
		out = ansi.Truncate(SanitizeLine(s), width, "…")
	}
	return out
}

// truncateLeft is Truncate that keeps the end of s, starting it with "…":
// the right cut for paths, whose last segment says the most.
func truncateLeft(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= width {
		return s
	}
	if width == 1 {
		return "…"
	}
	cl := clusters(s)
	budget := width - 1
	i := len(cl)
	for i > 0 && cl[i-1].w <= budget {
		budget -= cl[i-1].w
		i--
	}
	var b strings.Builder
	b.WriteString("…")
	for _, c := range cl[i:] {
		b.WriteString(c.s)
	}
	return b.String()
}

type cluster struct {
	s string
	w int
}

// clusters splits plain text into grapheme clusters with their widths.
func clusters(s string) []cluster {
	out := make([]cluster, 0, utf8.RuneCountInString(s))
	for s != "" {
		c, w := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
		if c == "" { // cannot happen; never loop forever
			c, w = s[:1], 1
		}
		out = append(out, cluster{c, w})
		s = s[len(c):]
	}
	return out
}

// wrapText breaks one line of plain text into lines of at most width
// columns. With words set it breaks after the last space that fits (and
// drops the spaces at the break); otherwise it breaks anywhere, keeping
// every space, which suits code. A cluster wider than width alone becomes
// "…". width ≤ 0 means no limit.
func wrapText(s string, width int, words bool) []string {
	if width <= 0 || ansi.StringWidth(s) <= width {
		return []string{s}
	}
	var out []string
	var line []cluster
	lw := 0
	flush := func(upto int) {
		var b strings.Builder
		for _, c := range line[:upto] {
			b.WriteString(c.s)
		}
		t := b.String()
		if words {
			t = strings.TrimRight(t, " ")
		}
		out = append(out, t)
		line = append(line[:0:0], line[upto:]...)
		lw = 0
		for _, c := range line {
			lw += c.w
		}
	}
	for _, c := range clusters(s) {
		if c.w > width {
			c = cluster{"…", 1}
		}
		for lw+c.w > width {
			cut := len(line)
			if words && c.s != " " {
				for j := len(line) - 1; j > 0; j-- {
					if line[j].s == " " {
						cut = j + 1
						break
					}
				}
			}
			flush(cut)
		}
		if words && c.s == " " && len(line) == 0 && len(out) > 0 {
			continue // no space at the start of a wrapped line
		}
		line = append(line, c)
		lw += c.w
	}
	if len(line) > 0 || len(out) == 0 {
		flush(len(line))
	}
	return out
}

// fitLines is the last guard on every rendered text: each line is cut to
// width (a renderer that overflows is cut, not trusted), and compact output
// keeps its first line only. width ≤ 0 means no limit.
func fitLines(s string, width int, single bool) string {
	if single {
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[:i]
		}
	}
	if width <= 0 {
		return s
	}
	if !strings.Contains(s, "\n") {
		if ansi.StringWidth(s) > width {
			return ansi.Truncate(s, width, "…")
		}
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if ansi.StringWidth(l) > width {
			lines[i] = ansi.Truncate(l, width, "…")
		}
	}
	return strings.Join(lines, "\n")
}

// ExpandTabs replaces each tab with spaces up to the next multiple of four
// columns (counting runes, which is exact for the ASCII indentation tabs
// usually sit in), for code whose alignment matters.
func ExpandTabs(s string) string {
	if strings.IndexByte(s, '\t') < 0 {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		switch r {
		case '\t':
			n := 4 - col%4
			b.WriteString("    "[:n])
			col += n
		case '\n':
			b.WriteRune(r)
			col = 0
		default:
			b.WriteRune(r)
			col++
		}
	}
	return b.String()
}

package transcript

import (
	"fmt"
	"strings"
	"sync"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/message"
)

// ItemRenderer draws a reply item on one surface: one string per row, none
// wider than c.Width (the registry cuts what is wider). The surfaces are the
// chips' ones: Compact is the item as the transcript shows it, Expanded the
// same item opened in place (space), Details the popover (enter).
//
// For the kinds whose text grows (text, thought), Compact and Expanded
// draw one block of the item's text (the transcript cuts it and passes
// each block as the item's Text), so a frame renders the open block only.
type ItemRenderer func(it message.Item, c ItemContext) []string

// ItemContext is what an item renderer draws with.
type ItemContext struct {
	Width int
	// Plain says a text block is plain text (keep every line) rather
	// than Markdown.
	Plain bool
	// NoColor draws with attributes only.
	NoColor bool
	// Looks are the item styles.
	Looks *ItemLooks

	md func(src string, width int) []string
}

// Markdown renders Markdown source at the context's width (glamour with
// the transcript's style; tables sized to their content).
func (c ItemContext) Markdown(src string) []string {
	if c.md == nil {
		return wrapPlain(chips.Sanitize(chips.ExpandTabs(src)), c.Width, lipgloss.NewStyle())
	}
	return c.md(src, c.Width)
}

type itemKey struct {
	kind    message.ItemKind
	surface chips.Surface
}

// ItemRegistry maps each (item kind, surface) to its renderer, as the
// chips registry does for chips. It is safe for concurrent use.
type ItemRegistry struct {
	mu       sync.RWMutex
	handlers map[itemKey]ItemRenderer
}

// NewItemRegistry returns a registry with no renderers.
func NewItemRegistry() *ItemRegistry {
	return &ItemRegistry{handlers: map[itemKey]ItemRenderer{}}
}

// itemKind is a built-in item kind's definition on the transcript's side,
// one per file (item_text.go, item_thought.go, …): its renderer on each
// surface, its pager title and text, and how it sits among other items.
// Every kind of message.Specs has one (items_test.go checks each surface
// with the kind's sample).
type itemKind struct {
	// Compact, Expanded and Details draw the item on each surface.
	Compact, Expanded, Details ItemRenderer
	// Title is the pager's title for the item.
	Title func(it message.Item) string
	// Pager is the item whole as text, for $PAGER; nil: its Details
	// surface as plain text.
	Pager func(it message.Item) string
	// Inline: items of the kind sit on consecutive rows with no blank row
	// between them.
	Inline bool
}

// render is the kind's renderer on surface s.
func (d itemKind) render(s chips.Surface) ItemRenderer {
	switch s {
	case chips.Compact:
		return d.Compact
	case chips.Expanded:
		return d.Expanded
	case chips.Details:
		return d.Details
	}
	return nil
}

// title is a pager title that is the same for every item of a kind.
func title(s string) func(message.Item) string { return func(message.Item) string { return s } }

// itemKinds are the definitions of the built-in kinds.
var itemKinds = map[message.ItemKind]itemKind{}

// registerKind records a built-in kind's definition; called from each item
// file's init.
func registerKind(k message.ItemKind, d itemKind) {
	if _, dup := itemKinds[k]; dup {
		panic(fmt.Sprintf("transcript: item kind %q registered twice", k))
	}
	itemKinds[k] = d
}

// DefaultItems returns a registry with the built-in renderers of every
// item kind.
func DefaultItems() *ItemRegistry {
	r := NewItemRegistry()
	for _, k := range message.Kinds {
		d, ok := itemKinds[k]
		if !ok {
			continue
		}
		for _, s := range chips.Surfaces {
			if fn := d.render(s); fn != nil {
				if err := r.Register(k, s, fn); err != nil {
					panic(err) // a fresh registry holds no handler
				}
			}
		}
	}
	return r
}

// Register adds the renderer of kind on surface s. A second renderer for
// the same kind and surface is an error, as are an empty kind, an unknown
// surface and a nil renderer.
func (r *ItemRegistry) Register(kind message.ItemKind, s chips.Surface, fn ItemRenderer) error {
	switch {
	case kind == "":
		return fmt.Errorf("transcript: register item: empty kind")
	case s < chips.Compact || s > chips.Expanded:
		return fmt.Errorf("transcript: register item %q: unknown surface %d", kind, int(s))
	case fn == nil:
		return fmt.Errorf("transcript: register item %q %s: nil renderer", kind, s)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	k := itemKey{kind, s}
	if _, dup := r.handlers[k]; dup {
		return fmt.Errorf("transcript: a %s renderer for item kind %q is already registered", s, kind)
	}
	r.handlers[k] = fn
	return nil
}

// Has reports whether kind has a renderer on surface s.
func (r *ItemRegistry) Has(kind message.ItemKind, s chips.Surface) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.handlers[itemKey{kind, s}] != nil
}

// Render draws it on surface s. It never returns nothing: an item of a
// kind with no renderer (a newer chipchat's, say), or whose renderer
// panics or draws nothing, is drawn as a visible fallback line. Every row
// is cut to c.Width and closes its own styles.
func (r *ItemRegistry) Render(s chips.Surface, it message.Item, c ItemContext) []string {
	if c.Looks == nil {
		c.Looks = newItemLooks(c.NoColor)
	}
	c.Width = max(1, c.Width)
	r.mu.RLock()
	fn := r.handlers[itemKey{it.Kind, s}]
	r.mu.RUnlock()
	var out []string
	why := ""
	if fn == nil {
		why = fmt.Sprintf("no %s renderer for item kind %q", s, it.Kind)
	} else {
		out, why = callItem(fn, it, c)
	}
	if why != "" {
		out = fallbackItem(it, why, c)
	}
	for k, l := range out {
		if ansi.StringWidth(l) > c.Width {
			l = ansi.Truncate(l, c.Width, "…")
		}
		out[k] = closeLine(l)
	}
	return out
}

func callItem(fn ItemRenderer, it message.Item, c ItemContext) (out []string, why string) {
	defer func() {
		if p := recover(); p != nil {
			out, why = nil, fmt.Sprintf("renderer failed: %v", p)
		}
	}()
	out = fn(it, c)
	if len(out) == 0 {
		return nil, "renderer drew nothing"
	}
	return out, ""
}

// fallbackItem is the visible line of an item that cannot be drawn.
func fallbackItem(it message.Item, why string, c ItemContext) []string {
	kind := chips.SanitizeLine(string(it.Kind))
	if kind == "" {
		kind = "item"
	}
	line := c.Looks.Faint.Render("▫ "+kind) + " " + c.Looks.Warn.Render("("+chips.SanitizeLine(why)+")")
	out := []string{line}
	if t := strings.TrimSpace(it.Text); t != "" {
		out = append(out, wrapPlain(chips.Sanitize(firstLines(t, 3)), c.Width, c.Looks.Faint)...)
	}
	return out
}

// ItemLooks are the styles items draw with.
type ItemLooks struct {
	Glyph, Title, Faint, OK, Bad, Warn, Running lipgloss.Style
	Add, Del, Hunk, LineNo, Path                lipgloss.Style
	// AddBG and DelBG are the backgrounds of added and deleted diff lines
	// (nil without colour).
	AddBG, DelBG []byte
	// Syntax is the chroma style of diffs and fenced code in tool output
	// ("": "monokai").
	Syntax string
}

func newItemLooks(noColor bool) *ItemLooks {
	b := lipgloss.NewStyle().Bold(true)
	f := lipgloss.NewStyle().Faint(true)
	if noColor {
		return &ItemLooks{Glyph: b, Title: b, Faint: f, OK: lipgloss.NewStyle(), Bad: b, Warn: b, Running: f,
			Add: lipgloss.NewStyle(), Del: lipgloss.NewStyle(), Hunk: f, LineNo: f, Path: b}
	}
	c := func(n string) lipgloss.Style { return lipgloss.NewStyle().Foreground(lipgloss.Color(n)) }
	return &ItemLooks{
		Glyph: c("75").Bold(true), Title: c("252").Bold(true), Faint: c("245"),
		OK: c("114"), Bad: c("203"), Warn: c("215"), Running: c("179"),
		Add: c("114"), Del: c("203"), Hunk: c("110"), LineNo: c("242"), Path: c("252").Bold(true),
		AddBG: []byte("\x1b[48;5;22m"), DelBG: []byte("\x1b[48;5;52m"),
	}
}

// firstLines is s up to its n-th newline.
// headBytes is how much of an item's text a summary line reads (its
// first lines), detailsMaxBytes how much a details popover does.
const (
	headBytes       = 16 << 10
	detailsMaxBytes = 1 << 20
)

// textHead is the first n bytes of t (fewer at the end of a character
// cut there): what a summary of a long text reads, never the whole.
func textHead(t message.Text, n int) string {
	if t.Len() <= n {
		return t.String()
	}
	s := t.Slice(0, n+1)
	return s[:runeStart(s, n)]
}

// countLines is the number of lines of t, read piece by piece.
func countLines(t message.Text) int {
	n := 1
	for p := range t.Pieces(0) {
		n += strings.Count(p, "\n")
	}
	return n
}

func firstLines(s string, n int) string {
	pos := 0
	for k := 0; k < n; k++ {
		i := strings.IndexByte(s[pos:], '\n')
		if i < 0 {
			return s
		}
		pos += i + 1
	}
	return strings.TrimRight(s[:pos], "\n")
}

// wrapPlain wraps sanitized text at width, keeping every line break and
// each line's indentation on its continuation rows, in style st.
func wrapPlain(s string, width int, st lipgloss.Style) []string {
	width = max(1, width)
	var out []string
	for _, line := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		line = strings.TrimRight(line, " \r")
		for _, r := range wrapIndent(line, width) {
			if r != "" {
				r = st.Render(r)
			}
			out = append(out, r)
		}
	}
	return out
}

// wrapIndent wraps one line (it may hold SGR styles) at width: at spaces
// where it can, hard elsewhere; continuation rows start with the line's
// own indentation (up to half the width).
func wrapIndent(line string, width int) []string {
	if ansi.StringWidth(line) <= width {
		return []string{line}
	}
	plainL := ansi.Strip(line)
	return wrapHang(line, width, len(plainL)-len(strings.TrimLeft(plainL, " ")))
}

// wrapHang wraps a line at width with its continuation rows indented ind
// columns (none when ind is more than half the width).
func wrapHang(line string, width, ind int) []string {
	if ansi.StringWidth(line) <= width {
		return []string{line}
	}
	if ind > width/2 {
		ind = 0
	}
	first := ansi.Wrap(line, width, "")
	rows := strings.Split(first, "\n")
	if ind == 0 || len(rows) == 1 {
		for k := 1; k < len(rows); k++ {
			rows[k] = trimLeftSpaces(rows[k])
		}
		return fixRows(rows, width)
	}
	// Re-wrap the rest at the narrower width, indented.
	out := []string{rows[0]}
	tail := ansi.Cut(line, ansi.StringWidth(rows[0]), ansi.StringWidth(line))
	tail = trimLeftSpaces(tail)
	pad := strings.Repeat(" ", ind)
	for _, r := range strings.Split(ansi.Wrap(tail, width-ind, ""), "\n") {
		out = append(out, pad+trimLeftSpaces(r))
	}
	return fixRows(out, width)
}

// trimLeftSpaces is s without the spaces it starts with, escape sequences
// kept: a wrapped row of styled text (code, whose every token opens its
// colour) starts with the space the wrap broke at only after an escape
// sequence, where strings.TrimLeft misses it.
func trimLeftSpaces(s string) string {
	var b strings.Builder
	i := 0
	for i < len(s) {
		switch {
		case s[i] == ' ':
			i++
		case s[i] == 0x1b:
			n := ansiSeqLen(s[i:])
			b.WriteString(s[i : i+n])
			i += n
		default:
			if b.Len() == 0 {
				return s[i:]
			}
			b.WriteString(s[i:])
			return b.String()
		}
	}
	return b.String()
}

// ansiSeqLen is the length of the escape sequence s starts with (CSI,
// OSC ended by BEL or ST, else ESC and one byte).
func ansiSeqLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for j := 2; j < len(s); j++ {
			if s[j] >= 0x40 && s[j] <= 0x7e {
				return j + 1
			}
		}
		return len(s)
	case ']':
		for j := 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
		return len(s)
	}
	return 2
}

// fixRows cuts any row still wider than width (a wide character in a one
// column row).
func fixRows(rows []string, width int) []string {
	for k, r := range rows {
		if ansi.StringWidth(r) > width {
			rows[k] = ansi.Truncate(r, width, "")
		}
	}
	return rows
}

package chips

import (
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/contextref"
)

// Surface is where a chip is drawn.
type Surface int

const (
	// Compact is the inline chip: one line, "<glyph> <label>" in the
	// kind's colour.
	Compact Surface = iota
	// Details is a few lines of summary, for a popover.
	Details
	// Expanded is the full content.
	Expanded
)

// Surfaces lists the three surfaces.
var Surfaces = [...]Surface{Compact, Details, Expanded}

func (s Surface) String() string {
	switch s {
	case Compact:
		return "compact"
	case Details:
		return "details"
	case Expanded:
		return "expanded"
	}
	return fmt.Sprintf("Surface(%d)", int(s))
}

// Chip is one reference to draw: its kind and context id (from the link),
// its label (display text, never identity) and the record it points at.
type Chip struct {
	Kind, ContextID, Label string
	// Record is the record the context id resolves to; nil when missing.
	Record contextref.Record
	// Selected draws the chip highlighted (the caret beside it, or focused).
	Selected bool
}

// Renderer draws a chip on one surface in at most width display columns:
// for Compact the whole chip (glyph included) on one line, for Details and
// Expanded each line. width ≤ 0 means no limit. The registry calls a
// renderer only with a record of the chip's kind, and cuts whatever it
// returns to the width (and to one line for Compact).
type Renderer func(c Chip, width int) string

type handlerKey struct {
	kind    string
	surface Surface
}

// Registry maps each (kind, surface) to its renderer and draws the
// unresolved chip for everything it cannot resolve. It is safe for
// concurrent use.
type Registry struct {
	th       Theme
	p        *painter
	mu       sync.RWMutex
	handlers map[handlerKey]Renderer
	kinds    map[string]bool // kinds with a renderer on some surface
}

// NewRegistry returns a registry with no renderers, drawing the unresolved
// chip in th's styles.
func NewRegistry(th Theme) *Registry {
	r := &Registry{th: th.clone(), handlers: map[handlerKey]Renderer{}, kinds: map[string]bool{}}
	r.p = &painter{th: &r.th}
	return r
}

// Default returns a registry with the compact, details and expanded
// renderers of every kind of the kind table.
func Default(th Theme) *Registry {
	r := NewRegistry(th)
	for _, v := range kindViews {
		kind := v.Kind
		for _, s := range Surfaces {
			if err := r.Register(kind, s, r.p.renderer(s)); err != nil {
				panic(err) // a fresh registry holds no handler
			}
		}
	}
	return r
}

// Theme returns the theme the registry draws with, for custom renderers.
func (r *Registry) Theme() Theme { return r.th.clone() }

// Register adds the renderer of kind on surface s. A second renderer for
// the same kind and surface is an error, as are an empty kind, an unknown
// surface and a nil renderer. A kind outside the kind table may be registered
// (a kind of a later contract version); its chips then render through it
// when they have a record of that kind.
func (r *Registry) Register(kind string, s Surface, fn Renderer) error {
	switch {
	case kind == "":
		return fmt.Errorf("chips: register: empty kind")
	case s < Compact || s > Expanded:
		return fmt.Errorf("chips: register %q: unknown surface %d", kind, int(s))
	case fn == nil:
		return fmt.Errorf("chips: register %q %s: nil renderer", kind, s)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	k := handlerKey{kind, s}
	if _, dup := r.handlers[k]; dup {
		return fmt.Errorf("chips: a %s renderer for kind %q is already registered", s, kind)
	}
	r.handlers[k] = fn
	r.kinds[kind] = true
	return nil
}

// Render draws c on surface s in at most width columns (≤ 0: no limit).
// It never returns "": a chip whose kind is unknown, whose record is
// missing or of another kind, or that has no renderer on s is drawn as the
// unresolved chip — its own style, its label, and (beyond Compact) why.
// A renderer that panics or draws nothing gives the unresolved chip too.
func (r *Registry) Render(s Surface, c Chip, width int) string {
	r.mu.RLock()
	fn := r.handlers[handlerKey{c.Kind, s}]
	registered := r.kinds[c.Kind]
	r.mu.RUnlock()
	why := check(c, registered)
	if why == "" && fn == nil {
		why = fmt.Sprintf("no %s renderer for kind %q", s, c.Kind)
	}
	var out string
	if why == "" {
		out, why = call(fn, c, width)
	}
	if why != "" {
		out = r.p.unresolved(s, c, why, width)
	}
	return fitLines(out, width, s == Compact)
}

// call runs a renderer, turning a panic or an empty drawing into a reason.
func call(fn Renderer, c Chip, width int) (out, why string) {
	defer func() {
		if v := recover(); v != nil {
			out, why = "", fmt.Sprintf("renderer failed: %v", v)
		}
	}()
	out = fn(c, width)
	if strings.TrimSpace(ansi.Strip(out)) == "" {
		return "", "renderer drew nothing"
	}
	return out, ""
}

// Resolved reports whether c can be drawn by its kind's renderers: its kind
// is one of the known kinds and its record is present, of that kind and of the
// matching Go type. Otherwise why says what is wrong, for example
// `no record for ctx_1` or `unknown kind "future"`.
func Resolved(c Chip) (ok bool, why string) {
	why = check(c, false)
	return why == "", why
}

// check is Resolved's test; extra accepts a kind outside the table (one
// with a registered renderer).
func check(c Chip, extra bool) string {
	known := contextref.IsKnownKind(c.Kind)
	if !known && !extra {
		return fmt.Sprintf("unknown kind %q", c.Kind)
	}
	if isNil(c.Record) {
		if c.ContextID == "" {
			return "no record"
		}
		return "no record for " + c.ContextID
	}
	if rk := c.Record.RecordBase().Kind; rk != c.Kind {
		return fmt.Sprintf("record %s is of kind %q, not %q", c.Record.RecordBase().ContextID, rk, c.Kind)
	}
	if known && !typeFits(c.Kind, c.Record) {
		return fmt.Sprintf("record %s is not a valid %s record", c.Record.RecordBase().ContextID, c.Kind)
	}
	return ""
}

// isNil reports whether r is nil or a nil pointer in an interface.
func isNil(r contextref.Record) bool {
	if r == nil {
		return true
	}
	v := reflect.ValueOf(r)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// typeFits reports whether a record's Go type is the one of its kind.
func typeFits(kind string, r contextref.Record) bool { return contextref.RecordOfKind(r, kind) }

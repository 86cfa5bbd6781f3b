package composer

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/contextref"
)

// Shelf is the image shelf under the composer: the draft's images (Draft.
// Shelf), one row, the selected one highlighted while the shelf has focus.
// The app asks what a key does (Key) and does it: it owns the focus, the
// confirmation and opening an image.
type Shelf struct{ sel int }

// ShelfKeys are the shelf's keys (the key table's shelf rows, and the key
// that leaves it).
type ShelfKeys struct{ Left, Right, Remove, Open, Leave key.Binding }

// ShelfAct is what a key on the shelf asks of the app.
type ShelfAct int

const (
	ShelfNothing ShelfAct = iota // the key moved the selection, or did nothing
	ShelfLeave                   // focus the composer (the shelf is empty, or the leave key)
	ShelfRemove                  // remove the image ID (asking first when Chips show it)
	ShelfOpen                    // open the image ID
)

// ShelfKeyResult is a key's outcome on the shelf: the act, the image it is
// about, its name (sanitized, for a question) and the chips that show it.
type ShelfKeyResult struct {
	Act   ShelfAct
	ID    string
	Name  string
	Chips int
}

// Key is a key typed while the shelf has focus.
func (s *Shelf) Key(msg tea.KeyPressMsg, k ShelfKeys, d *Draft) ShelfKeyResult {
	shelf := d.shelf
	if len(shelf) == 0 {
		return ShelfKeyResult{Act: ShelfLeave}
	}
	s.sel = max(0, min(s.sel, len(shelf)-1))
	id := shelf[s.sel]
	switch {
	case key.Matches(msg, k.Left):
		s.sel = max(0, s.sel-1)
	case key.Matches(msg, k.Right):
		s.sel = min(len(shelf)-1, s.sel+1)
	case key.Matches(msg, k.Remove):
		name := id
		if r, ok := d.records[id].(*contextref.ImageRecord); ok {
			name = r.Name
		}
		return ShelfKeyResult{Act: ShelfRemove, ID: id, Name: chips.SanitizeLine(name), Chips: d.refs[id]}
	case key.Matches(msg, k.Open):
		return ShelfKeyResult{Act: ShelfOpen, ID: id}
	case key.Matches(msg, k.Leave):
		return ShelfKeyResult{Act: ShelfLeave}
	}
	return ShelfKeyResult{}
}

// View is the shelf's row, width columns at most ("" when the draft has
// no image): each image's glyph, name and size (size formats it), "no
// chip" when no chip shows it, the selected one in hi while focused.
func (s *Shelf) View(d *Draft, width int, focused bool, hi lipgloss.Style, size func(int64) string) string {
	if len(d.shelf) == 0 {
		return ""
	}
	parts := []string{"images:"}
	for i, id := range d.shelf {
		img, ok := d.records[id].(*contextref.ImageRecord)
		if !ok {
			continue
		}
		item := fmt.Sprintf("%s %s (%s)", chips.Glyph(contextref.KindImage), chips.SanitizeLine(img.Name), size(img.SizeBytes))
		if d.refs[id] == 0 {
			item += " · no chip"
		}
		if focused && i == s.sel {
			item = hi.Render(item)
		}
		parts = append(parts, item)
	}
	return chips.Truncate(" "+strings.Join(parts, "  "), width)
}

package overlay

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/dialog"
	"github.com/chipchat/chipchat/transcript"
	"github.com/chipchat/chipchat/ui/keymap"
)

// dressed is an overlay with a list and a tool call's content.
type dressed struct {
	composer.FilterList
	content []transcript.ContentOption
	next    dialog.Overlay // what Update turns it into
}

func (d *dressed) Update(tea.Msg) (dialog.Overlay, tea.Cmd, any) { return d.next, nil, nil }
func (d *dressed) View(w, h int) []string                        { return []string{d.Picker.View(w, h)} }
func (d *dressed) Hints() string                                 { return "" }
func (d *dressed) Scope() keymap.Scope                           { return keymap.ScopeThreads }
func (d *dressed) SetContentOptions(o ...transcript.ContentOption) {
	d.content = o
}

// The stack gives its looks to every overlay pushed, queued under others
// or put in another's place: the list's picker draws the theme's match
// colour, the content gets the theme's options.
func TestStackDressesOverlays(t *testing.T) {
	light := composer.LightPickerStyles()
	s := NewStack(nil, 0)
	plain := &dressed{FilterList: composer.NewFilterList("x")}
	s.Push(plain) // before SetLooks: the defaults
	s.SetLooks(dialog.Looks{Picker: light, Content: []transcript.ContentOption{transcript.ContentMaxLines(3)}})
	view := func(d *dressed) string {
		d.SetItems([]composer.PickerItem{{Title: "apple"}, {Title: "maple"}})
		d.Picker.SetQuery("ap")
		return d.View(30, 5)[0]
	}
	const match = "38;2;162;28;175m" // LightPickerMatch #A21CAF
	if v := view(plain); plain.content != nil || strings.Contains(v, match) {
		t.Fatalf("an overlay pushed before SetLooks was dressed: %q", v)
	}
	pushed, under, replaced := &dressed{FilterList: composer.NewFilterList("a")}, &dressed{FilterList: composer.NewFilterList("b")}, &dressed{FilterList: composer.NewFilterList("c")}
	s.Push(pushed)
	s.PushUnder(under, func(o dialog.Overlay) bool { return o == pushed })
	pushed.next = replaced
	s.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
	for name, d := range map[string]*dressed{"pushed": pushed, "pushed under": under, "put in its place": replaced} {
		if len(d.content) != 1 {
			t.Errorf("%s: content options %d, want the stack's 1", name, len(d.content))
		}
		if v := view(d); !strings.Contains(v, match) {
			t.Errorf("%s: the list does not draw the light match colour: %q", name, v)
		}
	}
}

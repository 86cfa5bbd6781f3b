package dialog

import (
	"errors"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/ui/keymap"
)

func press(o Overlay, code rune, mod tea.KeyMod) (Overlay, any) {
	next, _, res := o.Update(tea.KeyPressMsg{Code: code, Mod: mod})
	return next, res
}

// The export prompt never overwrites without a second enter on the same
// path, and ctrl+y asks for the copy.
func TestExportPromptAsksBeforeOverwriting(t *testing.T) {
	k := keymap.Default()
	var o Overlay = NewExport(&k, "/x/a.md", "/proj", "/home")
	o, res := press(o, tea.KeyEnter, 0)
	if w, ok := res.(ExportWrite); !ok || w.Path != "/x/a.md" || w.Overwrite {
		t.Fatalf("enter: %#v, want a write without overwrite", res)
	}
	o, _, _ = o.Update(ExportDone{Err: errors.New("exists"), Exists: true})
	if o == nil || o.View(80, 5)[2] != "the file exists: enter again overwrites it" {
		t.Fatalf("after the refusal: %v", o)
	}
	// Another path is asked about anew.
	o, _, _ = o.Update(tea.KeyPressMsg{Code: 'b', Text: "b"})
	o, res = press(o, tea.KeyEnter, 0)
	if w := res.(ExportWrite); w.Path != "/x/a.mdb" || w.Overwrite {
		t.Fatalf("an edited path: %#v", res)
	}
	o, _, _ = o.Update(ExportDone{Err: errors.New("exists"), Exists: true})
	o, res = press(o, tea.KeyEnter, 0)
	if w := res.(ExportWrite); !w.Overwrite {
		t.Fatalf("the second enter on the same path: %#v, want overwrite", res)
	}
	if o, _, _ = o.Update(ExportDone{}); o != nil {
		t.Fatal("the prompt stayed open after the write")
	}
	o, res = press(NewExport(&k, "~/a.md", "/proj", "/home"), 'y', tea.ModCtrl)
	if _, ok := res.(ExportCopy); !ok || o != nil {
		t.Fatalf("ctrl+y: %#v, %v", res, o)
	}
}

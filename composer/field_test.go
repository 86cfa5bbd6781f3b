package composer

import (
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func TestFieldKeys(t *testing.T) {
	k := &FieldKeys{Start: key.NewBinding(key.WithKeys("ctrl+a")), DeleteWord: key.NewBinding(key.WithKeys("ctrl+w")),
		Clear: key.NewBinding(key.WithKeys("ctrl+u")), KillEnd: key.NewBinding(key.WithKeys("ctrl+k"))}
	var f Field
	f.Set("dir/sub/name")
	if !f.Key(k, tea.KeyPressMsg{Code: 'w', Mod: tea.ModCtrl}) || f.String() != "dir/sub/" {
		t.Fatalf("ctrl+w: %q", f.String())
	}
	if f.Key(k, tea.KeyPressMsg{Code: 'x', Mod: tea.ModCtrl}) {
		t.Error("an unbound ctrl key was taken")
	}
	f.Key(k, tea.KeyPressMsg{Code: 'a', Mod: tea.ModCtrl})
	f.Key(k, tea.KeyPressMsg{Code: 'x', Text: "x"})
	if f.String() != "xdir/sub/" {
		t.Fatalf("typed at the start: %q", f.String())
	}
	f.Key(k, tea.KeyPressMsg{Code: 'k', Mod: tea.ModCtrl})
	if f.String() != "x" {
		t.Fatalf("ctrl+k: %q", f.String())
	}
	f.Insert("a\x07b")
	f.Cut(2)
	if f.String() != "xa" {
		t.Fatalf("insert drops controls, Cut keeps 2 runes: %q", f.String())
	}
}

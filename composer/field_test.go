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

func TestFilterListNarrowsAndMoves(t *testing.T) {
	k := &ListKeys{Next: key.NewBinding(key.WithKeys("down")), Prev: key.NewBinding(key.WithKeys("up"))}
	l := NewFilterList("threads")
	l.SetItems([]PickerItem{{Title: "alpha", Value: "a"}, {Title: "beta", Value: "b"}, {Title: "gamma", Value: "g"}})
	if !l.Key(k, tea.KeyPressMsg{Code: tea.KeyDown}) {
		t.Fatal("down was not the list's")
	}
	if it, ok := l.Picker.Selected(); !ok || it.Value != "b" {
		t.Fatalf("after down: %+v %v", it, ok)
	}
	for _, r := range "gam" {
		l.Key(k, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if it, ok := l.Picker.Selected(); !ok || it.Value != "g" || l.Field.String() != "gam" {
		t.Fatalf("after typing gam: %+v %v, filter %q", it, ok, l.Field.String())
	}
	// New items keep the filter.
	l.SetItems([]PickerItem{{Title: "delta", Value: "d"}, {Title: "gamma ray", Value: "r"}})
	if it, ok := l.Picker.Selected(); !ok || it.Value != "r" {
		t.Fatalf("after new items: %+v %v", it, ok)
	}
}

package keymap

import (
	"testing"
)

// FuzzKeysApply feeds [keys] tables to the key table's Apply: it never
// panics, and a table it accepts leaves no key on two actions of one place
// and no named action without a key.
func FuzzKeysApply(f *testing.F) {
	for _, s := range [][4]string{
		{"send", "ctrl+q", "", ""},
		{"send", "alt+enter", "newline", "alt+enter"},
		{"threads_rename", "ctrl+r", "history_search", "ctrl+r"},
		{"undo", "ctrl+u", "", ""},
		{"attach", "ctrl+t", "terminal", "f6"},
		{"shelf_remove", "ctrl+d", "stash", "ctrl+x"},
		{"send", "ctrl+shift+meta+banana", "", ""},
	} {
		f.Add(s[0], s[1], s[2], s[3])
	}
	f.Fuzz(func(t *testing.T, n1, k1, n2, k2 string) {
		over := map[string][]string{n1: {k1}}
		if n2 != "" {
			over[n2] = append(over[n2], k2)
		}
		k := Default()
		if err := k.Apply(over); err != nil {
			return
		}
		owner := map[Scope]map[string]string{}
		for _, d := range keyTable {
			b := d.field(&k)
			if !b.Enabled() {
				if _, named := over[d.Name]; named {
					t.Fatalf("%s was named but is off", d.Name)
				}
				continue
			}
			if len(b.Keys()) == 0 {
				t.Fatalf("%s has no key", d.Name)
			}
			for _, s := range d.Scopes {
				for _, place := range within(s) {
					if owner[place] == nil {
						owner[place] = map[string]string{}
					}
					for _, key := range b.Keys() {
						if prev, ok := owner[place][key]; ok && prev != d.Name {
							t.Fatalf("accepted %v: %s is %s's and %s's in %s", over, key, prev, d.Name, place)
						}
						owner[place][key] = d.Name
					}
				}
			}
		}
	})
}

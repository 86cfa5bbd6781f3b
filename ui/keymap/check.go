package keymap

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// typingScopes are where a printable key types its character: the
// composer (in ! mode and with a picker open too), the review comment
// editor and the one-line fields.
var typingScopes = []Scope{ScopeComposer, ScopeShell, ScopePicker, ScopeComment, ScopeAttach, ScopeRename, ScopeHistory, ScopeQuote, ScopeExport, ScopeSearch, ScopeFind}

// typesText reports whether key name k is a key press that types a
// character: one printable character or space, with no modifier but shift.
func typesText(k string) bool {
	mods, base := splitKeyName(k)
	for _, m := range mods {
		if m != "shift" {
			return false
		}
	}
	if base == "space" {
		return true
	}
	r, n := utf8.DecodeRuneInString(base)
	return n == len(base) && r != utf8.RuneError && unicode.IsPrint(r)
}

// checkTypingKey refuses key k for the action named name when k types a
// character and the action acts where text is typed: the binding would
// take that character from the user (send = ["a"], send = ["space"]).
func checkTypingKey(name, k string) error {
	d, ok := keyDef(name)
	if !ok || !typesText(k) || !meets(d.Scopes, typingScopes) {
		return nil
	}
	return fmt.Errorf("that key types a character in the composer and the fields, so binding it to %s would make it impossible to type; allowed: a key with ctrl or alt, or a named key such as enter, tab, f2", name)
}

// modifierOrder is the order key names put modifiers in.
var modifierOrder = []string{"ctrl", "alt", "shift", "meta", "hyper", "super"}

// namedKeys are the key names other than a single character.
var namedKeys = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`enter tab backspace esc space up down left right begin find insert delete select
		pgup pgdown home end capslock scrolllock numlock printscreen pause menu mediaplay mediapause mediaplaypause
		mediareverse mediastop mediafastforward mediarewind medianext mediaprev mediarecord lowervol raisevol mute
		leftshift leftalt leftctrl leftsuper lefthyper leftmeta rightshift rightalt rightctrl rightsuper righthyper rightmeta
		isolevel3shift isolevel5shift`) {
		m[n] = true
	}
	for _, n := range strings.Fields("enter equal mul plus comma minus period div 0 1 2 3 4 5 6 7 8 9 sep up down left right pgup pgdown home end insert delete begin") {
		m["kp"+n] = true
	}
	for i := 1; i <= 63; i++ {
		m[fmt.Sprintf("f%d", i)] = true
	}
	return m
}()

// splitKeyName splits key name k into its modifiers and its key: "ctrl+s"
// is ctrl and s, "ctrl++" ctrl and +, "+" the + key alone.
func splitKeyName(k string) (mods []string, base string) {
	parts := strings.Split(k, "+")
	base, mods = parts[len(parts)-1], parts[:len(parts)-1]
	if base == "" && len(parts) >= 2 && parts[len(parts)-2] == "" {
		base, mods = "+", parts[:len(parts)-2]
	}
	return mods, base
}

// checkKeyName accepts what Bubble Tea names a key press: modifiers from
// modifierOrder, in that order, each once, then one character or one named
// key ("ctrl+shift+up", "alt+x", "?", "f5").
func checkKeyName(k string) error {
	if k == "" {
		return fmt.Errorf("an empty key name")
	}
	mods, base := splitKeyName(k)
	last := -1
	for _, m := range mods {
		i := slices.Index(modifierOrder, m)
		if i < 0 {
			return fmt.Errorf("%q is not a modifier (allowed: %s)", m, strings.Join(modifierOrder, ", "))
		}
		if i <= last {
			return fmt.Errorf("modifiers must come once each, in the order %s", strings.Join(modifierOrder, "+"))
		}
		last = i
	}
	if namedKeys[base] || utf8.RuneCountInString(base) == 1 && base != " " {
		return nil
	}
	return fmt.Errorf("%q is not a key (a single character, or a name such as enter, tab, esc, space, up, pgdown, f1)", base)
}

// CheckKeys is the config's [keys] check (config.Load calls it): every key
// name one a terminal can send, no printable key without a modifier on an
// action where text is typed, and the key table's own checks (Keys.Apply:
// unknown names, empty lists, clashes).
func CheckKeys(keys map[string][]string) error {
	for _, n := range slices.Sorted(maps.Keys(keys)) {
		for _, k := range keys[n] {
			if err := checkKeyName(k); err != nil {
				return fmt.Errorf("keys.%s = %q: %v", n, k, err)
			}
			if err := checkTypingKey(n, k); err != nil {
				return fmt.Errorf("keys.%s = %q: %v", n, k, err)
			}
		}
	}
	k := Default()
	return k.Apply(keys)
}

package keymap

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"

	"github.com/chipchat/chipchat/composer"
)

// Apply rebinds keys from the config's [keys] table. It refuses an unknown
// name, an empty key list, a string that names no key and a key another
// action of the same scope has (a global key such as quit clashes with
// every scope); the error is "keys.NAME = [...]: what is wrong; what is
// allowed", for the caller to prefix with the file.
func (k *Keys) Apply(overrides map[string][]string) error {
	for _, n := range slices.Sorted(maps.Keys(overrides)) {
		d, ok := keyDef(n)
		keys := overrides[n]
		switch {
		case !ok:
			return fmt.Errorf("keys.%s: no key has that name (allowed: the names chipchat --help lists, such as send, quit, threads)", n)
		case len(keys) == 0:
			return fmt.Errorf("keys.%s = []: give at least one key, such as [%q]", n, d.Keys[0])
		}
		for _, s := range keys {
			if err := checkKeyName(s); err != nil {
				return fmt.Errorf("keys.%s = %s: %v", n, quoteKeys(keys), err)
			}
		}
		b := d.field(k)
		b.SetKeys(slices.Clone(keys)...)
		b.SetHelp(keys[0], d.Help)
	}
	if err := k.freeOverriddenKeys(overrides); err != nil {
		return err
	}
	return k.checkClashes(overrides)
}

func quoteKeys(keys []string) string {
	q := make([]string, len(keys))
	for i, s := range keys {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// freeOverriddenKeys gives a key the config binds explicitly to the action
// it names: an action the config does not name loses that default key
// where their scopes meet (send = ["alt+enter"] takes alt+enter from
// newline, which keeps shift+enter and ctrl+j). An action left with no key
// is refused, unless it is one of the later additions that may go off
// (Yield); a global key (quit) is never taken, so the clash check refuses
// it.
func (k *Keys) freeOverriddenKeys(overrides map[string][]string) error {
	takers := map[string][]KeyDef{}
	for _, d := range keyTable {
		if keys, named := overrides[d.Name]; named {
			for _, s := range keys {
				takers[s] = append(takers[s], d)
			}
		}
	}
	if len(takers) == 0 {
		return nil
	}
	for _, d := range keyTable {
		if _, named := overrides[d.Name]; named || slices.Contains(d.Scopes, ScopeGlobal) {
			continue
		}
		b := d.field(k)
		var keep []string
		var by KeyDef
		for _, s := range b.Keys() {
			taken := false
			for _, t := range takers[s] {
				if meets(t.Scopes, d.Scopes) {
					taken, by = true, t
				}
			}
			if !taken {
				keep = append(keep, s)
			}
		}
		if len(keep) == len(b.Keys()) {
			continue
		}
		if len(keep) == 0 {
			if !d.Yield {
				return fmt.Errorf("keys.%s = %s: that takes %s's only key (%s); allowed: a key no other action of its scope has, or rebind %s too",
					by.Name, quoteKeys(overrides[by.Name]), d.Name, strings.Join(b.Keys(), ", "), d.Name)
			}
			b.SetEnabled(false)
			continue
		}
		b.SetKeys(keep...)
		b.SetHelp(keep[0], d.Help)
	}
	return nil
}

// meets reports whether keys of scopes a and b can act in one place.
func meets(a, b []Scope) bool {
	for _, x := range a {
		for _, px := range within(x) {
			for _, y := range b {
				if slices.Contains(within(y), px) {
					return true
				}
			}
		}
	}
	return false
}

// checkClashes refuses one key on two actions whose scopes meet.
func (k *Keys) checkClashes(overrides map[string][]string) error {
	type owner struct {
		d     KeyDef
		scope Scope
	}
	owners := map[Scope]map[string]owner{}
	for _, d := range keyTable {
		b := d.field(k)
		if !b.Enabled() {
			continue // its keys went to keys the config named
		}
		for _, s := range d.Scopes {
			for _, place := range within(s) {
				m := owners[place]
				if m == nil {
					m = map[string]owner{}
					owners[place] = m
				}
				for _, key := range b.Keys() {
					prev, ok := m[key]
					if !ok {
						m[key] = owner{d, s}
						continue
					}
					if prev.d.Name == d.Name {
						continue
					}
					// name the one the config set (else the later row)
					set, other, otherScope := d, prev.d, prev.scope
					if _, named := overrides[d.Name]; !named {
						if _, named := overrides[prev.d.Name]; named {
							set, other, otherScope = prev.d, d, s
						}
					}
					return fmt.Errorf("keys.%s = %s: %s is already %s's key in the %s scope (%s); allowed: a key no other action there has",
						set.Name, quoteKeys(set.field(k).Keys()), key, other.Name, place, scopeWhere(otherScope))
				}
			}
		}
	}
	return nil
}

func scopeWhere(s Scope) string {
	switch s {
	case ScopeGlobal:
		return "it acts everywhere"
	case ScopeMain:
		return "it acts in the composer, the transcript and the shelf"
	}
	return "it acts " + string(s)
}

// KeyHelp lists every binding as "name  keys  what it does", for --help.
func KeyHelp(app *AppKeys, ed *composer.KeyMap) []string {
	k := Default()
	k.AppKeys, k.Editor = *app, *ed
	return k.HelpLines()
}

// Help lists every key of the table as "name  keys  what it does", in
// table order.
func (k *Keys) HelpLines() []string {
	var out []string
	for _, d := range keyTable {
		out = append(out, keyLine(d, d.field(k)))
	}
	return out
}

func keyLine(d KeyDef, b *key.Binding) string {
	keys := strings.Join(b.Keys(), ", ")
	if !b.Enabled() {
		keys = "(off)"
	}
	return fmt.Sprintf("%-22s %-34s %s", d.Name, keys, d.Help)
}

// HelpByScope is F1: the keys under a heading per scope.
func (k *Keys) HelpByScope() []string {
	var out []string
	for _, s := range scopes {
		var lines []string
		for _, d := range keyTable {
			if d.Scopes[0] == s.s {
				lines = append(lines, "  "+keyLine(d, d.field(k)))
			}
		}
		if len(lines) > 0 {
			out = append(out, s.title+":")
			out = append(out, lines...)
			out = append(out, "")
		}
	}
	return out
}

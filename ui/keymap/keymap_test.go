package keymap

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/internal/vtscreen"
)

// keyBindingFields lists pointers to every key.Binding field of a struct.
func keyBindingFields(v any) map[*key.Binding]string {
	out := map[*key.Binding]string{}
	rv := reflect.ValueOf(v).Elem()
	for i := 0; i < rv.NumField(); i++ {
		if b, ok := rv.Field(i).Addr().Interface().(*key.Binding); ok {
			out[b] = rv.Type().Field(i).Name
		}
	}
	return out
}

func TestApplyKeysOverrides(t *testing.T) {
	keys := Default()
	if err := keys.Apply(map[string][]string{"send": {"ctrl+s", "ctrl+enter"}, "quit": {"ctrl+x"}, "undo": {"ctrl+y"}}); err != nil {
		t.Fatal(err)
	}
	app, ed := keys.AppKeys, keys.Editor
	if !slices.Equal(ed.Submit.Keys(), []string{"ctrl+s", "ctrl+enter"}) || ed.Submit.Help().Key != "ctrl+s" ||
		!strings.HasPrefix(ed.Submit.Help().Desc, "send") {
		t.Errorf("send = %v %+v", ed.Submit.Keys(), ed.Submit.Help())
	}
	if !slices.Equal(app.Quit.Keys(), []string{"ctrl+x"}) || app.Quit.Help().Desc != "quit" {
		t.Errorf("quit = %v %+v", app.Quit.Keys(), app.Quit.Help())
	}
	if !key.Matches(keyPress("ctrl+x"), app.Quit) || key.Matches(keyPress("ctrl+q"), app.Quit) {
		t.Error("quit does not match its new key only")
	}
	if !key.Matches(keyPress("ctrl+y"), ed.Undo) || key.Matches(keyPress("ctrl+z"), ed.Undo) {
		t.Error("undo does not match its new key only")
	}
	// Untouched bindings keep their defaults.
	if d := composer.DefaultKeyMap(); !slices.Equal(ed.Newline.Keys(), d.Newline.Keys()) {
		t.Errorf("newline changed: %v", ed.Newline.Keys())
	}
	if err := keys.Apply(nil); err != nil {
		t.Errorf("no overrides: %v", err)
	}
	// A key bound explicitly is taken from another action's defaults
	// where their scopes meet; the other keeps the rest.
	k := Default()
	if err := k.Apply(map[string][]string{"send": {"alt+enter"}}); err != nil {
		t.Fatal(err)
	}
	if slices.Contains(k.Editor.Newline.Keys(), "alt+enter") || !slices.Contains(k.Editor.Newline.Keys(), "ctrl+j") {
		t.Errorf("newline after send = alt+enter: %v", k.Editor.Newline.Keys())
	}
	// ctrl+d deletes forward in the composer and a thread in the thread
	// list: scopes apart, so binding it in one leaves the other.
	k = Default()
	if err := k.Apply(map[string][]string{"delete_forward": {"ctrl+d"}, "attach": {"ctrl+d"}}); err == nil {
		t.Error("two actions of the composer on ctrl+d accepted")
	}
	k = Default()
	if err := k.Apply(map[string][]string{"shelf_remove": {"ctrl+d"}}); err != nil {
		t.Errorf("ctrl+d in the shelf: %v", err)
	}
	if !slices.Contains(k.ThreadsDelete.Keys(), "ctrl+d") || !slices.Contains(k.Editor.DeleteForward.Keys(), "ctrl+d") {
		t.Error("binding ctrl+d in the shelf took it from the thread list or the composer")
	}
}

// Config refusals of the key table (issue 14 item 6): one line naming the
// file, the setting and what is allowed.
func TestKeyConfigRefusals(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"[keys]\nsend = [\"ctrl+q\"]\n", []string{"keys.send", "ctrl+q", "quit", "everywhere", "allowed"}},
		{"[keys]\nsend = []\n", []string{"keys.send = []", "at least one key"}},
		{"[keys]\nsend = [\"ctrl+shift+meta+banana\"]\n", []string{"keys.send", `"banana" is not a key`}},
		{"[keys]\nsned = [\"enter\"]\n", []string{"keys.sned", "no key has that name", "allowed"}},
		{"[keys]\nundo = [\"ctrl+u\"]\n", []string{"keys.undo", "delete_to_line_start's only key", "allowed"}},
		{"[keys]\nattach = [\"ctrl+k\"]\ndelete_to_line_end = [\"ctrl+k\"]\n", []string{"ctrl+k", "attach", "delete_to_line_end", "composer"}},
		{"[keys]\nthreads_rename = [\"enter\"]\n", []string{"keys.threads_rename", "threads_open's only key"}},
		{"[keys]\nthreads_close = [\"ctrl+q\"]\n", []string{"keys.threads_close", "quit"}},
	} {
		p := writeConfig(t, tc.text)
		_, err := config.Load(p, CheckKeys)
		if err == nil {
			t.Errorf("%q accepted", tc.text)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") || !strings.Contains(msg, p) {
			t.Errorf("%q: not one line naming the file: %q", tc.text, msg)
		}
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%q: error %q lacks %q", tc.text, msg, w)
			}
		}
	}
	// Keys apart in scope may be the same: r renames in the thread list
	// while ctrl+r searches the history in the composer.
	for _, ok := range []string{
		"[keys]\nthreads_rename = [\"ctrl+r\"]\nhistory_search = [\"ctrl+r\"]\n",
		"[keys]\nthreads = [\"f4\"]\n",
		"[keys]\nnext_chip = [\"tab\"]\nfocus_next = [\"ctrl+]\"]\n",
	} {
		if _, err := config.Load(writeConfig(t, ok), CheckKeys); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
}

// TestKeyTable: every row has a snake_case name used once, a scope, default
// keys and help; every key.Binding field of the key structs has a row;
// --help and F1 list every row.
func TestKeyTable(t *testing.T) {
	k := Default()
	// every key.Binding of every key struct Keys holds
	fields := map[*key.Binding]string{}
	kv := reflect.ValueOf(&k).Elem()
	for i := 0; i < kv.NumField(); i++ {
		f := kv.Field(i)
		if f.Kind() != reflect.Struct {
			continue
		}
		for b, n := range keyBindingFields(f.Addr().Interface()) {
			fields[b] = kv.Type().Field(i).Name + "." + n
		}
	}
	known := map[Scope]bool{}
	for _, s := range scopes {
		known[s.s] = true
	}
	names := map[string]bool{}
	covered := map[*key.Binding]bool{}
	snake := regexp.MustCompile(`^[a-z]+(_[a-z]+)*$`)
	for _, d := range KeyDefs() {
		if names[d.Name] {
			t.Errorf("key name %q used twice", d.Name)
		}
		names[d.Name] = true
		if !snake.MatchString(d.Name) {
			t.Errorf("key name %q is not snake_case", d.Name)
		}
		if len(d.Scopes) == 0 {
			t.Errorf("%s has no scope", d.Name)
		}
		for _, s := range d.Scopes {
			if !known[s] {
				t.Errorf("%s: scope %q is not in the scopes list (F1 would not show it)", d.Name, s)
			}
		}
		if strings.TrimSpace(d.Help) == "" {
			t.Errorf("%s has no help", d.Name)
		}
		if len(d.Keys) == 0 {
			t.Errorf("%s has no default key", d.Name)
		}
		for _, s := range d.Keys {
			if err := checkKeyName(s); err != nil {
				t.Errorf("%s: default key %q: %v", d.Name, s, err)
			}
		}
		b := d.field(&k)
		if covered[b] {
			t.Errorf("%s points at a binding another row has", d.Name)
		}
		covered[b] = true
		if _, ok := fields[b]; !ok {
			t.Errorf("%s points at no field of the key structs", d.Name)
		}
		if !slices.Equal(b.Keys(), d.Keys) || b.Help().Desc != d.Help {
			t.Errorf("%s: the default binding %v %q is not the row's %v %q", d.Name, b.Keys(), b.Help().Desc, d.Keys, d.Help)
		}
	}
	for b, n := range fields {
		if !covered[b] {
			t.Errorf("%s has no row in keyTable: the config cannot rebind it and F1 does not list it", n)
		}
	}
	// The defaults themselves pass the clash check.
	if err := k.Apply(nil); err != nil {
		t.Fatalf("the default keys clash: %v", err)
	}
	lines := k.HelpLines()
	if len(lines) != len(keyTable) {
		t.Fatalf("HelpLines has %d lines for %d keys", len(lines), len(keyTable))
	}
	for i, d := range keyTable {
		if !strings.HasPrefix(lines[i], d.Name+" ") || !strings.HasSuffix(lines[i], d.Help) {
			t.Errorf("help line %q does not show %s", lines[i], d.Name)
		}
	}
	byScope := strings.Join(k.HelpByScope(), "\n")
	for _, d := range keyTable {
		if !strings.Contains(byScope, d.Name) {
			t.Errorf("F1 does not list %s", d.Name)
		}
	}
	// Overrides show in the help.
	if err := k.Apply(map[string][]string{"attach": {"ctrl+y"}}); err != nil {
		t.Fatal(err)
	}
	for _, l := range k.HelpLines() {
		if strings.HasPrefix(l, "attach ") && !strings.Contains(l, "ctrl+y") {
			t.Errorf("help after an override: %q", l)
		}
	}
}

// Every default key passes the check, so a key copied from --help into
// the config is accepted.
func TestDefaultKeysAreValidNames(t *testing.T) {
	keys := Default()
	for _, d := range KeyDefs() {
		for _, k := range d.Binding(&keys).Keys() {
			if err := checkKeyName(k); err != nil {
				t.Errorf("%s: default key %q: %v", d.Name, k, err)
			}
		}
	}
}

// No default key of an action that acts where text is typed is a bare
// printable key: the refusal above never refuses a default.
func TestDefaultKeysPassValidation(t *testing.T) {
	keys := map[string][]string{}
	for _, d := range KeyDefs() {
		keys[d.Name] = d.Keys
	}
	if err := CheckKeys(keys); err != nil {
		t.Fatal(err)
	}
}

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// keyPress builds the key press a terminal would report for a key name.
func keyPress(k string) tea.KeyPressMsg { return vtscreen.Key(k) }

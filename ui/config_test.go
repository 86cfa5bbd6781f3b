package ui

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/chipchat/chipchat/composer"
)

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadConfigDefaults(t *testing.T) {
	d := DefaultConfig()
	if d.Agent != "echo" || d.Limits.AttachmentBytes != 20<<20 || d.Limits.ComposerRows != 10 || len(d.Keys) != 0 {
		t.Errorf("DefaultConfig = %+v", d)
	}
	for _, p := range []string{"", filepath.Join(t.TempDir(), "nope", "config.toml")} {
		c, err := LoadConfig(p)
		if err != nil {
			t.Errorf("LoadConfig(%q): %v", p, err)
		}
		if !reflect.DeepEqual(c, d) {
			t.Errorf("LoadConfig(%q) = %+v, want the defaults", p, c)
		}
	}
	// An empty file is the defaults too, and remembers where it came from.
	p := writeConfig(t, "# nothing set\n")
	c, err := LoadConfig(p)
	if err != nil || c.Path != p || c.Agent != "echo" || c.Limits != d.Limits {
		t.Errorf("empty file: %+v, %v", c, err)
	}
}

func TestLoadConfigReadsEverySetting(t *testing.T) {
	p := writeConfig(t, `
agent = "echo"

[limits]
attachment_bytes = 1024
composer_rows = 4

[keys]
send = ["ctrl+s"]
quit = ["ctrl+x", "f10"]
`)
	c, err := LoadConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	if c.Path != p || c.Agent != "echo" || c.Limits.AttachmentBytes != 1024 || c.Limits.ComposerRows != 4 {
		t.Errorf("config = %+v", c)
	}
	if !slices.Equal(c.Keys["send"], []string{"ctrl+s"}) || !slices.Equal(c.Keys["quit"], []string{"ctrl+x", "f10"}) {
		t.Errorf("keys = %v", c.Keys)
	}
}

func TestLoadConfigBlankAgentFallsBack(t *testing.T) {
	p := writeConfig(t, "agent = \"  \"\n")
	c, err := LoadConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	if d := DefaultConfig(); c.Agent != d.Agent || c.Limits != d.Limits {
		t.Errorf("config = %+v, want the default agent", c)
	}
}

func TestLoadConfigErrorsNameTheFile(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"bad TOML", "agent = \"echo\n[limits\n", nil},
		{"wrong type", "[limits]\ncomposer_rows = \"ten\"\n", []string{"composer_rows"}},
		{"unknown key", "agnet = \"echo\"\n", []string{"unknown setting", "agnet"}},
		{"unknown nested key", "[limits]\ncomposer_row = 3\n", []string{"unknown setting", "limits.composer_row"}},
		{"unknown table", "[colours]\nchip = \"red\"\n", []string{"unknown setting", "colours"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeConfig(t, tc.text)
			c, err := LoadConfig(p)
			if err == nil {
				t.Fatalf("no error; config = %+v", c)
			}
			if !strings.Contains(err.Error(), p) {
				t.Errorf("error %q does not name the file %s", err, p)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if !reflect.DeepEqual(c, DefaultConfig()) {
				t.Errorf("config after an error = %+v, want the defaults", c)
			}
		})
	}
	// A path that cannot be read as a file.
	dir := t.TempDir()
	if _, err := LoadConfig(dir); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("directory as config: %v", err)
	}
}

func TestConfigPath(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", "/xdg")
	if got := ConfigPath(); got != "/xdg/chipchat/config.toml" {
		t.Errorf("ConfigPath = %q", got)
	}
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("HOME", "/home/someone")
	if got := ConfigPath(); got != "/home/someone/.config/chipchat/config.toml" {
		t.Errorf("ConfigPath without XDG = %q", got)
	}
}

func TestApplyKeysOverrides(t *testing.T) {
	app, ed := DefaultAppKeys(), composer.DefaultKeyMap()
	err := ApplyKeys(map[string][]string{"send": {"ctrl+s", "ctrl+enter"}, "quit": {"ctrl+x"}, "undo": {"ctrl+u"}}, &app, &ed)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ed.Submit.Keys(), []string{"ctrl+s", "ctrl+enter"}) || ed.Submit.Help().Key != "ctrl+s" ||
		ed.Submit.Help().Desc != "send" {
		t.Errorf("send = %v %+v", ed.Submit.Keys(), ed.Submit.Help())
	}
	if !slices.Equal(app.Quit.Keys(), []string{"ctrl+x"}) || app.Quit.Help().Desc != "quit" {
		t.Errorf("quit = %v %+v", app.Quit.Keys(), app.Quit.Help())
	}
	if !key.Matches(keyPress("ctrl+x"), app.Quit) || key.Matches(keyPress("ctrl+q"), app.Quit) {
		t.Error("quit does not match its new key only")
	}
	if !key.Matches(keyPress("ctrl+u"), ed.Undo) || key.Matches(keyPress("ctrl+z"), ed.Undo) {
		t.Error("undo does not match its new key only")
	}
	// Untouched bindings keep their defaults.
	if d := composer.DefaultKeyMap(); !slices.Equal(ed.Newline.Keys(), d.Newline.Keys()) {
		t.Errorf("newline changed: %v", ed.Newline.Keys())
	}
	if err := ApplyKeys(nil, &app, &ed); err != nil {
		t.Errorf("no overrides: %v", err)
	}
}

func TestApplyKeysErrors(t *testing.T) {
	app, ed := DefaultAppKeys(), composer.DefaultKeyMap()
	err := ApplyKeys(map[string][]string{"sned": {"enter"}}, &app, &ed)
	if err == nil || !strings.Contains(err.Error(), `"sned"`) {
		t.Errorf("unknown binding: %v", err)
	}
	err = ApplyKeys(map[string][]string{"send": {}}, &app, &ed)
	if err == nil || !strings.Contains(err.Error(), "send") {
		t.Errorf("empty key list: %v", err)
	}
	// A [keys] table read from a file goes through the same check.
	c, err := LoadConfig(writeConfig(t, "[keys]\nteleport = [\"ctrl+t\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := ApplyKeys(c.Keys, &app, &ed); err == nil || !strings.Contains(err.Error(), "teleport") {
		t.Errorf("unknown binding from a file: %v", err)
	}
}

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

func TestKeyHelpListsEveryBinding(t *testing.T) {
	app, ed := DefaultAppKeys(), composer.DefaultKeyMap()
	fields := keyBindingFields(&app)
	for b, n := range keyBindingFields(&ed) {
		fields[b] = "composer." + n
	}
	named := bindings(&app, &ed)
	names := map[string]bool{}
	covered := map[*key.Binding]bool{}
	snake := regexp.MustCompile(`^[a-z]+(_[a-z]+)*$`)
	for _, nb := range named {
		if names[nb.name] {
			t.Errorf("binding name %q used twice", nb.name)
		}
		names[nb.name] = true
		if !snake.MatchString(nb.name) {
			t.Errorf("binding name %q is not snake_case", nb.name)
		}
		if covered[nb.b] {
			t.Errorf("%s names a binding already named", nb.name)
		}
		covered[nb.b] = true
		if _, ok := fields[nb.b]; !ok {
			t.Errorf("%s points at no AppKeys or composer.KeyMap field", nb.name)
		}
	}
	for b, n := range fields {
		if !covered[b] {
			t.Errorf("%s has no name: the config cannot rebind it and KeyHelp does not list it", n)
		}
	}

	lines := KeyHelp(&app, &ed)
	if len(lines) != len(named) {
		t.Fatalf("KeyHelp has %d lines for %d bindings", len(lines), len(named))
	}
	for i, nb := range named {
		l := lines[i]
		if !strings.HasPrefix(l, nb.name+" ") || !strings.Contains(l, strings.Join(nb.b.Keys(), ", ")) ||
			!strings.HasSuffix(l, nb.b.Help().Desc) || nb.b.Help().Desc == "" {
			t.Errorf("KeyHelp line %q does not show %s, %v, %q", l, nb.name, nb.b.Keys(), nb.b.Help().Desc)
		}
	}
	// Overrides show in the help.
	if err := ApplyKeys(map[string][]string{"attach": {"ctrl+y"}}, &app, &ed); err != nil {
		t.Fatal(err)
	}
	for _, l := range KeyHelp(&app, &ed) {
		if strings.HasPrefix(l, "attach ") && !strings.Contains(l, "ctrl+y") {
			t.Errorf("KeyHelp after an override: %q", l)
		}
	}
}

// A config file's [keys] reach the running app (LoadConfig → New).
func TestConfigFileKeysReachTheApp(t *testing.T) {
	c, err := LoadConfig(writeConfig(t, "[keys]\nhelp = [\"f2\"]\nfocus_next = [\"ctrl+y\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t)
	opt := e.options("")
	opt.Config = c
	h := e.openWith(opt)
	h.press("f2")
	if h.app.ov != overlayHelp {
		t.Fatal("the rebound help key does not open the keymap")
	}
	if !strings.Contains(h.plain(), "f2") {
		t.Error("the keymap does not show the rebound key")
	}
	h.press("esc", "ctrl+y")
	if h.app.focus != paneTranscript {
		t.Error("the rebound focus key does not move focus")
	}
}

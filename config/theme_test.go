package config

import (
	"strings"
	"testing"
)

func TestThemeConfig(t *testing.T) {
	if got := Default().UI.ThemeName(); got != "dark" {
		t.Errorf("default theme %q, want dark", got)
	}
	for _, name := range Themes {
		c, err := Load(writeConfig(t, "[ui]\ntheme = \""+name+"\"\n"), nil)
		if err != nil || c.UI.ThemeName() != name {
			t.Errorf("theme %q read as %q, %v", name, c.UI.ThemeName(), err)
		}
	}
	p := writeConfig(t, "[ui]\ntheme = \"solarized\"\n")
	_, err := Load(p, nil)
	want := `ui.theme = "solarized": allowed are "auto", "dark", "light", "no-color"`
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), p) || strings.Contains(err.Error(), "\n") {
		t.Errorf("bad theme: %v, want one line naming the file and %q", err, want)
	}
}

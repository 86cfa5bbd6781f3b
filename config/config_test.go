package config

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/agent"
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
	d := Default()
	if d.Agent != "echo" || d.Limits.AttachmentBytes != 20<<20 || d.Limits.ComposerRows != 10 || len(d.Keys) != 0 {
		t.Errorf("DefaultConfig = %+v", d)
	}
	for _, p := range []string{"", filepath.Join(t.TempDir(), "nope", "config.toml")} {
		c, err := Load(p, nil)
		if err != nil {
			t.Errorf("Load(%q, nil): %v", p, err)
		}
		if !reflect.DeepEqual(c, d) {
			t.Errorf("Load(%q, nil) = %+v, want the defaults", p, c)
		}
	}
	// An empty file is the defaults too, and remembers where it came from.
	p := writeConfig(t, "# nothing set\n")
	c, err := Load(p, nil)
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
	c, err := Load(p, nil)
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
	c, err := Load(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := Default(); c.Agent != d.Agent || c.Limits != d.Limits {
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
			c, err := Load(p, nil)
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
			if !reflect.DeepEqual(c, Default()) {
				t.Errorf("config after an error = %+v, want the defaults", c)
			}
		})
	}
	// A path that cannot be read as a file.
	dir := t.TempDir()
	if _, err := Load(dir, nil); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("directory as config: %v", err)
	}
}

func TestConfigPath(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", "/xdg")
	if got := Path(); got != "/xdg/chipchat/config.toml" {
		t.Errorf("ConfigPath = %q", got)
	}
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("HOME", "/home/someone")
	if got := Path(); got != "/home/someone/.config/chipchat/config.toml" {
		t.Errorf("ConfigPath without XDG = %q", got)
	}
}

func TestConfigACPTerminals(t *testing.T) {
	if d := Default().ACP.Terminals; d != "allow" {
		t.Errorf("default [acp] terminals = %q, want allow", d)
	}
	for _, v := range []string{"allow", "ask", "deny"} {
		c, err := Load(writeConfig(t, "[acp]\nterminals = \""+v+"\"\n"), nil)
		if err != nil || c.ACP.Terminals != v {
			t.Errorf("terminals = %q: %+v, %v", v, c.ACP, err)
		}
	}
	for _, v := range []string{"", "Allow", "never"} {
		_, err := Load(writeConfig(t, "[acp]\nterminals = \""+v+"\"\n"), nil)
		if err == nil || !strings.Contains(err.Error(), `acp.terminals = "`+v+`": allowed are "allow", "ask"`) {
			t.Errorf("terminals = %q: err = %v, want it refused naming the setting", v, err)
		}
	}
	if _, err := Load(writeConfig(t, "[acp]\nshell = \"allow\"\n"), nil); err == nil || !strings.Contains(err.Error(), "unknown setting acp.shell") {
		t.Errorf("an unknown [acp] key: %v", err)
	}
}

func TestConfigReplyBytes(t *testing.T) {
	if d := Default().Limits; d.ReplyBytes != agent.DefaultReplyBytes {
		t.Errorf("default reply_bytes = %d, want %d", d.ReplyBytes, agent.DefaultReplyBytes)
	}
	c, err := Load(writeConfig(t, "[limits]\nreply_bytes = 131072\n"), nil)
	if err != nil || c.Limits.ReplyBytes != 131072 {
		t.Errorf("reply_bytes = 131072: %+v, %v", c.Limits, err)
	}
	_, err = Load(writeConfig(t, "[limits]\nreply_bytes = 100\n"), nil)
	if err == nil || !strings.Contains(err.Error(), "limits.reply_bytes = 100") {
		t.Errorf("reply_bytes = 100: err = %v, want it refused naming the setting", err)
	}
}

// Invalid TOML is reported as "config FILE:LINE:COL: what is wrong", the
// position where the parser stopped, in one line.
func TestLoadConfigTOMLErrorHasLineAndColumn(t *testing.T) {
	p := writeConfig(t, "agent = \"echo\"\n[limits]\ncomposer_rows = = 3\n")
	_, err := Load(p, nil)
	if err == nil {
		t.Fatal("no error")
	}
	want := "config " + p + ":3:"
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q, want it to start with %q", err, want)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error %q is more than one line", err)
	}
	if strings.Contains(err.Error(), "toml: line") {
		t.Errorf("error %q keeps the library's prefix", err)
	}
}

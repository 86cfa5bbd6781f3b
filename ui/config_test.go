package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/ui/keymap"
)

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A config file's [keys] reach the running app (LoadConfig → New).
func TestConfigFileKeysReachTheApp(t *testing.T) {
	c, err := config.Load(writeConfig(t, "[keys]\nhelp = [\"f2\"]\nfocus_next = [\"ctrl+y\"]\n"), keymap.CheckKeys)
	if err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t)
	opt := e.options("")
	opt.Config = c
	h := e.openWith(opt)
	h.press("f2")
	if h.app.OverlayScope() != keymap.ScopeHelp {
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

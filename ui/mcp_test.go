package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/mcpserver"
	"github.com/chipchat/chipchat/ui/keymap"
)

// [[mcp_servers]] is read (stdio and http) and checked.
func TestMCPServersConfig(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`
[[mcp_servers]]
name = "files"
command = "npx"
args = ["-y", "server-filesystem", "/tmp"]
env = { B = "2", A = "1" }

[[mcp_servers]]
name = "docs"
url = "https://example.com/mcp"
headers = { Authorization = "Bearer x" }
`)
	cfg, err := config.Load(path, keymap.CheckKeys)
	if err != nil {
		t.Fatal(err)
	}
	// What a session gets of them (with chipchat's own first) is main's
	// wiring: TestMCPServers in package main.
	got := cfg.MCPServers
	if len(got) != 2 {
		t.Fatalf("servers %+v", got)
	}
	if f := got[0]; f.Name != "files" || f.Command != "npx" || strings.Join(f.Args, " ") != "-y server-filesystem /tmp" || len(f.Env) != 2 || f.Env["A"] != "1" || f.Env["B"] != "2" {
		t.Errorf("stdio server %+v", f)
	}
	if d := got[1]; d.Name != "docs" || d.URL != "https://example.com/mcp" || len(d.Headers) != 1 || d.Headers["Authorization"] != "Bearer x" || d.Command != "" {
		t.Errorf("http server %+v", d)
	}
	for _, bad := range []struct{ toml, want string }{
		{`[[mcp_servers]]` + "\n" + `command = "x"`, "give it a name"},
		{`[[mcp_servers]]` + "\n" + `name = "a"`, "a command (stdio) or a url"},
		{`[[mcp_servers]]` + "\n" + `name = "a"` + "\n" + `command = "x"` + "\n" + `url = "http://h"`, "not both"},
		{`[[mcp_servers]]` + "\n" + `name = "chipchat"` + "\n" + `command = "x"`, "chipchat's own"},
		{`[[mcp_servers]]` + "\n" + `name = "a"` + "\n" + `url = "ftp://h"`, "not http"},
		{`[[mcp_servers]]` + "\n" + `name = "a"` + "\n" + `command = "x"` + "\n" + `[[mcp_servers]]` + "\n" + `name = "a"` + "\n" + `command = "y"`, "used twice"},
		{`[[mcp_servers]]` + "\n" + `name = "a"` + "\n" + `command = "x"` + "\n" + `colour = "red"`, "unknown setting"},
	} {
		write(bad.toml)
		if _, err := config.Load(path, keymap.CheckKeys); err == nil || !strings.Contains(err.Error(), bad.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%q: error %v, want %q and the file's name", bad.toml, err, bad.want)
		}
	}
}

// The panes socket answers with the app's terminals, kept current as the
// user opens one; closing the app removes the socket.
func TestPanesSocketFollowsThePane(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	panes, err := mcpserver.OpenPanes()
	if err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t)
	opt := e.options("")
	opt.Panes = panes
	h := e.openWith(opt)
	t.Cleanup(h.app.panes.pane.CloseAll)
	read := func() ([]mcpserver.PaneText, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return mcpserver.ReadPanes(ctx, panes.Path(), "", 10)
	}
	if _, err := read(); err == nil || !strings.Contains(err.Error(), "no terminal") {
		t.Fatalf("before any terminal: %v", err)
	}
	h.press("ctrl+t")
	h.pumpUntil("the socket to list Terminal 1", func() bool {
		ps, err := read()
		return err == nil && len(ps) == 1 && ps[0].Label == "Terminal 1"
	})
	h.app.panes.close()
	if _, err := os.Stat(panes.Path()); !os.IsNotExist(err) {
		t.Fatalf("the socket outlived the app: %v", err)
	}
}

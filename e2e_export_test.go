package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/store"
)

// /export writes the open thread as Markdown under $XDG_DATA_HOME, asks
// before overwriting, and ctrl+y in its prompt copies it instead: pasted
// into another thread, its chips come back as chips (their records in the
// draft), through OSC 52 and chipchat's fragment.
func TestEndToEndExport(t *testing.T) {
	root := t.TempDir()
	proj, home, data, xdg := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "data"), filepath.Join(root, "xdg")
	writeFile(t, filepath.Join(proj, "main.go"), "package main\n")
	a := startChipchat(t, proj, home, data, "[limits]\npaste_chip_chars = -1\npaste_chip_lines = -1\n", "XDG_DATA_HOME="+xdg)
	a.run("set-option", "-g", "set-clipboard", "on")
	a.text("see ")
	a.pickFile("main", "main.go")
	a.keys("Enter")
	turn(a.tmuxSession, "please") // the reply is stored whole before it is exported

	file := filepath.Join(xdg, "chipchat", "exports", "see-main.go-please-"+time.Now().Format("2006-01-02")+".md")
	a.text("/export")
	a.waitFor("/export [path]")
	a.keys("Enter")
	a.waitFor("Export the thread as Markdown to:", "> "+file[:40])
	a.keys("Enter")
	a.waitFor("exported to")
	md, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("no export at %s: %v", file, err)
	}
	for _, want := range []string{"# see main.go please", "## You · ", "see [main.go](t3-context://v1/mention/", "## Agent · ",
		"Echo agent", "## What the agent read", "- Mention: [main.go](t3-context://v1/mention/", "[Mention: main.go; ref="} {
		if !strings.Contains(string(md), want) {
			t.Errorf("the export lacks %q:\n%s", want, md)
		}
	}

	// Again: the file exists, so the first enter only asks.
	writeFile(t, file, "mine")
	a.text("/export")
	a.waitFor("/export [path]")
	a.keys("Enter")
	a.waitFor("Export the thread as Markdown to:")
	a.keys("Enter")
	a.waitFor("the file exists: enter again overwrites it")
	if b, _ := os.ReadFile(file); string(b) != "mine" {
		t.Fatalf("the export overwrote a file without asking: %q", b)
	}
	a.keys("Enter")
	// The first export's toast may still be on the footer: the prompt
	// closing is the overwrite's end.
	a.waitUntil("the overwrite", func(scr string) bool {
		return strings.Contains(scr, "exported to") && !strings.Contains(scr, "Export the thread as Markdown to:")
	})
	if b, _ := os.ReadFile(file); string(b) != string(md) {
		t.Errorf("the overwrite wrote %q", b)
	}

	// ctrl+y copies it; a paste in a new thread restores the chip.
	a.text("/export")
	a.waitFor("/export [path]")
	a.keys("Enter")
	a.waitFor("Export the thread as Markdown to:")
	a.keys("C-y")
	a.waitFor("copied")
	if buf := a.run("show-buffer"); !strings.Contains(buf, "## What the agent read") || !strings.Contains(buf, "t3-context://v1/mention/") {
		t.Fatalf("tmux's buffer did not get the export over OSC 52: %q", buf)
	}
	a.keys("C-n")
	a.waitFor("new thread")
	a.run("paste-buffer", "-p", "-t", a.name)
	waitDraft(t, data, proj, "the pasted export with its chip", func(d store.Draft) bool {
		if !strings.Contains(d.Markdown, "## What the agent read") {
			return false
		}
		for _, r := range d.Records {
			if m, ok := r.(*contextref.MentionRecord); ok && m.Path == "main.go" {
				return true
			}
		}
		return false
	})
}

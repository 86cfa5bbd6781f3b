package review

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/internal/safegit/safegittest"
	"github.com/chipchat/chipchat/internal/vtscreen"
)

// gitRepo makes a repository in a temporary directory with files committed
// and returns its path.
func gitRepo(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	safegittest.Init(t, dir, files)
	return dir
}

// git is the test's own git (no global or system config).
var git = safegittest.Git

func writeFile(t testing.TB, dir, name, text string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// run drives a model without a program: it runs each command and feeds
// its messages back, as the runtime would, and returns the messages meant
// for the parent.
func run(m *Model, cmd tea.Cmd) []tea.Msg {
	var out []tea.Msg
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		switch msg := msg.(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
			continue
		case nil:
			continue
		}
		if Owns(msg) {
			var next tea.Cmd
			m, next = m.Update(msg)
			queue = append(queue, next)
			continue
		}
		out = append(out, msg)
	}
	return out
}

// press sends key names to m and runs what they start.
func press(m *Model, keys ...string) []tea.Msg {
	var out []tea.Msg
	for _, k := range keys {
		_, cmd := m.Update(vtscreen.Key(k))
		out = append(out, run(m, cmd)...)
	}
	return out
}

// typeText types text into m.
func typeText(m *Model, text string) {
	for _, r := range text {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// plainView is the view without escape sequences, trailing spaces trimmed.
func plainView(m *Model) string {
	lines := strings.Split(stripANSI(m.View()), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

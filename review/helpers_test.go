package review

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/internal/testenv"
	"github.com/chipchat/chipchat/internal/vtscreen"
)

// gitRepo makes a repository in a temporary directory with files committed
// and returns its path.
func gitRepo(t testing.TB, files map[string]string) string {
	t.Helper()
	testenv.NeedCommands(t, "apt-get install git", "git")
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "config", "user.email", "t@example.com")
	git(t, dir, "config", "user.name", "T")
	git(t, dir, "config", "commit.gpgsign", "false")
	for name, text := range files {
		writeFile(t, dir, name, text)
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "init")
	return dir
}

func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

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

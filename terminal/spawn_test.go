package terminal

import (
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// recordingSpawn is a Spawn that runs the command through `env` with a
// marker, as a remote project's wraps it in ssh, and records what it got.
type recordingSpawn struct {
	mu   sync.Mutex
	dirs []string
	argv [][]string
	env  [][]string
}

func (r *recordingSpawn) spawn(dir string, argv, env []string) (*exec.Cmd, error) {
	r.mu.Lock()
	r.dirs, r.argv, r.env = append(r.dirs, dir), append(r.argv, argv), append(r.env, env)
	r.mu.Unlock()
	if len(argv) == 0 {
		argv = []string{"/bin/sh"}
	}
	cmd := exec.Command("env", append([]string{"SPAWNED=yes"}, argv...)...)
	cmd.Dir = dir
	return cmd, nil
}

// A pane's shells and a `!` command run through the Spawn they are given,
// with the terminal's variables handed to it, and the output is on the
// screen as from a local program.
func TestSpawnRunsPaneShellsAndCommands(t *testing.T) {
	r := &recordingSpawn{}
	p := NewPane(t.TempDir())
	p.Spawn = r.spawn
	p.NewTerminal()
	term := p.Active()
	defer term.Close()
	term.Write([]byte("echo \"marker=$SPAWNED\"\n"))
	waitFor(t, term, "marker=yes", func(s *Screen) bool {
		return strings.Contains(strings.Join(s.Lines(s.FirstLine(), s.LastLine()), "\n"), "marker=yes")
	})
	r.mu.Lock()
	if len(r.argv) != 1 || len(r.argv[0]) != 0 || !strings.Contains(strings.Join(r.env[0], " "), "CHIPCHAT_TERMINAL=term-1") || r.dirs[0] != p.Dir {
		t.Errorf("spawn got dir %q argv %q env %q", r.dirs, r.argv, r.env)
	}
	r.mu.Unlock()

	dir := t.TempDir()
	p.Shell, p.CommandShell = []string{"/no/such/shell"}, "sh" // a remote project's: sh there
	c, _, err := p.StartShellCommand("shell-1", "Shell 1", 100, dir, `echo "cmd=$SPAWNED"`)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	waitFor(t, c, "cmd=yes", func(s *Screen) bool { return findLine(s, "cmd=yes") >= 0 })
	r.mu.Lock()
	defer r.mu.Unlock()
	if got := r.argv[1]; len(got) != 3 || got[0] != "sh" || got[1] != "-c" || r.dirs[1] != dir {
		t.Errorf("the command's argv %q in %q", got, r.dirs[1])
	}
}

package workspace

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// remoteish is a Project elsewhere, as main's remote adapter is one.
type remoteish struct{ Local }

func (remoteish) Key() string  { return "ssh://devbox/srv/app" }
func (remoteish) Host() string { return "devbox" }

// A remote project's threads are keyed by its ssh:// key, not by the
// local start directory: the same directory opened locally is another
// project, and opening the remote one again finds its threads.
func TestProjectKeyNamesTheProject(t *testing.T) {
	e := newEnv(t, 1<<20)
	rem := e.open(Options{Assets: e.as, Project: remoteish{Local{Root: e.dir}}})
	if _, err := rem.Start("", true)(); err != nil {
		t.Fatal(err)
	}
	p, err := e.st.ProjectByKey("ssh://devbox/srv/app")
	if err != nil || p.ID != rem.ProjectID() {
		t.Fatalf("project by key = %+v, %v; workspace's id %d", p, err, rem.ProjectID())
	}
	if rem.Project().Host() != "devbox" {
		t.Fatalf("Project() = %#v", rem.Project())
	}
	local := e.open(Options{Assets: e.as})
	if local.ProjectID() == rem.ProjectID() {
		t.Fatal("the local directory and the remote project share a project")
	}
	if again := e.open(Options{Assets: e.as, Project: remoteish{Local{Root: e.dir}}}); again.ProjectID() != rem.ProjectID() {
		t.Fatal("the remote project was not found again")
	}
}

// Local runs commands in its root with the environment given, the shell
// when no argv, and lists files through its lister.
func TestLocalProjectCommandAndFiles(t *testing.T) {
	root := t.TempDir()
	l := Local{Root: root, Files: func(_ context.Context, r string, limit int) ([]string, bool, error) {
		return []string{r, strings.Repeat("x", limit)}, false, nil
	}}
	cmd, err := l.Command(context.Background(), "", []string{"sh", "-c", `pwd; echo "$X"`}, []string{"X=from env"}, false)
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(root)
	if lines := strings.Split(strings.TrimSpace(string(out)), "\n"); len(lines) != 2 || lines[1] != "from env" {
		t.Fatalf("output %q", out)
	} else if got, _ := filepath.EvalSymlinks(lines[0]); got != want {
		t.Fatalf("ran in %q, want %q", lines[0], root)
	}
	t.Setenv("SHELL", "/bin/sh")
	cmd, _ = l.Command(context.Background(), "", nil, nil, true)
	if cmd.Path != "/bin/sh" && cmd.Args[0] != "/bin/sh" {
		t.Fatalf("no argv runs %q", cmd.Args)
	}
	paths, _, err := l.ListFiles(context.Background(), 2)
	if err != nil || len(paths) != 2 || paths[0] != root || paths[1] != "xx" {
		t.Fatalf("ListFiles = %q, %v", paths, err)
	}
}

// Elsewhere gives the UI a remote project's lister, terminal command maker
// (tty) and shell, and nothing for a project here.
func TestElsewhere(t *testing.T) {
	if f, s, sh := Elsewhere(Local{Root: t.TempDir()}); f != nil || s != nil || sh != "" {
		t.Fatal("a local project is elsewhere")
	}
	var gotTTY bool
	p := ttyProject{remoteish: remoteish{Local{Root: t.TempDir()}}, tty: &gotTTY}
	f, s, sh := Elsewhere(p)
	if f == nil || s == nil || sh != "/bin/sh" && sh == "" {
		t.Fatalf("Elsewhere = %v %v %q", f == nil, s == nil, sh)
	}
	if _, err := s("", nil, nil); err != nil || !gotTTY {
		t.Fatalf("spawn: %v, tty %v", err, gotTTY)
	}
}

type ttyProject struct {
	remoteish
	tty *bool
}

func (p ttyProject) Command(ctx context.Context, dir string, argv, env []string, tty bool) (*exec.Cmd, error) {
	*p.tty = tty
	return p.remoteish.Command(ctx, dir, argv, env, tty)
}

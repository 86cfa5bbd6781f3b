package workspace

import (
	"context"
	"errors"
	"os"
	"os/exec"

	"github.com/chipchat/chipchat/store"
)

// Project is where the project's files are and where its commands run:
// this machine (Local) or another one (a remote project: package remote,
// which main adapts to this interface). The UI reaches the project's `@`
// file list, its shells (the terminal pane, `!` commands) and its git
// only through it, so a remote project needs no case of its own there.
type Project interface {
	// Key names the project in the store: store.ProjectKey of the
	// directory here, ssh://host/path for a remote one.
	Key() string
	// Dir is the project directory on its machine.
	Dir() string
	// Host is "" for this machine, else the machine as the user names it.
	Host() string
	// ListFiles lists the project's files for the `@` picker: sorted,
	// relative, with forward slashes, at most limit (truncated says more
	// exist). It may take time: run it off the UI goroutine.
	ListFiles(ctx context.Context, limit int) (paths []string, truncated bool, err error)
	// Command is the command that runs argv in dir (the project
	// directory when "") with env ("KEY=value") added; empty argv is the
	// user's shell there. tty says the caller gives it a terminal (a pty).
	Command(ctx context.Context, dir string, argv, env []string, tty bool) (*exec.Cmd, error)
	// Shell is the shell `!` commands run with (`SHELL -c LINE`).
	Shell() string
}

// Local is a project on this machine. Files lists its files (main passes
// the composer's lister, which honours git and .gitignore); nil lists
// nothing.
type Local struct {
	Root  string
	Files func(ctx context.Context, root string, limit int) ([]string, bool, error)
}

// Key is store.ProjectKey of the root: its git root, else itself.
func (l Local) Key() string { return store.ProjectKey(l.Root) }

// Dir is the root.
func (l Local) Dir() string { return l.Root }

// Host is "": this machine.
func (Local) Host() string { return "" }

// ListFiles lists the root's files through Files.
func (l Local) ListFiles(ctx context.Context, limit int) ([]string, bool, error) {
	if l.Files == nil {
		return nil, false, errors.New("workspace: no file lister")
	}
	return l.Files(ctx, l.Root, limit)
}

// Command is argv (else $SHELL, else /bin/sh) here, in dir, with this
// process's environment and env.
func (l Local) Command(ctx context.Context, dir string, argv, env []string, _ bool) (*exec.Cmd, error) {
	if len(argv) == 0 {
		argv = []string{l.Shell()}
	}
	if dir == "" {
		dir = l.Root
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	return cmd, nil
}

// Shell is $SHELL, else /bin/sh.
func (Local) Shell() string {
	if sh := os.Getenv("SHELL"); sh != "" {
		return sh
	}
	return "/bin/sh"
}

// Elsewhere is, for a project on another machine (Host set: a remote
// one), its `@` lister, the command maker of terminals there (given a
// pty) and the shell of `!` commands; all zero for a project here, whose
// components keep their own defaults. The UI wires them into the
// composer, the terminal pane and `!` commands.
func Elsewhere(p Project) (files func(context.Context, int) ([]string, bool, error), spawn func(dir string, argv, env []string) (*exec.Cmd, error), shell string) {
	if p == nil || p.Host() == "" {
		return nil, nil, ""
	}
	return p.ListFiles, func(dir string, argv, env []string) (*exec.Cmd, error) {
		return p.Command(context.Background(), dir, argv, env, true)
	}, p.Shell()
}

package agent

import (
	"context"
	"os/exec"
)

// Host is where a backend's processes run when that is not this machine:
// a remote project (package remote implements it; main wires it in). A
// backend given one starts its agent through Command instead of `sh -c`
// here, and puts the files a command reads there through Stage. It is a
// capability, not a name: the backends never ask what the host is.
type Host interface {
	// Command is the command that runs argv in dir (a directory of the
	// host) with env ("KEY=value") added to the host's environment; its
	// stdio are the caller's to connect. It ends with ctx.
	Command(ctx context.Context, dir string, argv, env []string) (*exec.Cmd, error)
	// Stage puts the local file path on the host, named name, and
	// returns its path there.
	Stage(ctx context.Context, name, path string) (string, error)
	// Label names the host for the user ("devbox"), in notices.
	Label() string
}

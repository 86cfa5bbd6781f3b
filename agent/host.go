package agent

import (
	"context"
	"os/exec"
	"time"
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

// HostLink is a Host whose connection can drop under a running command (a
// remote project's ssh master). When such a command fails as ssh does
// when its connection ends (status 255), the backend asks, so the turn's
// error says the connection dropped instead of a bare exit status.
type HostLink interface {
	// DroppedSince reports whether the connection dropped since t, or is
	// down now. It may do I/O (a check of the connection).
	DroppedSince(ctx context.Context, t time.Time) bool
}

// sshLost is the exit status of an ssh whose connection failed or ended.
const sshLost = 255

// hostDropped reports whether the command on host h that started at
// start and exited with status code ended because the connection
// dropped.
func hostDropped(h Host, start time.Time, code int) bool {
	l, ok := h.(HostLink)
	if !ok || code != sshLost {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return l.DroppedSince(ctx, start)
}

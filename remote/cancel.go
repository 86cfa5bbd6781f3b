package remote

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os/exec"
)

// A Process's remote side is not signalled by ssh when the local ssh
// ends (no tty: sshd only closes its pipes, and a process that neither
// reads nor writes lives on). So each Process notes its pid on the remote
// under a token of its own (runDir/TOKEN; it is the session's process
// group leader, sshd made it one) and a cancelled one (its context ended
// before it exited) is ended there: SIGTERM to the group over the master,
// then the note removed. Notes older than a day (processes that ended by
// themselves) go when the next Process starts.

// runDir is where the notes live, under the remote HOME.
const runDir = ".cache/chipchat/run"

// notePID is the snippet a Process runs before its command: it notes the
// shell's pid (the command's, after exec) under token.
// It never fails (a note that cannot be written costs only the signal),
// and it is chained with && so a failed cd still stops the command.
func notePID(token string) string {
	return `{ d="$HOME/` + runDir + `"; mkdir -p "$d" 2>/dev/null && find "$d" -type f -mtime +1 -exec rm -f {} + 2>/dev/null; ` +
		`echo $$ > "$d/` + token + `" 2>/dev/null; true; } && `
}

// endScript ends the process group noted under $1 and removes the note.
const endScript = `f="$HOME/` + runDir + `/$1"; [ -f "$f" ] || exit 0; p=$(cat "$f"); rm -f "$f"; ` +
	`case "$p" in ''|*[!0-9]*) exit 0;; esac; kill -TERM -- "-$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null; exit 0`

func newToken() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// endOnCancel makes cmd's cancellation (its context ending) end the remote
// process too: the local ssh is killed at once, the remote group is sent
// SIGTERM over the master in the background (bounded by the timeout).
func (c *Conn) endOnCancel(cmd *exec.Cmd, token string) {
	cmd.Cancel = func() error {
		go c.end(token)
		return cmd.Process.Kill()
	}
}

// end sends SIGTERM to the remote process group noted under token.
func (c *Conn) end(token string) {
	_, _ = c.runScript(context.Background(), 0, "", nil, `set -- `+token+`; `+endScript, nil)
}

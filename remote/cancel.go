package remote

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os/exec"
	"strings"
)

// A Process's remote side is not signalled by ssh when the local ssh
// ends (no tty: sshd only closes its pipes, and a process that neither
// reads nor writes lives on). So each Process notes its pid and start
// time on the remote under a token of its own (runDir/TOKEN; it is the
// session's process group leader, sshd made it one), and is ended there
// (SIGTERM to the group over the master, the note removed) when its
// context ends before it exited (the user cancelled), or when the master
// it ran over was lost (Watch ends them once reconnected: their ssh died
// with the master). The start time guards against a pid used again.
// Notes older than a day (processes that ended by themselves) go when the
// next Process starts.

// runDir is where the notes live, under the remote HOME.
const runDir = ".cache/chipchat/run"

// notePID is the snippet a Process runs before its command: it notes the
// shell's pid (the command's, after exec) and start time under token.
// It never fails (a note that cannot be written costs only the signal),
// and it is chained with && so a failed cd still stops the command.
func notePID(token string) string {
	return `{ d="$HOME/` + runDir + `"; mkdir -p "$d" 2>/dev/null && find "$d" -type f -mtime +1 -exec rm -f {} + 2>/dev/null; ` +
		`echo "$$ $(ps -o lstart= -p $$ 2>/dev/null)" > "$d/` + token + `" 2>/dev/null; true; } && `
}

// endScript ends the process groups noted under its arguments (tokens)
// that still run (same pid, same start time) and removes the notes.
const endScript = `for t do f="$HOME/` + runDir + `/$t"; [ -f "$f" ] || continue; n=$(cat "$f"); rm -f "$f"; ` +
	`p=${n%% *}; st=${n#"$p"}; st=${st# }; case "$p" in ''|*[!0-9]*) continue;; esac; ` +
	`[ "$(ps -o lstart= -p "$p" 2>/dev/null)" = "$st" ] || continue; ` +
	`kill -TERM -- "-$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null; done; exit 0`

func newToken() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// endOnCancel makes cmd's cancellation (its context ending) end the remote
// process too: the local ssh is killed at once, the remote group is sent
// SIGTERM over the master in the background (bounded by the timeout).
// The token is kept until then, for takeProcs.
func (c *Conn) endOnCancel(cmd *exec.Cmd, token string) {
	c.mu.Lock()
	if c.procs == nil {
		c.procs = map[string]bool{}
	}
	c.procs[token] = true
	c.mu.Unlock()
	cmd.Cancel = func() error {
		c.mu.Lock()
		delete(c.procs, token)
		c.mu.Unlock()
		go c.end(token)
		return cmd.Process.Kill()
	}
}

// takeProcs returns the tokens of the Processes started so far, and
// forgets them: when the master is lost, those that still run on the
// remote are orphans.
func (c *Conn) takeProcs() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, 0, len(c.procs))
	for t := range c.procs {
		out = append(out, t)
	}
	c.procs = nil
	return out
}

// end sends SIGTERM to the remote process groups noted under tokens that
// still run.
// A command line holds at most endBatch of them (a single argument of
// the remote command is at most 128 KiB on Linux).
func (c *Conn) end(tokens ...string) {
	for len(tokens) > 0 {
		n := min(len(tokens), endBatch)
		_, _ = c.runScript(context.Background(), 0, "", nil, `set -- `+strings.Join(tokens[:n], " ")+`; `+endScript, nil)
		tokens = tokens[n:]
	}
}

const endBatch = 1000

package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/remote"
	"github.com/chipchat/chipchat/terminal"
	"github.com/chipchat/chipchat/workspace"
)

// remoteProject is a remote project (package remote) as the rest of the
// app takes a project: a workspace.Project (its store key, the `@` list
// from the cache here, shells and git over the master) and an agent.Host
// (the agent's process over the master, attachments staged there). It is
// the one place that knows the project is remote.
type remoteProject struct {
	conn   *remote.Conn
	files  *remote.FileCache
	agent  string        // the [remotes.NAME] entry's agent, when it names one
	helper *remoteHelper // chipchat staged there (remotehelper.go)

	ask     *firstAsk                // what ssh asks before the first connection (nil: connected; remotefirst.go)
	terms   *terminal.AgentTerminals // the app's host of tabs main hands over (the first connection's)
	links   chan workspace.LinkEvent // the connection's steps, once watch started (remotelink.go)
	stop    func()                   // ends the watch
	dropped atomic.Int64             // when the master was last lost (unix ns; 0: never)

	lostMu sync.Mutex
	lost   chan struct{} // closed at the next loss Watch sees (made when asked for)
}

var (
	_ workspace.Project = (*remoteProject)(nil)
	_ agent.Host        = remoteHost{}
	_ agent.HostLink    = remoteHost{}
)

// openRemote parses target (a target or a [remotes.NAME] name), makes
// the connection and connects in batch mode: a bad target, an unknown or
// unreachable host, a refused key, a changed host key are each one line.
// When ssh must ask something a person can answer (a password, a
// passphrase, a host key not known yet: remote.Conn.Answerable), the
// project comes back unconnected with ask set: the first connection then
// runs in a terminal tab of the app (remotefirst.go).
func openRemote(target string, cfg config.Config) (*remoteProject, error) {
	t, err := remote.Parse(target, cfg.Remotes)
	if err != nil {
		return nil, err
	}
	sshConfig := cfg.Remote.SSHConfig
	if rest, ok := strings.CutPrefix(sshConfig, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			sshConfig = filepath.Join(home, rest)
		}
	}
	conn, err := remote.New(t, remote.Options{ConfigFile: sshConfig, Timeout: cfg.Remote.TimeoutDuration(), CacheBytes: cfg.Remote.CacheBytes})
	if err != nil {
		return nil, err
	}
	p := &remoteProject{conn: conn, files: remote.NewFileCache(conn, remoteCachePath(t)), agent: t.Agent,
		terms: terminal.NewAgentTerminals(cfg.Limits.Scrollback), helper: newRemoteHelper(conn)}
	ctx := context.Background()
	if err := conn.Connect(ctx); err != nil {
		why, ok := conn.Answerable(ctx, err)
		if !ok {
			_ = conn.Close()
			return nil, err
		}
		p.ask = &firstAsk{err: err, why: why}
	}
	return p, nil
}

// remoteCachePath is where the project's `@` list is kept here: under the
// user's cache directory, named by the project's key.
func remoteCachePath(t remote.Target) string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(t.Key()))
	return filepath.Join(dir, "chipchat", "remote-files", hex.EncodeToString(sum[:12]))
}

func (p *remoteProject) Key() string   { return p.conn.Target().Key() }
func (p *remoteProject) Dir() string   { return p.conn.Target().Path }
func (p *remoteProject) Host() string  { return p.conn.Target().Host }
func (p *remoteProject) Label() string { return p.conn.Target().Host }

// Shell is sh: `!` commands run `sh -c LINE` inside the remote user's
// login shell (so its PATH applies); the local $SHELL may not exist there.
func (p *remoteProject) Shell() string { return "sh" }

func (p *remoteProject) ListFiles(ctx context.Context, limit int) ([]string, bool, error) {
	return p.files.ListFiles(ctx, limit)
}

// Command runs argv over the master: `ssh -tt` for a terminal (the login
// shell when argv is empty), `ssh -T` otherwise.
func (p *remoteProject) Command(ctx context.Context, dir string, argv, env []string, tty bool) (*exec.Cmd, error) {
	c := remote.Command{Argv: argv, Dir: dir, Env: env}
	if tty {
		return p.conn.Terminal(ctx, c)
	}
	if len(argv) == 0 {
		return nil, errors.New("remote: no command")
	}
	return p.conn.Process(ctx, c)
}

// remoteHost is the remote project as the agent's agent.Host.
type remoteHost struct{ *remoteProject }

// lossSeen bounds how long DroppedSince waits for Watch to see a loss
// (its sentinel session ends with the master, as the command's ssh
// does; either may be seen first).
const lossSeen = 2 * time.Second

// DroppedSince reports whether the master was lost since t: Watch saw it,
// or sees it within lossSeen, or the master is not running now. (Asking
// only whether it runs is not enough: another command may have started
// a new master over the same control path already.)
func (h remoteHost) DroppedSince(ctx context.Context, t time.Time) bool {
	if h.dropped.Load() >= t.UnixNano() {
		return true
	}
	next := h.nextLoss()
	if h.dropped.Load() >= t.UnixNano() {
		return true
	}
	timer := time.NewTimer(lossSeen)
	defer timer.Stop()
	select {
	case <-next:
		return true
	case <-timer.C:
	case <-ctx.Done():
	}
	return !h.conn.Alive(ctx)
}

// noteLost records a loss of the master that Watch saw.
func (p *remoteProject) noteLost() {
	p.dropped.Store(time.Now().UnixNano())
	p.lostMu.Lock()
	if p.lost != nil {
		close(p.lost)
		p.lost = nil
	}
	p.lostMu.Unlock()
}

// nextLoss is closed at the next loss noteLost records.
func (p *remoteProject) nextLoss() <-chan struct{} {
	p.lostMu.Lock()
	defer p.lostMu.Unlock()
	if p.lost == nil {
		p.lost = make(chan struct{})
	}
	return p.lost
}

// Command is the agent's process over the master (ssh -T).
func (h remoteHost) Command(ctx context.Context, dir string, argv, env []string) (*exec.Cmd, error) {
	return h.conn.Process(ctx, remote.Command{Argv: argv, Dir: dir, Env: env})
}

// Stage puts the local file path on the remote, content-addressed
// (remote.Conn.Stage), and returns its path there.
func (h remoteHost) Stage(ctx context.Context, name, path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	st, err := h.conn.Stage(ctx, name, f, fi.Size())
	if err != nil {
		return "", err
	}
	return st.Path, nil
}

// checkRemoteAgent is checkAgent for an agent that runs on the remote:
// its program is looked up there, through the login shell.
func checkRemoteAgent(p *remoteProject, spec string) error {
	kind, rest, err := agent.KindOf(spec)
	if err != nil {
		return err
	}
	if kind.Scheme != "acp" && kind.Scheme != "exec" {
		return nil
	}
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return fmt.Errorf("agent %s: no command (write %s, e.g. %s)", quoteArg(spec), kind.Spec, kindExample(kind.Scheme))
	}
	prog, ok := commandProgram(rest)
	if !ok {
		return nil
	}
	if _, err := p.conn.Run(context.Background(), []string{"sh", "-c", `command -v "$1" >/dev/null`, "sh", prog}, nil); err != nil {
		var ee *remote.ExitError
		if errors.As(err, &ee) {
			return fmt.Errorf("agent %s: no program %s on %s (not on the PATH of its login shell)", quoteArg(spec), prog, p.Host())
		}
		return err
	}
	return nil
}

// snapshotScript reads a mention on the remote, in the project directory:
// $1 the path, $2 the byte limit. It prints a line "chipchat-snapshot f
// SIZE" or "chipchat-snapshot d" (after a newline: a login shell may have
// printed before), then the file's first bytes or the directory's
// listing; a path
// that leads out of the project (a symlink, ..) exits 3.
const snapshotScript = `p=$1
root=$(pwd -P)
[ -e "$p" ] || { echo "$p: no such file or directory" >&2; exit 2; }
real=$(realpath -- "$p" 2>/dev/null) || { echo "$p: no such file or directory" >&2; exit 2; }
case "$real" in "$root"|"$root"/*) ;; *) echo "$p: outside the project" >&2; exit 3;; esac
if [ -d "$real" ]; then
	printf '\nchipchat-snapshot d\n'
	cd "$real" && find . -maxdepth 3 \( -name .git -o -name node_modules \) -prune -o -print | LC_ALL=C sort | head -c "$2"
elif [ -f "$real" ]; then
	printf '\nchipchat-snapshot f %s\n' "$(wc -c < "$real" | tr -d ' ')"
	exec head -c "$2" -- "$real"
else
	echo "$p: not a regular file" >&2; exit 2
fi`

// snapshot is chat's mention snapshot for a remote project: the file (or
// directory listing) read there, at most the inline limit.
func (p *remoteProject) snapshot(dir, mentioned string, l agent.Limits) (agent.MentionSnapshot, error) {
	limit := l.InlineFileBytes
	if limit <= 0 {
		limit = agent.DefaultLimits().InlineFileBytes
	}
	name := strings.TrimSpace(mentioned)
	out, err := p.conn.RunCommand(context.Background(), remote.Command{Dir: dir,
		Argv: []string{"sh", "-c", snapshotScript, "sh", name, strconv.FormatInt(limit, 10)}}, nil)
	var ee *remote.ExitError
	if errors.As(err, &ee) && ee.Code == 3 {
		return agent.MentionSnapshot{}, fmt.Errorf("%s: %w", mentioned, agent.ErrOutsideProject)
	}
	if errors.As(err, &ee) && ee.Code == 2 {
		return agent.MentionSnapshot{}, fmt.Errorf("%s (on %s)", strings.TrimPrefix(ee.Error(), "remote: exit status 2: "), p.Host())
	}
	if err != nil {
		return agent.MentionSnapshot{}, err
	}
	return parseSnapshot(out, name)
}

// snapshotMark starts snapshotScript's header line.
const snapshotMark = "\nchipchat-snapshot "

// parseSnapshot reads snapshotScript's output for the mention name.
func parseSnapshot(out []byte, name string) (agent.MentionSnapshot, error) {
	i := strings.Index(string(out), snapshotMark)
	if i < 0 {
		return agent.MentionSnapshot{}, fmt.Errorf("%s: the remote sent no snapshot", name)
	}
	head, data, ok := strings.Cut(string(out[i+len(snapshotMark):]), "\n")
	if !ok {
		return agent.MentionSnapshot{}, fmt.Errorf("%s: the remote sent no snapshot", name)
	}
	if head == "d" {
		return agent.MentionSnapshot{Kind: agent.KindDirectory, Data: []byte(data), Size: int64(len(data)), MimeType: "text/plain"}, nil
	}
	size, err := strconv.ParseInt(strings.TrimPrefix(head, "f "), 10, 64)
	if !strings.HasPrefix(head, "f ") || err != nil || size < 0 || size < int64(len(data)) {
		return agent.MentionSnapshot{}, fmt.Errorf("%s: the remote sent no snapshot", name)
	}
	mt := mime.TypeByExtension(path.Ext(name))
	if i := strings.IndexByte(mt, ';'); i >= 0 {
		mt = strings.TrimSpace(mt[:i])
	}
	return agent.MentionSnapshot{Kind: agent.KindMention, Data: []byte(data), Size: size, MimeType: mt}, nil
}

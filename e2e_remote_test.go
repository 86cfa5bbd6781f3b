package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/internal/sshtest"
	"github.com/chipchat/chipchat/internal/testenv"
	"github.com/chipchat/chipchat/store"
)

// remoteEnv is a project on the sshtest server (a real sshd on 127.0.0.1,
// sessions with a HOME of their own) and a local start directory beside
// it, with a config whose [remotes.box] names the project and an exec:
// agent that says where and as whom it runs, lists its attachments by
// name and sha256, and echoes its stdin (the prompt with the mentions'
// contents). In sshtest's second-user mode the local side (start
// directory, HOME, data and runtime directories, the binary) is the
// local user's, whom command runs chipchat as.
type remoteEnv struct {
	srv                          *sshtest.Server
	root, local, proj, home, run string
	data, bin                    string
}

const remoteAgent = `exec:printf 'home=%s pwd=%s user=%s\n' "$HOME" "$(pwd)" "$(id -un)"; for f in "$CHIPCHAT_ATTACHMENTS"/*/*; do [ -f "$f" ] && printf 'att %s %s\n' "${f##*/}" "$(sha256sum < "$f" | cut -c1-16)"; done; cat`

func newRemoteEnv(t *testing.T) *remoteEnv { return newRemoteEnvWith(t, remoteAgent) }

// newRemoteEnvWith is newRemoteEnv with another agent for [remotes.box].
func newRemoteEnvWith(t *testing.T, agentSpec string) *remoteEnv {
	t.Helper()
	return newRemoteEnvOn(t, agentSpec, sshtest.Start(t))
}

// newRemoteEnvOn is newRemoteEnvWith on a server of the test's. An agent
// spec that names this test binary (os.Args[0]) gets a path of it the
// remote user can run.
func newRemoteEnvOn(t *testing.T, agentSpec string, srv *sshtest.Server) *remoteEnv {
	t.Helper()
	root := srv.LocalDir(t)
	e := &remoteEnv{srv: srv, root: root, local: filepath.Join(root, "local"), proj: filepath.Join(srv.Home, "proj"),
		home: filepath.Join(root, "home"), data: filepath.Join(root, "data"), bin: srv.Shared(t, chipchatBinary(t))}
	// The control socket's directory must be short (a unix socket path).
	e.run = srv.LocalDir(t)
	if strings.Contains(agentSpec, os.Args[0]) {
		agentSpec = strings.ReplaceAll(agentSpec, os.Args[0], testBinary(t, srv))
	}
	writeFile(t, filepath.Join(e.local, "local-only.txt"), "local\n")
	writeFile(t, filepath.Join(e.proj, "only-remote.txt"), "remote secret 42\n")
	writeFile(t, filepath.Join(e.home, ".config", "chipchat", "config.toml"), fmt.Sprintf(`[remote]
ssh_config = %q
[remotes.box]
target = %q
agent = '''%s'''
`, srv.ConfigFile, sshtest.HostAlias+":"+e.proj, agentSpec))
	return e
}

// testBinary is this test binary (os.Args[0], under go test's private
// directory) where both of srv's users can run it: a remote agent, a
// ProxyCommand.
func testBinary(t *testing.T, srv *sshtest.Server) string {
	t.Helper()
	return srv.Shared(t, os.Args[0])
}

// command is chipchat with args in the local start directory, with the
// test's HOME, config, runtime dir and data dir, run so that this side
// cannot read the project: whatever shows it came over ssh (the server
// and this test live on one machine). In sshtest's second-user mode
// chipchat runs as the local user (setpriv), the test's files handed
// over first (Server.HandOver: a file the test writes after this is
// root's until the next command); otherwise in a mount namespace of its
// own where the server's HOME is an empty tmpfs.
func (e *remoteEnv) command(t *testing.T, args ...string) string {
	t.Helper()
	script := filepath.Join(e.root, "run.sh")
	run := fmt.Sprintf("cd %q && exec env HOME=%q XDG_CONFIG_HOME=%q XDG_CACHE_HOME=%q XDG_RUNTIME_DIR=%q SHELL=/bin/sh PS1='$ ' TERM=xterm-256color %q --data-dir %q %s\n",
		e.local, e.home, filepath.Join(e.home, ".config"), filepath.Join(e.home, ".cache"), e.run, e.bin, e.data, strings.Join(args, " "))
	if u := e.srv.Local; u != nil {
		testenv.NeedCommands(t, "apt-get install util-linux", "setpriv")
		writeFile(t, script, run)
		e.srv.HandOver(t)
		return fmt.Sprintf("setpriv --reuid=%d --regid=%d --init-groups sh %q; echo EXITED=$?; sleep 600", u.UID, u.GID, script)
	}
	testenv.NeedCommands(t, "apt-get install util-linux", "unshare")
	if out, err := exec.Command("unshare", "-rm", "true").CombinedOutput(); err != nil {
		testenv.Missing(t, fmt.Sprintf("unshare -rm (a mount namespace) is refused here: %v %s", err, out))
	}
	writeFile(t, script, fmt.Sprintf("mount -t tmpfs chipchat-hidden %q || exit 99\n", e.srv.Home)+run)
	return fmt.Sprintf("unshare -rm sh %q; echo EXITED=$?; sleep 600", script)
}

// asLocal is argv run as the local user of second-user mode.
func (e *remoteEnv) asLocal(argv ...string) *exec.Cmd {
	u := e.srv.Local
	return exec.Command("setpriv", append([]string{fmt.Sprintf("--reuid=%d", u.UID), fmt.Sprintf("--regid=%d", u.GID), "--init-groups"}, argv...)...)
}

// chipchat --remote box: the terminal pane's shell and `!pwd` run there (the remote path, not the start
// directory), the @ picker lists the remote project (a file that is only
// there) and its content reaches the agent, which runs there (its HOME is
// the server's, its user the one sessions log in as); a local image's
// bytes reach it staged, through $CHIPCHAT_ATTACHMENTS, and land in the
// remote staging directory; the thread is the store's ssh://host/path
// project. In second-user mode the user chipchat runs as cannot read the
// project's file itself: its content came over ssh.
func TestEndToEndRemoteProject(t *testing.T) {
	e := newRemoteEnv(t)
	if e.srv.Local != nil {
		if e.srv.User != sshtest.RemoteUserName {
			t.Fatalf("second-user mode logs in as %q", e.srv.User)
		}
		e.srv.HandOver(t)
		out, err := e.asLocal("cat", filepath.Join(e.proj, "only-remote.txt")).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "Permission denied") {
			t.Fatalf("the local user %s reads the remote project: %v %s", e.srv.Local.Name, err, out)
		}
	}
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90wS\xde"
	shot := filepath.Join(e.local, "shot.png")
	writeFile(t, shot, png)
	sum := sha256.Sum256([]byte(png))
	hexSum := hex.EncodeToString(sum[:])

	s := startTmuxSize(t, e.command(t, "--remote", "box"), 140, 50)
	s.waitFor("enter send")

	// The terminal pane's shell is the remote login shell (ssh -tt).
	s.keys("C-t")
	s.waitFor("Terminal 1", "keys go to the shell")
	s.text(`echo "term:$HOME:$(pwd)"`)
	s.keys("Enter")
	s.waitForRow("term:" + e.srv.Home + ":" + e.proj)
	s.keys("C-t")
	s.waitFor("enter send")

	s.text("!")
	s.waitFor("! shell mode")
	s.text("pwd; ls")
	s.keys("Enter")
	s.waitForRow(e.proj)
	s.waitForRow("only-remote.txt")
	s.waitForComposer("Shell 1 lines")
	s.keys("C-c") // the chip is not needed
	s.waitFor("draft cleared")

	s.text("look at ")
	s.pickFile("only-rem", "only-remote.txt")
	s.keys("Enter")
	s.text("and ")
	s.keys("C-o")
	s.waitFor("Attach a file")
	s.text("shot.png") // this machine's, relative to the start directory
	s.keys("Enter")
	s.waitFor("attached shot.png")
	s.keys("Enter")
	s.waitFor("home="+e.srv.Home, "pwd="+e.proj, "user="+e.srv.User, "att shot.png "+hexSum[:16], "remote secret 42")

	staged, err := os.ReadFile(filepath.Join(e.srv.Home, ".cache", "chipchat", "att", hexSum, "shot.png"))
	if err != nil || string(staged) != png {
		t.Fatalf("the remote staging copy: %q, %v", staged, err)
	}
	s.keys("C-q")
	s.waitFor("EXITED=0")

	st, err := store.Open(e.data)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := st.ProjectByKey(fmt.Sprintf("ssh://%s%s", sshtest.HostAlias, e.proj))
	if err != nil {
		t.Fatalf("no ssh:// project: %v", err)
	}
	if ts, err := st.Threads(p.ID); err != nil || len(ts) != 1 {
		t.Fatalf("threads of the remote project: %v, %v", ts, err)
	}
}

// A wrong host, a bad target and a missing [remotes.NAME] are each one
// line at start, exit 1, before any terminal is needed.
func TestEndToEndRemoteErrorsAreOneLine(t *testing.T) {
	e := newRemoteEnv(t)
	for _, c := range []struct{ target, want string }{
		{"nosuchhost.invalid:/srv/app", "remote: nosuchhost.invalid: host unknown"},
		{"relative:path", "has no absolute path"},
		{"nobox", `"nobox" is neither a target`},
	} {
		cmd := exec.Command(e.bin, "--data-dir", e.data, "--remote", c.target)
		cmd.Dir = e.local
		cmd.Env = append(os.Environ(), "HOME="+e.home, "XDG_CONFIG_HOME="+filepath.Join(e.home, ".config"), "XDG_RUNTIME_DIR="+e.run)
		out, err := cmd.CombinedOutput()
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || len(lines) != 1 || !strings.Contains(lines[0], c.want) {
			t.Errorf("--remote %s: %v, output %q; want one line with %q", c.target, err, out, c.want)
		}
	}
}

// The review pane of a remote project shows git's diff of the remote
// work tree (git runs there, over the master), an untracked file too.
func TestEndToEndRemoteReviewPane(t *testing.T) {
	e := newRemoteEnv(t)
	gitRepo(t, e.proj, map[string]string{"app.py": reviewBefore})
	writeFile(t, filepath.Join(e.proj, "app.py"), reviewAfter)
	writeFile(t, filepath.Join(e.proj, "fresh.txt"), "untracked line\n")
	s := startTmux(t, e.command(t, "--remote", "box"))
	s.waitFor("enter send")
	s.text("/review")
	s.keys("Enter")
	s.waitFor("Review  Working tree vs HEAD", "app.py", "+     return 10", "fresh.txt", "review: v select")
	s.keys("C-q")
	s.waitFor("EXITED=0")
}

// The master connection ending between turns (ssh -O exit, as a dropped
// network ends it) costs nothing but a new connection: the next turn's
// agent runs over a new master, in batch mode.
func TestEndToEndRemoteMasterEndsBetweenTurns(t *testing.T) {
	e := newRemoteEnv(t)
	s := startTmuxSize(t, e.command(t, "--remote", "box"), 140, 50)
	s.waitFor("enter send")
	s.text("first turn")
	s.keys("Enter")
	s.waitFor("home="+e.srv.Home, "pwd="+e.proj)
	logins := e.srv.Logins()
	exit := exec.Command("ssh", "-F", e.srv.ConfigFile, "-o", "ControlPath="+filepath.Join(e.run, "chipchat-ssh", "%C"), "-O", "exit", sshtest.HostAlias)
	if out, err := exit.CombinedOutput(); err != nil {
		t.Fatalf("ssh -O exit: %v: %s", err, out)
	}
	s.text("second turn")
	s.keys("Enter")
	s.waitUntil("the second reply", func(scr string) bool {
		return strings.Count(scr, "pwd="+e.proj) == 2 && strings.Contains(scr, "second turn")
	})
	if n := e.srv.Logins(); n <= logins {
		t.Errorf("no new login after the master ended (%d, %d before)", n, logins)
	}
	s.keys("C-q")
	s.waitFor("EXITED=0")
}

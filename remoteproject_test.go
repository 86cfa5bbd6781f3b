package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/internal/sshtest"
)

// newTestRemote is a connected remote project on the sshtest server whose
// directory is proj under the server's HOME.
func newTestRemote(t *testing.T) (*sshtest.Server, *remoteProject) {
	t.Helper()
	srv := sshtest.Start(t)
	return srv, openTestRemote(t, srv)
}

// openTestRemote is newTestRemote on a server of the test's.
func openTestRemote(t *testing.T, srv *sshtest.Server) *remoteProject {
	t.Helper()
	proj := filepath.Join(srv.Home, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	run, err := os.MkdirTemp("", "cc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(run) })
	t.Setenv("XDG_RUNTIME_DIR", run)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	return reopenTestRemote(t, srv, proj)
}

// reopenTestRemote is another remote project (a new Conn) on srv's
// directory proj.
func reopenTestRemote(t *testing.T, srv *sshtest.Server, proj string) *remoteProject {
	t.Helper()
	cfg := config.Default()
	cfg.Remote.SSHConfig = srv.ConfigFile
	rp, err := openRemote(sshtest.HostAlias+":"+proj, cfg)
	if err != nil {
		t.Fatalf("%v\n%s", err, srv.Log())
	}
	t.Cleanup(func() { rp.conn.Close() })
	return rp
}

// A mention is read on the remote: a file's first bytes and its size, a
// directory's listing; a symlink out of the project and .. are refused as
// outside it, a missing file is an error. What the login shell prints
// first is not part of it.
func TestRemoteMentionSnapshot(t *testing.T) {
	srv, rp := newTestRemote(t)
	proj := rp.Dir()
	writeFile(t, filepath.Join(proj, "notes.md"), "remote notes\n")
	writeFile(t, filepath.Join(proj, "big.txt"), strings.Repeat("x", 100))
	writeFile(t, filepath.Join(proj, "sub", "inner.go"), "package sub\n")
	writeFile(t, filepath.Join(srv.Home, "secret.txt"), "no\n")
	writeFile(t, filepath.Join(srv.Home, ".profile"), "echo profile noise\n") // printed before the snapshot
	if err := os.Symlink(filepath.Join(srv.Home, "secret.txt"), filepath.Join(proj, "link.txt")); err != nil {
		t.Fatal(err)
	}
	snap, err := rp.snapshot(proj, "notes.md", agent.Limits{})
	if err != nil || string(snap.Data) != "remote notes\n" || snap.Size != 13 || snap.Kind != agent.KindMention || snap.MimeType != "text/markdown" {
		t.Fatalf("notes.md = %+v (%q), %v", snap, snap.Data, err)
	}
	snap, err = rp.snapshot(proj, "big.txt", agent.Limits{InlineFileBytes: 10})
	if err != nil || len(snap.Data) != 10 || snap.Size != 100 {
		t.Fatalf("big.txt cut at 10 = %d bytes of %d, %v", len(snap.Data), snap.Size, err)
	}
	snap, err = rp.snapshot(proj, "sub", agent.Limits{})
	if err != nil || snap.Kind != agent.KindDirectory || !strings.Contains(string(snap.Data), "./inner.go") {
		t.Fatalf("sub = %+v (%q), %v", snap, snap.Data, err)
	}
	for _, out := range []string{"link.txt", "../secret.txt"} {
		if _, err := rp.snapshot(proj, out, agent.Limits{}); !errors.Is(err, agent.ErrOutsideProject) {
			t.Errorf("%s: %v, want outside the project", out, err)
		}
	}
	if _, err := rp.snapshot(proj, "missing.txt", agent.Limits{}); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing.txt: %v", err)
	}
}

// The agent's program is looked up on the remote, in its login shell's
// PATH (one set only in ~/.profile counts).
func TestRemoteAgentCheck(t *testing.T) {
	srv, rp := newTestRemote(t)
	bin := filepath.Join(srv.Home, "bin")
	writeFile(t, filepath.Join(bin, "my-agent"), "#!/bin/sh\nexit 0\n")
	if err := os.Chmod(filepath.Join(bin, "my-agent"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(srv.Home, ".profile"), "PATH=\"$HOME/bin:$PATH\"\n")
	if err := checkRemoteAgent(rp, "acp:my-agent --acp"); err != nil {
		t.Errorf("my-agent: %v", err)
	}
	err := checkRemoteAgent(rp, "exec:no-such-agent-xyz")
	if err == nil || !strings.Contains(err.Error(), "no program no-such-agent-xyz on "+sshtest.HostAlias) {
		t.Errorf("missing: %v", err)
	}
}

// FuzzParseSnapshot reads any remote output without a panic; what it
// accepts holds no more data than the size it states.
func FuzzParseSnapshot(f *testing.F) {
	f.Add([]byte("profile says hi\n\nchipchat-snapshot f 3\nabc"), "a.txt")
	f.Add([]byte("\nchipchat-snapshot d\n./x\n"), "dir")
	f.Add([]byte("\nchipchat-snapshot f -1\n"), "x")
	f.Fuzz(func(t *testing.T, out []byte, name string) {
		snap, err := parseSnapshot(out, name)
		if err != nil {
			return
		}
		if snap.Kind == agent.KindMention && int64(len(snap.Data)) > snap.Size {
			t.Fatalf("%d bytes of a %d-byte file", len(snap.Data), snap.Size)
		}
	})
}

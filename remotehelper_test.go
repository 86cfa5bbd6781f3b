package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/internal/hostileagent"
	"github.com/chipchat/chipchat/internal/sshtest"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/terminal"
)

// remoteHostileAgent is internal/hostileagent started on the remote (the
// sshtest server srv runs on this machine, so this test binary is there
// too, where srv's remote user can run it). With terms, its terminals run
// in terms' tabs, on the remote. What the test wrote into srv.Home is
// handed over to the remote user first.
func remoteHostileAgent(t *testing.T, srv *sshtest.Server, rp *remoteProject, terms ...agent.TerminalHost) agent.Backend {
	t.Helper()
	srv.HandOver(t)
	opts := agent.ACPOptions{Dir: rp.Dir(), LogPath: "-"}
	if len(terms) > 0 {
		opts.Terminals = terms[0]
	}
	b, err := agent.NewWith("acp:env "+hostileagent.Env+"=1 "+testBinary(t, srv)+" -test.run=^TestBoundaryHostileAgentProcess$",
		agent.Options{Host: remoteHost{rp}, ACP: opts})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { agent.Close(b) })
	return b
}

// hostileTurn runs one turn of ops and returns the agent's results and
// the turn's events.
func hostileTurn(t *testing.T, b agent.Backend, dir string, ops ...hostileagent.Op) ([]hostileagent.Result, []agent.Event) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var evs []agent.Event
	var reply strings.Builder
	err := b.Run(ctx, agent.Turn{ThreadID: "th-1", Text: hostilePrompt(t, ops...), Prompt: hostilePrompt(t, ops...), Dir: dir}, func(e agent.Event) {
		evs = append(evs, e)
		if d, ok := e.(agent.TextDelta); ok {
			reply.WriteString(d.Text)
		}
	})
	if err != nil {
		t.Fatalf("turn: %v", err)
	}
	var res []hostileagent.Result
	if err := json.Unmarshal([]byte(reply.String()), &res); err != nil || len(res) != len(ops) {
		t.Fatalf("reply %q: %v", reply.String(), err)
	}
	return res, evs
}

// notices are the turn's notices' texts.
func notices(evs []agent.Event) string {
	var b strings.Builder
	for _, e := range evs {
		if n, ok := e.(agent.Notice); ok {
			b.WriteString(n.Text + "\n")
		}
	}
	return b.String()
}

// writeDiffs are the diffs of the turn's write items.
func writeDiffs(evs []agent.Event) []message.ToolContent {
	var out []message.ToolContent
	for _, e := range evs {
		if c, ok := e.(agent.ToolCall); ok {
			for _, k := range c.Tool.Content {
				if k.Type == message.ContentDiff {
					out = append(out, k)
				}
			}
		}
	}
	return out
}

// An ACP agent on a remote project gets client fs through chipchat's
// helper, staged there (the same OS and architecture): it writes a remote
// file, which shows as a diff item with the old text read there, and
// reads it back; a symlink out of the project, a write into .git and a
// non-UTF-8 file are refused there as they are here. What the login shell
// prints first does not disturb the helper. A second session
// stages nothing (the helper is there already, its sha256 checked).
func TestRemoteHelperServesClientFS(t *testing.T) {
	srv, rp := newTestRemote(t)
	proj := rp.Dir()
	notes := filepath.Join(proj, "notes.txt")
	writeFile(t, notes, "old line\n")
	writeFile(t, filepath.Join(srv.Home, "secret.txt"), "secret\n")
	writeFile(t, filepath.Join(proj, "bin.dat"), "\xff\xfe\x00binary")
	// The login shell prints before the helper starts.
	writeFile(t, filepath.Join(srv.Home, ".profile"), "echo profile noise\n")
	if err := os.MkdirAll(filepath.Join(proj, ".git", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(srv.Home, "secret.txt"), filepath.Join(proj, "escape.txt")); err != nil {
		t.Fatal(err)
	}
	b := remoteHostileAgent(t, srv, rp)
	res, evs := hostileTurn(t, b, proj,
		hostileagent.Op{Op: "caps"},
		hostileagent.Op{Op: "write", Path: notes, Content: "new line\n"},
		hostileagent.Op{Op: "read", Path: notes},
		hostileagent.Op{Op: "read", Path: filepath.Join(proj, "escape.txt")},
		hostileagent.Op{Op: "write", Path: filepath.Join(proj, "escape.txt"), Content: "pwned\n"},
		hostileagent.Op{Op: "write", Path: filepath.Join(proj, ".git", "hooks", "pre-commit"), Content: "#!/bin/sh\n"},
		hostileagent.Op{Op: "read", Path: filepath.Join(proj, "bin.dat")},
	)
	if res[0].Head != "read=true write=true terminal=false" {
		t.Errorf("initialize offered %q", res[0].Head)
	}
	if res[1].Err != "" {
		t.Fatalf("write: %s", res[1].Err)
	}
	if got, _ := os.ReadFile(notes); string(got) != "new line\n" {
		t.Errorf("the remote file holds %q", got)
	}
	if res[2].Err != "" || res[2].Head != "new line\n" {
		t.Errorf("read back: %+v", res[2])
	}
	diffs := writeDiffs(evs)
	if len(diffs) != 1 || diffs[0].Path != notes || diffs[0].OldText == nil || *diffs[0].OldText != "old line\n" || diffs[0].NewText != "new line\n" {
		t.Errorf("write items' diffs: %+v", diffs)
	}
	for i, want := range map[int]string{3: "leads outside the project directory", 4: "outside the project directory", 5: "inside .git", 6: "not UTF-8 text"} {
		if !strings.Contains(res[i].Err, want) {
			t.Errorf("op %d: %q, want %q", i, res[i].Err, want)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(srv.Home, "secret.txt")); string(got) != "secret\n" {
		t.Errorf("the file outside the project holds %q", got)
	}
	if _, err := os.Stat(filepath.Join(proj, ".git", "hooks", "pre-commit")); err == nil {
		t.Error("the hook was written")
	}
	if n := notices(evs); !strings.Contains(n, "refused the agent's write: ") || !strings.Contains(n, "inside .git") || !strings.Contains(n, "not UTF-8 text") {
		t.Errorf("notices:\n%s", n)
	}
	first := rp.helper.uploaded
	if first == 0 {
		t.Fatal("the helper was not uploaded")
	}

	// A second session over a new connection: nothing uploaded.
	rp2 := reopenTestRemote(t, srv, proj)
	b2 := remoteHostileAgent(t, srv, rp2)
	res, _ = hostileTurn(t, b2, proj, hostileagent.Op{Op: "read", Path: notes})
	if res[0].Head != "new line\n" {
		t.Errorf("second session's read: %+v", res[0])
	}
	if rp2.helper.uploaded != 0 {
		t.Errorf("the second session uploaded %d bytes (the first %d)", rp2.helper.uploaded, first)
	}
}

// When the remote's uname is not chipchat's OS and architecture, nothing
// is staged, client fs and terminals are not offered, and a read and a
// write the agent sends anyway are refused with notices saying why; the
// file is untouched.
func TestRemoteHelperNotOfferedOnAnotherPlatform(t *testing.T) {
	srv, rp := newTestRemote(t)
	proj := rp.Dir()
	notes := filepath.Join(proj, "notes.txt")
	writeFile(t, notes, "old\n")
	asked := 0
	rp.helper.uname = func(context.Context) (string, error) { asked++; return "profile noise\nDarwin riscv64\n", nil }
	b := remoteHostileAgent(t, srv, rp)
	res, evs := hostileTurn(t, b, proj,
		hostileagent.Op{Op: "caps"},
		hostileagent.Op{Op: "read", Path: notes},
		hostileagent.Op{Op: "write", Path: notes, Content: "pwned\n"},
	)
	if res[0].Head != "read=false write=false terminal=false" {
		t.Errorf("initialize offered %q", res[0].Head)
	}
	for _, r := range res[1:] {
		if !strings.Contains(r.Err, "does not serve fs/") || !strings.Contains(r.Err, "the remote is darwin/riscv64") {
			t.Errorf("refusal %q", r.Err)
		}
	}
	if n := notices(evs); strings.Count(n, "chipchat refused the agent's") != 2 || !strings.Contains(n, "darwin/riscv64") {
		t.Errorf("notices:\n%s", n)
	}
	if got, _ := os.ReadFile(notes); string(got) != "old\n" {
		t.Errorf("the remote file holds %q", got)
	}
	if rp.helper.uploaded != 0 || asked != 1 {
		t.Errorf("uploaded %d bytes, asked uname %d times", rp.helper.uploaded, asked)
	}
}

// A remote agent's terminals run on the remote through the helper, as
// tabs of the terminal pane (ssh -tt): in the directory it names inside
// the project, with its output and exit code read back; a directory that
// leads out of the project through a symlink is refused there (the
// helper's os.Root check), the command not run.
func TestRemoteHelperRunsTerminals(t *testing.T) {
	srv, rp := newTestRemote(t)
	proj := rp.Dir()
	if err := os.MkdirAll(filepath.Join(proj, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(srv.Home, filepath.Join(proj, "away")); err != nil {
		t.Fatal(err)
	}
	tabs := terminal.NewAgentTerminals(0)
	t.Cleanup(tabs.Close)
	go func() { // the app's side: take the tabs
		for tabs.Listen()() != nil {
		}
	}()
	b := remoteHostileAgent(t, srv, rp, remoteTerms{agentTerms{tabs}, rp})
	res, _ := hostileTurn(t, b, proj,
		hostileagent.Op{Op: "caps"},
		hostileagent.Op{Op: "terminal", Command: "pwd", Cwd: filepath.Join(proj, "sub"), Wait: true, Release: true},
		hostileagent.Op{Op: "terminal", Command: "touch", Args: []string{"ran"}, Cwd: filepath.Join(proj, "away"), Wait: true, Release: true},
	)
	if res[0].Head != "read=true write=true terminal=true" {
		t.Errorf("initialize offered %q", res[0].Head)
	}
	if r := res[1]; r.Err != "" || r.ExitCode == nil || *r.ExitCode != 0 || !strings.Contains(r.Output, filepath.Join(proj, "sub")) {
		t.Errorf("pwd: %+v", r)
	}
	if r := res[2]; r.ExitCode == nil || *r.ExitCode == 0 || !strings.Contains(r.Output, "refused the terminal's directory") {
		t.Errorf("through the symlink: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(srv.Home, "ran")); err == nil {
		t.Error("the command ran outside the project")
	}
}

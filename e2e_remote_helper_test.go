package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/internal/acpagents"
	"github.com/chipchat/chipchat/internal/fakemodel"
	"github.com/chipchat/chipchat/internal/hostileagent"
)

// An ACP agent on a remote project (internal/hostileagent, started there
// over the master) edits a file that exists only there: chipchat staged
// itself on the remote (the same OS and architecture) and serves the
// write through its helper, which lands on the remote and shows as a
// diff of the remote file's old and new text; a write into .git is
// refused there with a notice. This side cannot read the project (its
// directory is hidden here), so all of it came over ssh.
func TestEndToEndRemoteACPEditsThroughTheHelper(t *testing.T) {
	e := newRemoteEnvWith(t, "acp:env "+hostileagent.Env+"=1 "+os.Args[0]+" -test.run=^TestBoundaryHostileAgentProcess$")
	writeFile(t, filepath.Join(e.proj, ".git", "HEAD"), "ref: refs/heads/main\n")
	s := startTmuxSize(t, e.command(t, "--remote", "box"), 160, 50)
	s.waitFor("enter send")
	target := filepath.Join(e.proj, "only-remote.txt")
	s.text(hostilePrompt(t,
		hostileagent.Op{Op: "write", Path: target, Content: "remote secret 43\n"},
		hostileagent.Op{Op: "read", Path: target},
		hostileagent.Op{Op: "write", Path: filepath.Join(e.proj, ".git", "config"), Content: "[core]\n"},
	))
	s.keys("Enter")
	s.waitFor("Write only-remote.txt", "- remote secret 42", "+ remote secret 43",
		"refused the agent's write: .git/config is inside .git", `"head":"remote secret 43\n"`, "enter send")
	if b, _ := os.ReadFile(target); string(b) != "remote secret 43\n" {
		t.Errorf("the remote file is %q", b)
	}
	if _, err := os.Stat(filepath.Join(e.proj, ".git", "config")); err == nil {
		t.Error(".git/config was written")
	}
	staged, _ := filepath.Glob(filepath.Join(e.srv.Home, ".cache", "chipchat", "bin", "*", "chipchat"))
	if len(staged) != 1 {
		t.Errorf("staged helpers: %v", staged)
	}
	s.keys("C-q")
	s.waitFor("EXITED=0")
}

// opencode on a remote project, its model a fake server on this machine,
// edits a file that exists only there: the permission prompt shows the
// diff, and once allowed the write (opencode writes only through
// fs/write_text_file) lands on the remote through chipchat's helper and
// the diff stays in the transcript.
func TestEndToEndRemoteRealOpencodeEdit(t *testing.T) {
	ag, err := acpagents.Find("opencode")
	if err != nil {
		t.Fatal(err)
	}
	acpagents.Need(t, ag)
	e := newRemoteEnvWith(t, "echo")
	d, err := acpagents.NewDirs(filepath.Join(e.srv.Home, "agent"))
	if err != nil {
		t.Fatal(err)
	}
	files := acpagents.DefaultFiles(e.proj)
	writeFile(t, files.Notes, files.OldLine+"\n")
	model := fakemodel.New(ag.Provider, acpagents.Responder(ag, files))
	t.Cleanup(model.Close)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("model requests:\n%s", model.Summary())
		}
	})
	extra, err := ag.Setup(d, model.URL)
	if err != nil {
		t.Fatal(err)
	}
	agentCmd := "exec env -i"
	for _, kv := range d.Env(extra) {
		agentCmd += " " + shellQuote(kv)
	}
	for _, arg := range ag.Argv {
		agentCmd += " " + shellQuote(arg)
	}
	const turn = 3 * time.Minute
	s := startTmuxSize(t, e.command(t, "--remote", "box", "--agent", shellQuote("acp:"+agentCmd)), 160, 50)
	s.waitWithin(time.Minute, "enter send")
	s.text("Edit notes.txt: " + acpagents.MarkEditAllow)
	s.keys("Enter")
	scr := s.waitWithin(turn, "The agent asks", "the agent waits")
	if !strings.Contains(scr, files.AllowLine) || !strings.Contains(scr, files.OldLine) {
		t.Errorf("the edit's diff is not on screen during the prompt:\n%s", scr)
	}
	s.keys("Enter")
	s.waitWithin(turn, acpagents.MarkEditAllow+acpagents.ReplyDone, "- "+files.OldLine, "+ "+files.AllowLine)
	if b, _ := os.ReadFile(files.Notes); string(b) != files.AllowLine+"\n" {
		t.Errorf("the remote file holds %q\n%s", b, s.screen())
	}
	if scr := s.screen(); strings.Contains(scr, "refused") {
		t.Errorf("a refusal on screen:\n%s", scr)
	}
	s.keys("C-q")
	s.waitFor("EXITED=0")
}

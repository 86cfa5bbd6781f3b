package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chipchat/chipchat/internal/testenv"
)

// gitRepo makes dir a repository with files committed.
func gitRepo(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	testenv.NeedCommands(t, "apt-get install git", "git")
	for name, text := range files {
		writeFile(t, filepath.Join(dir, name), text)
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "first"}} {
		c := exec.Command("git", args...)
		c.Dir = dir
		// safe.directory: the directory may be another user's (a remote
		// project in sshtest's second-user mode, handed over already).
		c.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=safe.directory", "GIT_CONFIG_VALUE_0=*")
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

const (
	reviewBefore = "def a():\n    return 1\n\n\ndef b():\n    return 2\n"
	reviewAfter  = "def a():\n    return 10\n\n\ndef b():\n    return 20\n"
)

// The review pane end to end: /review in a repository with a modified
// file, two lines selected, a comment written and confirmed; the composer
// holds the chip; sent to the echo agent, the projection's review-comment
// entry shows the file, the range, the comment and the selected lines.
func TestEndToEndReviewPane(t *testing.T) {
	bin := chipchatBinary(t)
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	gitRepo(t, proj, map[string]string{"app.py": reviewBefore})
	writeFile(t, filepath.Join(proj, "app.py"), reviewAfter)
	home := filepath.Join(root, "home")
	command := fmt.Sprintf("cd %q && env HOME=%q XDG_CONFIG_HOME=%q TERM=xterm-256color %q --data-dir %q; echo EXITED=$?; sleep 600",
		proj, home, filepath.Join(home, ".config"), bin, filepath.Join(root, "data"))
	s := startTmux(t, command)
	s.waitFor("agent echo", "enter send")

	s.text("/review")
	s.keys("Enter")
	s.waitFor("Review  Working tree vs HEAD", "app.py", "+     return 10", "review: v select")
	// The cursor starts on "def a():"; the next two rows are the deleted
	// and the added line.
	s.keys("j", "v", "j")
	s.waitFor("2 lines selected")
	s.keys("c")
	s.waitFor("review comment: enter adds its chip")
	s.text("why ten?")
	s.keys("Enter")
	s.waitFor("review comment app.py L2 added to the composer")
	s.keys("Escape")
	scr := s.waitFor("✎ app.py L2", "enter send")
	if strings.Contains(scr, "Working tree vs HEAD") {
		t.Fatalf("esc closes the pane:\n%s", scr)
	}
	s.text("please fix")
	s.keys("Enter")
	s.waitFor("[Review comment: app.py L2; ref=review_", `<context kind="review-comment" id="review_`, "file: app.py", "range: L2 (2-2)",
		"section: Working tree vs HEAD", "source revision: ", "comment:", "  why ten?", "diff:", "-    return 1", "+    return 10", "</t3_context>")
	s.keys("C-q")
	s.waitFor("EXITED=0")
}

// The same on an agent's diff: a fake ACP agent (this test binary, run as
// TestFakeEditAgentProcess) edits app.py; v and c on its diff item in the
// transcript open the pane on that edit with the comment editor on the
// selected lines; the chip's path is relative to the project.
func TestEndToEndReviewAgentDiff(t *testing.T) {
	bin := chipchatBinary(t)
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	gitRepo(t, proj, map[string]string{"app.py": reviewBefore})
	writeFile(t, filepath.Join(proj, "app.py"), reviewAfter) // what the agent's edit left
	home := filepath.Join(root, "home")
	agentCmd := fmt.Sprintf("acp:%s -test.run=^TestFakeEditAgentProcess$", os.Args[0])
	command := fmt.Sprintf("cd %q && env HOME=%q XDG_CONFIG_HOME=%q TERM=xterm-256color %s=1 %q --data-dir %q --agent %q; echo EXITED=$?; sleep 600",
		proj, home, filepath.Join(home, ".config"), fakeEditAgentEnv, bin, filepath.Join(root, "data"), agentCmd)
	s := startTmux(t, command)
	s.waitFor("enter send")
	s.text("make the values bigger")
	s.keys("Enter")
	s.waitFor("Edit app.py", "Both values are ten times bigger now.")

	// The transcript: the first message (the user's), then down to the
	// edit.
	s.keys("Tab")
	s.keys("Home")
	s.keys("Down")
	s.keys("v")
	s.waitFor("Selection · 1 diff line ")
	s.keys("j")
	s.waitFor("Selection · 2 diff lines")
	s.keys("c")
	s.waitFor("Agent edit", "review comment: enter adds its chip")
	s.text("ten, really?")
	s.keys("Enter")
	s.waitFor("review comment app.py L2 added to the composer")
	s.keys("Escape")
	s.waitFor("✎ app.py L2", "enter send")
	// Sent, the agent gets the projection (the fake agent writes back the
	// text it was given).
	s.keys("Enter")
	s.waitFor("you sent:", "[Review comment: app.py L2; ref=review_", `<context kind="review-comment" id="review_`, "file: app.py",
		"range: L2 (2-2)", "section: Agent edit", "  ten, really?", "-    return 1", "+    return 10", "</t3_context>")
	s.keys("C-q")
	s.waitFor("EXITED=0")
}

const fakeEditAgentEnv = "CHIPCHAT_FAKE_EDIT_AGENT"

// TestFakeEditAgentProcess is the fake ACP agent of
// TestEndToEndReviewAgentDiff; it does nothing in a normal run. The first
// prompt of a session answers with one completed edit of app.py in the
// session's directory (from reviewBefore to reviewAfter) and a line of
// text; the next ones with the text they were given, in a fence.
func TestFakeEditAgentProcess(t *testing.T) {
	if os.Getenv(fakeEditAgentEnv) != "1" {
		return
	}
	ag := &fakeEditAgent{cwd: map[acp.SessionId]string{}, seen: map[acp.SessionId]bool{}}
	conn := acp.NewAgentSideConnection(ag, os.Stdout, os.Stdin)
	ag.conn = conn
	<-conn.Done()
	os.Exit(0)
}

// fakeEditAgent answers the methods chipchat calls; the others (never
// called: their capabilities are not announced) come from the nil
// embedded interface.
type fakeEditAgent struct {
	acp.Agent
	conn *acp.AgentSideConnection
	cwd  map[acp.SessionId]string
	n    int
	seen map[acp.SessionId]bool
}

func (f *fakeEditAgent) Initialize(context.Context, acp.InitializeRequest) (acp.InitializeResponse, error) {
	return acp.InitializeResponse{ProtocolVersion: acp.ProtocolVersionNumber, AuthMethods: []acp.AuthMethod{},
		AgentInfo: &acp.Implementation{Name: "fake-edit", Version: "1"}}, nil
}

func (f *fakeEditAgent) Authenticate(context.Context, acp.AuthenticateRequest) (acp.AuthenticateResponse, error) {
	return acp.AuthenticateResponse{}, nil
}

func (f *fakeEditAgent) NewSession(_ context.Context, p acp.NewSessionRequest) (acp.NewSessionResponse, error) {
	f.n++
	id := acp.SessionId(fmt.Sprintf("s%d", f.n))
	f.cwd[id] = p.Cwd
	return acp.NewSessionResponse{SessionId: id}, nil
}

func (f *fakeEditAgent) Cancel(context.Context, acp.CancelNotification) error { return nil }

func (f *fakeEditAgent) SetSessionMode(context.Context, acp.SetSessionModeRequest) (acp.SetSessionModeResponse, error) {
	return acp.SetSessionModeResponse{}, nil
}

func (f *fakeEditAgent) Prompt(ctx context.Context, p acp.PromptRequest) (acp.PromptResponse, error) {
	path := filepath.Join(f.cwd[p.SessionId], "app.py")
	say := func(u acp.SessionUpdate) {
		_ = f.conn.SessionUpdate(ctx, acp.SessionNotification{SessionId: p.SessionId, Update: u})
	}
	if f.seen[p.SessionId] {
		var b strings.Builder
		for _, c := range p.Prompt {
			if c.Text != nil {
				b.WriteString(c.Text.Text)
			}
		}
		say(acp.UpdateAgentMessageText("you sent:\n\n```text\n" + b.String() + "\n```\n"))
		return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
	}
	f.seen[p.SessionId] = true
	say(acp.StartToolCall("call_1", "Edit app.py", acp.WithStartKind(acp.ToolKindEdit), acp.WithStartStatus(acp.ToolCallStatusCompleted),
		acp.WithStartContent([]acp.ToolCallContent{acp.ToolDiffContent(path, reviewAfter, reviewBefore)})))
	say(acp.UpdateAgentMessageText("Both values are ten times bigger now."))
	return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
}

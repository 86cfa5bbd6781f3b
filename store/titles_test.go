package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/message"
)

// The agent's session titles replace the derived title until the user
// renames the thread; the flag survives a reopen.
func TestAgentTitleUntilTheUserRenames(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	p, _ := s.Project("/p")
	th := s.NewThread(p.ID)
	if _, err := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleUser, Text: "fix the login bug"}); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.AgentTitle(th.ID, "Fix login\x1b[31m bug\nin auth"); err != nil || !ok {
		t.Fatalf("AgentTitle: %v %v", ok, err)
	}
	got, _ := s.Thread(th.ID)
	if got.Title != "Fix login [31m bug in auth" || got.TitleByUser {
		t.Errorf("after the agent's title: %+v", got)
	}
	if ok, _ := s.AgentTitle(th.ID, got.Title); ok {
		t.Error("the same title counted as a change")
	}
	if ok, _ := s.AgentTitle(th.ID, "  "); ok {
		t.Error("an empty title changed it")
	}
	if err := s.RenameThread(th.ID, "my name"); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.AgentTitle(th.ID, "Agent's idea"); err != nil || ok {
		t.Errorf("the agent renamed the user's title: %v %v", ok, err)
	}
	s.Close()
	s2 := open(t, dir)
	got, _ = s2.Thread(th.ID)
	if got.Title != "my name" || !got.TitleByUser {
		t.Errorf("after a reopen: %+v", got)
	}
	// Clearing the title gives it back to the agent.
	if err := s2.RenameThread(th.ID, ""); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s2.AgentTitle(th.ID, "Agent's idea"); !ok {
		t.Error("a cleared title was not the agent's again")
	}
	if ok, err := s2.AgentTitle("thr_none", "x"); ok || err == nil {
		t.Errorf("unknown thread: %v %v", ok, err)
	}
	long := strings.Repeat("w", 200)
	s2.AgentTitle(th.ID, long)
	if got, _ := s2.Thread(th.ID); len([]rune(got.Title)) != MaxTitleLen {
		t.Errorf("long title kept %d characters", len([]rune(got.Title)))
	}
}

// A database of schema 6 gets the flag (every title the derived one).
func TestSchema6MigratesTitleFlag(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "schema6", FileName))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), src, 0o600); err != nil {
		t.Fatal(err)
	}
	s := open(t, dir)
	p, err := s.ProjectByKey("/home/dev/proj")
	if err != nil {
		t.Fatal(err)
	}
	ts, err := s.Threads(p.ID)
	if err != nil || len(ts) == 0 {
		t.Fatalf("threads %v %v", ts, err)
	}
	for _, th := range ts {
		if th.TitleByUser {
			t.Errorf("%s migrated as the user's title", th.ID)
		}
	}
	if ok, err := s.AgentTitle(ts[0].ID, "From the agent"); !ok || err != nil {
		t.Errorf("AgentTitle on a migrated thread: %v %v", ok, err)
	}
}

func TestAgentSessionIDs(t *testing.T) {
	s := open(t, t.TempDir())
	p, _ := s.Project("/p")
	q, _ := s.Project("/q")
	a, b, c := s.NewThread(p.ID), s.NewThread(p.ID), s.NewThread(q.ID)
	for _, x := range []struct {
		th         Thread
		agent, sid string
	}{{a, "acp:claude", "s1"}, {b, "acp:codex", "s2"}, {c, "acp:claude", "s3"}} {
		if err := s.SetAgentSession(x.th.ID, x.agent, x.sid); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.AgentSessionIDs(p.ID, "acp:claude")
	if err != nil || len(got) != 1 || !got["s1"] {
		t.Errorf("AgentSessionIDs = %v, %v", got, err)
	}
}

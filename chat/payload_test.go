package chat

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
)

func readAttachment(t *testing.T, a agent.Attachment) string {
	t.Helper()
	b, err := os.ReadFile(a.Path)
	if err != nil {
		t.Fatalf("attachment %s: %v", a.Name, err)
	}
	return string(b)
}

// An @ mention is snapshotted at send: the turn gets the file as it was,
// and so does every later turn's history, whatever the file holds now.
// A thread chip hands the backend that thread's messages; a cancelled
// reply is marked in the history.
func TestPayloadMentionsThreadsAndHistory(t *testing.T) {
	e := newEnv(t, agent.Capabilities{Cancel: true, History: true, InlinePayload: true})
	dir := e.s.opt.Dir
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("version one"), 0o644); err != nil {
		t.Fatal(err)
	}
	mention := mentionRecord("notes.txt")
	e.s.Send(e.thread.ID, Submission{Markdown: "read " + contextref.LinkFor(mention), Records: []contextref.Record{mention}})
	ft := e.turn()
	if len(ft.turn.Attachments) != 1 || ft.turn.Attachments[0].Kind != agent.KindMention || ft.turn.Attachments[0].Name != "notes.txt" ||
		readAttachment(t, ft.turn.Attachments[0]) != "version one" {
		t.Fatalf("attachments: %+v", ft.turn.Attachments)
	}
	ft.emit(agent.TextDelta{Text: "read it"})
	ft.end <- nil
	until[ReplyFinished](e, nil)
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("version two, changed later"), 0o644); err != nil {
		t.Fatal(err)
	}

	// A cancelled turn, then a message with a thread chip.
	e.send("stop this one")
	e.turn() // it started; cancel it
	e.s.Cancel(e.thread.ID)
	until[ReplyFinished](e, func(f ReplyFinished) bool { return f.Status == message.StatusInterrupted })

	p, _ := e.st.Project("/proj")
	other, _ := e.st.CreateThread(p.ID)
	if _, err := e.st.AddMessage(storeMsg(other.ID, message.RoleUser, "the plan is X")); err != nil {
		t.Fatal(err)
	}
	if _, err := e.st.AddMessage(storeMsg(other.ID, message.RoleAssistant, "agreed: X")); err != nil {
		t.Fatal(err)
	}
	here := threadRecord("t1", e.st.EnvironmentID(), other.ID, "Plan")
	away := threadRecord("t2", "env-elsewhere", "thr_x", "Elsewhere")
	e.s.Send(e.thread.ID, Submission{Markdown: "see " + contextref.LinkFor(here) + " and " + contextref.LinkFor(away), Records: []contextref.Record{here, away}})
	ft = e.turn()
	h := ft.turn.History
	if len(h) != 4 || len(h[0].Attachments) != 1 || readAttachment(t, h[0].Attachments[0]) != "version one" {
		t.Fatalf("history: %+v", h)
	}
	if !h[3].Interrupted || h[3].Role != "assistant" {
		t.Errorf("the cancelled reply is not marked: %+v", h[3])
	}
	th := ft.turn.Threads
	if len(th) != 2 || th[0].Missing || len(th[0].Messages) != 2 || th[0].Messages[1].Text != "agreed: X" || !th[1].Missing {
		t.Errorf("threads: %+v", th)
	}
	ft.end <- nil
	until[ReplyFinished](e, nil)
}

package ui

// Tests of opening a thread lazily (contexts decoded by the transcript on
// first use). In a bench_ file: the rest of ui's tests belong to another
// file set.

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
	"github.com/chipchat/chipchat/transcript"
)

func benchKey(k string) tea.KeyPressMsg {
	switch k {
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	}
	return tea.KeyPressMsg{Code: rune(k[0]), Text: k}
}

// benchPress sends a key to the app and runs the command it returns (a
// transcript request comes back as is).
func benchPress(a *App, k string) tea.Msg {
	_, cmd := a.Update(benchKey(k))
	if cmd == nil {
		return nil
	}
	return cmd()
}

// Opening a thread (workspace.Start) hands the transcript raw contexts; chips of a lazily decoded
// message navigate, open and copy; a stored context that no longer
// decodes shows as no context.
func TestOpenThreadLazyContexts(t *testing.T) {
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cwd := t.TempDir()
	p, err := st.Project(store.ProjectKey(cwd))
	if err != nil {
		t.Fatal(err)
	}
	th, err := st.CreateThread(p.ID)
	if err != nil {
		t.Fatal(err)
	}
	f := &contextref.FileRecord{AttachmentRecord: contextref.AttachmentRecord{Base: contextref.NewBase(contextref.KindFile, "fa", "a.go"),
		AttachmentID: "att_fa", Name: "a.go", MimeType: "text/x-go", SizeBytes: 3}}
	men := &contextref.MentionRecord{Base: contextref.NewBase(contextref.KindMention, "mr", "server/routes.go"), Path: "server/routes.go"}
	add := func(m store.Message) store.Message {
		t.Helper()
		m.ThreadID = th.ID
		out, err := st.AddMessage(m)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	text1 := "look at " + contextref.LinkFor(f) + " and " + contextref.LinkFor(men)
	add(store.Message{Role: message.RoleUser, Text: text1, Context: &contextref.MessageContext{Version: 1, Records: []contextref.Record{f, men}}})
	add(store.Message{Role: message.RoleAssistant, Text: "done"})
	broken := add(store.Message{Role: message.RoleUser, Text: "and " + contextref.LinkFor(f) + " again",
		Context: &contextref.MessageContext{Version: 1, Records: []contextref.Record{f}}})
	db, err := sql.Open("sqlite", filepath.Join(st.Dir(), "chipchat.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE messages SET context = '{"version":1,"records":[' WHERE id = ?`, broken.ID); err != nil {
		t.Fatal(err)
	}
	db.Close()

	opt := mainOptions(t, st, nil, cwd, "", false)
	if opt.Opened.Thread.ID != th.ID || len(opt.Opened.Messages) != 3 {
		ts, terr := st.Threads(p.ID)
		t.Fatalf("opened %s (project %d) with %d messages, want %s with 3; the project's threads: %+v (%v); ProjectKey now %q",
			opt.Opened.Thread.ID, opt.Workspace.ProjectID(), len(opt.Opened.Messages), th.ID, ts, terr, store.ProjectKey(cwd))
	}
	for i, m := range opt.Opened.Messages {
		if m.Context != nil || (m.RawContext != nil) != (m.Role == message.RoleUser) {
			t.Fatalf("message %d: context %v, raw %q", i, m.Context, m.RawContext)
		}
	}
	// Switching threads loads raw too.
	if lm, err := opt.Workspace.Load(th.ID)(); err != nil || len(lm.Messages) != 3 || lm.Messages[0].Context != nil || lm.Messages[0].RawContext == nil {
		t.Fatalf("Load: %+v %v", lm, err)
	}

	opt.Config, opt.NoColor = config.Default(), true
	opt.Backend = agent.Echo{}
	a := opt.app(t)
	a.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	v := ansi.Strip(a.View().Content)
	for _, want := range []string{"look at", "a.go", "server/routes.go", "[? a.go]", "again"} {
		if !strings.Contains(v, want) {
			t.Fatalf("the frame lacks %q:\n%s", want, v)
		}
	}
	if strings.Count(v, "[? a.go]") != 1 {
		t.Fatalf("only the broken message's chip is unresolved:\n%s", v)
	}

	benchPress(a, "tab") // the transcript, on the last message
	if a.focus != paneTranscript {
		t.Fatal("tab did not focus the transcript")
	}
	benchPress(a, "right")
	if got := benchPress(a, "o"); got != nil {
		t.Fatalf("the broken message's chip opened: %#v", got)
	}
	if cm, ok := benchPress(a, "y").(transcript.CopyMsg); !ok || cm.MessageID != broken.ID || len(cm.Records) != 0 {
		t.Fatalf("copy of the broken message: %#v", cm)
	}
	benchPress(a, "up")
	benchPress(a, "up")
	benchPress(a, "right")
	benchPress(a, "right")
	if msg, chip := a.tr.Selected(); msg != 0 || chip != 1 {
		t.Fatalf("selected %d/%d, want 0/1", msg, chip)
	}
	om, ok := benchPress(a, "o").(transcript.OpenMsg)
	if r, isMention := om.Record.(*contextref.MentionRecord); !ok || !isMention || r.Path != "server/routes.go" {
		t.Fatalf("o opened %#v", om.Record)
	}
	cm, ok := benchPress(a, "y").(transcript.CopyMsg)
	if !ok || cm.Markdown != text1 || len(cm.Records) != 2 || cm.Records[0].RecordBase().ContextID != "fa" {
		t.Fatalf("copy: %#v", cm)
	}
}

package chat

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// ---- BuildMessage, NormalizeAttachments, CheckLimits ----

func fileRec(id, name string) *contextref.FileRecord {
	return &contextref.FileRecord{AttachmentRecord: contextref.AttachmentRecord{
		Base: contextref.NewBase(contextref.KindFile, id, name), AttachmentID: id, Name: name, MimeType: "text/plain", SizeBytes: 3}}
}

func imageRec(id, name string) *contextref.ImageRecord {
	return &contextref.ImageRecord{AttachmentRecord: contextref.AttachmentRecord{
		Base: contextref.NewBase(contextref.KindImage, id, name), AttachmentID: id, Name: name, MimeType: "image/png", SizeBytes: 67}}
}

func TestNormalizeAttachmentsRewritesLocalIDs(t *testing.T) {
	img, file := imageRec("att_local1", "shot.png"), fileRec("att_local2", "notes.txt")
	skill := skillRecord("review")
	bound := map[string]string{"att_local1": "sha256-aaa", "att_local2": "sha256-bbb"}
	stored := map[string]bool{"sha256-aaa": true, "sha256-bbb": true}
	in := []contextref.Record{img, skill, file}
	out, err := NormalizeAttachments(in, func(l string) (string, bool) { id, ok := bound[l]; return id, ok },
		func(id string) bool { return stored[id] })
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 3 {
		t.Fatalf("got %d records", len(out))
	}
	gi, ok1 := out[0].(*contextref.ImageRecord)
	gf, ok2 := out[2].(*contextref.FileRecord)
	if !ok1 || !ok2 || gi.AttachmentID != "sha256-aaa" || gf.AttachmentID != "sha256-bbb" {
		t.Fatalf("normalized = %#v, %#v", out[0], out[2])
	}
	// The context id (the chip's identity) is untouched, and so is the input.
	if gi.ContextID != "att_local1" || gf.ContextID != "att_local2" {
		t.Errorf("context ids changed: %s, %s", gi.ContextID, gf.ContextID)
	}
	if img.AttachmentID != "att_local1" || file.AttachmentID != "att_local2" {
		t.Error("the draft's records were changed in place")
	}
	if out[1] != skill {
		t.Error("a record without an attachment was not passed through")
	}

	// An id with no binding that names stored bytes is kept as it is.
	already := fileRec("ctx_x", "done.txt")
	already.AttachmentID = "sha256-bbb"
	out, err = NormalizeAttachments([]contextref.Record{already}, func(string) (string, bool) { return "", false },
		func(id string) bool { return stored[id] })
	if err != nil || out[0].(*contextref.FileRecord).AttachmentID != "sha256-bbb" {
		t.Errorf("already-stored id: %v, %v", out, err)
	}
}

func TestNormalizeAttachmentsRefusesMissingBytes(t *testing.T) {
	for _, tc := range []struct {
		name    string
		resolve func(string) (string, bool)
	}{
		{"bound but gone", func(string) (string, bool) { return "sha256-gone", true }},
		{"never bound", func(string) (string, bool) { return "", false }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NormalizeAttachments([]contextref.Record{imageRec("att_1", "lost-shot.png")}, tc.resolve,
				func(string) bool { return false })
			if err == nil || !strings.Contains(err.Error(), "lost-shot.png") || !strings.Contains(err.Error(), "not sent") {
				t.Errorf("err = %v, want a refusal naming lost-shot.png", err)
			}
		})
	}
}

func TestBuildMessageKeepsOnlyReferencedRecords(t *testing.T) {
	file, shelfOnly := fileRec("att_f", "a.txt"), imageRec("att_i", "shelf.png")
	orphan := mentionRecord("gone.go")
	mention := mentionRecord("main.go")
	md := "see " + contextref.LinkFor(file) + " and " + contextref.LinkFor(mention)
	resolve := func(l string) (string, bool) { return "sha256-" + l, true }
	has := func(string) bool { return true }
	msg, err := BuildMessage("thr_1", md, []contextref.Record{shelfOnly, file, orphan, mention}, resolve, has)
	if err != nil {
		t.Fatal(err)
	}
	if msg.ThreadID != "thr_1" || msg.Role != message.RoleUser || msg.Text != md {
		t.Errorf("message = %+v", msg)
	}
	if msg.Context == nil || msg.Context.Version != 1 {
		t.Fatalf("context = %+v", msg.Context)
	}
	var ids []string
	for _, r := range msg.Context.Records {
		ids = append(ids, r.RecordBase().ContextID)
	}
	want := []string{file.ContextID, mention.RecordBase().ContextID}
	slices.Sort(ids)
	slices.Sort(want)
	if !slices.Equal(ids, want) {
		t.Errorf("records = %v, want %v", ids, want)
	}
	for _, r := range msg.Context.Records {
		if f, ok := r.(*contextref.FileRecord); ok && f.AttachmentID != "sha256-att_f" {
			t.Errorf("file attachment id = %s, want the stored id", f.AttachmentID)
		}
	}

	// Plain text: no context at all; an unreferenced image with missing
	// bytes does not block the send.
	msg, err = BuildMessage("thr_1", "just words", []contextref.Record{shelfOnly}, resolve, func(string) bool { return false })
	if err != nil || msg.Context != nil {
		t.Errorf("plain message: %+v, %v", msg, err)
	}
}

func TestCheckLimits(t *testing.T) {
	if err := CheckLimits("hello", nil); err != nil {
		t.Errorf("small message refused: %v", err)
	}
	mk := func(n int) *contextref.MessageContext {
		c := &contextref.MessageContext{Version: 1}
		for i := 0; i < n; i++ {
			c.Records = append(c.Records, mentionRecord(fmt.Sprintf("f%d.go", i)))
		}
		return c
	}
	if err := CheckLimits("x", mk(contextref.MaxContextRecords)); err != nil {
		t.Errorf("exactly %d records refused: %v", contextref.MaxContextRecords, err)
	}
	err := CheckLimits("x", mk(contextref.MaxContextRecords+1))
	if err == nil || !strings.Contains(err.Error(), "201") || !strings.Contains(err.Error(), "200") {
		t.Errorf("201 records: %v", err)
	}
	err = CheckLimits(strings.Repeat("a", MaxMessageLen+1), nil)
	if err == nil || !strings.Contains(err.Error(), "limit") || !strings.Contains(err.Error(), "not sent") {
		t.Errorf("oversize text: %v", err)
	}
	if err := CheckLimits(strings.Repeat("a", MaxMessageLen), nil); err != nil {
		t.Errorf("text at the limit refused: %v", err)
	}
	// Records whose JSON is over the contract's 16,000,000 units.
	big := &contextref.MessageContext{Version: 1}
	for i := 0; i < 5; i++ {
		big.Records = append(big.Records, &contextref.UnknownRecord{Base: contextref.NewBase("future", fmt.Sprintf("u%d", i), "u"),
			Payload: []byte(`"` + strings.Repeat("p", 3_500_000) + `"`)})
	}
	if err := CheckLimits("x", big); err == nil {
		t.Error("a context over 16,000,000 characters passed")
	}
	// A record that breaks its schema.
	bad := &contextref.MessageContext{Version: 1, Records: []contextref.Record{&contextref.SkillRecord{
		Base: contextref.NewBase(contextref.KindSkill, "s1", "$"), Name: "  "}}}
	if err := CheckLimits("x", bad); err == nil {
		t.Error("a record failing its schema passed")
	}
}

func excerpt(id string) *contextref.TerminalRecord {
	return &contextref.TerminalRecord{Base: contextref.NewBase(contextref.KindTerminal, id, "Terminal 1 lines 1-2"),
		TerminalID: "term-1", TerminalLabel: "Terminal 1", LineStart: 1, LineEnd: 2, Text: "a\nb"}
}

func TestDropExpiredKeepsEverythingButOldExcerpts(t *testing.T) {
	old, fresh := excerpt("old"), excerpt("fresh")
	skill := &contextref.SkillRecord{Base: contextref.NewBase(contextref.KindSkill, "old", "$x"), Name: "x"}
	kept, dropped := DropExpired([]contextref.Record{old, fresh, skill}, func(r contextref.Record) bool {
		return r.RecordBase().ContextID == "old"
	})
	if dropped != 1 || len(kept) != 2 || kept[0] != fresh || kept[1] != skill {
		t.Fatalf("kept %v, dropped %d: only terminal excerpts expire", kept, dropped)
	}
}

func TestThreadHistoryProjectsEarlierMessages(t *testing.T) {
	e := newEnv(t, agent.Capabilities{})
	p, _ := e.st.Project("/x")
	th, _ := e.st.CreateThread(p.ID)
	skill := &contextref.SkillRecord{Base: contextref.NewBase(contextref.KindSkill, "s1", "$review"), Name: "review"}
	u1, _ := e.st.AddMessage(store.Message{ThreadID: th.ID, Role: message.RoleUser, Text: "use " + contextref.LinkFor(skill),
		Context: &contextref.MessageContext{Version: 1, Records: []contextref.Record{skill}}})
	_, _ = e.st.AddMessage(store.Message{ThreadID: th.ID, Role: message.RoleAssistant, Text: "done"})
	u2, _ := e.st.AddMessage(store.Message{ThreadID: th.ID, Role: message.RoleUser, Text: "next"})
	h := e.s.history(th.ID, u2.ID, nil)
	if len(h) != 2 || h[0].Role != "user" || h[0].Text != "use [Skill: $review; ref=s1]" || h[1].Text != "done" {
		t.Fatalf("history %+v (first user message %s)", h, u1.ID)
	}
}

// After a restart, a thread that was compacted hands the harness the
// user's words and the summary, not the replies the summary replaced.
func TestThreadHistoryAfterCompact(t *testing.T) {
	e := newEnv(t, agent.Capabilities{})
	p, _ := e.st.Project("/x")
	th, _ := e.st.CreateThread(p.ID)
	add := func(role message.Role, text string) store.Message {
		m, err := e.st.AddMessage(store.Message{ThreadID: th.ID, Role: role, Text: text})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	add(message.RoleUser, "question one")
	add(message.RoleAssistant, "long answer one")
	add(message.RoleUser, agent.CompactCommand)
	add(message.RoleAssistant, "SUMMARY")
	add(message.RoleUser, "question two")
	add(message.RoleAssistant, "answer two")
	next := add(message.RoleUser, "question three")
	var got []string
	for _, h := range e.s.history(th.ID, next.ID, nil) {
		got = append(got, h.Role+":"+h.Text)
	}
	want := "user:question one|user:<conversation_summary>\nSUMMARY\n</conversation_summary>|user:question two|assistant:answer two"
	if strings.Join(got, "|") != want {
		t.Fatalf("history\n got %q\nwant %q", strings.Join(got, "|"), want)
	}
}

func mentionRecord(path string) contextref.Record {
	return &contextref.MentionRecord{Base: contextref.NewBase(contextref.KindMention, contextref.ToContextID("mention-"+path), path), Path: path}
}

func skillRecord(name string) contextref.Record {
	return &contextref.SkillRecord{Base: contextref.NewBase(contextref.KindSkill, contextref.ToContextID("skill-"+name), "$"+name), Name: name}
}

func threadRecord(id, env, threadID, title string) *contextref.ThreadRecord {
	return &contextref.ThreadRecord{Base: contextref.NewBase(contextref.KindThread, id, title), EnvironmentID: env, ThreadID: threadID, Title: title}
}

func storeMsg(threadID string, role message.Role, text string) store.Message {
	return store.Message{ThreadID: threadID, Role: role, Text: text}
}

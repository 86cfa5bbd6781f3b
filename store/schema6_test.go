package store_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// The schema-6 fixture, testdata/schema6/chipchat.db, is a database written
// by the store of schema 6 through its public API alone: two projects,
// threads with user messages carrying a context of every record kind,
// replies of every item kind (a tool with text, diff and terminal content,
// thoughts, a plan, a permission, notices), an interrupted, an error and a
// streaming reply, a queued message, drafts, the stash, the prompt history,
// mention snapshots, agent sessions, attachment bindings, excerpt times and
// a forked thread. fixture6 below is what it holds.
//
// TestWriteSchema6Fixture made it and makes it again with
//
//	STORE_WRITE_FIXTURE=1 go test ./store/ -run TestWriteSchema6Fixture
//
// but only while SchemaVersion is 6: a later store writes a later schema,
// and this file must stay what schema 6 wrote. A new schema gets a new
// fixture (testdata/schemaN, written by a copy of this generator run at
// that schema) beside this one.

// The fixture's two project keys.
const (
	fixProject = "/home/dev/proj"
	fixOther   = "/home/dev/other"
)

// fixAt is a fixed time of the fixture, min minutes after its start.
func fixAt(min int) time.Time {
	return time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC).Add(time.Duration(min) * time.Minute)
}

// fixThread is one thread of the fixture: its title, messages (IDs fixed,
// except in a fork, which makes its own), draft, agent sessions and the
// mention snapshots of its messages.
type fixThread struct {
	title     string
	msgs      []store.Message
	draft     *store.Draft
	sessions  map[string]string
	snapshots map[string][]store.MentionSnapshot
	// fork: the thread is ForkThread's copy of the thread titled fork, up
	// to the message upTo, renamed to title.
	fork, upTo string
}

type fixProjectData struct {
	key     string
	threads []fixThread // in Threads order: most recently updated first
	stash   []store.StashEntry
	history []string // Markdown, newest first
	// historyRecs are the records of history entries, by Markdown.
	historyRecs map[string][]contextref.Record
}

type fixData struct {
	projects    []fixProjectData
	attachments map[string]string // local id → asset id
	excerpts    map[string]time.Time
}

func ptr[T any](v T) *T { return &v }

// fixRecords is one record of every kind this version knows, and one of a
// kind it does not. thread is the id of the thread a thread record points
// to, env the environment's id.
func fixRecords(env, thread string) []contextref.Record {
	return []contextref.Record{
		&contextref.ImageRecord{AttachmentRecord: contextref.AttachmentRecord{Base: contextref.NewBase(contextref.KindImage, "ctx_img", "shot.png"),
			AttachmentID: "att_img1", Name: "shot.png", MimeType: "image/png", SizeBytes: 2048}},
		&contextref.FileRecord{AttachmentRecord: contextref.AttachmentRecord{Base: contextref.NewBase(contextref.KindFile, "ctx_file", "notes.pdf"),
			AttachmentID: "att_file1", Name: "notes.pdf", MimeType: "application/pdf", SizeBytes: 4096}},
		&contextref.TerminalRecord{Base: contextref.NewBase(contextref.KindTerminal, "ctx_term", "Terminal 1 lines 3-4"),
			TerminalID: "term-1", TerminalLabel: "Terminal 1", LineStart: 3, LineEnd: 4, Text: "$ go test ./...\nFAIL <b>&"},
		&contextref.ElementRecord{Base: contextref.NewBase(contextref.KindElement, "ctx_el", "button.save"),
			ElementDetails: contextref.ElementDetails{PageURL: "http://localhost:3000/", PageTitle: ptr("App"), TagName: "button",
				Selector: ptr("button.save"), HTMLPreview: "<button class=\"save\">Save</button>", ComponentName: ptr("SaveButton"),
				Source: &contextref.ElementSource{FunctionName: ptr("SaveButton"), FileName: ptr("src/Save.tsx"), LineNumber: ptr(int64(12)), ColumnNumber: ptr(int64(3))},
				Styles: "color: red"}},
		&contextref.PreviewAnnotationRecord{Base: contextref.NewBase(contextref.KindPreviewAnnotation, "ctx_ann", "Annotation 1"),
			AnnotationID: "ann-1", PageURL: "http://localhost:3000/", PageTitle: ptr("App"), Comment: "make it bigger",
			TargetSummary: "the header", StyleChanges: []string{"font-size: 20px"}, ElementIDs: &[]string{"el-1"},
			RegionCount: ptr(int64(1)), StrokeCount: ptr(int64(2)),
			StyleChangeDetails:  &[]contextref.StyleChangeDetail{{TargetID: "el-1", Selector: ptr("h1"), Property: "font-size", PreviousValue: "16px", Value: "20px"}},
			ScreenshotContextID: ptr("ctx_img")},
		&contextref.ReviewCommentRecord{Base: contextref.NewBase(contextref.KindReviewComment, "ctx_rev", "a.ts L4-L9"),
			SectionID: "s1", SectionTitle: "Diff", FilePath: "src/a.ts", StartIndex: 4, EndIndex: 9, RangeLabel: "L4-L9",
			Text: "Rename this", Diff: "-old\n+new", FenceLanguage: ptr("diff"), SourceRevision: ptr("abc123"), SourceStale: ptr(false),
			PullRequest: &contextref.PullRequest{Number: 7, Title: "Rename", URL: "https://example.invalid/pr/7", HeadBranch: "rename", BaseBranch: "main", State: "open", IsDraft: true}},
		&contextref.MentionRecord{Base: contextref.NewBase(contextref.KindMention, "ctx_men", "main.go"), Path: "main.go"},
		&contextref.SkillRecord{Base: contextref.NewBase(contextref.KindSkill, "ctx_skill", "review"), Name: "review"},
		&contextref.ThreadRecord{Base: contextref.NewBase(contextref.KindThread, "ctx_thr", "Earlier thread"),
			EnvironmentID: env, ThreadID: thread, Title: "Earlier thread"},
		&contextref.UnknownRecord{Base: contextref.NewBase("hologram", "ctx_future", "Future"), Payload: json.RawMessage(`{"a":"<b>","n":[1,2]}`)},
	}
}

// fixture6 is what the schema-6 fixture holds. env is its environment id,
// alpha the id of its first thread (the one thread records point to).
func fixture6(env, alpha string) fixData {
	recs := fixRecords(env, alpha)
	links := make([]string, len(recs))
	for i, r := range recs {
		links[i] = contextref.LinkFor(r)
	}
	ctx := &contextref.MessageContext{Version: 1, Records: recs}
	rawIn := json.RawMessage(`{"command":"go test ./store/"}`)
	rawOut := json.RawMessage(`{"exitCode":1}`)
	tool := &message.Tool{CallID: "call_1", Kind: "execute", Title: "go test ./store/", Status: message.ToolFailed,
		Locations: []message.Location{{Path: "store/store.go", Line: 42}}, RawInput: rawIn, RawOutput: rawOut,
		Content: []message.ToolContent{
			{Type: message.ContentText, Text: "running the tests"},
			{Type: message.ContentTerminal, TerminalID: "term_agent_1"},
		},
		Started: fixAt(2), Ended: fixAt(3)}
	edit := &message.Tool{CallID: "call_2", Kind: "edit", Title: "Edit store.go, add new.go", Status: message.ToolCompleted,
		Locations: []message.Location{{Path: "store/store.go"}, {Path: "store/new.go"}},
		Content: []message.ToolContent{
			{Type: message.ContentDiff, Path: "store/store.go", OldText: ptr("const a = 1\n"), NewText: "const a = 2\n"},
			{Type: message.ContentDiff, Path: "store/new.go", NewText: "package store\n"}, // a new file: no old text
		},
		Started: fixAt(3)}
	perm := &message.Permission{ToolCallID: "call_2", Asked: "Edit store/store.go?",
		Options: []message.PermissionOption{
			{ID: "once", Name: "Allow once", Kind: message.AllowOnce},
			{ID: "always", Name: "Allow always", Kind: message.AllowAlways},
			{ID: "no", Name: "Reject", Kind: message.RejectOnce},
		},
		Chosen: "once", Outcome: "selected"}
	plan := []message.PlanEntry{
		{Content: "Read the store", Priority: "high", Status: "completed"},
		{Content: "Fix the test", Priority: "medium", Status: "in_progress"},
		{Content: "Write the changelog", Priority: "low", Status: "pending"},
	}
	alphaMsgs := []store.Message{
		{ID: "msg_fix6_a1", Role: message.RoleUser, Status: message.StatusDone, Created: fixAt(1), Context: ctx,
			Text: "Look at " + strings.Join(links, " and ") + "\nsecond line: ünïcödé ✓"},
		{ID: "msg_fix6_a2", Role: message.RoleAssistant, Status: message.StatusDone, Created: fixAt(2), Items: []message.Item{
			{ID: "it_thought", Kind: message.ItemThought, Text: "The user wants the tests fixed. Let me look."},
			{ID: "it_plan", Kind: message.ItemPlan, Plan: plan},
			{ID: "it_tool", Kind: message.ItemTool, Tool: tool},
			{ID: "it_perm", Kind: message.ItemPermission, Permission: perm},
			{ID: "it_edit", Kind: message.ItemTool, Tool: edit},
			{ID: "it_text", Kind: message.ItemText, Text: "## Done\n\nI changed **store.go**:\n\n```go\nconst a = 2\n```\n"},
			{ID: "it_note", Kind: message.ItemNotice, Text: "Agent restarted"},
		}},
		{ID: "msg_fix6_a3", Role: message.RoleUser, Status: message.StatusDone, Created: fixAt(4), Text: "and " + links[6] + "?",
			Context: &contextref.MessageContext{Version: 1, Records: recs[6:7]}},
		{ID: "msg_fix6_a4", Role: message.RoleAssistant, Status: message.StatusInterrupted, Created: fixAt(5), Items: []message.Item{
			{ID: "item_1", Kind: message.ItemText, Text: "partial answer"},
		}},
		{ID: "msg_fix6_a5", Role: message.RoleUser, Status: message.StatusDone, Created: fixAt(6), Text: "question 3"},
		{ID: "msg_fix6_a6", Role: message.RoleAssistant, Status: message.StatusError, Created: fixAt(7), Items: []message.Item{
			{ID: "it_err", Kind: message.ItemNotice, Level: "error", Text: "the agent exited (status 2)", StderrTail: "panic: boom\ngoroutine 1 [running]:"},
		}},
	}
	betaMsgs := []store.Message{
		{ID: "msg_fix6_b1", Role: message.RoleUser, Status: message.StatusDone, Created: fixAt(10), Text: "Beta question"},
		{ID: "msg_fix6_b2", Role: message.RoleAssistant, Status: message.StatusStreaming, Created: fixAt(11), Items: []message.Item{
			{ID: "it_t1", Kind: message.ItemText, Text: "still streaming when chipchat was killed"},
		}},
		{ID: "msg_fix6_b3", Role: message.RoleUser, Status: message.StatusQueued, Created: fixAt(12), Text: "typed while the turn ran"},
	}
	// The fork copies Alpha up to its first reply, with its own message ids.
	forkMsgs := slices.Clone(alphaMsgs[:2])
	for i := range forkMsgs {
		forkMsgs[i].ID = ""
	}
	draftRecs := []contextref.Record{recs[6], recs[9]}
	return fixData{
		projects: []fixProjectData{
			{
				key: fixProject,
				threads: []fixThread{
					{title: "Fork of Alpha", fork: "Alpha", upTo: "msg_fix6_a2", msgs: forkMsgs},
					{title: "Beta ✓ renamed", msgs: betaMsgs,
						draft:    &store.Draft{Markdown: "beta draft", Caret: store.Caret{Line: 0, Col: 10}, Updated: fixAt(13)},
						sessions: map[string]string{"acp:codex": "sess-beta"}},
					{title: "Alpha", msgs: alphaMsgs,
						draft: &store.Draft{Markdown: "draft " + links[6] + "\n" + links[9], Records: draftRecs,
							Caret: store.Caret{Line: 1, Col: 3}, Updated: fixAt(8)},
						sessions: map[string]string{"acp:claude": "sess-1", "acp:gemini": "sess-2"},
						snapshots: map[string][]store.MentionSnapshot{"msg_fix6_a1": {
							{ContextID: "ctx_men", AssetID: "asset_main_go", Kind: "mention", Size: 1234, MimeType: "text/x-go"},
						}, "msg_fix6_a3": {
							{ContextID: "ctx_men", AssetID: "asset_main_go2", Kind: "mention", Size: 1240, MimeType: "text/x-go"},
							{ContextID: "ctx_dir", AssetID: "asset_dir", Kind: "directory", Size: 77, MimeType: "text/plain"},
						}}},
				},
				stash: []store.StashEntry{ // newest first
					{Markdown: "stashed second " + links[5], Records: recs[5:6], Created: fixAt(21)},
					{Markdown: "stashed first", Created: fixAt(20)},
				},
				history:     []string{"question 3", "and " + links[6] + "?", "Look at the records"},
				historyRecs: map[string][]contextref.Record{"and " + links[6] + "?": recs[6:7]},
			},
			{
				key: fixOther,
				threads: []fixThread{
					{title: "Gamma", msgs: []store.Message{
						{ID: "msg_fix6_g1", Role: message.RoleUser, Status: message.StatusDone, Created: fixAt(30), Text: "Gamma in another project"},
						{ID: "msg_fix6_g2", Role: message.RoleAssistant, Status: message.StatusDone, Created: fixAt(31), Items: []message.Item{
							{ID: "item_1", Kind: message.ItemText, Text: "Gamma reply"},
						}},
					}},
				},
				stash:   []store.StashEntry{{Markdown: "other project's stash", Created: fixAt(32)}},
				history: []string{"Gamma in another project"},
			},
		},
		attachments: map[string]string{"att_img1": "asset_png_1", "att_file1": "asset_pdf_1"},
		excerpts:    map[string]time.Time{"ctx_term": fixAt(1)},
	}
}

// writeFixture6 writes fixture6 through the store's public API.
func writeFixture6(t *testing.T, s *store.Store) {
	t.Helper()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	p1, err := s.Project(fixProject)
	must(err)
	p2, err := s.Project(fixOther)
	must(err)
	alpha, err := s.CreateThread(p1.ID)
	must(err)
	beta := s.NewThread(p1.ID) // stored with its first message
	gamma, err := s.CreateThread(p2.ID)
	must(err)
	fx := fixture6(s.EnvironmentID(), alpha.ID)
	ids := map[string]string{"Alpha": alpha.ID, "Beta ✓ renamed": beta.ID, "Gamma": gamma.ID}
	// Messages the way the app writes them: a reply starts empty and
	// streaming, its items are written, the text of growing items appended
	// in pieces, tools replaced in place, then its status is set.
	add := func(threadID string, m store.Message) {
		t.Helper()
		if m.Role == message.RoleUser {
			m.ThreadID = threadID
			_, err := s.AddMessage(m)
			must(err)
			return
		}
		items, status := m.Items, m.Status
		m.ThreadID, m.Items, m.Status = threadID, nil, message.StatusStreaming
		_, err := s.AddMessage(m)
		must(err)
		for pos, it := range items {
			meta := it
			meta.Text = ""
			if it.Tool != nil { // first pending, then as it ended
				pending := *it.Tool
				pending.Status, pending.Content, pending.Ended = message.ToolPending, nil, time.Time{}
				meta.Tool = &pending
				must(s.WriteReply(m.ID, []store.ItemWrite{{Pos: pos, Item: meta, Meta: true}}, ""))
				meta.Tool = it.Tool
			}
			text := it.Text
			cut := len(text) / 2
			for cut > 0 && !utf8.RuneStart(text[cut]) {
				cut--
			}
			must(s.WriteReply(m.ID, []store.ItemWrite{{Pos: pos, Item: meta, Meta: true, Append: text[:cut]}}, ""))
			if text[cut:] != "" {
				must(s.WriteReply(m.ID, []store.ItemWrite{{Pos: pos, Append: text[cut:]}}, ""))
			}
		}
		if status != message.StatusStreaming {
			must(s.SetStatus(m.ID, status))
		}
	}
	// Write order sets the thread order: Gamma, Alpha, Beta, then the fork.
	for i := len(fx.projects) - 1; i >= 0; i-- {
		pd := fx.projects[i]
		for j := len(pd.threads) - 1; j >= 0; j-- {
			ft := pd.threads[j]
			if ft.fork != "" {
				continue
			}
			id := ids[ft.title]
			for _, m := range ft.msgs {
				add(id, m)
			}
			for msgID, snaps := range ft.snapshots {
				must(s.AddMentionSnapshots(msgID, snaps))
			}
			for agent, sess := range ft.sessions {
				must(s.SetAgentSession(id, agent, sess))
			}
			if ft.draft != nil {
				d := *ft.draft
				d.ThreadID = id
				must(s.SaveDraft(d))
			}
			if ft.title != titleOf(ft.msgs) {
				must(s.RenameThread(id, ft.title))
			}
		}
		pid := p1.ID
		if pd.key == fixOther {
			pid = p2.ID
		}
		for k := len(pd.stash) - 1; k >= 0; k-- {
			e := pd.stash[k]
			e.ProjectID = pid
			_, err := s.PushStash(e)
			must(err)
		}
		for k := len(pd.history) - 1; k >= 0; k-- {
			must(s.AddHistory(pid, pd.history[k], pd.historyRecs[pd.history[k]]))
		}
		// A repeated entry is not stored twice.
		must(s.AddHistory(pid, pd.history[0], pd.historyRecs[pd.history[0]]))
	}
	for _, ft := range fx.projects[0].threads {
		if ft.fork == "" {
			continue
		}
		f, err := s.ForkThread(p1.ID, ids[ft.fork], ft.upTo)
		must(err)
		must(s.RenameThread(f.ID, ft.title))
	}
	for local, asset := range fx.attachments {
		must(s.BindAttachment(local, asset))
	}
	for ctxID, at := range fx.excerpts {
		must(s.NoteExcerpt(ctxID, at))
	}
}

// titleOf is the title AddMessage derives for a thread of msgs.
func titleOf(msgs []store.Message) string {
	for _, m := range msgs {
		if m.Role == message.RoleUser {
			if t := store.TitleFromText(m.Text); t != "" {
				return t
			}
		}
	}
	return ""
}

// checkFixture6 checks, through the store's public methods, that s holds
// fixture6: every thread in order, each message's text, status, time and
// context (as decoded and as stored), each reply item with its fields,
// drafts with their revision, the stash, the history in order, sessions,
// mention snapshots, attachment bindings and excerpt times.
func checkFixture6(t *testing.T, s *store.Store) {
	t.Helper()
	env := s.EnvironmentID()
	if !strings.HasPrefix(env, "env_") || len(env) != 20 {
		t.Errorf("environment id %q", env)
	}
	// The thread records point to Alpha: find it first.
	p1, err := s.ProjectByKey(fixProject)
	if err != nil {
		t.Fatal(err)
	}
	var alpha string
	threads, err := s.Threads(p1.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, th := range threads {
		if th.Title == "Alpha" {
			alpha = th.ID
		}
	}
	if alpha == "" {
		t.Fatalf("no thread Alpha among %+v", threads)
	}
	fx := fixture6(env, alpha)
	projectIDs := map[int64]bool{}
	for _, pd := range fx.projects {
		p, err := s.ProjectByKey(pd.key)
		if err != nil {
			t.Fatalf("project %s: %v", pd.key, err)
		}
		if projectIDs[p.ID] || p.Created.IsZero() {
			t.Errorf("project %s: %+v", pd.key, p)
		}
		projectIDs[p.ID] = true
		threads, err := s.Threads(p.ID)
		if err != nil {
			t.Fatal(err)
		}
		var titles, want []string
		for _, th := range threads {
			titles = append(titles, th.Title)
		}
		for _, ft := range pd.threads {
			want = append(want, ft.title)
		}
		if !slices.Equal(titles, want) {
			t.Fatalf("project %s: threads %q, want %q", pd.key, titles, want)
		}
		for i, ft := range pd.threads {
			checkThread(t, s, threads[i], ft)
		}
		checkStash(t, s, p.ID, pd)
		hist, err := s.History(p.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for k, h := range hist {
			got = append(got, h.Markdown)
			if h.Created.IsZero() || k > 0 && !(h.ID < hist[k-1].ID) {
				t.Errorf("history entry %d: %+v", k, h)
			}
			if a, b := store.RecordsJSON(t, h.Records), store.RecordsJSON(t, pd.historyRecs[h.Markdown]); a != b {
				t.Errorf("history %q: records %s, want %s", h.Markdown, a, b)
			}
		}
		if !slices.Equal(got, pd.history) {
			t.Errorf("project %s: history %q, want %q", pd.key, got, pd.history)
		}
	}
	for local, asset := range fx.attachments {
		if got, ok, err := s.AttachmentBinding(local); err != nil || !ok || got != asset {
			t.Errorf("attachment %s: %q %v %v, want %q", local, got, ok, err, asset)
		}
	}
	for ctxID, at := range fx.excerpts {
		if got, ok, err := s.ExcerptCaptured(ctxID); err != nil || !ok || !got.Equal(at) {
			t.Errorf("excerpt %s: %v %v %v, want %v", ctxID, got, ok, err, at)
		}
	}
}

func checkThread(t *testing.T, s *store.Store, th store.Thread, ft fixThread) {
	t.Helper()
	if th.Created.IsZero() || th.Updated.Before(th.Created) {
		t.Errorf("thread %q: times %v %v", ft.title, th.Created, th.Updated)
	}
	msgs, err := s.Messages(th.ID)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := s.MessagesRaw(th.ID)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := s.MessageCount(th.ID); err != nil || n != len(ft.msgs) || len(msgs) != len(ft.msgs) || len(raw) != len(ft.msgs) {
		t.Fatalf("thread %q: %d messages (%d raw, count %d %v), want %d", ft.title, len(msgs), len(raw), n, err, len(ft.msgs))
	}
	for i, w := range ft.msgs {
		m := msgs[i]
		where := fmt.Sprintf("thread %q message %d", ft.title, i+1)
		if w.ID != "" && m.ID != w.ID || w.ID == "" && (!strings.HasPrefix(m.ID, "msg_") || strings.HasPrefix(m.ID, "msg_fix6_")) {
			t.Errorf("%s: id %q, want %q (a fork's own when empty)", where, m.ID, w.ID)
		}
		if m.ThreadID != th.ID || m.Seq != int64(i+1) || m.Role != w.Role || m.Status != w.Status || !m.Created.Equal(w.Created) {
			t.Errorf("%s: %s seq %d %s %s %v, want %s %s %v", where, m.ThreadID, m.Seq, m.Role, m.Status, m.Created, w.Role, w.Status, w.Created)
		}
		if m.Text != w.Text {
			t.Errorf("%s: text %q, want %q", where, m.Text, w.Text)
		}
		if got, want := store.ContextJSON(t, m.Context), store.ContextJSON(t, w.Context); got != want {
			t.Errorf("%s: context\n got %s\nwant %s", where, got, want)
		}
		if w.Context == nil && (m.RawContext != nil || raw[i].RawContext != nil) {
			t.Errorf("%s: a context where there is none: %s", where, m.RawContext)
		}
		if w.Context != nil && (!bytes.Equal(raw[i].RawContext, m.RawContext) || raw[i].Context != nil) {
			t.Errorf("%s: raw context %s, decoded from %s", where, raw[i].RawContext, m.RawContext)
		}
		if got, want := itemsString(t, m.Items), itemsString(t, w.Items); got != want {
			t.Errorf("%s: items\n got %s\nwant %s", where, got, want)
		}
		if got := itemsString(t, raw[i].Items); got != itemsString(t, m.Items) {
			t.Errorf("%s: raw items differ:\n%s", where, got)
		}
		snaps, err := s.MentionSnapshots(m.ID)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]store.MentionSnapshot{}
		for _, sn := range ft.snapshots[w.ID] {
			want[sn.ContextID] = sn
		}
		if fmt.Sprint(snaps) != fmt.Sprint(want) {
			t.Errorf("%s: mention snapshots %v, want %v", where, snaps, want)
		}
	}
	for agent, sess := range ft.sessions {
		if got, ok, err := s.AgentSession(th.ID, agent); err != nil || !ok || got != sess {
			t.Errorf("thread %q: session of %s: %q %v %v, want %q", ft.title, agent, got, ok, err, sess)
		}
	}
	if _, ok, err := s.AgentSession(th.ID, "acp:none"); ok || err != nil {
		t.Errorf("thread %q: a session for an agent that had none (%v)", ft.title, err)
	}
	d, ok, err := s.LoadDraft(th.ID)
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case ft.draft == nil && ok:
		t.Errorf("thread %q: a draft %+v, want none", ft.title, d)
	case ft.draft != nil && !ok:
		t.Errorf("thread %q: no draft", ft.title)
	case ft.draft != nil:
		w := ft.draft
		if d.ThreadID != th.ID || d.Markdown != w.Markdown || d.Caret != w.Caret || !d.Updated.Equal(w.Updated) ||
			d.Rev != w.Updated.UnixNano() || store.RecordsJSON(t, d.Records) != store.RecordsJSON(t, w.Records) {
			t.Errorf("thread %q: draft %+v, want %+v (revision %d)", ft.title, d, *w, w.Updated.UnixNano())
		}
	}
}

func checkStash(t *testing.T, s *store.Store, projectID int64, pd fixProjectData) {
	t.Helper()
	stash, err := s.Stash(projectID)
	if err != nil {
		t.Fatal(err)
	}
	if len(stash) != len(pd.stash) {
		t.Fatalf("project %s: %d stash entries, want %d", pd.key, len(stash), len(pd.stash))
	}
	for i, w := range pd.stash {
		e := stash[i]
		if e.ID == 0 || e.ProjectID != projectID || e.Markdown != w.Markdown || !e.Created.Equal(w.Created) ||
			store.RecordsJSON(t, e.Records) != store.RecordsJSON(t, w.Records) || i > 0 && !(e.ID < stash[i-1].ID) {
			t.Errorf("project %s: stash entry %d: %+v, want %+v", pd.key, i, e, w)
		}
	}
}

// itemsString shows items one a line: id, kind, text and every other field.
func itemsString(t *testing.T, items []message.Item) string {
	t.Helper()
	var b strings.Builder
	for _, it := range items {
		data, err := it.Data()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "\n%s %s %q %s", it.ID, it.Kind, it.Text, data)
	}
	return b.String()
}

// TestSchema6Fixture opens the database schema 6 wrote (testdata/schema6,
// see fixture6) with the current store, which migrates it to the newest
// schema, and checks every thread, message, context, reply item, draft,
// stash entry, history entry, session and snapshot through the public API;
// then that the store goes on working on it (a streaming reply without a
// lease is interrupted, the queued message is sent, a draft saved over its
// stored revision stashes nothing).
//
// Every later schema change must keep this test passing and extend it:
// check here whatever the new migration does to schema-6 data, add a
// fixture written by the new schema's own code with its own test (as this
// one is to TestMigrateSchema3Database), and keep the older fixtures
// (schema3, schema6) opening. A fixture file is never regenerated by later
// code.
func TestSchema6Fixture(t *testing.T) {
	dir := store.CopyFixture(t, "schema6")
	s, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkFixture6(t, s)
	if t.Failed() {
		return
	}

	// Open again: the migrated file holds the same.
	s.Close()
	if s, err = store.Open(dir); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkFixture6(t, s)

	// And the store keeps working on it.
	p, _ := s.ProjectByKey(fixProject)
	threads, _ := s.Threads(p.ID)
	beta := threads[1]
	if n, err := s.RecoverThread(beta.ID); err != nil || n != 1 {
		t.Fatalf("RecoverThread(Beta) = %d, %v; want the streaming reply interrupted", n, err)
	}
	sent, err := s.Dequeue("msg_fix6_b3")
	if err != nil || sent.Status != message.StatusDone || sent.Seq != 4 {
		t.Fatalf("Dequeue = %+v, %v", sent, err)
	}
	msgs, _ := s.Messages(beta.ID)
	if len(msgs) != 3 || msgs[1].Status != message.StatusInterrupted || message.ReplyText(msgs[1].Items) != "still streaming when chipchat was killed" ||
		msgs[2].ID != "msg_fix6_b3" {
		t.Fatalf("Beta after recovery and dequeue: %+v", msgs)
	}
	d, _, _ := s.LoadDraft(beta.ID)
	res, err := s.SaveDraftOver(store.Draft{ThreadID: beta.ID, Markdown: "beta draft, edited"}, d.Rev, 0)
	if err != nil || res.Other != nil || res.Rev <= d.Rev {
		t.Fatalf("SaveDraftOver the stored revision %d: %+v, %v", d.Rev, res, err)
	}
	r, err := s.AddMessage(store.Message{ThreadID: beta.ID, Role: message.RoleAssistant, Status: message.StatusStreaming})
	if err != nil || r.Seq != 5 {
		t.Fatalf("a new reply: %+v %v", r, err)
	}
	if err := s.WriteReply(r.ID, []store.ItemWrite{{Pos: 0, Item: message.Item{ID: "x", Kind: message.ItemText}, Meta: true, Append: "new"}}, message.StatusDone); err != nil {
		t.Fatal(err)
	}
	if err := s.AddHistory(p.ID, "after the migration", nil); err != nil {
		t.Fatal(err)
	}
	if h, _ := s.History(p.ID, 1); len(h) != 1 || h[0].Markdown != "after the migration" {
		t.Fatalf("history after a new entry: %+v", h)
	}
	if _, err := s.ForkThread(p.ID, threads[2].ID, "msg_fix6_a6"); err != nil {
		t.Fatal(err)
	}
}

// TestWriteSchema6Fixture writes testdata/schema6/chipchat.db (see
// fixture6) when STORE_WRITE_FIXTURE=1, and only with the store of schema
// 6; it checks the file it wrote before keeping it.
func TestWriteSchema6Fixture(t *testing.T) {
	if os.Getenv("STORE_WRITE_FIXTURE") != "1" {
		t.Skip("set STORE_WRITE_FIXTURE=1 to write testdata/schema6")
	}
	if store.SchemaVersion != 6 {
		t.Fatalf("this store writes schema %d: testdata/schema6 stays what schema 6 wrote; make a new fixture instead", store.SchemaVersion)
	}
	dir := t.TempDir()
	s, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	writeFixture6(t, s)
	checkFixture6(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// The last connection's close checkpoints the log into the file: the
	// file alone must hold everything.
	if fi, err := os.Stat(filepath.Join(dir, store.FileName+"-wal")); err == nil && fi.Size() > 0 {
		t.Fatalf("the write-ahead log still holds %d bytes", fi.Size())
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	db, err := os.ReadFile(filepath.Join(dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	only := t.TempDir()
	if err := os.WriteFile(filepath.Join(only, store.FileName), db, 0o600); err != nil {
		t.Fatal(err)
	}
	ro, err := store.OpenReadOnly(only)
	if err != nil {
		t.Fatal(err)
	}
	checkFixture6(t, ro)
	ro.Close()
	if t.Failed() {
		return
	}
	out := filepath.Join("testdata", "schema6")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, store.FileName), db, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d bytes)", filepath.Join(out, store.FileName), len(db))
}

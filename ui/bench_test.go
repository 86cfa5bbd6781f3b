package ui

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// benchRecords are the records of user message i: a terminal excerpt
// always, then a file, a mention, a skill and a review comment, three to
// five in all.
func benchRecords(i int) []contextref.Record {
	id := func(p string) string { return fmt.Sprintf("%s%d", p, i) }
	recs := []contextref.Record{
		&contextref.TerminalRecord{Base: contextref.NewBase(contextref.KindTerminal, id("t"), "Terminal 1 lines 10-14"),
			TerminalID: "terminal-1", TerminalLabel: "Terminal 1", LineStart: 10, LineEnd: 14,
			Text: "$ go test ./...\n--- FAIL: TestHandle (0.01s)\n    handle_test.go:42: got <nil>, want context.Canceled\nFAIL\nexit status 1"},
		&contextref.FileRecord{AttachmentRecord: contextref.AttachmentRecord{
			Base:         contextref.NewBase(contextref.KindFile, id("f"), fmt.Sprintf("handler%d.go", i%23)),
			AttachmentID: id("att_"), Name: fmt.Sprintf("handler%d.go", i%23), MimeType: "text/x-go", SizeBytes: 4096}},
		&contextref.MentionRecord{Base: contextref.NewBase(contextref.KindMention, id("m"), "server/routes.go"), Path: "server/routes.go"},
	}
	if i%3 >= 1 {
		recs = append(recs, &contextref.SkillRecord{Base: contextref.NewBase(contextref.KindSkill, id("s"), "$go-review"), Name: "go-review"})
	}
	if i%3 == 2 {
		lang := "diff"
		recs = append(recs, &contextref.ReviewCommentRecord{Base: contextref.NewBase(contextref.KindReviewComment, id("r"), "handler.go L40-L52"),
			SectionID: "s1", SectionTitle: "server/handler.go", FilePath: "server/handler.go", StartIndex: 40, EndIndex: 52,
			RangeLabel: "L40-L52", Text: "This swallows the cancellation; return ctx.Err() instead.",
			Diff: "-\treturn nil\n+\treturn ctx.Err()", FenceLanguage: &lang,
			PullRequest: &contextref.PullRequest{Number: 128, Title: "Handle cancellation", URL: "https://example.com/pr/128",
				HeadBranch: "fix-cancel", BaseBranch: "main", State: "open"}})
	}
	return recs
}

// benchUserText is user prose with a reference link to each record.
func benchUserText(i int, recs []contextref.Record) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Message %d: the handler test fails, see %s. Could you look at %s and the route in %s", i,
		contextref.LinkFor(recs[0]), contextref.LinkFor(recs[1]), contextref.LinkFor(recs[2]))
	if len(recs) > 3 {
		fmt.Fprintf(&b, ", using %s", contextref.LinkFor(recs[3]))
	}
	b.WriteString("?\nKeep the change small and explain what you did.")
	if len(recs) > 4 {
		fmt.Fprintf(&b, " The reviewer said as much in %s.", contextref.LinkFor(recs[4]))
	}
	return b.String()
}

func benchAgentText(i int) string {
	return fmt.Sprintf("Reply %d. The handler returns early when the **context** is cancelled, so the test sees `nil`.\n\n"+
		"- check the error path\n- add a test for the timeout\n- keep the public API\n\n"+
		"```go\nfunc handle(ctx context.Context) error {\n\tif err := ctx.Err(); err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n```\n\n"+
		"Run `go test ./...` again and tell me what it prints.", i)
}

// benchFill adds n messages to a thread: user messages with chips and
// structured context, alternating with assistant replies.
func benchFill(b *testing.B, st *store.Store, threadID string, n int) {
	b.Helper()
	for i := range n {
		m := store.Message{ThreadID: threadID, Role: message.RoleAssistant, Text: benchAgentText(i)}
		if i%2 == 0 {
			recs := benchRecords(i)
			m = store.Message{ThreadID: threadID, Role: message.RoleUser, Text: benchUserText(i, recs),
				Context: &contextref.MessageContext{Version: 1, Records: recs}}
		}
		if _, err := st.AddMessage(m); err != nil {
			b.Fatal(err)
		}
	}
}

// benchSaveDraft leaves a draft with a chip in the thread.
func benchSaveDraft(b *testing.B, st *store.Store, threadID string) {
	b.Helper()
	recs := benchRecords(1)[:1]
	md := "And now the timeout case: " + contextref.LinkFor(recs[0])
	if err := st.SaveDraft(store.Draft{ThreadID: threadID, Markdown: md, Records: recs, Caret: store.Caret{Line: 0, Col: 10}}); err != nil {
		b.Fatal(err)
	}
}

func benchOpenStore(b *testing.B) *store.Store {
	b.Helper()
	st, err := store.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st
}

// benchFrame builds the app from loaded options, sizes it 120×40 and draws
// the first frame.
func benchFrame(b *testing.B, opt testOptions) (*App, string) {
	opt.Config, opt.Backend = config.Default(), agent.Echo{}
	a := opt.app(b)
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	return a, a.View().Content
}

// liveHeap is the heap in use after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// benchLive measures, outside the timer, what the op's result keeps alive.
type benchLive struct {
	before uint64
	sum    float64
	n      int
}

func (l *benchLive) start(b *testing.B) {
	b.StopTimer()
	l.before = liveHeap()
	b.StartTimer()
}

func (l *benchLive) stop(b *testing.B, keep ...any) {
	b.StopTimer()
	after := liveHeap()
	runtime.KeepAlive(keep)
	l.sum += float64(int64(after)-int64(l.before)) / (1 << 20)
	l.n++
	b.StartTimer()
}

func (l *benchLive) report(b *testing.B) {
	if l.n > 0 {
		b.ReportMetric(l.sum/float64(l.n), "live-MB")
	}
}

// BenchmarkOpenThread opens a thread of 10,000 stored messages (user
// messages with 3–5 chips and their structured context, assistant replies
// with Markdown and a code block): each op loads the messages and the
// draft from the store, builds the app, sizes it 120×40 and draws the first
// frame. live-MB is the heap the opened app keeps (after a full GC).
func BenchmarkOpenThread(b *testing.B) {
	st := benchOpenStore(b)
	p, err := st.Project("/bench/project")
	if err != nil {
		b.Fatal(err)
	}
	th, err := st.CreateThread(p.ID)
	if err != nil {
		b.Fatal(err)
	}
	const n = 10000
	benchFill(b, st, th.ID, n)
	benchSaveDraft(b, st, th.ID)
	open := func() (*App, string) {
		opt := mainOptions(b, st, nil, p.Key, th.ID, false)
		if msgs := opt.Opened.Messages; len(msgs) != n {
			b.Fatalf("%d messages", len(msgs))
		}
		if opt.Opened.Draft == nil {
			b.Fatal("no draft")
		}
		return benchFrame(b, opt)
	}
	if _, frame := open(); !strings.Contains(frame, fmt.Sprintf("Reply %d.", n-1)) {
		b.Fatalf("the first frame does not show the last reply:\n%s", frame)
	}
	var live benchLive
	b.ReportAllocs()
	for b.Loop() {
		live.start(b)
		a, _ := open()
		live.stop(b, a)
	}
	live.report(b)
}

// BenchmarkStartup1000Threads starts the app in a project of 1,000 threads
// of four messages each: each op is what main does before the first frame
// (workspace.Start: the project, its threads, the most recent one's messages and
// draft), then New, a 120×40 size and the first frame.
func BenchmarkStartup1000Threads(b *testing.B) {
	st := benchOpenStore(b)
	const cwd = "/bench/startup" // not a git work tree: its own key
	p, err := st.Project(store.ProjectKey(cwd))
	if err != nil {
		b.Fatal(err)
	}
	var last store.Thread
	for range 1000 {
		if last, err = st.CreateThread(p.ID); err != nil {
			b.Fatal(err)
		}
		benchFill(b, st, last.ID, 4)
	}
	benchSaveDraft(b, st, last.ID)
	open := func() (*App, string) {
		opt := mainOptions(b, st, nil, cwd, "", false)
		if o := opt.Opened; o.Thread.ID != last.ID || len(o.Messages) != 4 || o.Draft == nil {
			b.Fatalf("opened %s with %d messages (draft %v), want %s", o.Thread.ID, len(o.Messages), o.Draft != nil, last.ID)
		}
		return benchFrame(b, opt)
	}
	if _, frame := open(); !strings.Contains(frame, "Reply 3.") {
		b.Fatalf("the first frame does not show the last reply:\n%s", frame)
	}
	var live benchLive
	b.ReportAllocs()
	for b.Loop() {
		live.start(b)
		a, _ := open()
		live.stop(b, a)
	}
	live.report(b)
}

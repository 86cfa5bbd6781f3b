package ui

import (
	"context"
	"fmt"
	"github.com/chipchat/chipchat/dialog"
	"github.com/chipchat/chipchat/ui/overlay"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/assets"
	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/internal/vtscreen"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/review"
	"github.com/chipchat/chipchat/store"
	"github.com/chipchat/chipchat/workspace"
)

// These tests drive App through Update and View without a terminal. A
// harness plays the part of the Bubble Tea program: every command an Update
// returns runs in its own goroutine, as the program runs it, and the
// messages it produces come back through a channel that the test goroutine
// drains into Update (so Update and View only ever run on the test's
// goroutine). tea.Batch members run concurrently; tea.Sequence members run
// one after the other (the sequence message type is unexported in
// bubbletea v2, so it is recognised by reflection as a []tea.Cmd that is not
// a tea.BatchMsg). tea.Quit is not handed to Update: it sets quit.

const (
	testWidth  = 100
	testHeight = 30
)

// testEnv is one chipchat data directory plus a project directory.
type testEnv struct {
	t       *testing.T
	dataDir string
	dir     string // the project directory (cwd)
	home    string
	st      *store.Store
	as      *assets.Store
	project store.Project
	review  review.Options // Options.Review (withReviewOptions)
}

// looseTempDir is a removable temporary directory. Commands still running when a
// test ends (a tick, a store write) may touch it after the test, so its
// removal is best effort instead of t.TempDir's checked one.
func looseTempDir(t *testing.T, pattern string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", pattern)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

func newTestEnv(t *testing.T) *testEnv {
	t.Helper()
	root := looseTempDir(t, "chipchat-ui-*")
	e := &testEnv{t: t, dataDir: filepath.Join(root, "data"), dir: filepath.Join(root, "project"), home: filepath.Join(root, "home")}
	for _, d := range []string{e.dir, e.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.Open(e.dataDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	e.st = st
	as, err := assets.Open(filepath.Join(e.dataDir, "assets"), 0)
	if err != nil {
		t.Fatal(err)
	}
	e.as = as
	if e.project, err = st.Project(store.ProjectKey(e.dir)); err != nil {
		t.Fatal(err)
	}
	return e
}

// newThread makes a thread in the project, with messages when given.
func (e *testEnv) newThread(title string, msgs ...store.Message) store.Thread {
	e.t.Helper()
	th, err := e.st.CreateThread(e.project.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	for _, m := range msgs {
		m.ThreadID = th.ID
		if _, err := e.st.AddMessage(m); err != nil {
			e.t.Fatal(err)
		}
	}
	if title != "" {
		if err := e.st.RenameThread(th.ID, title); err != nil {
			e.t.Fatal(err)
		}
	}
	th, err = e.st.Thread(th.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	return th
}

// testOptions are an App's options plus what main wires into its
// workspace and conversation: the backend, the store and the asset store.
type testOptions struct {
	Options
	Backend agent.Backend
	Store   *store.Store
	Assets  *assets.Store
}

// app builds the app as main does: the workspace over the store and asset
// store with the backend's attachment limit, the conversation over the
// backend.
func (o testOptions) app(tb testing.TB) *App {
	tb.Helper()
	if o.Workspace == nil || o.Backend != nil {
		o.Workspace = openWorkspace(tb, o.Store, o.Assets, o.Dir, o.Backend)
	}
	b := o.Backend
	if b == nil {
		b = agent.Echo{}
	}
	l := o.Config.Limits
	o.Chat = chat.New(chat.Options{Store: o.Store, Assets: o.Assets, Backend: b, ProjectID: o.Workspace.ProjectID(), Dir: o.Dir,
		ExcerptMaxAge: l.ExcerptAge(), PrepareRecords: review.PrepareRecords(o.Dir),
		Limits: agent.Limits{InlineFileBytes: l.InlineFileBytes, InlineTurnBytes: l.InlineTurnBytes, HistoryBytes: l.HistoryBytes,
			ThreadContextBytes: l.ThreadContextBytes, ResumeHistoryBytes: l.ResumeHistoryBytes, ReplyBytes: l.ReplyBytes}})
	return New(o.Options)
}

// options loads a thread the way main does before the first frame: the
// given one, else the project's most recent, else a new one.
func (e *testEnv) options(threadID string) testOptions {
	e.t.Helper()
	if threadID == "" {
		ts, err := e.st.Threads(e.project.ID)
		if err != nil {
			e.t.Fatal(err)
		}
		if len(ts) > 0 {
			threadID = ts[0].ID
		} else {
			threadID = e.newThread("").ID
		}
	}
	var echo agent.Backend = agent.Echo{ChunkDelay: time.Millisecond}
	ws := e.workspace(echo)
	o, err := ws.Load(threadID)()
	if err != nil {
		e.t.Fatal(err)
	}
	cfg := config.Default()
	cfg.UI.QuestionGuardText = "0" // TestQuestionGuard tests the guard, with its own clock
	return testOptions{Options: Options{Workspace: ws, Opened: o, Dir: e.dir, Home: e.home, Config: cfg, NoColor: true, Review: e.review},
		Backend: echo, Store: e.st, Assets: e.as}
}

// workspace is the project's workspace as main wires it, with b's
// attachment limit. Every App gets its own, as every chipchat process has.
func (e *testEnv) workspace(b agent.Backend) *workspace.Workspace {
	e.t.Helper()
	return openWorkspace(e.t, e.st, e.as, e.dir, b)
}

// openWorkspace is dir's workspace over st and as as main wires it, with
// b's attachment limit (b may be nil).
func openWorkspace(tb testing.TB, st *store.Store, as *assets.Store, dir string, b agent.Backend) *workspace.Workspace {
	tb.Helper()
	var max int64
	if b != nil {
		max = b.Capabilities().MaxAttachment
	}
	ws, err := workspace.Open(workspace.Options{Store: st, Assets: as, Dir: dir, Messages: chat.LoadThread,
		MaxAttachment: max, AttachmentBytes: config.Default().Limits.AttachmentBytes})
	if err != nil {
		tb.Fatal(err)
	}
	return ws
}

// mainOptions are the options main builds before the first frame: the
// workspace of cwd, the thread it starts on (threadID, else a new one when
// newThread, else the most recent) and the prompt history.
func mainOptions(tb testing.TB, st *store.Store, as *assets.Store, cwd, threadID string, newThread bool) testOptions {
	tb.Helper()
	ws := openWorkspace(tb, st, as, cwd, nil)
	o, err := ws.Start(threadID, newThread)()
	if err != nil {
		tb.Fatal(err)
	}
	hist, err := ws.History()()
	if err != nil {
		tb.Fatal(err)
	}
	return testOptions{Options: Options{Workspace: ws, Opened: o, History: hist, Dir: cwd}, Store: st, Assets: as}
}

// harness runs one App.
type harness struct {
	t    *testing.T
	e    *testEnv
	app  *App
	msgs chan tea.Msg
	stop chan struct{}
	quit bool
	seen []tea.Msg // every message handed to Update (and QuitMsg)
	// hold, when set, keeps the messages it accepts from Update: they go
	// to held instead, for the test to hand over (or not).
	hold func(tea.Msg) bool
	held []tea.Msg
	// probes numbers probe's messages.
	probes int
}

// open starts an App on the testEnv's most recent thread (or threadID) with the
// echo backend, sized testWidth×testHeight.
func (e *testEnv) open(threadID string) *harness {
	e.t.Helper()
	return e.openWith(e.options(threadID))
}

func (e *testEnv) openWith(opt testOptions) *harness {
	e.t.Helper()
	h := &harness{t: e.t, e: e, app: opt.app(e.t), msgs: make(chan tea.Msg, 4096), stop: make(chan struct{})}
	e.t.Cleanup(func() { close(h.stop) })
	h.exec(h.app.Init())
	h.update(tea.WindowSizeMsg{Width: testWidth, Height: testHeight})
	return h
}

var cmdSliceType = reflect.TypeOf([]tea.Cmd(nil))

// sequenceCmds recognises tea.Sequence's unexported message type.
func sequenceCmds(msg tea.Msg) ([]tea.Cmd, bool) {
	v := reflect.ValueOf(msg)
	if !v.IsValid() || v.Kind() != reflect.Slice || v.Type().Elem() != cmdSliceType.Elem() {
		return nil, false
	}
	return v.Convert(cmdSliceType).Interface().([]tea.Cmd), true
}

// exec runs a command the way the program does: in a goroutine.
func (h *harness) exec(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() { h.deliver(cmd()) }()
}

// deliver posts a command's result, running batches (concurrently, waiting
// for all) and sequences (in order) as the program does.
func (h *harness) deliver(msg tea.Msg) {
	if msg == nil {
		return
	}
	if batch, ok := msg.(tea.BatchMsg); ok {
		var wg sync.WaitGroup
		for _, c := range batch {
			if c == nil {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				h.deliver(c())
			}()
		}
		wg.Wait()
		return
	}
	if seq, ok := sequenceCmds(msg); ok {
		for _, c := range seq {
			if c != nil {
				h.deliver(c())
			}
		}
		return
	}
	select {
	case h.msgs <- msg:
	case <-h.stop:
	}
}

// update hands one message to the App and runs the command it returns.
func (h *harness) update(msg tea.Msg) {
	if h.hold != nil && h.hold(msg) {
		h.held = append(h.held, msg)
		return
	}
	h.seen = append(h.seen, msg)
	if _, ok := msg.(tea.QuitMsg); ok {
		h.quit = true
		return
	}
	m, cmd := h.app.Update(msg)
	if m != h.app {
		h.t.Fatalf("Update returned another model: %T", m)
	}
	h.exec(cmd)
}

// pumpUntil feeds command results to Update until cond holds, failing
// after 20 s: a bound for a failure, never a wait (under -race with other
// packages' tests on 2 cores a queued turn's two replies took 4.8 s).
func (h *harness) pumpUntil(what string, cond func() bool) {
	h.t.Helper()
	h.pumpUntilWithin(20*time.Second, what, cond)
}

func (h *harness) pumpUntilWithin(d time.Duration, what string, cond func() bool) {
	h.t.Helper()
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	for !cond() {
		select {
		case msg := <-h.msgs:
			h.update(msg)
		case <-deadline.C:
			h.t.Fatalf("timed out waiting for %s; screen:\n%s", what, h.plain())
		}
	}
}

// probe sends a message straight to the open thread's conversation and
// feeds command results to Update until the probe's reply has ended, or
// the program quit; it returns that reply (zero after a quit). The
// conversation works in order (package chat: one worker, events in
// order), so whatever the UI had asked of it before — a send, a retry, a
// quit — has been done by then; and a conversation asked to quit runs no
// more turns (their replies are interrupted) and then quits. It is the
// sync point of tests asserting that something did not happen.
func (h *harness) probe() store.Message {
	h.t.Helper()
	h.probes++
	id, text := h.app.thread.ID, fmt.Sprintf("probe %d", h.probes)
	h.app.chat.Send(id, chat.Submission{Markdown: text})
	var reply store.Message
	h.pumpUntil("the reply to "+text, func() bool {
		if h.quit {
			return true
		}
		msgs := h.e.messages(id)
		for i := range msgs {
			if msgs[i].Role != message.RoleUser || msgs[i].Text != text {
				continue
			}
			for _, m := range msgs[i+1:] {
				if m.Role == message.RoleAssistant {
					reply = m
					// The turn is over in chat too: a ctrl+c pressed next
					// must not find the probe's turn still running.
					return m.Status.Final() && h.app.chat.Phase(id) == chat.Idle
				}
			}
		}
		return false
	})
	return reply
}

// assertNoQuit fails when the program quit or was asked to quit before
// now: the probe's reply is done only if no quit was asked.
func (h *harness) assertNoQuit(what string) {
	h.t.Helper()
	reply := h.probe()
	if h.quit || reply.Status != message.StatusDone {
		h.t.Fatalf("%s: the program quit (%v) or is quitting (a later turn ended %s)", what, h.quit, reply.Status)
	}
}

// replyAfter feeds command results to Update until the open thread's
// last reply stored after its first n messages has ended, on disk and on
// screen (the transcript has its final status: the UI has handled the
// turn's end), and returns it. A reply's row exists from its turn's start,
// so a count of messages does not say that a turn is over.
func (h *harness) replyAfter(what string, n int) store.Message {
	h.t.Helper()
	var reply store.Message
	h.pumpUntil(what, func() bool {
		msgs := h.e.messages(h.app.thread.ID)
		for i := len(msgs) - 1; i >= n; i-- {
			if msgs[i].Role != message.RoleAssistant {
				continue
			}
			reply = msgs[i]
			if !reply.Status.Final() {
				return false
			}
			m, ok := h.app.tr.Message(reply.ID)
			return ok && m.Status == reply.Status && !h.app.conv.turnShown()
		}
		return false
	})
	return reply
}

// sawEvent reports whether Update was handed a conversation event that ok
// accepts.
func (h *harness) sawEvent(ok func(chat.Event) bool) bool {
	for _, m := range h.seen {
		if evs, is := m.(chatMsg); is {
			for _, e := range evs {
				if ok(e) {
					return true
				}
			}
		}
	}
	return false
}

// count is how many messages of type T were handed to Update.
func count[T tea.Msg](h *harness) int {
	n := 0
	for _, m := range h.seen {
		if _, ok := m.(T); ok {
			n++
		}
	}
	return n
}

// press hands key presses to Update, by name ("ctrl+c", "enter", "?").
func (h *harness) press(keys ...string) {
	for _, k := range keys {
		h.update(keyPress(k))
	}
}

// typeText types s one key at a time.
func (h *harness) typeText(s string) {
	for _, r := range s {
		if r == ' ' {
			h.update(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
			continue
		}
		h.update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// paste hands a bracketed paste to Update.
func (h *harness) paste(s string) { h.update(tea.PasteMsg{Content: s}) }

func (h *harness) view() string { return h.app.View().Content }

// plain is the screen without styling.
func (h *harness) plain() string { return ansi.Strip(h.view()) }

// footer is the screen's last line, unstyled.
func (h *harness) footer() string {
	lines := strings.Split(h.plain(), "\n")
	return lines[len(lines)-1]
}

func (h *harness) sawQuit() bool { return h.quit }

// clearToast ends the toast now, as its timer would, so the footer shows
// the key hints again.
func (h *harness) clearToast() { h.update(toastDoneMsg{seq: h.app.toast.seq}) }

func windowSize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

// displayWidth is the width of an unstyled line in cells.
func displayWidth(s string) int { return ansi.StringWidth(s) }

// keyPress builds the key press a terminal would report for a key name.
func keyPress(k string) tea.KeyPressMsg { return vtscreen.Key(k) }

// messages reads a thread's stored messages.
func (e *testEnv) messages(threadID string) []store.Message {
	e.t.Helper()
	msgs, err := e.st.Messages(threadID)
	if err != nil {
		e.t.Fatal(err)
	}
	// As the user reads them: a reply's text is its text items.
	for i := range msgs {
		if msgs[i].Role == message.RoleAssistant {
			msgs[i].Text = message.ReplyText(msgs[i].Items)
		}
	}
	return msgs
}

// draft reads a thread's stored draft.
func (e *testEnv) draft(threadID string) (store.Draft, bool) {
	e.t.Helper()
	d, ok, err := e.st.LoadDraft(threadID)
	if err != nil {
		e.t.Fatal(err)
	}
	return d, ok
}

// writeFile writes a file under the project directory.
func (e *testEnv) writeFile(rel string, data []byte) string {
	e.t.Helper()
	p := filepath.Join(e.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		e.t.Fatal(err)
	}
	return p
}

// tinyPNG is a valid 1×1 PNG.
var tinyPNG = []byte{
	0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
	0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x00, 0x01, 0x00, 0x00,
	0x05, 0x00, 0x01, 0x0d, 0x0a, 0x2d, 0xb4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae,
	0x42, 0x60, 0x82,
}

// probeBackend wraps Echo and records, when a turn starts, what the store
// holds for the turn's thread: the user's message must be on disk before any
// agent sees it.
type probeBackend struct {
	agent.Echo
	st      *store.Store
	mu      sync.Mutex
	started []probeStart
}

type probeStart struct {
	turn   agent.Turn
	stored []store.Message
	err    error
}

func (*probeBackend) Capabilities() agent.Capabilities { return agent.Capabilities{Cancel: true} }
func (p *probeBackend) Run(ctx context.Context, t agent.Turn, ev func(agent.Event)) error {
	msgs, err := p.st.Messages(t.ThreadID)
	p.mu.Lock()
	p.started = append(p.started, probeStart{turn: t, stored: msgs, err: err})
	p.mu.Unlock()
	return p.Echo.Run(ctx, t, ev)
}

func (p *probeBackend) starts() []probeStart {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]probeStart(nil), p.started...)
}

// hostile strings: a screen clear and a window-title OSC.
const (
	hostileCSI = "\x1b[2J"
	hostileOSC = "\x1b]0;x\x07"
)

// checkNoControls fails when the screen holds anything but SGR styling and
// line breaks: no other escape sequence, no other C0/C1 control.
func checkNoControls(t *testing.T, where, screen string) {
	t.Helper()
	for _, bad := range []string{hostileCSI, "\x1b]", "\x07", "\x1bP", "\x9b", "\x9d"} {
		if strings.Contains(screen, bad) {
			t.Errorf("%s: the screen holds %q", where, bad)
		}
	}
	for i := 0; i < len(screen); i++ {
		c := screen[i]
		switch {
		case c == 0x1b:
			// Only CSI … m (SGR) may appear.
			j := i + 1
			if j >= len(screen) || screen[j] != '[' {
				t.Errorf("%s: escape that is not CSI at byte %d: %q", where, i, screen[i:min(len(screen), i+12)])
				continue
			}
			j++
			for j < len(screen) && (screen[j] >= '0' && screen[j] <= '9' || screen[j] == ';' || screen[j] == ':') {
				j++
			}
			if j >= len(screen) || screen[j] != 'm' {
				t.Errorf("%s: CSI that is not SGR at byte %d: %q", where, i, screen[i:min(len(screen), j+1)])
				continue
			}
			i = j
		case c < 0x20 && c != '\n' || c == 0x7f:
			t.Errorf("%s: control byte %#x at %d", where, c, i)
		}
	}
}

// replyShown is the text of the last reply as the transcript holds it.
func (h *harness) replyShown() string {
	msgs, _ := h.e.st.MessagesRaw(h.app.thread.ID)
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != message.RoleAssistant {
			continue
		}
		if m, ok := h.app.tr.Message(msgs[i].ID); ok {
			return message.ReplyText(m.Items) + m.Text
		}
		return ""
	}
	return ""
}

func imageRec(id, name string) *contextref.ImageRecord {
	return &contextref.ImageRecord{AttachmentRecord: contextref.AttachmentRecord{
		Base: contextref.NewBase(contextref.KindImage, id, name), AttachmentID: id, Name: name, MimeType: "image/png", SizeBytes: 67}}
}

// top is the topmost open overlay of type T (nil when none is open).
func top[T dialog.Overlay](a *App) T {
	o, _ := overlay.Of[T](a.ovs)
	return o
}

// onTop reports whether the top overlay is a T.
func onTop[T dialog.Overlay](a *App) bool {
	_, ok := a.ovs.Top().(T)
	return ok
}

// bottomPicker is the picker of the open / or modes picker (nil: none).
func bottomPicker(a *App) *composer.Picker {
	switch o := a.ovs.Top().(type) {
	case *dialog.Commands:
		return o.Picker()
	case *dialog.Modes:
		return o.Picker()
	}
	return nil
}

// queued is how many messages the open thread's queue holds (chat's).
func (h *harness) queued() int {
	q, _ := h.app.conv.queue()
	return len(q)
}

// renamingID and renamingTitle are the thread list's rename in progress
// ("": none, or no list open).
func renamingID(a *App) string {
	if l := top[*dialog.Threads](a); l != nil {
		id, _ := l.Renaming()
		return id
	}
	return ""
}

func renamingTitle(a *App) string {
	if l := top[*dialog.Threads](a); l != nil {
		_, title := l.Renaming()
		return title
	}
	return ""
}

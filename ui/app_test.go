package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
	"github.com/chipchat/chipchat/ui/keymap"
	"github.com/chipchat/chipchat/workspace"
)

// ---- sending ----

func TestSendStoresMessageBeforeTurnAndStreamsEchoReply(t *testing.T) {
	e := newTestEnv(t)
	opt := e.options("")
	probe := &probeBackend{Echo: agent.Echo{ChunkDelay: time.Millisecond, ChunkSize: 7}, st: e.st}
	opt.Backend = probe
	h := e.openWith(opt)
	threadID := h.app.thread.ID

	h.typeText("hello world")
	h.press("enter")
	h.pumpUntil("the turn to start", func() bool { return h.app.conv.phase() >= chat.Starting && h.app.ed.Draft().IsEmpty() }) // the composer cleared: the app heard the send
	if got := h.app.ed.Draft().Markdown(); got != "" {
		t.Errorf("composer after send = %q, want it cleared", got)
	}
	h.pumpUntil("the turn to end", func() bool { return !h.app.conv.turnShown() })
	h.pumpUntil("the reply to be saved done", func() bool {
		msgs := e.messages(threadID)
		return len(msgs) == 2 && msgs[1].Status == message.StatusDone && msgs[1].Text != ""
	})

	// The agent started with the user's message already on disk.
	starts := probe.starts()
	if len(starts) != 1 {
		t.Fatalf("the backend ran %d turns, want 1", len(starts))
	}
	st0 := starts[0]
	if st0.err != nil {
		t.Fatal(st0.err)
	}
	if len(st0.stored) == 0 || st0.stored[0].Role != message.RoleUser || st0.stored[0].Text != "hello world" {
		t.Fatalf("when the turn started the store held %+v, want the user's message first", st0.stored)
	}
	if st0.turn.Text != "hello world" || st0.turn.ThreadID != threadID || st0.turn.Dir != e.dir {
		t.Errorf("turn = %+v", st0.turn)
	}

	msgs := e.messages(threadID)
	if msgs[0].Role != message.RoleUser || msgs[0].Text != "hello world" || msgs[0].Status != message.StatusDone || msgs[0].Context != nil {
		t.Errorf("user message = %+v", msgs[0])
	}
	want := agent.EchoReply(st0.turn)
	if msgs[1].Role != message.RoleAssistant || msgs[1].Text != want {
		t.Errorf("reply = %q (%s), want %q", msgs[1].Text, msgs[1].Role, want)
	}

	scr := h.plain()
	for _, w := range []string{"You", "hello world", "Agent", agent.EchoIntro, "No attachments."} {
		if !strings.Contains(scr, w) {
			t.Errorf("screen lacks %q:\n%s", w, scr)
		}
	}
	// The thread's title comes from the first message.
	h.pumpUntil("the header to show the new title", func() bool {
		return strings.Contains(strings.SplitN(h.plain(), "\n", 2)[0], "hello world")
	})
	// Nothing is left in the stored draft, once no save is pending or
	// running (none can come after that).
	h.pumpUntil("the autosave to settle", func() bool { return !h.app.drafts.book.Pending() && !h.app.drafts.book.Writing() })
	if d, ok := e.draft(threadID); ok {
		t.Errorf("draft after send = %+v, want none", d)
	}
}

// enter while a turn runs queues the message: stored queued, shown under
// the transcript, the composer cleared; it is sent when the turn ends.
func TestSendWhileTurnRunsQueues(t *testing.T) {
	e := newTestEnv(t)
	opt := e.options("")
	opt.Backend = agent.Echo{ChunkDelay: 40 * time.Millisecond, ChunkSize: 16}
	h := e.openWith(opt)
	threadID := h.app.thread.ID
	h.typeText("first")
	h.press("enter")
	h.pumpUntil("the turn to start", func() bool { return h.app.conv.phase() >= chat.Starting && h.app.ed.Draft().IsEmpty() }) // the composer cleared: the app heard the send
	if f := h.footer(); !strings.Contains(f, "esc cancel turn") {
		t.Errorf("footer while replying = %q", f)
	}
	h.typeText("second")
	h.press("enter")
	// the queue line reads chat's queue at once; the draft is cleared when
	// the app hears the message is stored queued
	h.pumpUntil("the queue and the composer cleared", func() bool {
		return strings.Contains(h.plain(), "queued (1)") && h.app.ed.Draft().Markdown() == ""
	})
	if msgs := e.messages(threadID); len(msgs) != 3 || msgs[2].Status != message.StatusQueued || msgs[2].Text != "second" {
		t.Fatalf("stored: %+v", msgs)
	}
	h.replyAfter("the queued message to be answered", 3)
	if msgs := e.messages(threadID); len(msgs) != 4 || msgs[2].Status != message.StatusDone || msgs[3].Status != message.StatusDone {
		t.Fatalf("stored after the queue: %+v", msgs)
	}
	if strings.Contains(h.plain(), "queued (") {
		t.Error("the queue is still shown")
	}
}

func TestEscCancelsRunningTurnKeepingPartialReply(t *testing.T) {
	e := newTestEnv(t)
	opt := e.options("")
	opt.Backend = agent.Echo{ChunkDelay: 50 * time.Millisecond, ChunkSize: 8}
	h := e.openWith(opt)
	threadID := h.app.thread.ID
	h.typeText("please stop early")
	h.press("enter")
	h.pumpUntil("the first chunk", func() bool { return h.app.conv.turnShown() && h.replyShown() != "" })
	h.press("esc")
	if !strings.Contains(h.app.Toast(), "cancelled") {
		t.Errorf("toast after esc = %q", h.app.Toast())
	}
	h.pumpUntil("the turn to end", func() bool { return !h.app.conv.turnShown() })
	var reply store.Message
	h.pumpUntil("the reply to be saved interrupted", func() bool {
		msgs := e.messages(threadID)
		if len(msgs) != 2 {
			return false
		}
		reply = msgs[1]
		return reply.Status == message.StatusInterrupted
	})
	full := agent.EchoReply(agent.Prepare("please stop early", nil, nil))
	if reply.Text == "" || !strings.HasPrefix(full, reply.Text) || len(reply.Text) >= len(full) {
		t.Errorf("partial reply = %q, want a non-empty proper prefix of %q", reply.Text, full)
	}
	// The screen hears of the end after chat's phase reads idle and the
	// store has the row: wait for it (pumpUntil fails showing the screen).
	h.pumpUntil("the screen to mark the reply interrupted", func() bool { return strings.Contains(h.plain(), "interrupted") })
	// A later send works.
	h.typeText("again")
	h.press("enter")
	h.pumpUntil("the second turn", func() bool { return len(e.messages(threadID)) == 4 })
	h.press("esc")
}

// ---- quitting and the draft ----

func TestCtrlCTwiceOnEmptyComposerQuits(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	h.press("ctrl+c")
	if !strings.Contains(h.app.Toast(), "ctrl+c again") {
		t.Errorf("toast after one ctrl+c = %q", h.app.Toast())
	}
	h.assertNoQuit("one ctrl+c")
	h.press("ctrl+c")
	h.pumpUntil("quit", h.sawQuit)
}

func TestCtrlCDisarmedByAnotherKey(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	h.press("ctrl+c", "tab", "ctrl+c")
	h.assertNoQuit("ctrl+c, tab, ctrl+c (another key must disarm)")
	h.press("ctrl+c")
	h.pumpUntil("quit", h.sawQuit)
}

// "ctrl+c pressed twice on an empty composer": with the transcript focused
// and words in the draft, ctrl+c twice must not quit.
func TestCtrlCTwiceWithDraftAndTranscriptFocusedDoesNotQuit(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	h.typeText("not empty")
	h.press("tab", "ctrl+c", "ctrl+c")
	h.assertNoQuit("ctrl+c twice with a non-empty composer (transcript focused)")
}

func TestCtrlCClearsDraftAndCtrlZRestoresIt(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	h.typeText("keep me")
	h.press("ctrl+c")
	if got := h.app.ed.Draft().Markdown(); got != "" {
		t.Fatalf("draft after ctrl+c = %q, want cleared", got)
	}
	if !strings.Contains(h.app.Toast(), "ctrl+z") {
		t.Errorf("toast = %q, want it to say ctrl+z brings the draft back", h.app.Toast())
	}
	h.press("ctrl+z")
	if got := h.app.ed.Draft().Markdown(); got != "keep me" {
		t.Fatalf("draft after ctrl+z = %q, want %q", got, "keep me")
	}
	// Clearing does not arm quitting: the next ctrl+c clears again.
	h.press("ctrl+c")
	h.assertNoQuit("ctrl+c on a non-empty draft")
	if !h.app.ed.Draft().IsEmpty() {
		t.Errorf("draft = %q", h.app.ed.Draft().Markdown())
	}
}

func TestCtrlCCancelsRunningTurn(t *testing.T) {
	e := newTestEnv(t)
	opt := e.options("")
	opt.Backend = agent.Echo{ChunkDelay: 50 * time.Millisecond, ChunkSize: 8}
	h := e.openWith(opt)
	h.typeText("x")
	h.press("enter")
	h.pumpUntil("the turn to start", func() bool { return h.app.conv.phase() >= chat.Starting && h.app.ed.Draft().IsEmpty() }) // the composer cleared: the app heard the send
	h.press("ctrl+c")
	h.pumpUntil("the turn to end", func() bool { return !h.app.conv.turnShown() })
	h.pumpUntil("the reply saved interrupted", func() bool {
		msgs := e.messages(h.app.thread.ID)
		return len(msgs) == 2 && msgs[1].Status == message.StatusInterrupted
	})
	h.assertNoQuit("ctrl+c during a turn")
}

func TestCtrlQSavesDraftAndQuits(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	threadID := h.app.thread.ID
	h.typeText("unsent words")
	h.press("left", "left") // the caret is saved too
	h.press("ctrl+q")
	h.pumpUntil("quit", h.sawQuit)
	// The draft is written before the program is told to quit.
	d, ok := e.draft(threadID)
	if !ok || d.Markdown != "unsent words" {
		t.Fatalf("draft on disk at quit = %+v (%v), want %q", d, ok, "unsent words")
	}
	if d.Caret != (store.Caret{Line: 0, Col: 10}) {
		t.Errorf("caret on disk = %+v, want {0 10}", d.Caret)
	}
}

func TestCtrlQDuringTurnSavesPartialReplyInterrupted(t *testing.T) {
	e := newTestEnv(t)
	opt := e.options("")
	opt.Backend = agent.Echo{ChunkDelay: 50 * time.Millisecond, ChunkSize: 8}
	h := e.openWith(opt)
	threadID := h.app.thread.ID
	h.typeText("long answer please")
	h.press("enter")
	h.pumpUntil("the first chunk", func() bool { return h.replyShown() != "" })
	partial := h.replyShown()
	h.press("ctrl+q")
	h.pumpUntil("quit", h.sawQuit)
	msgs := e.messages(threadID)
	if len(msgs) != 2 || msgs[1].Status != message.StatusInterrupted || !strings.HasPrefix(message.ReplyText(msgs[1].Items), partial) {
		t.Fatalf("stored at quit: %+v, want the partial reply %q marked interrupted", msgs, partial)
	}
}

// producedBackend writes its whole answer at once, then works on until
// it is cancelled.
type producedBackend struct{ text string }

func (producedBackend) Name() string                     { return "produced" }
func (producedBackend) Capabilities() agent.Capabilities { return agent.Capabilities{Cancel: true} }
func (b producedBackend) Run(ctx context.Context, t agent.Turn, ev func(agent.Event)) error {
	ev(agent.TextDelta{Text: b.text})
	<-ctx.Done()
	return ctx.Err()
}

// Quitting loses nothing: the text the agent produced is saved with the
// reply, marked interrupted, however little of it was drawn (the
// conversation, not the screen, owns it) and however soon after it the
// user quits.
func TestCtrlQKeepsReplyTextNotYetDrawn(t *testing.T) {
	e := newTestEnv(t)
	opt := e.options("")
	text := strings.Repeat("every word the agent wrote ", 400)
	opt.Backend = producedBackend{text: text}
	h := e.openWith(opt)
	threadID := h.app.thread.ID
	h.typeText("hi")
	h.press("enter")
	h.pumpUntil("the turn", func() bool { return h.app.conv.phase() == chat.Streaming && h.app.ed.Draft().IsEmpty() }) // the composer cleared: the app heard the send
	h.press("ctrl+q")
	h.pumpUntil("quit", h.sawQuit)
	msgs := e.messages(threadID)
	if len(msgs) != 2 || msgs[1].Text != text || msgs[1].Status != message.StatusInterrupted {
		t.Fatalf("stored at quit: %d messages, reply %s with %d of %d bytes", len(msgs), msgs[len(msgs)-1].Status, len(msgs[len(msgs)-1].Text), len(text))
	}
}

func TestDraftAutosavedAndRestored(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	ft := installFakeTimers(h) // the autosave's clock: time moves when the test says
	threadID := h.app.thread.ID
	h.typeText("abc")
	ft.advance(h, workspace.SaveQuiet-time.Millisecond)
	if _, ok := e.draft(threadID); ok {
		t.Fatalf("draft saved before the %v pause", workspace.SaveQuiet)
	}
	ft.advance(h, time.Millisecond)
	if d, ok := e.draft(threadID); !ok || d.Markdown != "abc" {
		t.Fatalf("draft not on disk after the %v pause: %+v (%v)", workspace.SaveQuiet, d, ok)
	}

	// A stale tick (an edit came after it) does not save.
	h.typeText("d")
	if _, cmd := h.app.Update(draftTickMsg{seq: h.app.drafts.book.Seq() - 1}); cmd != nil {
		t.Error("a stale draft tick returned a command")
	}
	ft.advance(h, time.Second)
	if d, ok := e.draft(threadID); !ok || d.Markdown != "abcd" {
		t.Fatalf("the second save: %+v (%v)", d, ok)
	}

	// A new App on the thread shows the draft with its caret.
	h2 := e.open(threadID)
	if got := h2.app.ed.Draft().Markdown(); got != "abcd" {
		t.Fatalf("restored draft = %q", got)
	}
	if !strings.Contains(h2.plain(), "abcd") {
		t.Errorf("restored draft not on screen:\n%s", h2.plain())
	}
	h2.typeText("e")
	if got := h2.app.ed.Draft().Markdown(); got != "abcde" {
		t.Errorf("typing after restore gives %q: the caret was not restored at the end", got)
	}
}

// ---- help and focus ----

func TestHelpOverlayF1AndQuestionMark(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	composerFooter := h.footer()

	h.press("f1")
	scr := h.plain()
	if !strings.Contains(scr, "Keys (set any of them in") || !strings.Contains(scr, "ctrl+q") {
		t.Fatalf("F1 does not show the keymap:\n%s", scr)
	}
	if f := h.footer(); !strings.Contains(f, "esc close") {
		t.Errorf("help footer = %q", f)
	}
	h.press("esc")
	if strings.Contains(h.plain(), "Keys (set any of them in") || h.footer() != composerFooter {
		t.Fatalf("esc did not close the help:\n%s", h.plain())
	}

	h.press("?")
	if !strings.Contains(h.plain(), "Keys (set any of them in") {
		t.Fatalf("? on an empty draft does not show the keymap:\n%s", h.plain())
	}
	if !h.app.ed.Draft().IsEmpty() {
		t.Errorf("? typed into the draft: %q", h.app.ed.Draft().Markdown())
	}
	h.press("?")
	if strings.Contains(h.plain(), "Keys (set any of them in") {
		t.Fatal("? did not close the help")
	}

	h.typeText("why")
	h.press("?")
	if strings.Contains(h.plain(), "Keys (set any of them in") {
		t.Fatal("? on a non-empty draft opened the help")
	}
	if got := h.app.ed.Draft().Markdown(); got != "why?" {
		t.Errorf("draft = %q, want %q", got, "why?")
	}
	// With the transcript focused, ? opens the keymap whatever the draft.
	h.press("tab", "?")
	if h.app.OverlayScope() != keymap.ScopeHelp {
		t.Error("? with the transcript focused does not show the keymap")
	}
	h.press("esc", "tab")
	// F1 works whatever the draft holds.
	h.press("f1")
	if !strings.Contains(h.plain(), "Keys (set any of them in") {
		t.Fatal("F1 on a non-empty draft does not show the keymap")
	}
	h.press("f1")
	if strings.Contains(h.plain(), "Keys (set any of them in") {
		t.Fatal("F1 did not close the help")
	}
}

func TestHelpListsEveryBindingAndScrolls(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	h.update(windowSize(200, testHeight)) // wide enough for every line
	h.press("f1")
	var seen strings.Builder
	for i := 0; i < 40; i++ {
		seen.WriteString(h.plain())
		h.press("pgdown")
	}
	all := seen.String()
	for _, d := range keymap.KeyDefs() {
		if !strings.Contains(all, d.Name) || !strings.Contains(all, d.Help) {
			t.Errorf("the help never shows %s (%s)", d.Name, d.Help)
		}
	}
	if !strings.Contains(all, "In the transcript:") || !strings.Contains(all, "In the image shelf") {
		t.Error("the help lacks the transcript or shelf sections")
	}
}

// "F1 shows the whole keymap": at 100 columns every binding's description
// can be read in full (wrapped if need be), not cut with "…".
func TestHelpDescriptionsNotCutAt100Columns(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	h.press("f1")
	var seen strings.Builder
	for i := 0; i < 40; i++ {
		seen.WriteString(h.plain())
		h.press("pgdown")
	}
	all := strings.Join(strings.Fields(seen.String()), " ")
	for _, d := range keymap.KeyDefs() {
		if !strings.Contains(all, d.Help) {
			t.Errorf("at %d columns the help cuts %s: %q", testWidth, d.Name, d.Help)
		}
	}
}

func TestTabCyclesFocusAndFooterHints(t *testing.T) {
	e := newTestEnv(t)
	e.newThread("", store.Message{Role: message.RoleUser, Text: "earlier question"},
		store.Message{Role: message.RoleAssistant, Text: "earlier answer"})
	h := e.open("")
	composerHints, transcriptHints := "enter send", "↑↓ messages"
	check := func(step string, wantFocus pane, hint string) {
		t.Helper()
		if h.app.focus != wantFocus {
			t.Errorf("%s: focus = %d, want %d", step, h.app.focus, wantFocus)
		}
		if f := h.footer(); !strings.Contains(f, hint) {
			t.Errorf("%s: footer = %q, want %q in it", step, f, hint)
		}
	}
	check("start", paneComposer, composerHints)
	h.press("tab")
	check("tab", paneTranscript, transcriptHints)
	if h.app.ed.Focused() {
		t.Error("the editor keeps focus with the transcript focused")
	}
	h.typeText("z") // keys go to the transcript, not the draft
	if !h.app.ed.Draft().IsEmpty() {
		t.Errorf("typing with the transcript focused reached the draft: %q", h.app.ed.Draft().Markdown())
	}
	h.press("tab")
	check("tab tab", paneComposer, composerHints)
	h.press("shift+tab")
	check("shift+tab", paneTranscript, transcriptHints)
	h.press("shift+tab")
	check("shift+tab shift+tab", paneComposer, composerHints)
	h.press("tab", "esc")
	check("esc from the transcript", paneComposer, composerHints)
}

// With the @ file picker open, ctrl+n is the picker's "next match" (the
// composer keymap binds PickerNext to down and ctrl+n); it must not start a
// new thread under the user's fingers.
func TestCtrlNMovesPickerInsteadOfNewThread(t *testing.T) {
	e := newTestEnv(t)
	e.writeFile("alpha.go", []byte("package a\n"))
	e.writeFile("beta.go", []byte("package b\n"))
	h := e.open("")
	threadID := h.app.thread.ID
	h.typeText("@")
	h.pumpUntil("the file picker", func() bool { return strings.Contains(h.plain(), "beta.go") })
	h.press("ctrl+n")
	// A new thread says so at once (newThread's toast is set in Update);
	// the thread itself opens when its command's result comes back.
	if strings.Contains(h.app.Toast(), "new thread") {
		t.Errorf("ctrl+n with the file picker open started a new thread (toast %q)", h.app.Toast())
	}
	if !h.app.ed.PickerOpen() {
		t.Error("ctrl+n closed the file picker")
	}
	// Without the picker ctrl+n opens one new thread: the picker's ctrl+n
	// opened none before it.
	h.press("esc", "ctrl+n")
	if !strings.Contains(h.app.Toast(), "new thread") {
		t.Fatalf("ctrl+n without the picker: toast %q", h.app.Toast())
	}
	h.pumpUntil("the new thread", func() bool { return h.app.thread.ID != threadID })
	if n := count[threadOpenedMsg](h); n != 1 {
		t.Errorf("%d threads opened, want the one of the second ctrl+n", n)
	}
}

// ctrl+q quits from anywhere, popups included.
func TestCtrlQQuitsWithPopupOpen(t *testing.T) {
	for _, open := range []string{"f1", "ctrl+o", "ctrl+l"} {
		t.Run(open, func(t *testing.T) {
			e := newTestEnv(t)
			h := e.open("")
			h.press(open)
			h.popupLoaded()
			if h.app.OverlayScope() == keymap.Scope("") {
				t.Fatalf("%s opened no popup", open)
			}
			h.press("ctrl+q")
			h.pumpUntil("quit", h.sawQuit)
		})
	}
}

// ---- limits ----

func TestTooManyRecordsRefusedDraftStays(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	threadID := h.app.thread.ID
	for i := 0; i <= contextref.MaxContextRecords; i++ {
		h.app.ed.InsertContext(composer.MentionRecord(fmt.Sprintf("src/file%03d.go", i)), "")
	}
	before := h.app.ed.Draft().Markdown()
	h.press("enter")
	h.pumpUntil("the refusal", func() bool { return h.app.Toast() != "" && !(h.app.conv.phase() == chat.Storing) })
	if !h.app.toast.err || !strings.Contains(h.app.Toast(), "201") || !strings.Contains(h.app.Toast(), "200") {
		t.Errorf("toast = %q (err %v), want an error naming 201 and the limit 200", h.app.Toast(), h.app.toast.err)
	}
	if got := h.app.ed.Draft().Markdown(); got != before {
		t.Error("the refused message left the composer")
	}
	if n := len(e.messages(threadID)); n != 0 {
		t.Errorf("%d messages stored, want none", n)
	}
	if h.app.conv.turnShown() {
		t.Error("a turn started")
	}
}

// The refusal reads once: "message not sent: …", not "message not sent:
// message not sent: …".
func TestRefusalToastSaysItOnce(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	for i := 0; i <= contextref.MaxContextRecords; i++ {
		h.app.ed.InsertContext(composer.MentionRecord(fmt.Sprintf("f%03d", i)), "")
	}
	h.press("enter")
	h.pumpUntil("the refusal", func() bool { return h.app.Toast() != "" && !(h.app.conv.phase() == chat.Storing) })
	if n := strings.Count(h.app.Toast(), "message not sent"); n != 1 {
		t.Errorf("toast = %q: says %q %d times", h.app.Toast(), "message not sent", n)
	}
}

func TestOversizeTextRefusedDraftStays(t *testing.T) {
	e := newTestEnv(t)
	opt := e.options("")
	// A long paste would become a pasted-text chip: keep it prose here.
	opt.Config.Limits.PasteChipChars, opt.Config.Limits.PasteChipLines = -1, -1
	h := e.openWith(opt)
	threadID := h.app.thread.ID
	// Over 16,000,000 bytes in 4-byte characters keeps the draft small in
	// runes.
	big := strings.Repeat("😀", chat.MaxMessageLen/4+1)
	h.paste(big)
	h.press("enter")
	h.pumpUntil("the refusal", func() bool { return h.app.Toast() != "" && !(h.app.conv.phase() == chat.Storing) })
	if !h.app.toast.err || !strings.Contains(h.app.Toast(), "over the") {
		t.Errorf("toast = %q, want a clear size error", h.app.Toast())
	}
	if got := h.app.ed.Draft().Markdown(); got != big {
		t.Error("the refused text left the composer")
	}
	if n := len(e.messages(threadID)); n != 0 {
		t.Errorf("%d messages stored, want none", n)
	}
}

// ---- stored text never reaches the terminal raw ----

func TestHostileStoredTextNeverReachesScreen(t *testing.T) {
	e := newTestEnv(t)
	hostile := "before" + hostileCSI + "mid" + hostileOSC + "after"
	// A chip whose link label and record hold escapes too.
	rec := &contextref.MentionRecord{Base: contextref.NewBase(contextref.KindMention, "m1", "lab"+hostileOSC+"el"), Path: "src/" + hostileCSI + "x.go"}
	chipText := "see [evil" + hostileCSI + "chip](t3-context://v1/mention/m1) now"
	th := e.newThread("title"+hostileCSI+hostileOSC,
		store.Message{Role: message.RoleUser, Text: "user " + hostile},
		store.Message{Role: message.RoleAssistant, Text: "agent " + hostile + "\n\n```\n" + hostile + "\n```"},
		store.Message{Role: message.RoleUser, Text: chipText, Context: &contextref.MessageContext{Version: 1, Records: []contextref.Record{rec}}})
	h := e.open(th.ID)
	checkNoControls(t, "thread", h.view())
	if !strings.Contains(h.plain(), "before") || !strings.Contains(h.plain(), "after") {
		t.Errorf("the text around the escapes is gone:\n%s", h.plain())
	}
	h.press("tab") // the transcript focused (selection styling)
	checkNoControls(t, "transcript focused", h.view())
	for _, k := range []string{"right", "enter", "esc", "up", "enter", "esc"} {
		h.press(k) // move among chips, open details
		checkNoControls(t, "transcript after "+k, h.view())
	}
	h.press("esc", "esc")

	// Pasted text: the draft and the echo reply that repeats it.
	h.paste("say " + hostile)
	checkNoControls(t, "draft", h.view())
	before := len(e.messages(th.ID))
	h.press("enter")
	if r := h.replyAfter("the echo reply", before); r.Status != message.StatusDone || len(e.messages(th.ID)) != before+2 {
		t.Fatalf("the echo reply ended %s", r.Status)
	}
	checkNoControls(t, "echo reply", h.view())
	// A toast quoting hostile text.
	h.app.Update(composerNotice("oops " + hostile))
	checkNoControls(t, "toast", h.view())
}

// hostileBackend streams a reply full of escape sequences.
type hostileBackend struct{}

func (hostileBackend) Name() string { return "hostile" }

func (hostileBackend) Capabilities() agent.Capabilities { return agent.Capabilities{Cancel: true} }
func (hostileBackend) Run(ctx context.Context, t agent.Turn, ev func(agent.Event)) error {
	emit := func(s string) { ev(agent.TextDelta{Text: s}) }
	emit("agent " + hostileCSI + "says")
	emit(hostileOSC + " more\n\n```\n" + hostileCSI + "in code\n```\n")
	emit("\x1b[31mred\x1b[0m \x1bP1$r\x1b\\ \x9b2J done")
	return nil
}

func TestHostileAgentOutputNeverReachesScreen(t *testing.T) {
	e := newTestEnv(t)
	opt := e.options("")
	opt.Backend = hostileBackend{}
	h := e.openWith(opt)
	h.typeText("go")
	h.press("enter")
	if r := h.replyAfter("the reply", 0); r.Status != message.StatusDone {
		t.Fatalf("the reply ended %s", r.Status)
	}
	checkNoControls(t, "reply", h.view())
	if !strings.Contains(h.plain(), "says") || !strings.Contains(h.plain(), "done") {
		t.Errorf("the reply's text is gone:\n%s", h.plain())
	}
	h.press("tab")
	checkNoControls(t, "reply, transcript focused", h.view())
}

// oddlyNamedBackend is an agent whose self-reported name (an ACP agent
// names itself, for one) holds escape sequences.
type oddlyNamedBackend struct{ agent.Echo }

func (oddlyNamedBackend) Name() string { return "agent" + hostileOSC + hostileCSI }

func TestHostileAgentNameNeverReachesScreen(t *testing.T) {
	e := newTestEnv(t)
	opt := e.options("")
	opt.Backend = oddlyNamedBackend{}
	h := e.openWith(opt)
	checkNoControls(t, "header with the agent's name", h.view())
}

func composerNotice(text string) composer.NoticeMsg { return composer.NoticeMsg{Text: text, Err: true} }

// ---- config wiring ----

func TestConfigKeysRebindTheApp(t *testing.T) {
	e := newTestEnv(t)
	opt := e.options("")
	opt.Config.Keys = map[string][]string{"quit": {"ctrl+x"}, "send": {"ctrl+s"}}
	h := e.openWith(opt)
	h.typeText("hi")
	h.press("enter") // no longer sends
	// ctrl+s sends: once its turn is over, a send of enter's would be
	// stored too (the conversation stores in order).
	h.press("ctrl+s")
	h.replyAfter("the turn of ctrl+s", 0)
	if msgs := e.messages(h.app.thread.ID); len(msgs) != 2 || count[composer.SubmitMsg](h) != 1 {
		t.Fatalf("enter sent after send was rebound (%d messages, %d sends)", len(msgs), count[composer.SubmitMsg](h))
	}
	h.press("ctrl+q")
	h.assertNoQuit("ctrl+q after quit was rebound to ctrl+x")
	h.press("ctrl+x")
	h.pumpUntil("quit", h.sawQuit)
}

// The composer's row limit comes from the config.
func TestConfigComposerRows(t *testing.T) {
	e := newTestEnv(t)
	opt := e.options("")
	opt.Config.Limits.ComposerRows = 3
	h := e.openWith(opt)
	h.paste(strings.Repeat("line\n", 12))
	if got := h.app.ed.Height(); got > 3 {
		t.Errorf("composer height = %d rows, want at most 3", got)
	}
	if lines := strings.Split(h.plain(), "\n"); len(lines) != testHeight {
		t.Errorf("screen has %d lines, want %d", len(lines), testHeight)
	}
}

// ---- misc ----

func TestScreenFitsTheWindow(t *testing.T) {
	e := newTestEnv(t)
	e.newThread("", store.Message{Role: message.RoleUser, Text: strings.Repeat("word ", 400)})
	h := e.open("")
	for _, size := range [][2]int{{100, 30}, {40, 12}, {20, 8}} {
		h.update(windowSize(size[0], size[1]))
		for _, open := range []string{"", "f1", "ctrl+o", "ctrl+l"} {
			if open != "" {
				h.press(open)
				h.popupLoaded()
			}
			lines := strings.Split(h.plain(), "\n")
			if len(lines) != size[1] {
				t.Errorf("%dx%d %s: %d lines", size[0], size[1], open, len(lines))
			}
			for i, l := range lines {
				if w := displayWidth(l); w > size[0] {
					t.Errorf("%dx%d %s: line %d is %d wide: %q", size[0], size[1], open, i, w, l)
				}
			}
			if open != "" {
				h.press("esc")
			}
		}
	}
}

func TestOpenChipWithoutBytesSaysSo(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	cmd := h.app.nav.open(imageRec("att_nowhere", "ghost.png"))
	h.exec(cmd)
	h.pumpUntil("the toast", func() bool { return strings.Contains(h.app.Toast(), "ghost.png") })
	if !strings.Contains(h.app.Toast(), "not in this environment") {
		t.Errorf("toast = %q", h.app.Toast())
	}
}

// A turn keeps running in its own thread while the user starts another:
// its reply lands in its thread, never in the one on screen.
func TestCtrlNWhileTurnRunsKeepsTheTurnInItsThread(t *testing.T) {
	e := newTestEnv(t)
	opt := e.options("")
	opt.Backend = agent.Echo{ChunkDelay: 5 * time.Millisecond, ChunkSize: 4}
	h := e.openWith(opt)
	first := h.app.thread.ID
	h.typeText("long one")
	h.press("enter")
	h.pumpUntil("the turn", func() bool { return h.app.conv.phase() >= chat.Starting && h.app.ed.Draft().IsEmpty() }) // the composer cleared: the app heard the send
	h.press("ctrl+n")
	h.pumpUntil("the new thread", func() bool { return h.app.thread.ID != first })
	if h.app.conv.turnShown() {
		t.Error("the new thread shows the other thread's turn")
	}
	// The UI has handled the first thread's whole turn once it saw its end.
	h.pumpUntilWithin(20*time.Second, "the first thread's reply", func() bool {
		return h.sawEvent(func(ev chat.Event) bool { f, ok := ev.(chat.ReplyFinished); return ok && f.ThreadID == first })
	})
	if msgs := e.messages(first); len(msgs) != 2 || msgs[1].Status != message.StatusDone {
		t.Fatalf("the first thread holds %+v", msgs)
	}
	if strings.Contains(h.plain(), "Echo agent") {
		t.Errorf("the reply shows in the new thread:\n%s", h.plain())
	}

}

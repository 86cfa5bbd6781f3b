package ui

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/ui/keymap"
)

// flakyBackend fails its first turn, then answers.
type flakyBackend struct {
	mu    sync.Mutex
	calls int
}

func (b *flakyBackend) Name() string                   { return "flaky" }
func (*flakyBackend) Capabilities() agent.Capabilities { return agent.Capabilities{Cancel: true} }
func (b *flakyBackend) Run(ctx context.Context, t agent.Turn, ev func(agent.Event)) error {
	emit := func(s string) { ev(agent.TextDelta{Text: s}) }
	b.mu.Lock()
	b.calls++
	n := b.calls
	b.mu.Unlock()
	if n == 1 {
		emit("partial")
		return errors.New("model overloaded\nretry later")
	}
	emit("fine now")
	return nil
}

func TestAgentErrorShowsInlineAndAltRRetries(t *testing.T) {
	e := newTestEnv(t)
	opt := e.options("")
	opt.Backend = &flakyBackend{}
	h := e.openWith(opt)
	threadID := h.app.thread.ID
	h.typeText("hello")
	h.press("enter")
	// The reply is an error on disk before the UI hears of it: wait for
	// the UI to have handled the turn's end.
	if r := h.replyAfter("the error", 0); r.Status != message.StatusError || len(e.messages(threadID)) != 2 {
		t.Fatalf("the turn ended %s", r.Status)
	}
	items := e.messages(threadID)[1].Items
	last := items[len(items)-1]
	if items[0].Text != "partial" || last.Kind != message.ItemNotice || last.Level != "error" ||
		!strings.Contains(last.Text, "model overloaded") || !strings.Contains(last.Text, "alt+r retries") {
		t.Fatalf("the error is not inline in the reply: %+v", items)
	}
	if !strings.Contains(h.plain(), "model overloaded") {
		t.Fatalf("the error is not on screen:\n%s", h.plain())
	}
	if !strings.Contains(h.plain(), "alt+r retries") {
		t.Fatalf("the status line does not offer the retry:\n%s", h.plain())
	}
	h.press("alt+r")
	h.pumpUntil("the retried reply", func() bool {
		msgs := e.messages(threadID)
		return len(msgs) == 3 && msgs[2].Status == message.StatusDone && msgs[2].Text == "fine now"
	})
	if msgs := e.messages(threadID); msgs[0].Role != message.RoleUser || msgs[1].Status != message.StatusError {
		t.Fatalf("the first reply stays as it was: %+v", msgs)
	}
}

func TestStatusLineShowsElapsedAndSpinner(t *testing.T) {
	e := newTestEnv(t)
	opt := e.options("")
	opt.Backend = agent.Echo{ChunkDelay: 200_000_000} // 200 ms a chunk: a slow turn
	h := e.openWith(opt)
	h.typeText("slow")
	h.press("enter")
	h.pumpUntil("the status line", func() bool { return strings.Contains(h.plain(), "replying") })
	// the spinner's glyph, just before "replying"
	frame := func() string {
		head, _, ok := strings.Cut(h.plain(), " replying")
		if !ok {
			return ""
		}
		r, _ := utf8.DecodeLastRuneInString(head)
		return string(r)
	}
	first := frame()
	h.pumpUntil("the spinner to turn", func() bool { f := frame(); return f != "" && f != first })
	if !strings.Contains(h.plain(), "esc cancels") {
		t.Fatalf("status line:\n%s", h.plain())
	}
	h.press("esc")
}

func TestForkCopiesMessagesUpToTheChosenOne(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	from := h.app.thread.ID
	for _, w := range []string{"one", "two"} {
		before := len(e.messages(from))
		h.typeText(w)
		h.press("enter")
		if r := h.replyAfter("the reply", before); r.Status != message.StatusDone || len(e.messages(from)) != before+2 {
			t.Fatalf("the reply to %q ended %s", w, r.Status)
		}
	}
	// Focus the first reply (second message) and fork there.
	h.press("tab", "home", "down", "f")
	h.pumpUntil("the fork", func() bool { return h.app.thread.ID != from })
	msgs := e.messages(h.app.thread.ID)
	if len(msgs) != 2 || msgs[0].Text != "one" || msgs[1].Role != message.RoleAssistant {
		t.Fatalf("the fork holds %+v", msgs)
	}
	if len(e.messages(from)) != 4 {
		t.Fatal("the original thread is unchanged")
	}
}

func TestSlashForkChoosesInTheTranscript(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	h.typeText("/fork")
	h.press("enter")
	h.pumpUntil("the transcript focus", func() bool { return h.app.focus == paneTranscript })
	if !strings.Contains(h.app.Toast(), "press f") || !h.app.ed.Draft().IsEmpty() {
		t.Fatalf("toast %q, draft %q", h.app.Toast(), h.app.ed.Draft().Markdown())
	}
	if n := len(e.messages(h.app.thread.ID)); n != 0 {
		t.Fatalf("/fork is not sent to the agent (%d messages)", n)
	}
}

func TestConfigOpenAIKey(t *testing.T) {
	c, err := config.Load(writeConfig(t, "agent = \"openai:http://localhost:1/v1#m\"\nopenai_api_key = \"sk-from-config\"\n"), keymap.CheckKeys)
	if err != nil || c.OpenAIAPIKey != "sk-from-config" {
		t.Fatalf("%+v %v", c, err)
	}
}

// alt+up takes the last queued message back into an empty draft, chips
// included; with words in the draft it is refused and nothing moves.
func TestAltUpTakesTheQueuedMessageBack(t *testing.T) {
	e := newTestEnv(t)
	e.writeFile("notes.txt", []byte("n\n"))
	opt := e.options("")
	opt.Backend = producedBackend{text: "working"}
	h := e.openWith(opt)
	threadID := h.app.thread.ID
	h.typeText("first")
	h.press("enter")
	h.pumpUntil("the turn", func() bool { return h.app.conv.phase() == chat.Streaming && h.app.ed.Draft().IsEmpty() }) // the composer cleared: the app heard the send
	h.typeText("second ")
	h.press("@")
	h.typeText("notes")
	h.pumpUntil("the file picker", func() bool { return strings.Contains(h.plain(), "1 of 1") })
	h.press("enter")
	h.pumpUntil("the chip", func() bool { return len(h.app.ed.Draft().Records()) == 1 })
	h.press("enter")
	h.pumpUntil("the queue", func() bool { return h.queued() == 1 && h.app.ed.Draft().IsEmpty() })

	h.typeText("busy")
	h.press("alt+up")
	if !h.app.toast.err || h.queued() != 1 || h.app.ed.Draft().Markdown() != "busy" {
		t.Fatalf("alt+up over a draft: toast %q, queue %d, draft %q", h.app.Toast(), h.queued(), h.app.ed.Draft().Markdown())
	}
	h.press("ctrl+c") // clears the draft (the turn first: it is cancelled)
	h.pumpUntil("idle", func() bool { return !h.app.conv.turnShown() })
	for !h.app.ed.Draft().IsEmpty() {
		h.press("ctrl+c")
	}
	h.press("alt+up")
	h.pumpUntil("the message back", func() bool { return strings.HasPrefix(h.app.ed.Draft().Markdown(), "second ") })
	if len(h.app.ed.Draft().Records()) != 1 || h.queued() != 0 {
		t.Fatalf("draft %q with %d records, queue %d", h.app.ed.Draft().Markdown(), len(h.app.ed.Draft().Records()), h.queued())
	}
	for _, m := range e.messages(threadID) {
		if m.Status == message.StatusQueued {
			t.Fatal("the queued message is still stored")
		}
	}
}

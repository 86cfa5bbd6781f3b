package ui

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/dialog"
	"github.com/chipchat/chipchat/ui/keymap"
)

// acpLike is a fake ACP backend: each turn reports the agent's commands,
// modes and config options, then answers "got: <prompt>". It switches
// modes and options (agent.Configurer) and declares max as its attachment
// limit (0: none).
type acpLike struct {
	mu      sync.Mutex
	prompts []string
	calls   []string
	compact bool
	max     int64
	signIn  *agent.Question // asked before the first answer when set
	answers []agent.Answer
	fail    error // the turn's error after the sign-in
	// noCommands: the turns report no commands (the agent dropped them)
	noCommands bool
}

func (b *acpLike) Name() string { return "acp:fake" }
func (b *acpLike) Capabilities() agent.Capabilities {
	return agent.Capabilities{Sessions: true, Cancel: true, Modes: true, Commands: true, Compact: b.compact, Files: true, Images: true,
		MaxAttachment: b.max}
}

var fakeCommands = []agent.Command{
	{Name: "init", Description: "write an AGENTS.md", InputHint: "what to focus on"},
	{Name: "review", Description: "the agent's own review"}, // shadowed by chipchat's /review
	{Name: "compact", Description: "the agent compacts"},
}

var fakeModes = agent.Modes{Current: "default", Available: []agent.Mode{
	{ID: "default", Name: "Default", Description: "asks before edits"}, {ID: "plan", Name: "Plan", Description: "read only"}}}

var fakeOptions = []agent.ConfigOption{
	{ID: "model", Name: "Model", Category: "model", Current: "m1", Values: []agent.ConfigValue{{ID: "m1", Name: "Fast one"}, {ID: "m2", Name: "Big one"}}},
	{ID: "mode", Name: "Mode", Category: "mode", Current: "default", Values: []agent.ConfigValue{{ID: "default"}, {ID: "plan"}}},
}

func (b *acpLike) Run(ctx context.Context, t agent.Turn, emit func(agent.Event)) error {
	b.mu.Lock()
	b.prompts = append(b.prompts, t.Prompt)
	q := b.signIn
	b.signIn = nil
	b.mu.Unlock()
	if q != nil {
		reply := make(chan agent.Answer, 1)
		emit(agent.SignIn{Question: *q, Reply: reply})
		select {
		case ans := <-reply:
			b.mu.Lock()
			b.answers = append(b.answers, ans)
			b.mu.Unlock()
			if ans.OptionID == "browser" {
				// As the ACP backend does for an agent method: say it may
				// wait, then wait (here: until esc cancels the turn).
				emit(agent.Notice{Text: "signing in with Browser: the agent may be waiting for you to finish in a browser; esc stops it"})
				<-ctx.Done()
				return ctx.Err()
			}
			if b.fail != nil {
				return b.fail
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	b.mu.Lock()
	cmds := fakeCommands
	if b.noCommands {
		cmds = nil
	}
	b.mu.Unlock()
	emit(agent.Commands{Commands: cmds})
	emit(agent.Modes{Current: fakeModes.Current, Available: fakeModes.Available})
	emit(agent.ConfigOptions{Options: fakeOptions})
	emit(agent.TextDelta{Text: "got: " + t.Prompt})
	return nil
}

func (b *acpLike) SetMode(_ context.Context, threadID, modeID string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.calls = append(b.calls, "mode="+modeID)
	return nil
}

func (b *acpLike) SetConfigOption(_ context.Context, threadID, optionID, value string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.calls = append(b.calls, optionID+"="+value)
	return nil
}

func (b *acpLike) seen() (prompts, calls []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.prompts...), append([]string(nil), b.calls...)
}

// openFake opens the app on backend b.
func openFake(t *testing.T, b agent.Backend) *harness {
	t.Helper()
	e := newTestEnv(t)
	opt := e.options("")
	opt.Backend = b
	h := e.openWith(opt)
	t.Cleanup(h.app.panes.pane.CloseAll)
	return h
}

// openACPLike opens the app on the fake ACP backend and runs one turn, so
// that the agent's commands, modes and options are known.
func openACPLike(t *testing.T, b *acpLike) *harness {
	t.Helper()
	h := openFake(t, b)
	h.typeText("hello")
	h.press("enter")
	h.pumpUntil("the first reply", func() bool {
		return strings.Contains(h.replyShown(), "got: hello") && len(h.app.conv.info().Commands) > 0 && len(h.app.conv.info().Options) > 0 &&
			h.app.conv.phase() == chat.Idle
	})
	return h
}

// `/` opens the picker with chipchat's and the agent's commands; typing
// filters; picking an agent command writes "/name " with its hint shown,
// and enter sends "/name args" to the agent as the prompt.
func TestSlashPickerAgentCommand(t *testing.T) {
	b := &acpLike{}
	h := openACPLike(t, b)
	h.typeText("/")
	if bottomPicker(h.app) == nil {
		t.Fatal("the command picker did not open on /")
	}
	screen := h.plain()
	for _, want := range []string{"/new", "/fork", "/init <what to focus on>", "agent: write an AGENTS.md"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the picker lacks %q:\n%s", want, screen)
		}
	}
	// Names the agent has too: the agent's keeps it, chipchat's is
	// /chipchat:<name> (issue 22 item 5).
	h.typeText("review")
	screen = h.plain()
	for _, want := range []string{"/review", "the agent's own review", "/chipchat:review"} {
		if !strings.Contains(screen, want) {
			t.Errorf("/review: the picker lacks %q:\n%s", want, screen)
		}
	}
	for range len("review") {
		h.press("backspace")
	}
	h.typeText("ini")
	if it, ok := bottomPicker(h.app).Selected(); !ok || it.Value != "a:init" {
		t.Fatalf("selected %+v after /ini", it)
	}
	h.press("enter")
	if bottomPicker(h.app) != nil {
		t.Fatal("the picker stayed open after the pick")
	}
	if got := h.app.ed.Draft().Markdown(); got != "/init " {
		t.Fatalf("draft after the pick %q", got)
	}
	if f := h.footer(); !strings.Contains(f, "/init <what to focus on>") {
		t.Errorf("the footer does not show the hint: %q", f)
	}
	h.typeText("tests")
	h.press("enter")
	h.pumpUntil("the command's reply", func() bool { return strings.Contains(h.replyShown(), "got: /init tests") })
	if prompts, _ := b.seen(); prompts[len(prompts)-1] != "/init tests" {
		t.Fatalf("the agent got %q", prompts)
	}
}

// esc closes the picker and leaves the text; a "/" word nothing matches
// (a path) goes out as text on enter.
func TestSlashPickerEscAndPaths(t *testing.T) {
	b := &acpLike{}
	h := openACPLike(t, b)
	h.typeText("/ne")
	h.press("esc")
	if (bottomPicker(h.app) != nil) || h.app.ed.Draft().Markdown() != "/ne" {
		t.Fatalf("esc: picker %v, draft %q", (bottomPicker(h.app) != nil), h.app.ed.Draft().Markdown())
	}
	h.typeText("w")
	if bottomPicker(h.app) != nil {
		t.Fatal("the picker came back before the word ended")
	}
	h.press("ctrl+c") // clears the draft
	h.typeText("/etc/hosts")
	h.press("enter")
	h.pumpUntil("the path sent as text", func() bool { return strings.Contains(h.replyShown(), "got: /etc/hosts") })
}

// chipchat's commands act on chipchat from the picker and when typed:
// /new opens a new thread, /help the keys with the command table.
func TestSlashChipchatCommands(t *testing.T) {
	b := &acpLike{}
	h := openACPLike(t, b)
	first := h.app.thread.ID
	h.typeText("/help")
	h.press("enter") // picks /help: at once, no send
	if h.app.OverlayScope() != keymap.ScopeHelp {
		t.Fatalf("/help did not open the help (overlay %v)", h.app.OverlayScope())
	}
	if s := strings.Join(top[*dialog.Help](h.app).Lines(), "\n"); !strings.Contains(s, "Slash commands") || !strings.Contains(s, "/compact") {
		t.Errorf("F1 lacks the command table")
	}
	h.press("esc")
	if got := h.app.ed.Draft().Markdown(); got != "" {
		t.Fatalf("the draft kept %q", got)
	}
	// typed in full and sent (the picker dismissed first)
	h.typeText("/new")
	h.press("esc", "enter")
	h.pumpUntil("a new thread", func() bool { return h.app.thread.ID != first })
	prompts, _ := b.seen()
	for _, p := range prompts {
		if strings.HasPrefix(p, "/new") || strings.HasPrefix(p, "/help") {
			t.Fatalf("chipchat's command reached the agent: %q", prompts)
		}
	}
}

// /compact goes to the agent when it has a command of that name; without
// one, chipchat's serves it where the backend can, else a toast refuses.
func TestSlashCompactRouting(t *testing.T) {
	b := &acpLike{}
	h := openACPLike(t, b)
	h.typeText("/compact")
	h.press("esc", "enter")
	h.pumpUntil("the agent's /compact", func() bool { return strings.Contains(h.replyShown(), "got: /compact") })

	// an agent without /compact (it reports none now), a backend without
	// Compact
	b.mu.Lock()
	b.noCommands = true
	b.mu.Unlock()
	h.typeText("again")
	h.press("enter")
	h.pumpUntil("the commands dropped", func() bool {
		return strings.Contains(h.replyShown(), "got: again") && len(h.app.conv.info().Commands) == 0 && h.app.conv.phase() == chat.Idle
	})
	h.typeText("/compact")
	if (bottomPicker(h.app) == nil) || bottomPicker(h.app).Len() != 0 {
		t.Fatalf("chipchat's /compact is offered by a backend that cannot compact")
	}
	h.press("esc", "enter")
	h.pumpUntil("the refusal", func() bool { return strings.Contains(h.app.Toast(), "cannot serve it") })
	if prompts, _ := b.seen(); len(prompts) != 3 {
		t.Fatalf("the refused /compact was sent: %q", prompts)
	}
}

// The README lists the command table as chat.SlashMarkdown writes it.
func TestREADMEListsCommands(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const start, end = "<!-- commands: generated from chat.SlashCommands (TestREADMEListsCommands) -->\n", "<!-- /commands -->"
	s := string(b)
	i, j := strings.Index(s, start), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("README.md has no %q … %q block; put this between them:\n%s", start, end, chat.SlashMarkdown())
	}
	if got := s[i+len(start) : j]; got != chat.SlashMarkdown() {
		t.Fatalf("README.md's command table is stale; put this between the markers:\n%s", chat.SlashMarkdown())
	}
	for _, c := range chat.SlashCommands() {
		if c.Name == "" || c.Description == "" || c.Backends == "" || slashActions[c.Name] == nil {
			t.Errorf("command %+v lacks a name, description, backends or action", c.Name)
		}
	}
}

// A file over the agent's limit is refused with a toast before anything is
// stored or sent.
func TestAttachmentOverLimitRefused(t *testing.T) {
	b := &acpLike{max: 10}
	h := openACPLike(t, b)
	img := h.e.attachImage("att_big") // 67 bytes
	h.app.ed.InsertContext(img, "")
	h.typeText(" look")
	before := len(h.e.messages(h.app.thread.ID))
	h.press("enter")
	h.pumpUntil("the refusal", func() bool { return strings.Contains(h.app.Toast(), "not sent") })
	if !h.app.toast.err || !strings.Contains(h.app.Toast(), "shot.png") {
		t.Fatalf("toast %q", h.app.Toast())
	}
	// The probe's messages come right after the ones before: the refused
	// one, sent to the conversation before it, would be stored first.
	h.probe()
	if msgs := h.e.messages(h.app.thread.ID); len(msgs) != before+2 || msgs[before].Text != "probe 1" {
		t.Fatalf("the refused message was stored (%d → %d messages, the probe's included)", before, len(msgs))
	}
	if !strings.Contains(h.app.ed.Draft().Markdown(), contextref.LinkFor(img)) {
		t.Fatalf("the draft lost its chip: %q", h.app.ed.Draft().Markdown())
	}
}

// An agent's command keeps its name: /review typed goes to the agent that
// advertised one, and chipchat's review pane is /chipchat:review (issue 22
// item 5).
func TestSlashAgentKeepsTheName(t *testing.T) {
	b := &acpLike{}
	e := newTestEnv(t)
	withReviewOptions(e, "")
	e.gitInit(map[string]string{"a.txt": "one\n"})
	e.writeFile("a.txt", []byte("two\n"))
	opt := e.options("")
	opt.Backend = b
	h := e.openWith(opt)
	t.Cleanup(h.app.panes.pane.CloseAll)
	h.typeText("hello")
	h.press("enter")
	h.pumpUntil("the agent's commands", func() bool {
		return len(h.app.conv.info().Commands) > 0 && h.app.conv.phase() == chat.Idle && h.app.ed.Draft().IsEmpty()
	})
	h.typeText("/review the last commit")
	h.press("esc", "enter")
	h.pumpUntil("the agent's /review", func() bool { return strings.Contains(h.replyShown(), "got: /review the last commit") })
	if h.app.rv.shown() {
		t.Fatal("chipchat's review pane opened for the agent's /review")
	}
	h.typeText("/chipchat:review")
	h.press("esc", "enter")
	h.pumpUntil("chipchat's review pane", func() bool { return h.app.rv.shown() && h.app.rv.m.Loaded() })
	if prompts, _ := b.seen(); strings.HasPrefix(prompts[len(prompts)-1], "/chipchat:") {
		t.Fatalf("/chipchat:review reached the agent: %q", prompts)
	}
}

// An ACP agent tells its commands on its first turn; until then the `/`
// picker lists the ones it advertised last, kept in the data directory:
// a second chipchat on the same data shows them before any turn.
func TestSlashPickerKnowsTheAgentsLastCommands(t *testing.T) {
	e := newTestEnv(t)
	opt := e.options("")
	opt.Backend = &acpLike{}
	h := e.openWith(opt)
	t.Cleanup(h.app.panes.pane.CloseAll)
	h.typeText("hello")
	h.press("enter")
	h.pumpUntil("the agent's commands", func() bool {
		return len(h.app.chat.Info(h.app.thread.ID).Commands) > 0 && h.app.conv.phase() == chat.Idle && h.app.ed.Draft().IsEmpty()
	})
	opt2 := e.options("")
	opt2.Backend = &acpLike{}
	h2 := e.openWith(opt2)
	t.Cleanup(h2.app.panes.pane.CloseAll)
	h2.pumpUntil("the known commands", func() bool { k, _ := h2.app.chat.KnownCommands(); return len(k) > 0 })
	h2.typeText("/ini")
	if it, ok := bottomPicker(h2.app).Selected(); !ok || it.Value != "a:init" {
		t.Fatalf("before the agent's first turn /ini selects %+v (want the agent's /init)", it)
	}
}

// An unknown /word costs no turn once the agent's commands are known (the
// echo backend has none, known from the start): enter refuses it with a
// toast and keeps the draft; enter again sends it as text. Before an ACP
// agent has told its commands, it is sent at once.
func TestUnknownSlashCommandRefusedOnce(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	threadID := h.app.thread.ID
	h.typeText("/xyz please")
	h.press("esc", "enter")
	h.pumpUntil("the refusal", func() bool { return h.app.Toast() != "" })
	if got := h.app.Toast(); got != "no command /xyz — enter again sends it as text" {
		t.Fatalf("toast %q", got)
	}
	if got := h.app.ed.Draft().Markdown(); got != "/xyz please" {
		t.Fatalf("the draft after the refusal %q", got)
	}
	if n := len(e.messages(threadID)); n != 0 {
		t.Fatalf("the refused command was stored: %d messages", n)
	}
	h.press("enter")
	h.pumpUntil("the text sent", func() bool { return len(e.messages(threadID)) == 2 })
	if m := e.messages(threadID)[0]; m.Text != "/xyz please" {
		t.Fatalf("sent %q", m.Text)
	}

	// an ACP agent before its first turn: its commands are not known yet
	b := &acpLike{}
	h2 := openFake(t, b)
	h2.typeText("/xyz")
	h2.press("esc", "enter")
	h2.pumpUntil("sent to the agent", func() bool { p, _ := b.seen(); return len(p) == 1 && p[0] == "/xyz" })
}

//go:build unix

package agent

import (
	"context"
	"os"
	"strings"
	"testing"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chipchat/chipchat/internal/hostileagent"
	"github.com/chipchat/chipchat/message"
)

// Writes and terminals belong to a turn (issue 23 item 2): the hostile
// agent writes and runs commands for sessions with no running turn, runs
// more terminals than a session may hold, and runs them under each
// [acp] terminals policy. Each test checks what the agent got, what the
// user sees (the turn's events) and what reached the disk.

// shownTools is every call of the turn as its item ends up, in the order
// the items appeared.
func shownTools(evs []Event) ([]string, map[string]message.Tool) {
	var order []string
	tools := map[string]message.Tool{}
	for _, e := range evs {
		switch e := e.(type) {
		case ToolCall:
			if _, ok := tools[e.Tool.CallID]; !ok {
				order = append(order, e.Tool.CallID)
			}
			tools[e.Tool.CallID] = e.Tool
		case ToolUpdate:
			t := tools[e.CallID]
			message.ToolUpdate(e).Apply(&t)
			tools[e.CallID] = t
		}
	}
	return order, tools
}

// terminalShown is the state a tool item draws of terminal id, nil if it
// does not draw it.
func terminalShown(t message.Tool, id string) *message.TerminalState {
	for _, c := range t.Content {
		if c.Type == message.ContentTerminal && c.TerminalID == id {
			if c.Terminal == nil {
				return &message.TerminalState{}
			}
			return c.Terminal
		}
	}
	return nil
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

func TestHostileWritesAndTerminalsOutOfTurnRefused(t *testing.T) {
	h := newHostile(t, ACPOptions{})
	res, _ := h.runOn("a", nil, hostileagent.Op{Op: "write", Path: h.path("in-turn.txt"), Content: "ok\n"})
	if res[0].Err != "" {
		t.Fatalf("a write in the turn: %+v", res[0])
	}
	ended := h.a.SessionID("a") // its turn is over
	marker, ran := h.path("term-ran.txt"), h.path("term-ran-in-turn.txt")
	res, evs := h.runOn("b", nil,
		hostileagent.Op{Op: "write", Session: ended, Path: h.path("late.txt"), Content: "late\n"},
		hostileagent.Op{Op: "write", Session: "bogus", Path: h.path("bogus.txt"), Content: "bogus\n"},
		hostileagent.Op{Op: "terminal", Session: ended, Command: "sh", Args: []string{"-c", "id; echo pwned > " + marker}},
		hostileagent.Op{Op: "terminal", Session: "bogus", Command: "touch " + marker},
		// The session's own turn runs: this one runs.
		hostileagent.Op{Op: "terminal", Command: "touch " + ran, Wait: true, Release: true},
	)
	for i, want := range []string{
		`session "` + ended + `" has no running turn; chipchat accepts fs/write_text_file only while a turn of that session runs`,
		`session "bogus" has no running turn; chipchat accepts fs/write_text_file only while a turn of that session runs`,
		`session "` + ended + `" has no running turn; chipchat accepts terminal/create only while a turn of that session runs`,
		`session "bogus" has no running turn; chipchat accepts terminal/create only while a turn of that session runs`,
	} {
		if res[i].Err != want {
			t.Errorf("op %d: %+v, want the error %q", i, res[i], want)
		}
	}
	if res[4].Err != "" || res[4].ExitCode == nil || *res[4].ExitCode != 0 {
		t.Fatalf("the terminal in the turn: %+v", res[4])
	}
	// The in-turn command ran and was waited for; the refused ones never
	// started.
	if !exists(ran) {
		t.Fatal("the terminal in the turn did not run")
	}
	for _, p := range []string{h.path("late.txt"), h.path("bogus.txt"), marker} {
		if exists(p) {
			t.Errorf("%s reached the disk", p)
		}
	}
	n := notices(evs)
	if len(n) != 4 || n[0] != `chipchat refused the agent's write of `+h.path("late.txt")+`: session "`+ended+`" has no running turn; chipchat accepts fs/write_text_file only while a turn of that session runs` ||
		!strings.HasPrefix(n[2], "chipchat refused the agent's command sh -c 'id; echo pwned > ") {
		t.Errorf("notices = %q", n)
	}
	order, tools := shownTools(evs)
	if len(order) != 1 || tools[order[0]].Title != "touch "+ran || tools[order[0]].Status != message.ToolCompleted {
		t.Errorf("items = %v %+v, want only the terminal run in the turn", order, tools)
	}
	if w := writesShown(evs); len(w) != 0 {
		t.Errorf("write items = %+v", w)
	}
}

func TestHostileTerminalsPerSessionCapped(t *testing.T) {
	h := newHostile(t, ACPOptions{})
	var ops []hostileagent.Op
	for i := range ACPMaxTerminals + 1 {
		ops = append(ops, hostileagent.Op{Op: "terminal", Command: "echo", Args: []string{"t" + string(rune('a'+i))}})
	}
	res, evs := h.run(ops...)
	for i, r := range res[:ACPMaxTerminals] {
		if r.Err != "" || r.TerminalID == "" {
			t.Errorf("terminal %d: %+v", i+1, r)
		}
	}
	const full = "the session already holds 16 terminals, the most chipchat runs for one session; release one (terminal/release) first"
	if r := res[ACPMaxTerminals]; r.Err != full || r.TerminalID != "" {
		t.Errorf("terminal 17: %+v", r)
	}
	order, tools := shownTools(evs)
	if len(order) != ACPMaxTerminals {
		t.Errorf("%d items for 16 terminals: %v", len(order), order)
	}
	for _, id := range order {
		if tool := tools[id]; tool.Kind != "execute" || !strings.HasPrefix(tool.Title, "echo t") {
			t.Errorf("item %s = %+v", id, tool)
		}
	}
	if n := notices(evs); len(n) != 1 || n[0] != "chipchat refused the agent's command echo tq: "+full {
		t.Errorf("notices = %q", n)
	}
	// The cap is per session: another thread's session still runs one.
	if res, _ := h.runOn("other", nil, hostileagent.Op{Op: "terminal", Command: "true"}); res[0].Err != "" {
		t.Errorf("a terminal of another session: %+v", res[0])
	}
	// Unreleased, the 16 still count in the next turn.
	res, _ = h.run(hostileagent.Op{Op: "terminal", Command: "true"})
	if res[0].Err != full {
		t.Errorf("a terminal in the next turn: %+v", res[0])
	}
}

func TestHostileTerminalsReleasedGiveTheirPlaceBack(t *testing.T) {
	h := newHostile(t, ACPOptions{})
	var ops []hostileagent.Op
	for range 2 * ACPMaxTerminals {
		ops = append(ops, hostileagent.Op{Op: "terminal", Command: "true", Wait: true, Release: true})
	}
	res, _ := h.run(ops...)
	for i, r := range res {
		if r.Err != "" {
			t.Fatalf("terminal %d, each released before the next: %+v", i+1, r)
		}
	}
}

func TestHostileTerminalDrawnInItsCall(t *testing.T) {
	h := newHostile(t, ACPOptions{})
	res, evs := h.run(
		hostileagent.Op{Op: "tool", ToolID: "run-1", Kind: "execute", Title: "Run make", Status: "in_progress"},
		hostileagent.Op{Op: "terminal", Command: "sh", Args: []string{"-c", "echo built; exit 3"}, Cwd: h.proj, Wait: true},
		hostileagent.Op{Op: "tool", ToolID: "run-1", Status: "completed"},
		// A terminal while no execute call runs is its own item, until a
		// call names it.
		hostileagent.Op{Op: "terminal", Command: "echo", Args: []string{"late"}, Wait: true},
		hostileagent.Op{Op: "tool", ToolID: "fetch-1", Kind: "fetch", Title: "Fetch it", Status: "in_progress"},
		hostileagent.Op{Op: "tool", ToolID: "fetch-1", TerminalIDFrom: 3, Status: "completed"},
	)
	if res[1].Err != "" || res[1].Output != "built\n" || res[3].Err != "" || res[5].Err != "" {
		t.Fatalf("results = %+v", res)
	}
	first, second := res[1].TerminalID, res[3].TerminalID
	order, tools := shownTools(evs)
	st := terminalShown(tools["run-1"], first)
	if st == nil || st.Command != "sh -c 'echo built; exit 3'" || st.Cwd != h.proj || st.Output != "built\n" || !st.Exited || *st.ExitCode != 3 {
		t.Errorf("run-1 draws %+v", st)
	}
	own := "chipchat-" + second
	if len(order) != 3 || order[0] != "run-1" || order[1] != own || order[2] != "fetch-1" {
		t.Fatalf("items = %v", order)
	}
	if st := terminalShown(tools["fetch-1"], second); st == nil || st.Output != "late\n" || !st.Exited {
		t.Errorf("fetch-1 draws %+v", st)
	}
	// The terminal's own item let it go, saying where it went.
	if o := tools[own]; terminalShown(o, second) != nil || o.Title != "echo late" || o.Status != message.ToolCompleted ||
		len(o.Content) != 1 || o.Content[0].Text != "shown in the tool call “Fetch it”" {
		t.Errorf("the terminal's own item: %+v", o)
	}
}

func TestHostileWriteFoldsIntoItsCall(t *testing.T) {
	h := newHostile(t, ACPOptions{})
	mustWrite(t, h.path("notes.txt"), []byte("old\n"))
	res, evs := h.run(
		hostileagent.Op{Op: "tool", ToolID: "edit-1", Kind: "edit", Title: "Edit notes.txt", Status: "in_progress", Path: h.path("notes.txt")},
		hostileagent.Op{Op: "write", Path: h.path("notes.txt"), Content: "new\n"},
		hostileagent.Op{Op: "write", Path: h.path("other.txt"), Content: "other\n"},
		hostileagent.Op{Op: "tool", ToolID: "edit-1", Status: "completed"},
		// A finished call takes no more writes.
		hostileagent.Op{Op: "write", Path: h.path("notes.txt"), Content: "newer\n"},
	)
	for i, r := range res {
		if r.Err != "" {
			t.Fatalf("op %d: %+v", i, r)
		}
	}
	order, tools := shownTools(evs)
	if len(order) != 3 || order[0] != "edit-1" {
		t.Fatalf("items = %v %+v", order, tools)
	}
	e := tools["edit-1"]
	if len(e.Content) != 1 || e.Content[0].Type != message.ContentDiff || e.Content[0].NewText != "new\n" || *e.Content[0].OldText != "old\n" || e.Status != message.ToolCompleted {
		t.Errorf("edit-1 = %+v", e)
	}
	if w := writesShown(evs); len(w) != 2 || w[0].Title != "Write other.txt" || w[1].Title != "Write notes.txt" || *w[1].Content[0].OldText != "new\n" {
		t.Errorf("write items = %+v", w)
	}
	if b, _ := os.ReadFile(h.path("notes.txt")); string(b) != "newer\n" {
		t.Errorf("notes.txt = %q", b)
	}
}

func TestHostileTerminalAsk(t *testing.T) {
	h := newHostile(t, ACPOptions{TerminalPolicy: TerminalsAsk})
	declined, allowed := h.path("declined.txt"), h.path("allowed.txt")
	var asked []Permission
	var startedBeforeAnswer []bool
	answer := func(e Event) {
		p, ok := e.(Permission)
		if !ok {
			return
		}
		asked = append(asked, p)
		startedBeforeAnswer = append(startedBeforeAnswer, exists(declined) || exists(allowed))
		if len(asked) == 1 {
			p.Reply <- PermissionAnswer{Outcome: "rejected", OptionID: "reject"}
		} else {
			p.Reply <- PermissionAnswer{Outcome: "selected", OptionID: "run"}
		}
	}
	res, evs := h.runOn("hostile", answer,
		hostileagent.Op{Op: "terminal", Command: "touch " + declined, Wait: true},
		hostileagent.Op{Op: "terminal", Command: "touch " + allowed, Wait: true, Release: true},
	)
	if res[0].Err != "the user did not allow the command to run" || res[0].TerminalID != "" {
		t.Errorf("the declined terminal: %+v", res[0])
	}
	if res[1].Err != "" || res[1].ExitCode == nil || *res[1].ExitCode != 0 {
		t.Errorf("the allowed terminal: %+v", res[1])
	}
	if len(asked) != 2 {
		t.Fatalf("asked %d times", len(asked))
	}
	for i, p := range asked {
		cmd := "touch " + []string{declined, allowed}[i]
		if p.Request.Asked != "Run "+cmd || commandOfRaw(p.Tool.RawInput) != cmd || p.Request.Options[0].Kind != message.AllowOnce || p.Request.Options[1].Kind != message.RejectOnce {
			t.Errorf("question %d = %+v, tool %+v", i, p.Request, p.Tool)
		}
		if startedBeforeAnswer[i] {
			t.Errorf("question %d: a command ran before the user answered", i)
		}
	}
	if exists(declined) {
		t.Error("the declined command ran")
	}
	if !exists(allowed) {
		t.Error("the allowed command did not run")
	}
	order, tools := shownTools(evs)
	if len(order) != 2 {
		t.Fatalf("items = %v", order)
	}
	if d := tools[order[0]]; d.Status != message.ToolCancelled || d.Content[0].Text != "not run: the user did not allow the command to run" {
		t.Errorf("the declined terminal's item: %+v", d)
	}
	if a := tools[order[1]]; a.Status != message.ToolCompleted || terminalShown(a, res[1].TerminalID) == nil {
		t.Errorf("the allowed terminal's item: %+v", a)
	}
	// The question was asked about the item showing the command.
	if asked[0].Request.ToolCallID != order[0] || asked[1].Request.ToolCallID != order[1] {
		t.Errorf("questions for %q and %q, items %v", asked[0].Request.ToolCallID, asked[1].Request.ToolCallID, order)
	}
}

// commandOfRaw is the "command" of a raw input.
func commandOfRaw(raw []byte) string {
	s := string(raw)
	const key = `"command":"`
	i := strings.Index(s, key)
	if i < 0 {
		return ""
	}
	s = s[i+len(key):]
	return s[:strings.IndexByte(s, '"')]
}

func TestHostileTerminalDeny(t *testing.T) {
	h := newHostile(t, ACPOptions{TerminalPolicy: TerminalsDeny})
	marker := h.path("denied.txt")
	res, evs := h.run(hostileagent.Op{Op: "terminal", Command: "touch " + marker, Wait: true},
		hostileagent.Op{Op: "write", Path: h.path("after.txt"), Content: "x"})
	const why = `chipchat's configuration does not let the agent run commands ([acp] terminals = "deny")`
	if res[0].Err != why {
		t.Errorf("terminal/create: %+v", res[0])
	}
	// The write after it is the agent's sync point: the refusal was
	// answered before it.
	if res[1].Err != "" || !exists(h.path("after.txt")) {
		t.Fatalf("write after: %+v", res[1])
	}
	if exists(marker) {
		t.Error("the denied command ran")
	}
	if n := notices(evs); len(n) != 1 || n[0] != "chipchat refused the agent's command touch "+marker+": "+why {
		t.Errorf("notices = %q", n)
	}
	if order, _ := shownTools(evs); len(order) != 1 || !strings.HasPrefix(order[0], "chipchat-write-") {
		t.Errorf("items = %v", order)
	}
	if _, err := NewACP("true", ACPOptions{TerminalPolicy: "sometimes"}); err == nil || !strings.Contains(err.Error(), `allowed are "allow", "ask" and "deny"`) {
		t.Errorf("NewACP with a bad policy: %v", err)
	}
}

// A refusal while no turn runs at all is told at the start of the next.
func TestRefusalWithNoTurnToldInTheNext(t *testing.T) {
	h := newHostile(t, ACPOptions{})
	h.run(hostileagent.Op{Op: "read", Path: h.path("missing")}) // the agent is up
	sid := h.a.SessionID("hostile")
	// The handler the SDK calls for the agent's request, between turns.
	c := &acpClient{a: h.a}
	_, err := c.WriteTextFile(context.Background(), acp.WriteTextFileRequest{SessionId: acp.SessionId(sid), Path: h.path("between.txt"), Content: "x"})
	if err == nil || exists(h.path("between.txt")) {
		t.Fatalf("a write between turns: %v", err)
	}
	_, err = c.CreateTerminal(context.Background(), acp.CreateTerminalRequest{SessionId: acp.SessionId(sid), Command: "touch " + h.path("between-ran")})
	if err == nil || exists(h.path("between-ran")) {
		t.Fatalf("a terminal between turns: %v", err)
	}
	_, evs := h.run(hostileagent.Op{Op: "read", Path: h.path("missing")})
	n := notices(evs)
	if len(n) != 2 || n[0] != `chipchat refused the agent's write of `+h.path("between.txt")+`: session "`+sid+`" has no running turn; chipchat accepts fs/write_text_file only while a turn of that session runs` ||
		!strings.HasPrefix(n[1], "chipchat refused the agent's command touch ") {
		t.Errorf("notices of the next turn = %q", n)
	}
	// Told once.
	if _, evs := h.run(hostileagent.Op{Op: "read", Path: h.path("missing")}); len(notices(evs)) != 0 {
		t.Errorf("told again: %q", notices(evs))
	}
}

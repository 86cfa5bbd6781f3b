//go:build unix

package chat

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/internal/hostileagent"
	"github.com/chipchat/chipchat/message"
)

// TestHostileChatHelperProcess is internal/hostileagent for the test below.
func TestHostileChatHelperProcess(t *testing.T) {
	if os.Getenv(hostileagent.Env) != "1" {
		return
	}
	hostileagent.Main()
	os.Exit(0)
}

// With [acp] terminals = "ask", an agent's command is an item and a
// permission question before it runs; the user's answer decides whether it
// runs, and the stored reply holds the terminal as it ended.
func TestACPTerminalAskedThroughChat(t *testing.T) {
	proj := t.TempDir()
	a, err := agent.NewACP("exec "+os.Args[0]+" -test.run='^TestHostileChatHelperProcess$'", agent.ACPOptions{
		Dir: proj, TerminalPolicy: agent.TerminalsAsk, Env: []string{hostileagent.Env + "=1"}, LogPath: filepath.Join(t.TempDir(), "chipchat.log")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	e := newEnvWith(t, nil, a, func(o *Options) { o.Dir = proj }) // the session's directory
	allowed, declined := filepath.Join(proj, "allowed"), filepath.Join(proj, "declined")
	ops, _ := json.Marshal([]hostileagent.Op{
		{Op: "terminal", Command: "touch " + allowed, Wait: true, Release: true},
		{Op: "terminal", Command: "touch " + declined, Wait: true},
	})
	e.send(string(ops))
	for i, ans := range []PermissionAnswer{{Outcome: "selected", OptionID: "run"}, {Outcome: "rejected", OptionID: "reject"}} {
		pa := untilWithin[PermissionAsked](e, time.Minute, nil)
		file := []string{allowed, declined}[i]
		if _, err := os.Stat(file); err == nil {
			t.Fatalf("question %d: the command ran before the user answered", i)
		}
		if pa.Request.Asked != "Run touch "+file || pa.Tool.Kind != "execute" {
			t.Errorf("question %d = %+v, tool %+v", i, pa.Request, pa.Tool)
		}
		// Its item came first, pending.
		var shown bool
		for _, ev := range e.events[:e.cursor] {
			if c, ok := ev.(ItemChanged); ok && c.Item.Kind == message.ItemTool && c.Item.Tool.CallID == pa.Request.ToolCallID && c.Item.Tool.Status == message.ToolPending {
				shown = true
			}
		}
		if !shown {
			t.Errorf("question %d: no pending item %q before it", i, pa.Request.ToolCallID)
		}
		e.s.AnswerPermission(pa.ID, ans)
	}
	if f := untilWithin[ReplyFinished](e, time.Minute, nil); f.Status != message.StatusDone {
		t.Fatalf("reply %s: %v", f.Status, f.Err)
	}
	if _, err := os.Stat(allowed); err != nil {
		t.Error("the allowed command did not run")
	}
	if _, err := os.Stat(declined); err == nil {
		t.Error("the declined command ran")
	}
	var tools []message.Tool
	var perms []message.Permission
	for _, it := range e.messages()[1].Items {
		switch it.Kind {
		case message.ItemTool:
			tools = append(tools, *it.Tool)
			if it.Tool.Permission != nil { // the question is drawn in its call's item
				perms = append(perms, *it.Tool.Permission)
			}
		case message.ItemPermission:
			perms = append(perms, *it.Permission)
		}
	}
	if len(tools) != 2 || len(perms) != 2 {
		t.Fatalf("stored tools %+v, permissions %+v", tools, perms)
	}
	ran := tools[0]
	if st := ran.Content[0].Terminal; ran.Status != message.ToolCompleted || st == nil || st.Command != "touch "+allowed || st.Cwd != proj ||
		!st.Exited || st.ExitCode == nil || *st.ExitCode != 0 {
		t.Errorf("the allowed command's item: %+v (terminal %+v)", ran, ran.Content[0].Terminal)
	}
	if no := tools[1]; no.Status != message.ToolCancelled || len(no.Content) != 1 || no.Content[0].Text != "not run: the user did not allow the command to run" {
		t.Errorf("the declined command's item: %+v", no)
	}
	if perms[0].Chosen != "run" || perms[1].Outcome != "rejected" {
		t.Errorf("permissions = %+v", perms)
	}
}

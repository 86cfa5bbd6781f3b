package mcpserver

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// t3_thread_read reads this project's threads and the threads of other
// projects the user attached as thread chips in a message of this
// project; a thread of another project only named in a reply (an agent
// wrote it) or not named at all stays refused.
func TestThreadReadAttachedThreads(t *testing.T) {
	dir, here, there := t.TempDir(), t.TempDir(), t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	thread := func(project, text string) store.Thread {
		t.Helper()
		p, err := st.Project(store.ProjectKey(project))
		if err != nil {
			t.Fatal(err)
		}
		th, err := st.CreateThread(p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.AddMessage(store.Message{ThreadID: th.ID, Role: message.RoleUser, Text: text}); err != nil {
			t.Fatal(err)
		}
		return th
	}
	chip := func(th store.Thread) *contextref.MessageContext {
		return &contextref.MessageContext{Version: 1, Records: []contextref.Record{&contextref.ThreadRecord{
			Base: contextref.NewBase(contextref.KindThread, "ctx_"+th.ID, "the other thread"), EnvironmentID: "local", ThreadID: th.ID, Title: "the other thread"}}}
	}
	attachedThere := thread(there, "attached by the user")
	namedByAgent := thread(there, "named in a reply only")
	notNamed := thread(there, "never named")
	mine := thread(here, "mine")
	if _, err := st.AddMessage(store.Message{ThreadID: mine.ID, Role: message.RoleUser, Text: "see [the other thread](#ctx)", Context: chip(attachedThere)}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddMessage(store.Message{ThreadID: mine.ID, Role: message.RoleAssistant, Context: chip(namedByAgent),
		Items: []message.Item{{Kind: message.ItemText, Text: "read " + namedByAgent.ID}}}); err != nil {
		t.Fatal(err)
	}
	cs := inProcess(t, Options{DataDir: dir, ProjectKey: store.ProjectKey(here)})
	if page, res := callIn(t, cs, map[string]any{"threadId": attachedThere.ID}); res.IsError || len(page.Messages) != 1 || page.Messages[0].Text != "attached by the user" {
		t.Errorf("the attached thread: %+v %+v", page, res.Content)
	}
	if page, res := callIn(t, cs, map[string]any{"threadId": mine.ID}); res.IsError || len(page.Messages) != 3 {
		t.Errorf("this project's thread: %+v %+v", page, res.Content)
	}
	for _, th := range []store.Thread{namedByAgent, notNamed} {
		_, res := callIn(t, cs, map[string]any{"threadId": th.ID})
		if !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "belongs to another project") {
			t.Errorf("thread %s: %+v", th.ID, res.Content)
		}
	}
}

package mcpserver

import (
	"bytes"
	"fmt"
	"path/filepath"
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
	cs := inProcess(t, Options{DataDir: dir, PanesSocket: appFor(t, st, here)})
	if page, res := callIn(t, cs, map[string]any{"threadId": attachedThere.ID}); res.IsError || len(page.Messages) != 1 || page.Messages[0].Text != "attached by the user" {
		t.Errorf("the attached thread: %+v %+v", page, resultText(res))
	}
	if page, res := callIn(t, cs, map[string]any{"threadId": mine.ID}); res.IsError || len(page.Messages) != 3 {
		t.Errorf("this project's thread: %+v %+v", page, resultText(res))
	}
	for _, th := range []store.Thread{namedByAgent, notNamed} {
		_, res := callIn(t, cs, map[string]any{"threadId": th.ID})
		if !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "belongs to another project") {
			t.Errorf("thread %s: %+v", th.ID, resultText(res))
		}
	}
}

// The running app decides what t3_thread_read reads, not the flags
// chipchat mcp was started with: an agent starting it with --project of
// another project gets that project's threads only when the app running
// here allows them; with no app running, no thread is read.
func TestThreadReadScopeIsTheApps(t *testing.T) {
	dir, here, there := t.TempDir(), t.TempDir(), t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	thread := func(project string) store.Thread {
		t.Helper()
		p, err := st.Project(store.ProjectKey(project))
		if err != nil {
			t.Fatal(err)
		}
		th, err := st.CreateThread(p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.AddMessage(store.Message{ThreadID: th.ID, Role: message.RoleUser, Text: "in " + project}); err != nil {
			t.Fatal(err)
		}
		return th
	}
	mine, theirs := thread(here), thread(there)
	app := appFor(t, st, here)
	text := contentText

	// `chipchat mcp --project THERE` as an agent could start it, with the
	// app of HERE running.
	var out, errb bytes.Buffer
	in := strings.NewReader("")
	if code := Main([]string{"--data-dir", dir, "--project", there}, in, &out, &errb); code != 0 {
		t.Fatalf("--project is still accepted: exit %d, %s", code, errb.String())
	}
	cs := inProcess(t, Options{DataDir: dir, PanesSocket: app})
	if _, res := callIn(t, cs, map[string]any{"threadId": theirs.ID}); !res.IsError || !strings.Contains(text(res), "belongs to another project") {
		t.Errorf("another project's thread read with the app of this one running: %+v", resultText(res))
	}
	if page, res := callIn(t, cs, map[string]any{"threadId": mine.ID}); res.IsError || len(page.Messages) != 1 {
		t.Errorf("this project's thread: %+v %+v", page, resultText(res))
	}

	// The app of THERE allows its own thread, and not HERE's.
	cs = inProcess(t, Options{DataDir: dir, PanesSocket: appFor(t, st, there)})
	if page, res := callIn(t, cs, map[string]any{"threadId": theirs.ID}); res.IsError || len(page.Messages) != 1 || page.Messages[0].Text != "in "+there {
		t.Errorf("the app's own project's thread: %+v %+v", page, resultText(res))
	}
	if _, res := callIn(t, cs, map[string]any{"threadId": mine.ID}); !res.IsError {
		t.Errorf("read a thread the app did not allow: %+v", resultText(res))
	}

	// No app: nothing is read, and the agent is told why.
	for _, socket := range []string{"", filepath.Join(t.TempDir(), "gone.sock")} {
		cs = inProcess(t, Options{DataDir: dir, PanesSocket: socket})
		if _, res := callIn(t, cs, map[string]any{"threadId": mine.ID}); !res.IsError || !strings.Contains(text(res), "the chipchat app is not running") {
			t.Errorf("socket %q: %+v", socket, resultText(res))
		}
	}
	// An app that shares no threads (no store given to its socket).
	var terms Terminals
	bare := listen(t, terms.Read)
	cs = inProcess(t, Options{DataDir: dir, PanesSocket: bare.Path()})
	if _, res := callIn(t, cs, map[string]any{"threadId": mine.ID}); !res.IsError || !strings.Contains(text(res), "does not share its threads") {
		t.Errorf("an app without threads: %+v", resultText(res))
	}
}

// contentText is a tool result's text contents, joined.
func contentText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// resultText is a tool result for a failure's message.
func resultText(res *mcp.CallToolResult) string {
	return fmt.Sprintf("error=%v %q", res.IsError, contentText(res))
}

package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// End to end: the real chipchat binary's `chipchat mcp`, driven over stdio
// by the go-sdk client.

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// chipchatBinary builds the chipchat command once per test run.
func chipchatBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "chipchat-mcp-bin-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "chipchat")
		out, err := exec.Command("go", "build", "-o", binPath, "github.com/chipchat/chipchat").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

type session struct {
	*mcp.ClientSession
	closeOnce sync.Once
	closeErr  error
	stderr    *bytes.Buffer
}

// Close ends the server by closing its stdin and returns its exit error
// (nil: exit code 0). Closing again returns the same.
func (s *session) Close() error {
	s.closeOnce.Do(func() {
		if err := s.ClientSession.Close(); err != nil {
			s.closeErr = fmt.Errorf("%v; stderr: %s", err, s.stderr.String())
		}
	})
	return s.closeErr
}

// mcpSession starts `chipchat mcp` with args and env and connects to it.
func mcpSession(t *testing.T, cwd string, env []string, args ...string) *session {
	t.Helper()
	cmd := exec.Command(chipchatBinary(t), append([]string{"mcp"}, args...)...)
	cmd.Dir = cwd
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v; stderr: %s", err, stderr.String())
	}
	s := &session{ClientSession: cs, stderr: &stderr}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("chipchat mcp exit: %v", err)
		}
	})
	return s
}

// call calls a tool; the result's text and structured content are
// returned, decoded into out when it is not nil.
func call(t *testing.T, cs *session, tool string, args map[string]any, out any) (*mcp.CallToolResult, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v): %v", tool, args, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if out != nil && !res.IsError {
		raw, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s: structured content %s: %v", tool, raw, err)
		}
	}
	return res, text.String()
}

type fixture struct {
	dataDir, project string
	st               *store.Store
	thread, other    store.Thread
	texts            []string // every message's text as t3_thread_read gives it
}

// newFixture fills a store: a thread of 120 messages in project (user
// messages with a reference link, replies as items) and a thread of
// another project. The store stays open for writing.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{dataDir: t.TempDir(), project: t.TempDir()}
	st, err := store.Open(f.dataDir)
	if err != nil {
		t.Fatal(err)
	}
	f.st = st
	t.Cleanup(func() { f.st.Close() })
	p, err := st.Project(store.ProjectKey(f.project))
	if err != nil {
		t.Fatal(err)
	}
	if f.thread, err = st.CreateThread(p.ID); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 120; i++ {
		m := store.Message{ThreadID: f.thread.ID, Role: message.RoleUser,
			Text: fmt.Sprintf("question %d about [main.go](chipchat://ctx/ctx_%d)", i, i)}
		want := m.Text
		if i%2 == 0 {
			m = store.Message{ThreadID: f.thread.ID, Role: message.RoleAssistant, Items: []message.Item{
				{ID: "a", Kind: message.ItemText, Text: fmt.Sprintf("answer %d", i)},
				{ID: "b", Kind: message.ItemThought, Text: "hidden thought"},
				{ID: "c", Kind: message.ItemTool, Tool: &message.Tool{CallID: "1", Title: "Read main.go", Status: message.ToolCompleted}},
				{ID: "d", Kind: message.ItemText, Text: "**done**"},
			}}
			want = fmt.Sprintf("answer %d\n\n**done**", i)
		}
		if _, err := st.AddMessage(m); err != nil {
			t.Fatal(err)
		}
		f.texts = append(f.texts, want)
	}
	q, err := st.Project(store.ProjectKey(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	if f.other, err = st.CreateThread(q.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddMessage(store.Message{ThreadID: f.other.ID, Role: message.RoleUser, Text: "secret of another project"}); err != nil {
		t.Fatal(err)
	}
	return f
}

// readAll pages through a thread, checking each page's bounds.
func readAll(t *testing.T, cs *session, threadID string) (msgs []ThreadMessage, pages int) {
	t.Helper()
	args := map[string]any{"threadId": threadID}
	for {
		var page ThreadPage
		res, text := call(t, cs, ToolThreadRead, args, &page)
		if res.IsError {
			t.Fatalf("page %d: %s", pages+1, text)
		}
		pages++
		if len(page.Messages) == 0 || len(page.Messages) > PageMessages {
			t.Fatalf("page %d has %d messages", pages, len(page.Messages))
		}
		msgs = append(msgs, page.Messages...)
		if page.NextPosition == nil {
			if !strings.Contains(text, `"nextPosition":null`) {
				t.Fatalf("last page: nextPosition is not null in %s", text)
			}
			return msgs, pages
		}
		if *page.NextPosition != page.Messages[len(page.Messages)-1].Position {
			t.Fatalf("nextPosition %d, last position %d", *page.NextPosition, page.Messages[len(page.Messages)-1].Position)
		}
		args["afterPosition"] = *page.NextPosition
	}
}

func TestMCPEndToEnd(t *testing.T) {
	f := newFixture(t)
	// the app's panes socket, as the ui serves it
	var terms Terminals
	terms.Set(fakeTerminals("$ go test ./...\r\nok  \tchipchat\t0.3s\r\n$ ", "vim\r\n"))
	panes := listen(t, terms.Read)
	panes.SetScope(StoreScope(f.st, store.ProjectKey(f.project)))

	sp, err := Spec(f.dataDir, store.ProjectKey(f.project), panes.Path())
	if err != nil {
		t.Fatal(err)
	}
	if sp.Name != "chipchat" || sp.Args[0] != "mcp" || !slices.Contains(sp.Env, PanesSocketEnv+"="+panes.Path()) {
		t.Fatalf("spec %+v", sp)
	}
	// start it as an agent would from the spec (with the built binary in
	// place of the test's own executable), from an unrelated directory
	cs := mcpSession(t, t.TempDir(), sp.Env, sp.Args[1:]...)

	// tools
	ctx := context.Background()
	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range lt.Tools {
		names = append(names, tool.Name)
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint || tool.Description == "" {
			t.Errorf("tool %s: not marked read-only or no description: %+v", tool.Name, tool.Annotations)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{ToolThreadRead, ToolTerminalRead}) {
		t.Fatalf("tools %v", names)
	}
	if init := cs.InitializeResult(); init == nil || init.ServerInfo.Name != "chipchat" {
		t.Fatalf("server info %+v", init)
	}

	// a thread, page by page
	msgs, pages := readAll(t, cs, f.thread.ID)
	if pages != 3 || len(msgs) != 120 {
		t.Fatalf("%d messages in %d pages, want 120 in 3", len(msgs), pages)
	}
	for i, m := range msgs {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		if m.Position != int64(i+1) || m.Role != role || m.Text != f.texts[i] || m.Status != "" {
			t.Fatalf("message %d: %+v, want %s %q", i+1, m, role, f.texts[i])
		}
	}

	// the app writes while the server reads: the next read sees it
	r, err := f.st.AddMessage(store.Message{ThreadID: f.thread.ID, Role: message.RoleAssistant, Status: message.StatusStreaming,
		Items: []message.Item{{ID: "a", Kind: message.ItemText, Text: "still typing"}}})
	if err != nil {
		t.Fatalf("write beside chipchat mcp: %v", err)
	}
	var page ThreadPage
	call(t, cs, ToolThreadRead, map[string]any{"threadId": f.thread.ID, "afterPosition": 120}, &page)
	if len(page.Messages) != 1 || page.Messages[0].Position != 121 || page.Messages[0].Status != "streaming" ||
		page.Messages[0].Text != "still typing" || page.NextPosition != nil {
		t.Fatalf("page after a write: %+v", page)
	}
	if err := f.st.WriteReply(r.ID, []store.ItemWrite{{Pos: 0, Append: ", now done"}}, message.StatusDone); err != nil {
		t.Fatal(err)
	}
	page = ThreadPage{}
	call(t, cs, ToolThreadRead, map[string]any{"threadId": f.thread.ID, "afterPosition": 120}, &page)
	if page.Messages[0].Text != "still typing, now done" || page.Messages[0].Status != "" {
		t.Fatalf("finished reply: %+v", page.Messages[0])
	}
	// past the end: an empty last page
	page = ThreadPage{}
	call(t, cs, ToolThreadRead, map[string]any{"threadId": f.thread.ID, "afterPosition": 500}, &page)
	if len(page.Messages) != 0 || page.NextPosition != nil {
		t.Fatalf("past the end: %+v", page)
	}

	// errors the agent can act on
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"threadId": "thr_nope"}, `no thread "thr_nope"`},
		{map[string]any{"threadId": f.other.ID}, "belongs to another project"},
		{map[string]any{"threadId": f.thread.ID, "afterPosition": -3}, "afterPosition must be 0 or more"},
		{map[string]any{}, "threadId"},
	} {
		res, text := call(t, cs, ToolThreadRead, tc.args, nil)
		if !res.IsError || !strings.Contains(text, tc.want) {
			t.Errorf("t3_thread_read(%v): error %v, %q; want an error with %q", tc.args, res.IsError, text, tc.want)
		}
		if strings.Contains(text, "secret") {
			t.Errorf("another project's text leaked: %q", text)
		}
	}

	// terminals through the app's socket
	var out TerminalReadOutput
	res, text := call(t, cs, ToolTerminalRead, nil, &out)
	if res.IsError || len(out.Terminals) != 2 {
		t.Fatalf("terminal_read: %s", text)
	}
	if got := strings.Join(out.Terminals[0].Lines, "\n"); got != "$ go test ./...\nok      chipchat        0.3s\n$" {
		t.Fatalf("terminal 1: %q", got)
	}
	out = TerminalReadOutput{}
	res, text = call(t, cs, ToolTerminalRead, map[string]any{"terminal": "Terminal 2", "lines": 5}, &out)
	if res.IsError || len(out.Terminals) != 1 || out.Terminals[0].ID != "term-2" || out.Terminals[0].Lines[0] != "vim" {
		t.Fatalf("terminal_read(Terminal 2): %s", text)
	}
	res, text = call(t, cs, ToolTerminalRead, map[string]any{"terminal": "htop"}, nil)
	if !res.IsError || !strings.Contains(text, `no terminal named "htop"`) {
		t.Fatalf("terminal_read(htop): %v %q", res.IsError, text)
	}
	// the app quits: the tool says so
	panes.Close()
	res, text = call(t, cs, ToolTerminalRead, nil, nil)
	if !res.IsError || !strings.Contains(text, "not running") {
		t.Fatalf("after the app quit: %v %q", res.IsError, text)
	}
}

// Without an app (no CHIPCHAT_PANES_SOCKET) terminal_read says so, and so
// does t3_thread_read: the app decides which threads may be read, and no
// flag stands in for it.
func TestMCPNoApp(t *testing.T) {
	f := newFixture(t)
	cs := mcpSession(t, f.project, []string{PanesSocketEnv + "="}, "--data-dir", f.dataDir, "--project", f.project)
	res, text := call(t, cs, ToolTerminalRead, map[string]any{"lines": 10}, nil)
	if !res.IsError || !strings.Contains(text, "the chipchat app is not running") {
		t.Fatalf("no app: %v %q", res.IsError, text)
	}
	res, text = call(t, cs, ToolThreadRead, map[string]any{"threadId": f.thread.ID}, nil)
	if !res.IsError || !strings.Contains(text, "the chipchat app is not running") || strings.Contains(text, "question 1") {
		t.Fatalf("a thread read with no app: %v %q", res.IsError, text)
	}
}

// chipchat mcp never writes the database: its bytes and mtime are the same
// after a session that read every page, and a data directory without a
// database gets none.
func TestMCPLeavesDatabaseUnchanged(t *testing.T) {
	f := newFixture(t)
	if err := f.st.Close(); err != nil { // checkpoints the WAL into the file
		t.Fatal(err)
	}
	path := filepath.Join(f.dataDir, store.FileName)
	stat := func() (int64, time.Time, []byte) {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size(), fi.ModTime(), b
	}
	size0, mtime0, data0 := stat()
	// The app's end decides from a read-only store (the file stays as it
	// is).
	ro, err := store.OpenReadOnly(f.dataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	var terms Terminals
	app := listen(t, terms.Read)
	app.SetScope(StoreScope(ro, store.ProjectKey(f.project)))
	env := []string{PanesSocketEnv + "=" + app.Path()}
	func() {
		cs := mcpSession(t, f.project, env, "--data-dir", f.dataDir)
		readAll(t, cs, f.thread.ID)
		if err := cs.Close(); err != nil {
			t.Fatal(err)
		}
	}()
	size1, mtime1, data1 := stat()
	if size0 != size1 || !mtime0.Equal(mtime1) || !bytes.Equal(data0, data1) {
		t.Fatalf("chipchat mcp changed the database: %d bytes at %v → %d bytes at %v", size0, mtime0, size1, mtime1)
	}

	empty := t.TempDir()
	cs := mcpSession(t, f.project, env, "--data-dir", empty)
	res, text := call(t, cs, ToolThreadRead, map[string]any{"threadId": f.thread.ID}, nil)
	if !res.IsError || !strings.Contains(text, "no chipchat database") {
		t.Fatalf("empty data dir: %v %q", res.IsError, text)
	}
	if _, err := os.Stat(filepath.Join(empty, store.FileName)); err == nil {
		t.Fatal("chipchat mcp created a database")
	}
}

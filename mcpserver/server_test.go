package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// inProcess connects a client to a server in this process.
func inProcess(t *testing.T, opt Options) *mcp.ClientSession {
	t.Helper()
	srv := NewServer(opt)
	t.Cleanup(func() { srv.Close() })
	st, ct := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, st) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
		<-done
	})
	return cs
}

func callIn(t *testing.T, cs *mcp.ClientSession, args map[string]any) (ThreadPage, *mcp.CallToolResult) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: ToolThreadRead, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	var page ThreadPage
	if !res.IsError {
		raw := res.Content[0].(*mcp.TextContent).Text
		if err := json.Unmarshal([]byte(raw), &page); err != nil {
			t.Fatalf("content %q: %v", raw, err)
		}
	}
	return page, res
}

// oneThread is a store in a temporary directory holding a thread of a
// temporary project, the server's options for that project, and a
// function that adds a user message to the thread.
func oneThread(t *testing.T) (Options, store.Thread, func(text string)) {
	t.Helper()
	dir, project := t.TempDir(), t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	p, err := st.Project(store.ProjectKey(project))
	if err != nil {
		t.Fatal(err)
	}
	th, err := st.CreateThread(p.ID)
	if err != nil {
		t.Fatal(err)
	}
	add := func(text string) {
		t.Helper()
		if _, err := st.AddMessage(store.Message{ThreadID: th.ID, Role: message.RoleUser, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	return Options{DataDir: dir, PanesSocket: appFor(t, st, project)}, th, add
}

// appFor is a running app's panes socket for project over st: it decides
// which threads may be read (StoreScope), as the app does.
func appFor(t *testing.T, st *store.Store, project string) string {
	t.Helper()
	var terms Terminals
	s := listen(t, terms.Read)
	s.SetScope(StoreScope(st, store.ProjectKey(project)))
	return s.Path()
}

// Pages stop at PageBytes of text, and a message longer than that comes
// alone, cut and marked, with the pages going on after it.
func TestThreadPageBytes(t *testing.T) {
	opt, th, add := oneThread(t)
	for i := range 40 {
		add(fmt.Sprintf("%d %s", i+1, strings.Repeat("x", 4000)))
	}
	huge := strings.Repeat("€", 30000) // 90,000 bytes
	add(huge)
	add("after")

	cs := inProcess(t, opt)
	var all []ThreadMessage
	var sizes []int
	args := map[string]any{"threadId": th.ID}
	for range 10 {
		page, res := callIn(t, cs, args)
		if res.IsError {
			t.Fatal(res.Content[0].(*mcp.TextContent).Text)
		}
		n := 0
		for _, m := range page.Messages {
			n += len(m.Text)
		}
		if n > PageBytes {
			t.Fatalf("page of %d bytes of text", n)
		}
		sizes = append(sizes, len(page.Messages))
		all = append(all, page.Messages...)
		if page.NextPosition == nil {
			break
		}
		args["afterPosition"] = *page.NextPosition
	}
	// 16 messages of 4 KiB fit in 64 KiB; 40 make pages of 16, 16, 8;
	// then the huge one alone; then the last
	if fmt.Sprint(sizes) != "[16 16 8 1 1]" || len(all) != 42 {
		t.Fatalf("page sizes %v, %d messages", sizes, len(all))
	}
	cut := all[40]
	if !cut.Truncated || cut.Position != 41 || !utf8.ValidString(cut.Text) || !strings.HasPrefix(cut.Text, "€€€") ||
		!strings.Contains(cut.Text, "[cut: this message has 90000 bytes") {
		t.Fatalf("cut message: truncated %v, %d bytes, ends %q", cut.Truncated, len(cut.Text), cut.Text[max(len(cut.Text)-80, 0):])
	}
	if all[41].Text != "after" {
		t.Fatalf("last %+v", all[41])
	}
}

func TestMainCommandLine(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main([]string{"--help"}, strings.NewReader(""), &out, &errb); code != 0 || !strings.Contains(errb.String(), "t3_thread_read") {
		t.Fatalf("--help: %d %q", code, errb.String())
	}
	errb.Reset()
	if code := Main([]string{"--bogus"}, strings.NewReader(""), &out, &errb); code != 2 {
		t.Fatalf("bad flag: %d", code)
	}
	if code := Main([]string{"extra"}, strings.NewReader(""), &out, &errb); code != 2 {
		t.Fatalf("extra argument: %d", code)
	}
	// stdin at its end: the client went away, exit 0 and nothing written
	out.Reset()
	if code := Main([]string{"--data-dir", t.TempDir()}, strings.NewReader(""), &out, &errb); code != 0 || out.Len() != 0 {
		t.Fatalf("empty stdin: %d, %q", code, out.String())
	}
}

func TestSpec(t *testing.T) {
	sp, err := Spec("rel/dir", "/proj", "/run/chipchat/panes-1.sock")
	if err != nil {
		t.Fatal(err)
	}
	if sp.Name != "chipchat" || sp.Command == "" || len(sp.Args) != 5 || sp.Args[0] != "mcp" || sp.Args[1] != "--data-dir" ||
		!strings.HasSuffix(sp.Args[2], "/rel/dir") || sp.Args[3] != "--project" || sp.Args[4] != "/proj" {
		t.Fatalf("spec %+v", sp)
	}
	if len(sp.Env) != 1 || sp.Env[0] != "CHIPCHAT_PANES_SOCKET=/run/chipchat/panes-1.sock" {
		t.Fatalf("env %q", sp.Env)
	}
	if sp, _ := Spec("/d", "", ""); len(sp.Env) != 0 || len(sp.Args) != 3 {
		t.Fatalf("without project and socket: %+v", sp)
	}
}

// BenchmarkThreadPage reads one page from the middle of a long thread
// through the tool's path (MessagesAfter) and, for reference, the way a
// caller of MessagesRaw would (the whole thread, then a slice of it).
func BenchmarkThreadPage(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		dir := benchDir(b)
		st, err := store.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		p, _ := st.Project("/p")
		th, _ := st.CreateThread(p.ID)
		for i := range n {
			m := store.Message{ThreadID: th.ID, Role: message.RoleUser, Text: fmt.Sprintf("question %d %s", i, strings.Repeat("q", 200))}
			if i%2 == 1 {
				m = store.Message{ThreadID: th.ID, Role: message.RoleAssistant, Items: []message.Item{
					{ID: "a", Kind: message.ItemText, Text: strings.Repeat("answer ", 150)},
					{ID: "b", Kind: message.ItemTool, Tool: &message.Tool{CallID: "1", Title: "ls"}},
				}}
			}
			if _, err := st.AddMessage(m); err != nil {
				b.Fatal(err)
			}
		}
		st.Close()
		ro, err := store.OpenReadOnly(dir)
		if err != nil {
			b.Fatal(err)
		}
		app, err := ListenPanes(filepath.Join(b.TempDir(), "panes.sock"), (&Terminals{}).Read)
		if err != nil {
			b.Fatal(err)
		}
		app.SetScope(StoreScope(ro, "/p"))
		tr := &threads{dataDir: dir, socket: app.Path(), open: func(string) (*store.Store, error) { return ro, nil }}
		after := int64(n / 2)
		var page, whole float64
		b.Run(fmt.Sprintf("page/%d", n), func(b *testing.B) {
			for b.Loop() {
				pg, err := tr.read(context.Background(), ThreadReadInput{ThreadID: th.ID, AfterPosition: &after})
				if err != nil || len(pg.Messages) != PageMessages {
					b.Fatal(err, len(pg.Messages))
				}
			}
			page = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
		})
		b.Run(fmt.Sprintf("messagesraw/%d", n), func(b *testing.B) {
			for b.Loop() {
				msgs, err := ro.MessagesRaw(th.ID)
				if err != nil || len(msgs) != n {
					b.Fatal(err)
				}
				_ = msgs[after : after+PageMessages]
			}
			whole = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
		})
		if page > 0 {
			b.Logf("%d messages: a page costs %.2f ms, the whole thread %.2f ms (%.0fx)", n, page/1e6, whole/1e6, whole/page)
		}
		app.Close()
		ro.Close()
	}
}

// benchDir is a directory on tmpfs when there is one: filling a long
// thread syncs every user message to disk.
func benchDir(b *testing.B) string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		d, err := os.MkdirTemp("/dev/shm", "chipchat-bench-")
		if err == nil {
			b.Cleanup(func() { os.RemoveAll(d) })
			return d
		}
	}
	return b.TempDir()
}

// The text content a model reads holds <, > and & as they are in the
// thread, not as \u003c, \u003e, \u0026; it still decodes to the same page.
func TestThreadReadKeepsAngleBrackets(t *testing.T) {
	opt, th, add := oneThread(t)
	const text = "see <project_context> & </project_context> > done"
	add(text)
	cs := inProcess(t, opt)
	page, res := callIn(t, cs, map[string]any{"threadId": th.ID})
	if res.IsError {
		t.Fatal(res.Content[0].(*mcp.TextContent).Text)
	}
	raw := res.Content[0].(*mcp.TextContent).Text
	if !strings.Contains(raw, text) || strings.Contains(raw, `\u003c`) || strings.Contains(raw, `\u0026`) {
		t.Fatalf("content escapes the text: %s", raw)
	}
	if len(page.Messages) != 1 || page.Messages[0].Text != text {
		t.Fatalf("page: %+v", page.Messages)
	}
}

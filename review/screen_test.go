package review

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"

	"github.com/chipchat/chipchat/internal/vtscreen"
)

// host runs a pane as a whole program, as the app will: it sizes the pane,
// hands it its own messages and keys, and takes CommentMsg and ClosedMsg.
type host struct {
	m        *Model
	comments chan CommentMsg
	closed   chan struct{}
}

func (h *host) Init() tea.Cmd { return h.m.Init() }

func (h *host) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		h.m.SetSize(msg.Width, msg.Height)
		return h, nil
	case CommentMsg:
		h.comments <- msg
		return h, nil
	case ClosedMsg:
		close(h.closed)
		return h, nil
	}
	var cmd tea.Cmd
	h.m, cmd = h.m.Update(msg)
	return h, cmd
}

func (h *host) View() tea.View { return tea.NewView(h.m.View()) }

const screenDiff = `diff --git a/cmd/server/main.go b/cmd/server/main.go
index 1111111..2222222 100644
--- a/cmd/server/main.go
+++ b/cmd/server/main.go
@@ -8,8 +8,9 @@ import (
 
 func main() {
 	addr := flag.String("addr", ":8080", "listen address")
+	debug := flag.Bool("debug", false, "log requests")
 	flag.Parse()
-	log.Fatal(http.ListenAndServe(*addr, nil))
+	log.Fatal(http.ListenAndServe(*addr, handler(*debug)))
 }
 
 // handler returns the server's handler.
diff --git a/README.md b/README.md
index 3333333..4444444 100644
--- a/README.md
+++ b/README.md
@@ -1,3 +1,3 @@
 # Server
 
-Run it with ` + "`go run .`" + `
+Run it with ` + "`go run ./cmd/server`" + `
diff --git a/logo.png b/logo.png
new file mode 100644
index 0000000..5555555
Binary files /dev/null and b/logo.png differ
`

func screenPane(t *testing.T) (*host, *Model) {
	t.Helper()
	files, err := ParseUnified([]byte(screenDiff))
	if err != nil {
		t.Fatal(err)
	}
	m := NewFromDiff(Options{NoPullRequest: true, NewID: func() string { return "ctx_screen" }},
		&Diff{Comparison: Comparison{Kind: WorkingTree}, Files: files})
	return &host{m: m, comments: make(chan CommentMsg, 4), closed: make(chan struct{})}, m
}

// waitColoured waits until the first cell of each sub has a colour: the
// syntax colour the background lexer brought (until then the pane draws
// a file plain).
func waitColoured(s *vtscreen.Screen, subs ...string) {
	s.WaitFor(func(text string) bool {
		attrs := strings.Split(s.Attrs(), "\n")
		lines := strings.Split(text, "\n")
	subs:
		for _, sub := range subs {
			for y, l := range lines {
				i := strings.Index(l, sub)
				if i < 0 || y >= len(attrs) {
					continue
				}
				x := len([]rune(l[:i]))
				if a := []rune(attrs[y]); x < len(a) && a[x] != ' ' {
					continue subs
				}
				return false
			}
			return false
		}
		return true
	})
}

// reversedText is the text of the reversed cells on row y.
func reversedRow(s *vtscreen.Screen, y int) string {
	var b strings.Builder
	for x := 0; x < s.W; x++ {
		c := s.CellAt(x, y)
		if c != nil && c.Width > 0 && c.Style.Attrs&uv.AttrReverse != 0 {
			b.WriteString(c.Content)
		}
	}
	return b.String()
}

func rowOf(text, sub string) int {
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, sub) {
			return i
		}
	}
	return -1
}

func TestScreen120(t *testing.T) {
	h, _ := screenPane(t)
	s := vtscreen.New(t, h, 120, 24)
	text := s.WaitForText("binary file")
	for _, want := range []string{"Review  Working tree vs HEAD · 3 files +3 -2", " M cmd/server/main.go", " A logo.png", "@@ -8,8 +8,9 @@ import (",
		`-     log.Fatal(http.ListenAndServe(*addr, nil))`, "binary file, not shown"} {
		if !strings.Contains(text, want) {
			t.Fatalf("screen lacks %q:\n%s", want, text)
		}
	}
	// The file list sits left of a rule; the cursor's line number is reversed.
	first := strings.Split(text, "\n")[1]
	if !strings.Contains(first, "│") || strings.Index(first, "│") < 20 {
		t.Fatalf("no file list:\n%s", text)
	}
	y := rowOf(text, "@@ -8,8 +8,9 @@") + 1
	if got := strings.Fields(reversedRow(s, y)); len(got) != 2 || got[0] != "8" || got[1] != "8" {
		t.Fatalf("the cursor is not on line 8: %q", reversedRow(s, y))
	}
	waitColoured(s, "// handler returns", "# Server")
	s.Golden("pane-120")

	// ] goes to the next hunk (README), v j selects two lines, c opens the
	// editor, enter makes the record.
	s.Send(vtscreen.Key("]"))
	s.Send(vtscreen.Key("j"))
	s.Send(vtscreen.Key("j"))
	s.Send(vtscreen.Key("v"))
	s.Send(vtscreen.Key("j"))
	text = s.WaitForText("2 lines selected")
	if !strings.Contains(text, "▌  3     - Run it with") || !strings.Contains(text, "▌      3 + Run it with") {
		t.Fatalf("selection marks:\n%s", text)
	}
	s.Send(vtscreen.Key("c"))
	s.WaitForText("Comment on README.md L3")
	s.Type("Name the command")
	s.Send(vtscreen.Key("ctrl+j"))
	s.Type("in full")
	s.WaitForText("in full")
	s.Golden("pane-120-editor")
	s.Send(vtscreen.Key("enter"))
	select {
	case c := <-h.comments:
		if c.Record.RangeLabel != "L3" || c.Record.FilePath != "README.md" || c.Record.Text != "Name the command\nin full" {
			t.Fatalf("%+v", c.Record)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no comment")
	}
	text = s.WaitForText("Comment added: README.md L3")
	if !strings.Contains(text, "●  3     - Run it with") {
		t.Fatalf("no comment mark:\n%s", text)
	}
	// esc closes the pane.
	s.Send(vtscreen.Key("esc"))
	select {
	case <-h.closed:
	case <-time.After(5 * time.Second):
		t.Fatal("esc did not close the pane")
	}
}

func TestScreen80(t *testing.T) {
	h, _ := screenPane(t)
	s := vtscreen.New(t, h, 80, 16)
	text := s.WaitForText("func main()")
	for _, l := range strings.Split(text, "\n") {
		if len([]rune(l)) > 80 {
			t.Fatalf("line wider than the screen: %q", l)
		}
	}
	if !strings.Contains(text, " M cmd/server/main.go") {
		t.Fatalf("screen:\n%s", text)
	}
	// A line too long for the pane ends with "…".
	if !strings.Contains(text, "…") {
		t.Fatalf("no truncation:\n%s", text)
	}
	waitColoured(s, "// handler returns")
	s.Golden("pane-80")
	// } goes to the next file, whose header comes to the top.
	s.Send(vtscreen.Key("}"))
	s.WaitFor(func(text string) bool {
		y := rowOf(text, "# Server")
		return y > 0 && strings.Join(strings.Fields(reversedRow(s, y)), " ") == "1 1"
	})
	// esc with a selection clears it; the pane stays.
	s.Send(vtscreen.Key("v"))
	s.WaitForText("1 lines selected")
	s.Send(vtscreen.Key("esc"))
	s.WaitFor(func(text string) bool { return !strings.Contains(text, "selected") })
	select {
	case <-h.closed:
		t.Fatal("esc closed the pane instead of clearing the selection")
	default:
	}
	// c then esc drops the comment and leaves nothing behind.
	s.Send(vtscreen.Key("c"))
	s.WaitForText("Comment on README.md")
	s.Type("never mind")
	s.Send(vtscreen.Key("esc"))
	text = s.WaitFor(func(text string) bool { return !strings.Contains(text, "Comment on") })
	if strings.Contains(text, "never mind") || len(h.comments) != 0 {
		t.Fatalf("the dropped comment stayed:\n%s", text)
	}
}

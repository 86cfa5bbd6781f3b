package transcript

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/message"
)

var t0 = time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)

// allItems is a reply with one item of every kind (and one of an unknown
// kind).
func allItems() []message.Item {
	old := "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n"
	return []message.Item{
		{ID: "i0", Kind: message.ItemThought, Text: "Let me look at the handler first.\nThen the tests, which time out."},
		{ID: "i1", Kind: message.ItemText, Text: "## Plan\n\nI will **fix** the handler.\n\n| file | change |\n|---|---|\n| main.go | greeting |\n"},
		{ID: "i2", Kind: message.ItemTool, Tool: &message.Tool{CallID: "c1", Kind: "execute", Title: "go test ./...", Status: message.ToolCompleted,
			RawInput: []byte(`{"command":"go test ./..."}`),
			Content:  []message.ToolContent{{Type: "text", Text: "ok a\nok b\nok c\nFAIL d\nok e\nok f\nok g"}}, Started: t0, Ended: t0.Add(1500 * time.Millisecond)}},
		{ID: "i3", Kind: message.ItemTool, Tool: &message.Tool{CallID: "c2", Kind: "edit", Title: "Edit main.go", Status: message.ToolInProgress,
			Content: []message.ToolContent{{Type: "diff", Path: "main.go", OldText: &old, NewText: strings.Replace(old, `"hi"`, `"hello, world"`, 1)}}}},
		{ID: "i4", Kind: message.ItemPermission, Permission: &message.Permission{ToolCallID: "c2", Asked: "Edit main.go",
			Options: []message.PermissionOption{{ID: "a", Name: "Allow once", Kind: message.AllowOnce}, {ID: "r", Name: "Reject", Kind: message.RejectOnce}},
			Chosen:  "a", Outcome: "selected"}},
		{ID: "i5", Kind: message.ItemPlan, Plan: []message.PlanEntry{{Content: "read the handler", Status: "completed"},
			{Content: "fix the greeting", Status: "in_progress", Priority: "high"}, {Content: "run the tests"}}},
		{ID: "i6", Kind: message.ItemNotice, Level: "error", Text: "the agent exited with status 2", StderrTail: "panic: nil map\ngoroutine 1 [running]:"},
		{ID: "i7", Kind: "hologram", Text: "from a newer chipchat"},
	}
}

func itemThread() []Message {
	return []Message{
		userMsg("u", "fix [main.go](t3-context://v1/file/f1)", fileRec("f1", "main.go")),
		{ID: "r", Role: message.RoleAssistant, Status: message.StatusDone, Items: allItems()},
	}
}

// Every item kind (message.Specs) has its definition here: a renderer on
// each surface that draws the kind's sample, a pager title and a pager
// text. A kind without one of them fails.
func TestEveryKindHasEverySurface(t *testing.T) {
	r := DefaultItems()
	c := ItemContext{Width: 60, NoColor: true, Looks: newItemLooks(true)}
	for _, spec := range message.Specs {
		k := spec.Kind
		d, ok := itemKinds[k]
		if !ok {
			t.Errorf("item kind %q has no registration (registerKind in an item_*.go file)", k)
			continue
		}
		it := spec.Sample()
		for _, s := range chips.Surfaces {
			if !r.Has(k, s) || d.render(s) == nil {
				t.Errorf("item kind %q has no %s renderer", k, s)
				continue
			}
			if out, why := callItem(d.render(s), it, c); why != "" || strings.TrimSpace(ansi.Strip(strings.Join(out, ""))) == "" {
				t.Errorf("item kind %q on %s draws its sample as %q (%s)", k, s, out, why)
			}
		}
		if d.Title == nil || strings.TrimSpace(itemTitle(it)) == "" {
			t.Errorf("item kind %q has no pager title", k)
		}
		text := pagerText(it)
		if strings.TrimSpace(text) == "" || strings.Contains(text, "renderer") {
			t.Errorf("item kind %q has no pager text: %q", k, text)
		}
	}
	// An unknown kind still has a title and a text: its fallback.
	odd := message.Item{Kind: "hologram", Text: "from a newer chipchat"}
	if itemTitle(odd) != "hologram" || !strings.Contains(pagerText(odd), "no details renderer") {
		t.Errorf("unknown kind: %q %q", itemTitle(odd), pagerText(odd))
	}
	if len(itemKinds) != len(message.Kinds) {
		t.Errorf("%d kinds registered, message has %d", len(itemKinds), len(message.Kinds))
	}
}

func TestItemRegistry(t *testing.T) {
	r := NewItemRegistry()
	fn := func(it message.Item, c ItemContext) []string { return []string{"x"} }
	if err := r.Register(message.ItemText, chips.Compact, fn); err != nil {
		t.Fatal(err)
	}
	if err := r.Register(message.ItemText, chips.Compact, fn); err == nil {
		t.Fatal("a second renderer for a kind and surface was accepted")
	}
	for _, bad := range []error{r.Register("", chips.Compact, fn), r.Register("x", chips.Surface(9), fn), r.Register("x", chips.Compact, nil)} {
		if bad == nil {
			t.Fatal("an invalid registration was accepted")
		}
	}
	c := ItemContext{Width: 30, NoColor: true}
	// Unknown kind, panicking and empty renderers: a visible fallback.
	if out := r.Render(chips.Compact, message.Item{Kind: "nope", Text: "body"}, c); len(out) == 0 || !strings.Contains(ansi.Strip(out[0]), "nope") {
		t.Fatalf("unknown kind: %q", out)
	}
	_ = r.Register("boom", chips.Compact, func(message.Item, ItemContext) []string { panic("x") })
	_ = r.Register("empty", chips.Compact, func(message.Item, ItemContext) []string { return nil })
	for _, k := range []message.ItemKind{"boom", "empty"} {
		if out := r.Render(chips.Compact, message.Item{Kind: k}, c); len(out) == 0 || !strings.Contains(ansi.Strip(out[0]), string(k)) {
			t.Fatalf("%s: %q", k, out)
		}
	}
	// Rows are cut to the width.
	_ = r.Register("wide", chips.Compact, func(message.Item, ItemContext) []string { return []string{strings.Repeat("漢", 40)} })
	if out := r.Render(chips.Compact, message.Item{Kind: "wide"}, c); ansi.StringWidth(out[0]) > 30 {
		t.Fatalf("row of %d columns", ansi.StringWidth(out[0]))
	}
}

func TestItemsRender(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		m := newTest(w, 200)
		m.SetMessages(itemThread())
		v := checkFrame(t, m)
		p := ansi.Strip(v)
		for _, want := range []string{"✻ Thought", "Plan", "main.go", "go test ./...", "✓ done", "1.5s", "+2 lines", "✎ Edit main.go",
			"@@ -5,3 +5,3 @@", `6 +     fmt.Println("hello, world")`, "? Edit main.go → Allow once", "☰ Plan · 1/3 done", "☑ read the handler", "◐ fix the greeting",
			"✗ the agent exited", "│ panic: nil map", "hologram"} {
			if !strings.Contains(p, want) {
				t.Errorf("width %d: %q missing:\n%s", w, want, dump(m))
			}
		}
		if strings.Contains(p, "## Plan") {
			t.Errorf("width %d: literal heading marker:\n%s", w, p)
		}
		if strings.Contains(p, "Then the tests") {
			t.Errorf("width %d: the thought is not collapsed", w)
		}
	}
}

// focusItem focuses item k of the last reply.
func focusItem(t *testing.T, m *Model, k int) {
	t.Helper()
	m.Focus()
	press(m, "G")
	for i := 0; i < 40; i++ {
		if _, it := m.SelectedItem(); it == k {
			return
		}
		press(m, "up")
	}
	t.Fatalf("item %d never focused", k)
}

func TestItemKeys(t *testing.T) {
	m := newTest(80, 60)
	m.SetMessages(itemThread())
	m.Focus()
	if s, it := m.SelectedItem(); s != 1 || it != 7 {
		t.Fatalf("initial focus %d/%d", s, it)
	}
	// up/down and j/k move by item.
	press(m, "up", "k")
	if _, it := m.SelectedItem(); it != 5 {
		t.Fatalf("up,k: item %d", it)
	}
	press(m, "j")
	if _, it := m.SelectedItem(); it != 6 {
		t.Fatalf("j: item %d", it)
	}
	// space expands a tool's content in place, and collapses it again.
	focusItem(t, m, 2)
	collapsed := strings.Count(plain(m), "+2 lines")
	press(m, "space")
	if v := plain(m); !strings.Contains(v, "ok g") || strings.Count(v, "+2 lines") != collapsed-1 {
		t.Fatalf("expanded tool:\n%s", dump(m))
	}
	press(m, "space")
	if v := plain(m); strings.Contains(v, "ok g") || strings.Count(v, "+2 lines") != collapsed {
		t.Fatalf("collapsed tool:\n%s", dump(m))
	}
	// enter opens its details; o from there asks for the pager.
	press(m, "enter")
	if v := plain(m); !m.PopoverOpen() || !strings.Contains(v, "call: c1") || !strings.Contains(v, "ok g") {
		t.Fatalf("details:\n%s", dump(m))
	}
	out := press(m, "o")
	if len(out) != 1 {
		t.Fatalf("o in details: %v", out)
	}
	pm := out[0].(PagerMsg)
	if !strings.Contains(pm.Text, "$ go test ./...") || !strings.Contains(pm.Text, "ok g") || pm.Title != "Tool: go test ./..." {
		t.Fatalf("pager: %+v", pm)
	}
	press(m, "esc")
	// The thought expands to its text.
	focusItem(t, m, 0)
	press(m, "space")
	if v := plain(m); !strings.Contains(v, "Then the tests") {
		t.Fatalf("expanded thought:\n%s", dump(m))
	}
	// o on the text item: its whole Markdown.
	focusItem(t, m, 1)
	out = press(m, "o")
	if len(out) != 1 || out[0].(PagerMsg).Text != allItems()[1].Text {
		t.Fatalf("o on text: %v", out)
	}
	// o on a diff: a unified diff.
	focusItem(t, m, 3)
	out = press(m, "o")
	if len(out) != 1 || !strings.Contains(out[0].(PagerMsg).Text, `+	fmt.Println("hello, world")`) {
		t.Fatalf("o on a diff: %v", out)
	}
}

// TestSetItem: appending and replacing items; a tool update replaces its
// line, a plan is updated in place, only the changed item renders again.
func TestSetItem(t *testing.T) {
	m := newTest(80, 30)
	m.SetMessages([]Message{userMsg("u", "go"), {ID: "r", Role: message.RoleAssistant, Status: message.StatusStreaming}})
	m.View()
	m.SetItem("r", 0, message.Item{Kind: message.ItemText, Text: "Looking."})
	tool := &message.Tool{CallID: "c", Kind: "read", Title: "Read a.go", Status: message.ToolPending}
	m.SetItem("r", 1, message.Item{Kind: message.ItemTool, Tool: tool})
	m.SetItem("r", 5, message.Item{Kind: message.ItemText, Text: "ignored"}) // past the end
	m.SetItem("nope", 0, message.Item{Kind: message.ItemText, Text: "ignored"})
	if v := plain(m); !strings.Contains(v, "Looking.") || !strings.Contains(v, "○ pending") || strings.Contains(v, "ignored") {
		t.Fatalf("appended:\n%s", dump(m))
	}
	before := m.renders
	done := *tool
	done.Status, done.Started, done.Ended = message.ToolCompleted, t0, t0.Add(2*time.Second)
	m.SetItem("r", 1, message.Item{Kind: message.ItemTool, Tool: &done})
	v := plain(m)
	if strings.Contains(v, "pending") || !strings.Contains(v, "✓ done 2.0s") || strings.Count(v, "Read a.go") != 1 {
		t.Fatalf("replaced:\n%s", dump(m))
	}
	if m.renders != before+1 {
		t.Fatalf("a tool update rendered %d parts", m.renders-before)
	}
	plan := []message.PlanEntry{{Content: "one"}, {Content: "two"}}
	m.SetItem("r", 2, message.Item{Kind: message.ItemPlan, Plan: plan})
	plan2 := []message.PlanEntry{{Content: "one", Status: "completed"}, {Content: "two", Status: "in_progress"}}
	m.SetItem("r", 2, message.Item{Kind: message.ItemPlan, Plan: plan2})
	if v := plain(m); strings.Count(v, "Plan ·") != 1 || !strings.Contains(v, "1/2 done") {
		t.Fatalf("plan in place:\n%s", dump(m))
	}
	m.SetStatus("r", message.StatusDone)
	if v := plain(m); strings.Contains(v, "streaming") {
		t.Fatalf("status:\n%s", v)
	}
}

// TestStreamRendersOpenBlockOnly: a growing text item renders its open
// block per frame; completed blocks once.
func TestStreamRendersOpenBlockOnly(t *testing.T) {
	m := newTest(80, 30)
	m.SetMessages([]Message{{ID: "r", Role: message.RoleAssistant, Status: message.StatusStreaming}})
	m.View()
	text := benchReply(40 << 10)
	last := m.renders
	for n := 100; n <= len(text); n += 100 {
		m.SetItem("r", 0, message.Item{Kind: message.ItemText, Text: text[:n]})
		m.View()
		// The open block, plus the blocks completed by these 100 bytes.
		if d := m.renders - last; d > 8 {
			t.Fatalf("at %d bytes a frame rendered %d parts", n, d)
		}
		last = m.renders
	}
	m.SetItem("r", 0, message.Item{Kind: message.ItemText, Text: text})
	// The view is the whole text's, rendered at once.
	w := newTest(80, 30)
	w.SetMessages([]Message{{ID: "r", Role: message.RoleAssistant, Items: []message.Item{{Kind: message.ItemText, Text: text}}}})
	m.SetStatus("r", message.StatusDone)
	if a, b := plain(m), plain(w); a != b {
		t.Fatalf("streamed view differs from the whole one\n--- streamed ---\n%s\n--- whole ---\n%s", a, b)
	}
}

func TestPlainTextReply(t *testing.T) {
	m := newTest(60, 20)
	plainText := "chunk 1\nchunk 2\n    indented line that is long enough to wrap past sixty columns of the screen\nchunk 3"
	m.SetMessages([]Message{
		{ID: "p", Role: message.RoleAssistant, PlainText: true, Items: []message.Item{{Kind: message.ItemText, Text: plainText}}},
	})
	v := plain(m)
	for _, want := range []string{"chunk 1\n", "chunk 2\n", "\n      indented line", "chunk 3"} {
		if !strings.Contains(v, want) {
			t.Fatalf("plain text lost its lines (%q):\n%s", want, dump(m))
		}
	}
	// Wrapped with its indentation kept.
	lines := strings.Split(v, "\n")
	for i, l := range lines {
		if strings.Contains(l, "indented line") && i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "      ") {
			t.Fatalf("continuation lost the indent:\n%s", dump(m))
		}
	}
	// The same reply without the hint is Markdown: lines merge.
	m.SetMessages([]Message{{ID: "p", Role: message.RoleAssistant, Items: []message.Item{{Kind: message.ItemText, Text: "chunk 1\nchunk 2"}}}})
	if v := plain(m); !strings.Contains(v, "chunk 1 chunk 2") {
		t.Fatalf("markdown:\n%s", v)
	}
	// A hinted reply that looks like Markdown is Markdown.
	md := "# Title\n\n- one\n- two\n\n" + strings.Repeat("word ", 1000)
	m.SetMessages([]Message{{ID: "p", Role: message.RoleAssistant, PlainText: true, Items: []message.Item{{Kind: message.ItemText, Text: md}}}})
	if v := plain(m); strings.Contains(v, "# Title") {
		t.Fatalf("markdown-looking plain reply:\n%s", v)
	}
}

func TestMarkdownQuality(t *testing.T) {
	m := newTest(100, 40)
	src := "## Second\n\n### Third\n\n| a | b |\n|---|---|\n| 1 | 22 |\n\n```go\nx := 1\n```\n\n- a list item that is long enough to wrap at this width, with several words after it, really long indeed yes"
	m.SetMessages([]Message{agentMsg("a", src)})
	v := plain(m)
	if strings.Contains(v, "##") {
		t.Fatalf("literal heading markers:\n%s", v)
	}
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, "───") && ansi.StringWidth(strings.TrimSpace(l)) > 20 {
			t.Fatalf("table stretched: %q", l)
		}
	}
	if !strings.Contains(v, "x := 1") || !strings.Contains(v, "Third") {
		t.Fatalf("render:\n%s", v)
	}
	// Fenced code is highlighted in colour.
	c := New(nil)
	c.SetSize(100, 40)
	c.SetMessages([]Message{agentMsg("a", "```go\nfunc x() {}\n```")})
	if cv := c.View(); strings.Count(cv, "\x1b[38;2;") < 3 {
		t.Fatalf("code not highlighted: %q", cv)
	}
}

// TestHugeReplyHeadAndTail: beyond reply_bytes a text item shows its head
// and its tail around the elision line; o opens the whole text.
func TestHugeReplyHeadAndTail(t *testing.T) {
	m := New(chips.Default(chips.NoColorTheme()), WithNoColor(), WithReplyBytes(64<<10))
	m.SetSize(80, 20)
	text := benchReply(1 << 20)
	m.SetMessages([]Message{userMsg("u", "go"), {ID: "r", Role: message.RoleAssistant, Status: message.StatusStreaming}})
	for n := 8 << 10; n <= len(text); n += 8 << 10 {
		m.SetItem("r", 0, message.Item{Kind: message.ItemText, Text: text[:n]})
		m.View()
	}
	tail := text[len(text)-200:]
	last := strings.TrimSpace(tail[strings.LastIndexByte(strings.TrimRight(tail, "\n"), '\n')+1:])
	if v := plain(m); !strings.Contains(strings.Join(strings.Fields(v), " "), strings.Join(strings.Fields(strings.Trim(last, "|-`# ")), " ")) && last != "" {
		t.Logf("tail line %q", last)
	}
	m.Focus()
	press(m, "g")
	found := false
	for i := 0; i < 2000 && !found; i++ {
		v := plain(m)
		if strings.Contains(v, "not shown — o opens the whole reply in $PAGER") {
			found = true
			if !strings.Contains(v, "KB not shown") {
				t.Fatalf("elision line:\n%s", v)
			}
		}
		m.scrollBy(15)
	}
	if !found {
		t.Fatal("no elision line")
	}
	tv := m.textOf(1, 0)
	if len(tv.blocks) == 0 || len(tv.tail) == 0 || tv.hidden() < 800<<10 {
		t.Fatalf("head %d tail %d hidden %d", len(tv.blocks), len(tv.tail), tv.hidden())
	}
	press(m, "G")
	out := press(m, "o")
	if len(out) != 1 || len(out[0].(PagerMsg).Text) != len(text) {
		t.Fatalf("o: %d messages", len(out))
	}
}

// TestHugeReplyMemory streams 50 MB: the transcript keeps what it shows
// and the blocks' bounds, never a copy of the text.
func TestHugeReplyMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("50 MB")
	}
	line := "a line of plain output from an agent that writes a lot, with numbers 0123456789\n"
	text := strings.Repeat(line, (50<<20)/len(line))
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	m := New(nil)
	m.SetSize(120, 40)
	m.SetMessages([]Message{{ID: "r", Role: message.RoleAssistant, Status: message.StatusStreaming, PlainText: true}})
	start := time.Now()
	for n := 64 << 10; n <= len(text); n += 64 << 10 {
		m.SetItem("r", 0, message.Item{Kind: message.ItemText, Text: text[:n]})
		m.View()
	}
	m.SetStatus("r", message.StatusDone)
	m.View()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	kept := int64(ms.HeapAlloc) - int64(base)
	t.Logf("50 MB streamed in 64 KB chunks: %v, heap kept %.1f MB", time.Since(start), float64(kept)/(1<<20))
	if kept > 64<<20 {
		t.Fatalf("the transcript keeps %.1f MB for a 50 MB reply", float64(kept)/(1<<20))
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "0123456789") {
		t.Fatalf("view:\n%s", v)
	}
	runtime.KeepAlive(text)
}

func TestToolContentRenderer(t *testing.T) {
	old := "a\nb\nc\n"
	tool := message.Tool{Kind: "edit", Title: "edit", Content: []message.ToolContent{
		{Type: "text", Text: "\x1b[31mred\x1b[0m text"},
		{Type: "diff", Path: "x.go", OldText: &old, NewText: "a\nB\nc\n"},
		{Type: "diff", Path: "new.go", NewText: "package x\n"},
		{Type: "terminal", TerminalID: "t1"},
	}}
	for _, w := range []int{20, 60} {
		out := RenderToolContent(tool, w)
		joined := ansi.Strip(strings.Join(out, "\n"))
		for _, want := range []string{"red text", "x.go", "2 - b", "2 + B", "new.go (new file)", "1 + package x", "terminal t1"} {
			if !strings.Contains(joined, want) {
				t.Errorf("width %d: %q missing:\n%s", w, want, joined)
			}
		}
		if strings.Contains(strings.Join(out, ""), "\x1b[31m") {
			t.Error("control sequence from the content reached the output")
		}
		for _, l := range out {
			if ansi.StringWidth(l) > w {
				t.Errorf("width %d: row of %d: %q", w, ansi.StringWidth(l), ansi.Strip(l))
			}
		}
	}
	out := RenderToolContent(tool, 60, ContentMaxLines(3), ContentNoColor())
	if len(out) != 4 || !strings.HasPrefix(ansi.Strip(out[3]), "+") {
		t.Fatalf("collapsed: %q", out)
	}
	if strings.Contains(strings.Join(out, ""), "\x1b[48") {
		t.Fatal("background without colour")
	}
	// Syntax colour on a known language.
	col := strings.Join(RenderToolContent(tool, 60), "\n")
	if !strings.Contains(col, "\x1b[38;2;") {
		t.Fatal("no syntax colour in the diff")
	}
}

func TestNoticeLevels(t *testing.T) {
	r := DefaultItems()
	c := ItemContext{Width: 40}
	e := r.Render(chips.Compact, message.Item{Kind: message.ItemNotice, Level: "error", Text: "boom", StderrTail: strings.Repeat("line\n", 20)}, c)
	if !strings.Contains(e[0], "\x1b[38;5;203m") || !strings.Contains(ansi.Strip(strings.Join(e, "\n")), "+12 lines of stderr above") {
		t.Fatalf("error notice: %q", e)
	}
	i := r.Render(chips.Compact, message.Item{Kind: message.ItemNotice, Text: "compacted"}, c)
	if strings.Contains(i[0], "203m") || !strings.Contains(ansi.Strip(i[0]), "ℹ compacted") {
		t.Fatalf("info notice: %q", i)
	}
	_ = fmt.Sprint()
}

// TestRenderedBlocksBounded: scrolling through a reply whose rendered
// blocks hold more than the ring's budget keeps at most that much of
// their lines (the budget is made small here).
func TestRenderedBlocksBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a big reply")
	}
	const limit = 64 << 10
	var b strings.Builder
	for i := 0; b.Len() < 8*limit/10; i++ {
		fmt.Fprintf(&b, "p%d\n\n", i)
	}
	m := newTest(40, 50)
	m.SetMessages([]Message{{ID: "r", Role: message.RoleAssistant, Items: []message.Item{{Kind: message.ItemText, Text: b.String()}}}})
	m.ring.limit = limit
	m.View()
	m.Focus()
	press(m, "g")
	for i := 0; i < 100000 && !m.AtBottom(); i++ {
		m.scrollBy(40)
		m.View()
	}
	tv := m.textOf(0, 0)
	kept, bytes := 0, 0
	for _, p := range tv.parts {
		if p.ok {
			kept++
			bytes += linesBytes(p.lines)
		}
	}
	if kept == len(tv.parts) || bytes > limit+4096 {
		t.Fatalf("%d blocks, %d keep their lines (%d bytes, the budget %d)", tv.count(), kept, bytes, limit)
	}
	if v := plain(m); !strings.Contains(v, fmt.Sprintf("p%d", tv.count()-1)) {
		t.Fatalf("not at the end:\n%s", v)
	}
}

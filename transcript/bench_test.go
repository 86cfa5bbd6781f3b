package transcript

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
)

// benchThread is a realistic thread of n messages: user prose with chips
// (files, terminal excerpts, skills, an unresolved one) and agent Markdown
// with paragraphs, lists and fenced code blocks.
func benchThread(n int) []Message {
	msgs := make([]Message, n)
	for i := range msgs {
		id := fmt.Sprint("m", i)
		if i%2 == 0 {
			f := fileRec(fmt.Sprint("f", i), fmt.Sprintf("pkg/mod%d/file%d.go", i%17, i))
			term := &contextref.TerminalRecord{Base: contextref.NewBase(contextref.KindTerminal, fmt.Sprint("t", i), "Terminal 1 lines 10-12"),
				TerminalID: "terminal-1", TerminalLabel: "Terminal 1", LineStart: 10, LineEnd: 12, Text: "$ go test ./...\nFAIL\nexit 1"}
			text := fmt.Sprintf("Message %d: could you look at %s where the handler fails, and compare it with the output in %s? "+
				"Use %s if it helps; the old notes were in %s. Keep the change small and explain what you did.",
				i, contextref.LinkFor(f), contextref.LinkFor(term), "[$go-review](t3-context://v1/skill/s"+fmt.Sprint(i)+")",
				"[notes.md](t3-context://v1/file/missing"+fmt.Sprint(i)+")")
			msgs[i] = userMsg(id, text, f, term, skillRec(fmt.Sprint("s", i), "$go-review"))
			continue
		}
		text := fmt.Sprintf("Reply %d. The handler returns early when the **context** is cancelled, so the test sees `nil`.\n\n"+
			"- check the error path\n- add a test for the timeout\n- keep the public API\n\n", i)
		switch i % 4 {
		case 1:
			text += "```go\nfunc handle(ctx context.Context) error {\n\tif err := ctx.Err(); err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n```\n\nThat should fix it."
		case 3:
			text += "```bash\ngo test ./... -run TestHandle -count=1\n```\n\nRun that and tell me what it prints."
		}
		msgs[i] = agentMsg(id, text)
	}
	return msgs
}

func benchModel(b *testing.B) *Model {
	m := New(chips.Default(chips.DefaultTheme()))
	m.SetSize(120, 40)
	return m
}

// BenchmarkTranscriptScroll: 10,000 messages, warmed up (a window of
// several hundred messages at the bottom rendered); each op is one mouse
// wheel step (3 rows) and View, going up and down through the window.
func BenchmarkTranscriptScroll(b *testing.B) {
	msgs := benchThread(10000)
	m := benchModel(b)
	m.SetMessages(msgs)
	m.Focus()
	m.View()
	up := tea.MouseWheelMsg{Button: tea.MouseWheelUp}
	down := tea.MouseWheelMsg{Button: tea.MouseWheelDown}
	// Warm-up: scroll up through the last 400 messages.
	steps := 0
	for m.top.i > len(msgs)-400 {
		m.Update(up)
		m.View()
		steps++
	}
	dir := up
	b.ReportAllocs()
	b.ResetTimer()
	k := 0
	for b.Loop() {
		if k == steps {
			k = 0
			if dir == up {
				dir = down
			} else {
				dir = up
			}
		}
		k++
		m.Update(dir)
		_ = m.View()
	}
}

// BenchmarkTranscriptScrollKeys: as above with the focus keys (one message
// per op, scrolled into view).
func BenchmarkTranscriptScrollKeys(b *testing.B) {
	msgs := benchThread(10000)
	m := benchModel(b)
	m.SetMessages(msgs)
	m.Focus()
	m.View()
	const window = 300
	for i := 0; i < window; i++ {
		press(m, "up")
		m.View()
	}
	dir := "down"
	b.ReportAllocs()
	b.ResetTimer()
	k := 0
	for b.Loop() {
		if k == window {
			k = 0
			if dir == "up" {
				dir = "down"
			} else {
				dir = "up"
			}
		}
		k++
		m.Update(keyMsg(dir))
		_ = m.View()
	}
}

// BenchmarkTranscriptScrollCold: every op scrolls one wheel step into
// messages never rendered before (glamour and chroma included).
func BenchmarkTranscriptScrollCold(b *testing.B) {
	msgs := benchThread(10000)
	m := benchModel(b)
	m.SetMessages(msgs)
	m.View()
	up := tea.MouseWheelMsg{Button: tea.MouseWheelUp}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if m.top == (ppos{}) && m.off == 0 {
			b.StopTimer()
			m = benchModel(b)
			m.SetMessages(msgs)
			m.View()
			b.StartTimer()
		}
		m.Update(up)
		_ = m.View()
	}
}

// BenchmarkSetMessages10k: a new transcript, SetMessages with 10,000
// messages, then the first View.
func BenchmarkSetMessages10k(b *testing.B) {
	msgs := benchThread(10000)
	b.ReportAllocs()
	for b.Loop() {
		m := benchModel(b)
		m.SetMessages(msgs)
		_ = m.View()
	}
}

// BenchmarkStreamingToken: a 10,000-message thread whose last message
// grows by one token per op (SetText + View).
func BenchmarkStreamingToken(b *testing.B) {
	msgs := benchThread(10000)
	msgs = append(msgs, Message{ID: "s", Role: message.RoleAssistant, Status: message.StatusStreaming})
	m := benchModel(b)
	m.SetMessages(msgs)
	m.View()
	text := ""
	b.ReportAllocs()
	for b.Loop() {
		if len(text) > 2000 {
			text = ""
		}
		text += "word "
		m.SetText("s", text, message.StatusStreaming)
		_ = m.View()
	}
}

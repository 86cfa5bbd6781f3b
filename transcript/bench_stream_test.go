package transcript

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/message"
)

// Streaming: the helpers the stream tests share (the ratio claims are
// asserted in stream_ratio_test.go), and plain benchmarks of the pieces
// for profiling (go test -bench Stream -cpuprofile …).

// benchReply is Markdown that grows with paragraphs, lists and fenced code
// (some with blank lines inside), n bytes long.
func benchReply(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "## Step %d\n\nThe handler returns early when the **context** is cancelled, so the test sees `nil` "+
			"and the retry loop in `worker.go` never runs; this paragraph is long enough to wrap at eighty columns twice.\n\n", i)
		fmt.Fprintf(&b, "- check the error path of call %d\n- add a test for the timeout\n  with a continuation line\n- keep the public API\n\n", i)
		if i%2 == 0 {
			fmt.Fprintf(&b, "```go\nfunc handle%d(ctx context.Context) error {\n\tif err := ctx.Err(); err != nil {\n\t\treturn err\n\t}\n\n\treturn nil\n}\n```\n\n", i)
		} else {
			b.WriteString("| field | meaning |\n|---|---|\n| id | the call |\n| ts | when |\n\nThat should fix it.\n\n")
		}
	}
	return b.String()[:n]
}

// fenceReply is a short paragraph and then one fenced Go block of n bytes
// of code, not closed (it is still streaming); code is where the fence's
// code starts.
func fenceReply(n int) (text string, code int) {
	var b strings.Builder
	b.WriteString("Here is the whole generated table, as one file:\n\n```go\n")
	code = b.Len()
	for i := 0; b.Len() < code+n; i++ {
		fmt.Fprintf(&b, "\tentry%05d := lookup(ctx, %d, \"key-%d\") // row %d of the table\n", i, i*7, i, i)
	}
	return b.String()[:code+n], code
}

// ratioMarker is in the user message just before the streamed reply: the
// reply fills the screen when the marker is not on it.
const ratioMarker = "please write the long answer"

const ratioW, ratioH = 120, 40

// streamingApp is a transcript fed as the app feeds it while a reply
// streams (ui/conversation.go): a thread, the reply appended empty on
// ReplyStarted, then each ItemChanged a SetItem of the text item so far;
// every frame draws View at 120×40.
type streamingApp struct {
	t testing.TB
	m *Model
}

func newStreamingApp(t testing.TB) *streamingApp {
	m := New(nil)
	m.SetSize(ratioW, ratioH)
	msgs := benchThread(20)
	msgs = append(msgs, userMsg("u", "Now "+ratioMarker+"."))
	m.SetMessages(msgs)
	m.View()
	m.Append(Message{ID: "r", Role: message.RoleAssistant, Status: message.StatusStreaming})
	m.View()
	return &streamingApp{t: t, m: m}
}

// chunk is one streamed update and the frame that follows it.
func (a *streamingApp) chunk(text string) string {
	a.m.SetItem("r", 0, message.Item{Kind: message.ItemText, Text: text})
	return a.m.View()
}

// fillsScreen fails the test unless the frame is the reply alone, on
// every row.
func (a *streamingApp) fillsScreen(frame, what string) {
	a.t.Helper()
	plainF := ansi.Strip(frame)
	if strings.Contains(plainF, ratioMarker) {
		a.t.Fatalf("%s: the reply does not fill the %d×%d screen:\n%s", what, ratioW, ratioH, plainF)
	}
	if rows := strings.Split(plainF, "\n"); len(rows) != ratioH || strings.TrimSpace(rows[len(rows)-1]) == "" {
		a.t.Fatalf("%s: the frame is not %d full rows:\n%s", what, ratioH, plainF)
	}
}

// BenchmarkStreamFrame: a reply of each size grows by 64 bytes per op,
// and each op draws a frame (SetItem + View at 120×40).
func BenchmarkStreamFrame(b *testing.B) {
	for _, sz := range []struct {
		name string
		n    int
	}{{"64KB", 64 << 10}, {"400KB", 400 << 10}, {"1.6MB", 1600 << 10}} {
		b.Run(sz.name, func(b *testing.B) {
			const chunk, ops = 64, 400 // then the reply starts again from its size
			full := benchReply(sz.n + ops*chunk)
			a := newStreamingApp(b)
			a.fillsScreen(a.chunk(full[:sz.n]), sz.name)
			k := 0
			b.ReportAllocs()
			for b.Loop() {
				if k == ops {
					b.StopTimer()
					a, k = newStreamingApp(b), 0
					a.chunk(full[:sz.n])
					b.StartTimer()
				}
				k++
				a.chunk(full[:sz.n+chunk*k])
			}
		})
	}
}

// BenchmarkStreamFence: one op is a 200 KB code fence streamed in 2 KB
// steps, a frame each.
func BenchmarkStreamFence(b *testing.B) {
	full, code := fenceReply(200 << 10)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		a := newStreamingApp(b)
		b.StartTimer()
		for n := code + 2<<10; n <= len(full); n += 2 << 10 {
			a.chunk(full[:n])
		}
	}
}

// BenchmarkStreamTotal: a whole stream, one frame per 2 KB chunk (none
// dropped), to 400 KB and to 1.6 MB.
func BenchmarkStreamTotal(b *testing.B) {
	for _, sz := range []struct {
		name string
		n    int
	}{{"400KB", 400 << 10}, {"1.6MB", 1600 << 10}} {
		b.Run(sz.name, func(b *testing.B) {
			full := benchReply(sz.n)
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				a := newStreamingApp(b)
				b.StartTimer()
				for n := 2 << 10; n <= len(full); n += 2 << 10 {
					a.chunk(full[:n])
				}
			}
		})
	}
}

// BenchmarkOpenThread: SetMessages with a 10,000-message thread and the
// first frame.
func BenchmarkOpenThread(b *testing.B) {
	msgs := benchThread(10000)
	b.ReportAllocs()
	for b.Loop() {
		m := benchModel(b)
		m.SetMessages(msgs)
		_ = m.View()
	}
}

// BenchmarkOpenThreadBigReply: the same thread whose last reply is 1.6 MB.
func BenchmarkOpenThreadBigReply(b *testing.B) {
	msgs := benchThread(10000)
	msgs[len(msgs)-1] = Message{ID: "big", Role: message.RoleAssistant, Status: message.StatusDone,
		Items: []message.Item{{Kind: message.ItemText, Text: benchReply(1600 << 10)}}}
	b.ReportAllocs()
	for b.Loop() {
		m := benchModel(b)
		m.SetMessages(msgs)
		_ = m.View()
	}
}

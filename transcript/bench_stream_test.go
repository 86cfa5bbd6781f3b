package transcript

import (
	"fmt"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chipchat/chipchat/message"
)

// Streaming benchmarks (issue 11). Each reports its time per op; the
// ratios the issue asks for are reported by BenchmarkStreamRatios, which
// runs last and reads what the others measured in the same run.

var (
	benchTimes sync.Map // name → wall ns/op
	benchCPU   sync.Map // name → CPU ns/op
)

// cpuNow is the process's CPU time (user and system, every thread). The
// machine these run on is shared, so ratios are reported from CPU time
// too: wall time there measures the neighbours as much as the code.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuMeter measures one benchmark's CPU time per op.
type cpuMeter struct{ start time.Duration }

func startCPU(b *testing.B) *cpuMeter {
	b.ResetTimer()
	return &cpuMeter{start: cpuNow()}
}

func (c *cpuMeter) record(b *testing.B, name string) {
	if b.N == 0 {
		return
	}
	cpu := float64((cpuNow() - c.start).Nanoseconds()) / float64(b.N)
	b.ReportMetric(cpu, "cpu-ns/op")
	benchCPU.Store(name, cpu)
	benchTimes.Store(name, float64(b.Elapsed().Nanoseconds())/float64(b.N))
}

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

var benchSizes = []struct {
	name string
	n    int
}{{"4KB", 4 << 10}, {"100KB", 100 << 10}, {"400KB", 400 << 10}, {"1.6MB", 1600 << 10}}

// streamModel is a 120×40 transcript of a short thread whose last reply
// (one text item) streams text.
func streamModel(text string) *Model {
	m := New(nil)
	m.SetSize(120, 40)
	msgs := benchThread(20)
	msgs = append(msgs, Message{ID: "r", Role: message.RoleAssistant, Status: message.StatusStreaming,
		Items: []message.Item{{Kind: message.ItemText, Text: text}}})
	m.SetMessages(msgs)
	m.View()
	return m
}

// BenchmarkStreamFrame: a reply of each size grows by 40 bytes per op, and
// each op draws a frame (SetItem + View).
func BenchmarkStreamFrame(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run(sz.name, func(b *testing.B) {
			const ops = 400 // then the reply starts again from its size
			full := benchReply(sz.n + ops*40)
			m := streamModel(full[:sz.n])
			k := 0
			b.ReportAllocs()
			cm := startCPU(b)
			for b.Loop() {
				if k == ops {
					b.StopTimer()
					m, k = streamModel(full[:sz.n]), 0
					b.StartTimer()
				}
				k++
				m.SetItem("r", 0, message.Item{Kind: message.ItemText, Text: full[:sz.n+40*k]})
				_ = m.View()
			}
			cm.record(b, "frame/"+sz.name)
		})
	}
}

// BenchmarkWholeRender: glamour over the whole reply of each size, as
// every frame did before blocks.
func BenchmarkWholeRender(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run(sz.name, func(b *testing.B) {
			text := benchReply(sz.n)
			m := New(nil)
			m.SetSize(120, 40)
			cw := m.contentWidth()
			b.ReportAllocs()
			cm := startCPU(b)
			for b.Loop() {
				_ = m.glamourLines(text, cw, cw)
			}
			cm.record(b, "whole/"+sz.name)
		})
	}
}

// BenchmarkStreamTotal: a whole stream, one frame per 2 KB chunk (none
// dropped), to 400 KB and to 1.6 MB; beside it, the old approach (the
// whole reply rendered per chunk) streaming 40 KB.
func BenchmarkStreamTotal(b *testing.B) {
	for _, sz := range []struct {
		name string
		n    int
	}{{"400KB", 400 << 10}, {"1.6MB", 1600 << 10}} {
		b.Run(sz.name, func(b *testing.B) {
			full := benchReply(sz.n)
			b.ReportAllocs()
			cm := startCPU(b)
			for b.Loop() {
				m := streamModel("")
				for n := 2 << 10; n <= len(full); n += 2 << 10 {
					m.SetItem("r", 0, message.Item{Kind: message.ItemText, Text: full[:n]})
					_ = m.View()
				}
			}
			cm.record(b, "total/"+sz.name)
		})
	}
	b.Run("old-40KB", func(b *testing.B) {
		full := benchReply(40 << 10)
		m := New(nil)
		m.SetSize(120, 40)
		cw := m.contentWidth()
		b.ReportAllocs()
		cm := startCPU(b)
		for b.Loop() {
			for n := 2 << 10; n <= len(full); n += 2 << 10 {
				_ = m.glamourLines(full[:n], cw, cw)
			}
		}
		cm.record(b, "total/old-40KB")
	})
}

// BenchmarkOpenThread: SetMessages with a 10,000-message thread and the
// first frame.
func BenchmarkOpenThread(b *testing.B) {
	msgs := benchThread(10000)
	b.ReportAllocs()
	cm := startCPU(b)
	for b.Loop() {
		m := benchModel(b)
		m.SetMessages(msgs)
		_ = m.View()
	}
	cm.record(b, "open/10k")
}

// BenchmarkOpenThreadBigReply: the same thread whose last reply is 1.6 MB.
func BenchmarkOpenThreadBigReply(b *testing.B) {
	msgs := benchThread(10000)
	msgs[len(msgs)-1] = Message{ID: "big", Role: message.RoleAssistant, Status: message.StatusDone,
		Items: []message.Item{{Kind: message.ItemText, Text: benchReply(1600 << 10)}}}
	b.ReportAllocs()
	cm := startCPU(b)
	for b.Loop() {
		m := benchModel(b)
		m.SetMessages(msgs)
		_ = m.View()
	}
	cm.record(b, "open/big")
}

// BenchmarkStreamRatios reports the ratios from the benchmarks
// above (run them in the same `go test -bench` run).
func BenchmarkStreamRatios(b *testing.B) {
	get := func(k string) float64 {
		v, ok := benchTimes.Load(k)
		if !ok {
			return 0
		}
		return v.(float64)
	}
	for b.Loop() {
	}
	getCPU := func(k string) float64 {
		v, ok := benchCPU.Load(k)
		if !ok {
			return 0
		}
		return v.(float64)
	}
	ratio := func(a, c, unit string) {
		if x, y := get(a), get(c); x > 0 && y > 0 {
			b.ReportMetric(x/y, unit)
		}
		if x, y := getCPU(a), getCPU(c); x > 0 && y > 0 {
			b.ReportMetric(x/y, "cpu:"+unit)
		}
	}
	ratio("frame/1.6MB", "frame/4KB", "frame1.6MB/frame4KB")
	ratio("whole/1.6MB", "frame/1.6MB", "whole1.6MB/frame1.6MB")
	ratio("total/1.6MB", "total/400KB", "total1.6MB/total400KB")
	ratio("total/old-40KB", "total/400KB", "old40KB/total400KB")
	ratio("open/big", "open/10k", "openBig/open10k")
}

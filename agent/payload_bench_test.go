package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkHistoryRequest builds the openai request of a thread whose every
// earlier user message attached a 64 KiB text file, for 10, 100 and 1000
// earlier messages: past Limits.HistoryBytes (2 MiB, 32 files) the older
// files are only named, never read, so the cost per request grows with the
// number of messages, not with the bytes they attached. It reports the time
// per message relative to the 10-message thread.
func BenchmarkHistoryRequest(b *testing.B) {
	dir := b.TempDir()
	p := filepath.Join(dir, "file")
	if err := os.WriteFile(p, []byte(strings.Repeat("0123456789abcdef\n", 64<<10/17)), 0o644); err != nil {
		b.Fatal(err)
	}
	var base float64
	for _, n := range []int{10, 100, 1000} {
		var history []HistoryMessage
		for i := 0; i < n; i++ {
			history = append(history,
				HistoryMessage{Role: "user", Text: fmt.Sprintf("message %d [File: f%d.txt; ref=c%d]", i, i, i),
					Attachments: []Attachment{{ContextID: fmt.Sprintf("c%d", i), Name: fmt.Sprintf("f%d.txt", i), MimeType: "text/plain", Path: p, Size: 64 << 10}}},
				HistoryMessage{Role: "assistant", Text: "ok"})
		}
		t := Turn{Prompt: "next", Text: "next", Dir: dir, History: history}
		h := harness{getenv: func(string) string { return "" }, fake: true}.withDefaults()
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := h.request(t, history); err != nil {
					b.Fatal(err)
				}
			}
			per := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / float64(n)
			if n == 10 {
				base = per
			}
			b.ReportMetric(per/base, "per-message-vs-10")
		})
	}
}

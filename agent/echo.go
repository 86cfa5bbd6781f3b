package agent

import (
	"context"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Echo is the built-in backend: it answers with exactly what a model would
// receive (EchoReply), streamed in chunks so the UI's streaming path is
// exercised without a model.
type Echo struct {
	ChunkDelay time.Duration // pause after each chunk; 0 means 12ms, negative means none
	ChunkSize  int           // runes per chunk; <= 0 means 24
}

const (
	defaultChunkDelay = 12 * time.Millisecond
	defaultChunkSize  = 24
)

// EchoIntro is the first line of every echo reply.
const EchoIntro = "Echo agent — this is exactly what a model would receive:"

// Name is "echo".
func (Echo) Name() string { return "echo" }

// Capabilities: echo can be cancelled and "reads" images and files (it
// names them).
func (Echo) Capabilities() Capabilities {
	return Capabilities{Cancel: true, Images: true, Files: true}
}

// Run emits EchoReply(t) as text in chunks of ChunkSize runes, ChunkDelay
// apart, and returns ctx.Err() as soon as ctx is cancelled.
func (e Echo) Run(ctx context.Context, t Turn, emit func(Event)) error {
	delay, size := e.ChunkDelay, e.ChunkSize
	if delay == 0 {
		delay = defaultChunkDelay
	}
	if size <= 0 {
		size = defaultChunkSize
	}
	rest := EchoReply(t)
	var timer *time.Timer
	if delay > 0 {
		timer = time.NewTimer(delay)
		timer.Stop()
		defer timer.Stop()
	}
	for rest != "" {
		if err := ctx.Err(); err != nil {
			return err
		}
		cut := 0
		for n := 0; n < size && cut < len(rest); n++ {
			_, w := utf8.DecodeRuneInString(rest[cut:])
			cut += w
		}
		emit(TextDelta{rest[:cut]})
		rest = rest[cut:]
		if rest == "" || timer == nil {
			continue
		}
		timer.Reset(delay)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		}
	}
	return nil
}

// EchoReply is the echo backend's whole answer to t, in Markdown: the intro
// line, the prompt in a fenced "text" block whose fence is longer than any
// run of backticks in the prompt, and the attachments it was handed.
func EchoReply(t Turn) string {
	var b strings.Builder
	fence := strings.Repeat("`", max(3, longestRun(t.Prompt, '`')+1))
	b.WriteString(EchoIntro)
	b.WriteString("\n\n")
	b.WriteString(fence)
	b.WriteString("text\n")
	b.WriteString(t.Prompt)
	if !strings.HasSuffix(t.Prompt, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString(fence)
	b.WriteString("\n\n")
	if len(t.Attachments) == 0 {
		b.WriteString("No attachments.\n")
		return b.String()
	}
	b.WriteString("Attachments:\n\n")
	for _, a := range t.Attachments {
		b.WriteString("- ")
		b.WriteString(oneLine(a.Name))
		b.WriteString(" (")
		b.WriteString(oneLine(a.MimeType))
		b.WriteString(", ")
		b.WriteString(humanSize(a.Size))
		b.WriteString(")")
		if a.Path != "" {
			b.WriteString(" at ")
			b.WriteString(oneLine(a.Path))
		} else {
			b.WriteString(", not available")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

// oneLine keeps a list item on one line.
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

// humanSize writes a byte count in binary units with at most one decimal
// ("512 B", "1.5 KiB", "20 MiB"), as the asset store does.
func humanSize(n int64) string {
	if n < 1024 {
		return strconv.FormatInt(n, 10) + " B"
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v, u := float64(n)/1024, 0
	for u < len(units)-1 && v >= 1024 {
		v /= 1024
		u++
	}
	s := strconv.FormatFloat(v, 'f', 1, 64)
	if s == "1024.0" && u < len(units)-1 {
		s, u = "1.0", u+1
	}
	return strings.TrimSuffix(s, ".0") + " " + units[u]
}

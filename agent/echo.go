package agent

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Echo is the built-in backend: it answers with exactly what the openai
// harness would send for the turn (EchoReply), streamed in chunks so the
// UI's streaming path is exercised without a model.
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

// Capabilities: echo can be cancelled, wants the history (it shows the
// whole request, as the openai harness builds it) and delivers the payload
// itself, as that harness does.
func (Echo) Capabilities() Capabilities {
	return Capabilities{History: true, Cancel: true, Images: true, Files: true, InlinePayload: true}
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

// EchoReply is the echo backend's whole answer to t, in Markdown: the
// intro line, then in one fenced "text" block (its fence longer than any run
// of backticks inside) the request the openai harness would send for t,
// message by message — each message under a "── N role ──" line; every part
// of the messages before the user's (the runtime context, the history) as
// one line, its first line and its length; the user's message in full, an
// image part as one line — and after the block one line per attachment
// saying how it was delivered ("No attachments." when there is none).
func EchoReply(t Turn) string {
	h := harness{}.withDefaults()
	req, err := h.request(t, t.History)
	var body strings.Builder
	if err != nil {
		body.WriteString("(the request could not be built: " + err.Error() + ")\n")
	}
	for i, m := range req {
		last := i == len(req)-1
		role := string(m.Role)
		if last {
			role += " · this message"
		}
		fmt.Fprintf(&body, "── %d %s ──\n", i+1, role)
		for j, p := range m.Parts {
			if last && j > 0 {
				body.WriteByte('\n') // the user's message: parts a blank line apart
			}
			switch {
			case p.Image != nil:
				body.WriteString(imagePartLine(*p.Image))
			case last:
				body.WriteString(p.Text)
				if !strings.HasSuffix(p.Text, "\n") {
					body.WriteByte('\n')
				}
				continue
			default:
				body.WriteString(summaryLine(p.Text))
			}
			body.WriteByte('\n')
		}
	}
	text := body.String()
	var b strings.Builder
	fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
	b.WriteString(EchoIntro)
	b.WriteString("\n\n")
	b.WriteString(fence)
	b.WriteString("text\n")
	b.WriteString(text)
	b.WriteString(fence)
	b.WriteString("\n\n")
	if len(t.Attachments) == 0 {
		b.WriteString("No attachments.\n")
		return b.String()
	}
	b.WriteString("Attachments:\n\n")
	for _, p := range planPayload(t.Attachments, nil, t.Limits) {
		a := p.att
		b.WriteString("- ")
		b.WriteString(oneLine(a.Name))
		b.WriteString(" (")
		if a.Kind == KindDirectory {
			b.WriteString("directory listing")
		} else {
			b.WriteString(oneLine(a.MimeType))
		}
		b.WriteString(", ")
		b.WriteString(humanSize(a.Size))
		b.WriteString("): ")
		b.WriteString(deliveryNote(p))
		b.WriteByte('\n')
	}
	return b.String()
}

// deliveryNote says how a planned attachment goes to the model.
func deliveryNote(p plannedPart) string {
	switch p.class {
	case classText:
		if p.take < p.total {
			return "inline as text, cut to " + humanSize(p.take) + " of " + humanSize(p.total)
		}
		return "inline as text"
	case classImage:
		return "an image part"
	case classTooBig:
		return "not sent: over the " + humanSize(maxImageBytes) + " image limit"
	case classBinary:
		return "not text: a notice with its name and size"
	}
	return "not available: a notice with its name"
}

// imagePartLine is an image part as one line.
func imagePartLine(a Attachment) string {
	return "[image part: " + oneLine(a.Name) + ", " + oneLine(a.MimeType) + ", " + humanSize(a.Size) + "]"
}

// summaryLine is a part as one line: its first non-blank line, cut at 72
// runes, and its length when there is more.
func summaryLine(s string) string {
	t := strings.TrimSpace(s)
	first, rest, more := strings.Cut(t, "\n")
	first = strings.TrimSpace(first)
	cut := false
	if utf8.RuneCountInString(first) > 72 {
		first = string([]rune(first)[:72])
		cut = true
	}
	if !more && !cut {
		return first
	}
	first = strings.TrimSpace(first)
	if !more {
		return fmt.Sprintf("%s … (%s)", first, humanSize(int64(len(s))))
	}
	return fmt.Sprintf("%s … (%d lines, %s)", first, strings.Count(rest, "\n")+2, humanSize(int64(len(s))))
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

package export

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/aymanbagabas/go-udiff"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
	"github.com/chipchat/chipchat/workspace"
)

// timeLayout is how a message's time is written.
const timeLayout = "2006-01-02 15:04:05 MST"

// Markdown is the thread as Markdown, its times in loc.
func Markdown(o workspace.Opened, loc *time.Location) string {
	var b strings.Builder
	title := o.Thread.Title
	if title == "" {
		title = "New thread"
	}
	fmt.Fprintf(&b, "# %s\n\nchipchat thread `%s`\n", oneLine(title), o.Thread.ID)
	var appendix []string
	for i := range o.Messages {
		m := &o.Messages[i]
		if m.Status == message.StatusQueued {
			continue
		}
		who := "You"
		if m.Role == message.RoleAssistant {
			who = "Agent"
		}
		blank(&b)
		fmt.Fprintf(&b, "## %s · %s", who, m.Created.In(loc).Format(timeLayout))
		if m.Status != "" && m.Status != message.StatusDone {
			fmt.Fprintf(&b, " · %s", m.Status)
		}
		b.WriteString("\n\n")
		if m.Role != message.RoleAssistant {
			b.WriteString(strings.TrimRight(clean(m.Text), "\n") + "\n")
			if recs := records(m); len(recs) > 0 {
				appendix = append(appendix, projection(len(appendix)+1, m, recs, loc))
			}
			continue
		}
		for _, it := range m.Items {
			writeItem(&b, it)
		}
	}
	if len(appendix) > 0 {
		blank(&b)
		b.WriteString("---\n\n## What the agent read\n\nEach message with chips, as the agent received it (the chips' records projected).\n")
		for _, a := range appendix {
			blank(&b)
			b.WriteString(a)
		}
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// blank ends what b holds with one blank line.
func blank(b *strings.Builder) {
	s := b.String()
	switch {
	case strings.HasSuffix(s, "\n\n"):
	case strings.HasSuffix(s, "\n"):
		b.WriteString("\n")
	default:
		b.WriteString("\n\n")
	}
}

// ErrEmpty is the refusal to export a thread with no messages yet.
var ErrEmpty = errors.New("the thread has no messages yet")

// read is a thread as load reads it, refused when it has no messages.
func read(load func() (workspace.Opened, error)) (workspace.Opened, error) {
	o, err := load()
	if err == nil && len(o.Messages) == 0 {
		err = ErrEmpty
	}
	return o, err
}

// ToFile writes the thread load reads as Markdown (times in the local
// zone) to path, as Write does.
func ToFile(load func() (workspace.Opened, error), path string, overwrite bool) error {
	o, err := read(load)
	if err != nil {
		return err
	}
	return Write(path, []byte(Markdown(o, time.Local)), overwrite)
}

// ForCopy is the thread load reads as Markdown and the records a copy of
// it carries (Records).
func ForCopy(load func() (workspace.Opened, error)) (string, []contextref.Record, error) {
	o, err := read(load)
	if err != nil {
		return "", nil, err
	}
	return Markdown(o, time.Local), Records(o), nil
}

// Records are the records of every user message of the thread, in order:
// what a copy of the export carries in its clipboard fragment.
func Records(o workspace.Opened) []contextref.Record {
	var out []contextref.Record
	for i := range o.Messages {
		if m := &o.Messages[i]; m.Role != message.RoleAssistant && m.Status != message.StatusQueued {
			out = append(out, records(m)...)
		}
	}
	return out
}

// records are a user message's context records (decoded from the stored
// JSON when the message came raw; an undecodable context has none).
func records(m *store.Message) []contextref.Record {
	if m.Context != nil {
		return m.Context.Records
	}
	if len(m.RawContext) == 0 {
		return nil
	}
	ctx, _, err := contextref.DecodeContext(m.RawContext)
	if err != nil || ctx == nil {
		return nil
	}
	return ctx.Records
}

func projection(n int, m *store.Message, recs []contextref.Record, loc *time.Location) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### %d. Your message of %s\n\n", n, m.Created.In(loc).Format(timeLayout))
	for _, r := range recs {
		rb := r.RecordBase()
		fmt.Fprintf(&b, "- %s: %s\n", contextref.KindTitle(rb.Kind), contextref.LinkFor(r))
	}
	b.WriteString("\n" + fence("text", clean(contextref.Project(m.Text, recs))))
	return b.String()
}

func writeItem(b *strings.Builder, it message.Item) {
	switch it.Kind {
	case message.ItemText:
		b.WriteString(strings.TrimRight(clean(it.Body().String()), "\n") + "\n\n")
	case message.ItemThought:
		details(b, "Thought", fence("text", clean(it.Body().String())))
	case message.ItemTool:
		if it.Tool != nil {
			writeTool(b, it.Tool)
		}
	case message.ItemPlan:
		b.WriteString("Plan:\n\n")
		for _, e := range it.Plan {
			mark := " "
			if e.Status == "completed" {
				mark = "x"
			}
			fmt.Fprintf(b, "- [%s] %s\n", mark, oneLine(e.Content))
		}
		b.WriteString("\n")
	case message.ItemPermission:
		if p := it.Permission; p != nil {
			fmt.Fprintf(b, "> Permission asked: %s — %s\n\n", oneLine(p.Asked), oneLine(chosen(p)))
		}
	case message.ItemNotice:
		fmt.Fprintf(b, "> %s\n\n", oneLine(it.Body().String()))
		if it.StderrTail != "" {
			details(b, "stderr", fence("text", clean(it.StderrTail)))
		}
	}
}

func chosen(p *message.Permission) string {
	for _, o := range p.Options {
		if o.ID == p.Chosen {
			return o.Name
		}
	}
	if p.Outcome != "" {
		return p.Outcome
	}
	return "unanswered"
}

func writeTool(b *strings.Builder, t *message.Tool) {
	title := t.Title
	if title == "" {
		title = t.Kind
	}
	summary := "Tool: " + oneLine(title)
	if t.Status != "" {
		summary += " (" + t.Status + ")"
	}
	var body strings.Builder
	for _, l := range t.Locations {
		if l.Line > 0 {
			fmt.Fprintf(&body, "- `%s:%d`\n", oneLine(l.Path), l.Line)
		} else {
			fmt.Fprintf(&body, "- `%s`\n", oneLine(l.Path))
		}
	}
	if len(t.Locations) > 0 {
		body.WriteString("\n")
	}
	for _, c := range t.Content {
		switch c.Type {
		case message.ContentDiff:
			body.WriteString(fence("diff", diff(c)))
		case message.ContentTerminal:
			if s := c.Terminal; s != nil {
				body.WriteString(fence("console", "$ "+clean(s.Command)+"\n"+clean(s.Output)))
			}
		default:
			if c.Text != "" {
				body.WriteString(fence("text", clean(c.Text)))
			}
		}
	}
	if t.Reason != "" {
		fmt.Fprintf(&body, "%s\n", oneLine(t.Reason))
	}
	details(b, summary, body.String())
}

// diff is a diff content as a unified diff (a new file: from /dev/null).
func diff(c message.ToolContent) string {
	path := clean(c.Path)
	old, from := "", "/dev/null"
	if c.OldText != nil {
		old, from = clean(*c.OldText), "a/"+path
	}
	d := udiff.Unified(from, "b/"+path, old, clean(c.NewText))
	if d == "" {
		return "(no change to " + path + ")\n"
	}
	return d
}

func details(b *strings.Builder, summary, body string) {
	fmt.Fprintf(b, "<details>\n<summary>%s</summary>\n\n%s</details>\n\n", htmlEscape(summary), body)
}

var backticks = regexp.MustCompile("`{3,}")

// fence is body in a code fence longer than any run of backticks in it.
func fence(info, body string) string {
	n := 3
	for _, run := range backticks.FindAllString(body, -1) {
		n = max(n, len(run)+1)
	}
	f := strings.Repeat("`", n)
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	return f + info + "\n" + body + f + "\n\n"
}

// clean strips terminal control sequences and control characters other
// than newline and tab (a carriage return ends a line).
func clean(s string) string {
	s = ansi.Strip(strings.ReplaceAll(s, "\r\n", "\n"))
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case r == '\r':
			return '\n'
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
			return -1
		}
		return r
	}, s)
}

func oneLine(s string) string { return strings.Join(strings.Fields(clean(s)), " ") }

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// Version is the JSON export's format version.
const Version = 1

type jsonThread struct {
	Version  int           `json:"version"`
	Thread   jsonThreadRef `json:"thread"`
	Messages []jsonMessage `json:"messages"`
}

type jsonThreadRef struct {
	ID      string    `json:"id"`
	Title   string    `json:"title"`
	Updated time.Time `json:"updated"`
}

type jsonMessage struct {
	ID      string          `json:"id"`
	Seq     int64           `json:"seq"`
	Role    message.Role    `json:"role"`
	Status  message.Status  `json:"status,omitempty"`
	Created time.Time       `json:"created"`
	Text    string          `json:"text,omitempty"`
	Context json.RawMessage `json:"context,omitempty"` // the message context (DESIGN.md 3.2) as stored
	Items   []jsonItem      `json:"items,omitempty"`
}

type jsonItem struct {
	ID   string           `json:"id"`
	Kind message.ItemKind `json:"kind"`
	Text string           `json:"text,omitempty"`
	Data json.RawMessage  `json:"data,omitempty"` // the kind's fields (message.Item.Data)
}

// JSON is the thread as versioned JSON: {"version":1,"thread":{…},
// "messages":[{…,"context":{…},"items":[{"id","kind","text","data"}]}]}.
func JSON(o workspace.Opened) ([]byte, error) {
	out := jsonThread{Version: Version, Thread: jsonThreadRef{ID: o.Thread.ID, Title: o.Thread.Title, Updated: o.Thread.Updated}, Messages: []jsonMessage{}}
	for _, m := range o.Messages {
		jm := jsonMessage{ID: m.ID, Seq: m.Seq, Role: m.Role, Status: m.Status, Created: m.Created, Text: m.Text}
		switch {
		case len(m.RawContext) > 0 && json.Valid(m.RawContext):
			jm.Context = m.RawContext
		case m.Context != nil:
			ctx, err := contextJSON(m.Context)
			if err != nil {
				return nil, err
			}
			jm.Context = ctx
		}
		for _, it := range m.Items {
			data, err := it.Data()
			if err != nil {
				return nil, err
			}
			jm.Items = append(jm.Items, jsonItem{ID: it.ID, Kind: it.Kind, Text: it.Body().String(), Data: data})
		}
		out.Messages = append(out.Messages, jm)
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

func contextJSON(c *contextref.MessageContext) (json.RawMessage, error) { return c.Marshal() }

// maxTitle bounds the title's part of a file name.
const maxTitle = 80

var unsafeRun = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// FileName is <title>-<date>.md: the title's runs of other characters
// than [A-Za-z0-9._-] one '-', cut to 80, "thread" when nothing is left.
func FileName(title string, day time.Time, ext string) string {
	t := strings.Trim(unsafeRun.ReplaceAllString(title, "-"), "-.")
	if len(t) > maxTitle {
		t = strings.TrimRight(t[:maxTitle], "-.")
	}
	if t == "" {
		t = "thread"
	}
	return t + "-" + day.Format("2006-01-02") + "." + ext
}

// Dir is where exports go: $XDG_DATA_HOME/chipchat/exports (else
// ~/.local/share/chipchat/exports), outside every project.
func Dir(getenv func(string) string) (string, error) {
	if d := getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "chipchat", "exports"), nil
	}
	home := getenv("HOME")
	if home == "" {
		return "", errors.New("export: neither $XDG_DATA_HOME nor $HOME is set")
	}
	return filepath.Join(home, ".local", "share", "chipchat", "exports"), nil
}

// ErrExists is Write's refusal to overwrite a file.
var ErrExists = errors.New("the file exists")

// Write writes data to path, making its directory; an existing file is
// replaced only when overwrite, else the error wraps ErrExists.
func Write(path string, data []byte, overwrite bool) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	flag := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if overwrite {
		flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(path, flag, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("export: %s: %w", path, ErrExists)
	}
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("export: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

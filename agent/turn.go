package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/chipchat/chipchat/contextref"
)

// Attachment is the bytes an image or file record binds to, as handed to a
// backend on its own attachment channel (the prompt carries metadata only).
type Attachment struct {
	ContextID    string
	AttachmentID string
	Name         string
	MimeType     string
	Path         string // where the bytes are; empty when they could not be resolved
	Size         int64
}

// IsImage reports whether the attachment came from an image record.
// (Backends that send images differently look at MimeType too.)
func (a Attachment) IsImage() bool { return strings.HasPrefix(strings.ToLower(a.MimeType), "image/") }

// Turn is everything a backend gets for one turn.
type Turn struct {
	ThreadID    string
	Text        string              // canonical Markdown of the user's message
	Records     []contextref.Record // its context records
	Prompt      string              // contextref.Project(Text, Records); filled by Prepare
	Attachments []Attachment        // the referenced image/file records; filled by Prepare
	Dir         string              // the project directory
	// History is the thread's earlier messages, oldest first, for backends
	// that say they need it (HistoryUser): a harness that keeps no session
	// of its own gets the conversation back after a restart.
	History []HistoryMessage
	// Compact asks a harness backend (HistoryUser) to summarize the thread
	// instead of answering: the reply is the summary, and the backend's
	// history becomes the user's words plus that summary (the /compact
	// command).
	Compact bool
	// SessionID is the agent session this thread had, for backends with
	// Capabilities.Sessions (empty: none yet).
	SessionID string
}

// CompactCommand is what the user sends to compact a thread.
const CompactCommand = "/compact"

// CompactInstruction is what the model is asked when a thread is compacted.
const CompactInstruction = "Summarize our conversation so far so that it can continue without the earlier messages: " +
	"the goal, decisions made, files and code discussed, what is done and what is open. Reply with the summary only."

// HistoryMessage is one earlier message of a thread: for a user message,
// its provider projection; for a reply, its text.
type HistoryMessage struct {
	Role string // "user" or "assistant"
	Text string
}


// Prepare builds a turn from a message: the provider projection and one
// attachment per image or file record the text references, in
// first-reference order. resolve maps an attachment id to the path of its
// bytes; an attachment it cannot resolve (or a nil resolve) is still listed,
// with an empty Path. ThreadID and Dir are the caller's to set.
func Prepare(text string, records []contextref.Record, resolve func(attachmentID string) (path string, ok bool)) Turn {
	t := Turn{Text: text, Records: records, Prompt: contextref.Project(text, records)}
	if !contextref.HasReferences(text) {
		return t
	}
	byID := make(map[string]contextref.Record, len(records))
	dup := map[string]bool{}
	for _, r := range records {
		id := r.RecordBase().ContextID
		if _, ok := byID[id]; ok {
			dup[id] = true
		}
		byID[id] = r
	}
	seen := map[string]bool{}
	for _, o := range contextref.Scan(text) {
		if seen[o.ContextID] || dup[o.ContextID] {
			continue
		}
		seen[o.ContextID] = true
		var ar *contextref.AttachmentRecord
		switch r := byID[o.ContextID].(type) {
		case *contextref.ImageRecord:
			ar = &r.AttachmentRecord
		case *contextref.FileRecord:
			ar = &r.AttachmentRecord
		default:
			continue
		}
		a := Attachment{
			ContextID:    o.ContextID,
			AttachmentID: ar.AttachmentID,
			Name:         ar.Name,
			MimeType:     ar.MimeType,
			Size:         ar.SizeBytes,
		}
		if resolve != nil {
			if p, ok := resolve(ar.AttachmentID); ok {
				a.Path = p
			}
		}
		t.Attachments = append(t.Attachments, a)
	}
	return t
}

// Backend is an agent: it answers a turn by streaming typed events.
type Backend interface {
	// Name is the short name shown to the user ("echo").
	Name() string
	// Capabilities says what the backend can do.
	Capabilities() Capabilities
	// Run answers t, calling emit with each event as it comes (any number
	// of times, from Run's goroutine or the backend's own, never
	// concurrently). It returns ctx.Err() when ctx is cancelled, promptly;
	// a failure is its error (an *Error when the agent's stderr explains
	// it).
	Run(ctx context.Context, t Turn, emit func(Event)) error
}

// New chooses a backend from a spec: "" or "echo" is the echo backend;
// "exec:<command>" runs a command per turn (Exec); "openai:<base-url>#<model>"
// talks to an OpenAI-compatible Chat Completions endpoint (OpenAI). The
// scheme is case-insensitive; a malformed spec is an error saying what to
// write.
func New(spec string) (Backend, error) {
	s := strings.TrimSpace(spec)
	if s == "" || s == "echo" {
		return Echo{}, nil
	}
	scheme, rest, _ := strings.Cut(s, ":")
	switch strings.ToLower(scheme) {
	case "exec":
		if strings.TrimSpace(rest) == "" {
			return nil, fmt.Errorf("agent %q: no command (write exec:<command>)", spec)
		}
		return Exec{Command: strings.TrimSpace(rest)}, nil
	case "openai":
		i := strings.LastIndexByte(rest, '#')
		if i < 0 {
			return nil, fmt.Errorf("agent %q: no model (write openai:<base-url>#<model>, e.g. openai:http://localhost:11434/v1#llama3.2)", spec)
		}
		o, err := NewOpenAI(strings.TrimSpace(rest[:i]), rest[i+1:])
		if err != nil {
			return nil, fmt.Errorf("agent %q: %w", spec, err)
		}
		return o, nil
	case "acp":
		a, err := NewACP(strings.TrimSpace(rest), ACPOptions{})
		if err != nil {
			return nil, fmt.Errorf("agent %q: %w", spec, err)
		}
		return a, nil
	}
	return nil, fmt.Errorf("unknown agent %q (available: echo, exec:<command>, acp:<command>, openai:<base-url>#<model>)", spec)
}

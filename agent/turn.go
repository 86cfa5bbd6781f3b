package agent

import (
	"context"
	"strings"

	"github.com/chipchat/chipchat/contextref"
)

// AttachmentKind says what an Attachment stands for.
type AttachmentKind string

// The kinds of Attachment.
const (
	// KindAttachment: the stored bytes of an image or file record (a
	// pasted-text chip is a file record with MIME type text/plain). The
	// zero value, so a literal without Kind is one.
	KindAttachment AttachmentKind = ""
	// KindMention: the snapshot of an @-mentioned file, taken when the
	// message was sent.
	KindMention AttachmentKind = "mention"
	// KindDirectory: a listing of an @-mentioned directory (text), taken
	// when the message was sent.
	KindDirectory AttachmentKind = "directory"
)

// Attachment is the bytes a record of the message stands for, as handed to
// a backend on its own attachment channel (the prompt carries metadata
// only). Backends that deliver payload themselves (openai, exec, echo) send
// a text one as an <attached_file> fragment, an image as an image part (or
// a file), anything else as a one-line notice.
type Attachment struct {
	// Kind: an image/file record's bytes, a mention's snapshot, or a
	// directory listing.
	Kind AttachmentKind
	// ContextID is the record's context id (the fragment's id attribute,
	// the folder name in $CHIPCHAT_ATTACHMENTS).
	ContextID string
	// AttachmentID is the asset the bytes are stored as: the record's
	// attachmentId, or for a mention the asset id of its snapshot (may be
	// empty).
	AttachmentID string
	// Name is what the user sees and the model gets: the record's name;
	// for a mention or directory, the path exactly as the user wrote it
	// (the record's path, "src/main.go").
	Name string
	// MimeType is the record's MIME type; for a mention the type its name
	// suggests, or "" to let the content decide (text when valid UTF-8
	// with no NUL in the first 8000 bytes); for a directory "text/plain".
	MimeType string
	// Path is where the bytes are: the asset store's file for a record;
	// for a mention the SNAPSHOT chipchat took at send (never the project
	// file itself, so later turns resend what the user sent); for a
	// directory a file holding the listing text. Empty when they could not
	// be resolved: the model is told the bytes are not available.
	Path string
	// Size is the whole payload's size in bytes: the record's sizeBytes;
	// for a mention the file's size at send, which may be more than the
	// snapshot holds (a snapshot cut at Limits.InlineFileBytes is then
	// sent with "(truncated: N of Size bytes)").
	Size int64
}

// IsImage reports whether the attachment came from an image record.
// (Backends that send images differently look at MimeType too.)
func (a Attachment) IsImage() bool { return strings.HasPrefix(strings.ToLower(a.MimeType), "image/") }

// Limits bound what the harness backends (openai, exec, echo) put inline
// ([limits] in the config file). A zero field means its default.
type Limits struct {
	// InlineFileBytes bounds one attached text file's content in a turn
	// (inline_file_bytes, 256 KiB).
	InlineFileBytes int64
	// InlineTurnBytes bounds all attached text of one message together
	// (inline_turn_bytes, 1 MiB); files past it are cut to what is left.
	InlineTurnBytes int64
	// HistoryBytes bounds the images and attached-file fragments resent
	// with earlier messages (history_bytes, 2 MiB); the oldest past it are
	// replaced by a one-line notice naming them.
	HistoryBytes int64
	// ThreadContextBytes bounds one <thread_history> fragment
	// (thread_context_bytes, 32 KiB); the oldest messages go first.
	ThreadContextBytes int64
	// ResumeHistoryBytes bounds the <thread_history> fragment of the
	// thread's own earlier turns a new agent session gets when the old one
	// cannot be resumed (resume_history_bytes, 256 KiB; Turn.Handover).
	ResumeHistoryBytes int64
	// ReplyBytes bounds one tool call's content, kept in memory and in the
	// store (reply_bytes, DefaultReplyBytes: 4 MiB): past it the head and
	// the tail are kept (CapTool). Every backend's tool items.
	ReplyBytes int64
}

// DefaultLimits are the limits when the config sets none.
func DefaultLimits() Limits {
	return Limits{InlineFileBytes: 256 << 10, InlineTurnBytes: 1 << 20, HistoryBytes: 2 << 20, ThreadContextBytes: 32 << 10,
		ResumeHistoryBytes: 256 << 10, ReplyBytes: DefaultReplyBytes}
}

// withDefaults fills zero (or negative) fields with their defaults.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.InlineFileBytes <= 0 {
		l.InlineFileBytes = d.InlineFileBytes
	}
	if l.InlineTurnBytes <= 0 {
		l.InlineTurnBytes = d.InlineTurnBytes
	}
	if l.HistoryBytes <= 0 {
		l.HistoryBytes = d.HistoryBytes
	}
	if l.ThreadContextBytes <= 0 {
		l.ThreadContextBytes = d.ThreadContextBytes
	}
	if l.ResumeHistoryBytes <= 0 {
		l.ResumeHistoryBytes = d.ResumeHistoryBytes
	}
	if l.ReplyBytes <= 0 {
		l.ReplyBytes = d.ReplyBytes
	}
	return l
}

// ThreadContext is a thread a message references (a `thread` record),
// for backends without a thread-reading tool: openai and exec send its
// recent messages as a <thread_history> fragment after the message's text,
// bounded by Limits.ThreadContextBytes.
type ThreadContext struct {
	// ContextID is the thread record's context id.
	ContextID string
	// ThreadID and Title are the record's threadId and title.
	ThreadID string
	Title    string
	// Missing: the thread is not in this environment (a chip pasted from
	// elsewhere, or a deleted thread); the agent is told so.
	Missing bool
	// Messages are the thread's recent messages, oldest first: for a user
	// message its words (the projection, or the canonical Markdown), for
	// a reply its text. Only Role and Text are read. chat may hand more
	// than fit; the oldest are dropped first.
	Messages []HistoryMessage
}

// Turn is everything a backend gets for one turn.
type Turn struct {
	ThreadID string
	Text     string              // canonical Markdown of the user's message
	Records  []contextref.Record // its context records
	Prompt   string              // contextref.ProjectForProvider(Text, Records): the projection, then the assistant citations expanded; filled by Prepare
	// Attachments are the payloads the message's chips stand for, one per
	// context id in first-reference order: image/file records' bytes
	// (pasted-text chips included) and mention snapshots (Kind mention or
	// directory). Filled by Prepare/PrepareWith.
	Attachments []Attachment
	// Threads are the thread records the message references, in
	// first-reference order, with their recent messages (chat fills them).
	Threads []ThreadContext
	// Limits bound the inline payload (zero fields: DefaultLimits).
	Limits Limits
	Dir    string // the project directory
	// History is the thread's earlier messages, oldest first, for backends
	// that say they need it (Capabilities.History): a harness that keeps no
	// session of its own gets the conversation back, with each message's
	// attachments and skills, on every turn. When it is empty, the openai
	// harness uses what it recorded itself in this process.
	History []HistoryMessage
	// Compact asks a harness backend (Capabilities.Compact) to summarize
	// the thread instead of answering: the reply is the summary, and the
	// backend's history becomes the user's words plus that summary (the
	// /compact command).
	Compact bool
	// SessionID is the agent session this thread had, for backends with
	// Capabilities.Sessions (empty: none yet).
	SessionID string
	// Handover, set with SessionID, is the thread's earlier turns for the
	// case that session cannot be resumed (the agent refuses session/load,
	// or cannot load sessions): the new session's first prompt starts
	// with them as a <thread_history> fragment, so that the agent does
	// not forget the thread.
	Handover *Handover
}

// Handover is the thread's earlier turns, read only when a new session
// needs them. A backend calls Take once it knows the old session is gone;
// its prompt then starts with Text.
type Handover struct {
	// History renders the thread's earlier messages as a <thread_history>
	// fragment within Limits.ResumeHistoryBytes (the oldest left out
	// first, the fragment saying how many), with how many messages it
	// holds and left out. "" and 0, 0: there is nothing to hand over.
	History func() (fragment string, kept, omitted int)

	taken         bool
	text          string
	kept, omitted int
}

// Take reads the history (once) and marks it to be sent; it reports how
// many messages the fragment holds and left out. A nil Handover holds
// none.
func (h *Handover) Take() (kept, omitted int) {
	if h == nil {
		return 0, 0
	}
	if !h.taken && h.History != nil {
		h.text, h.kept, h.omitted = h.History()
	}
	h.taken = true
	return h.kept, h.omitted
}

// Text is the fragment to put before the prompt: "" until Take.
func (h *Handover) Text() string {
	if h == nil || !h.taken {
		return ""
	}
	return h.text
}

// CompactCommand is what the user sends to compact a thread.
const CompactCommand = "/compact"

// CompactInstruction is what the model is asked when a thread is compacted.
const CompactInstruction = "Summarize our conversation so far so that it can continue without the earlier messages: " +
	"the goal, decisions made, files and code discussed, what is done and what is open. Reply with the summary only."

// HistoryMessage is one earlier message of a thread.
type HistoryMessage struct {
	// Role is "user" or "assistant".
	Role string
	// Text: for a user message its provider projection (as Turn.Prompt
	// was); for a reply its text.
	Text string
	// Attachments of a user message, as Turn.Attachments were when it was
	// sent (mentions as their snapshots): images and attached-file
	// fragments are resent while within Limits.HistoryBytes.
	Attachments []Attachment
	// Skills are the names of the skills a user message references
	// (SkillNames): a skill's instructions are sent while any message of
	// the thread references it.
	Skills []string
	// Threads of a user message, as Turn.Threads were (optional; resent
	// within Limits.HistoryBytes like attachments).
	Threads []ThreadContext
	// Interrupted marks a reply whose turn was cancelled (its Text may be
	// empty): a <turn_aborted> notice follows it.
	Interrupted bool
}

// UserMessage is the turn's user message as a HistoryMessage, as a later
// turn's History holds it.
func (t Turn) UserMessage() HistoryMessage {
	return HistoryMessage{Role: "user", Text: t.Prompt, Attachments: t.Attachments,
		Skills: SkillNames(t.Text, t.Records), Threads: t.Threads}
}

// Resolver finds the payloads a message's records stand for.
type Resolver struct {
	// Asset maps an image/file record's attachment id to the path of its
	// bytes (false: not available).
	Asset func(attachmentID string) (path string, ok bool)
	// Mention gives the snapshot taken at send of a mention record's path
	// (rec.Path, as the user wrote it), as an Attachment of Kind
	// KindMention or KindDirectory; ContextID and Name are filled in when
	// left empty. False (or a nil Mention): the mention has no payload, as
	// for a backend with its own file tools.
	Mention func(rec *contextref.MentionRecord) (Attachment, bool)
}

// Prepare builds a turn from a message: the provider projection and one
// attachment per image or file record the text references, in
// first-reference order. resolve maps an attachment id to the path of its
// bytes; an attachment it cannot resolve (or a nil resolve) is still listed,
// with an empty Path. ThreadID and Dir are the caller's to set.
func Prepare(text string, records []contextref.Record, resolve func(attachmentID string) (path string, ok bool)) Turn {
	return PrepareWith(text, records, Resolver{Asset: resolve})
}

// PrepareWith is Prepare with mention snapshots: one attachment per image,
// file or mention record the text references (mentions only when
// r.Mention gives their snapshot), in first-reference order, one per
// context id (an id held by two records is skipped, as the projection
// treats it as missing).
func PrepareWith(text string, records []contextref.Record, r Resolver) Turn {
	t := Turn{Text: text, Records: records, Prompt: contextref.ProjectForProvider(text, records)}
	if !contextref.HasReferences(text) {
		return t
	}
	byID, dup := indexRecords(records)
	seen := map[string]bool{}
	for _, o := range contextref.Scan(text) {
		if seen[o.ContextID] || dup[o.ContextID] {
			continue
		}
		seen[o.ContextID] = true
		if rec, ok := byID[o.ContextID].(*contextref.MentionRecord); ok {
			if r.Mention == nil {
				continue
			}
			a, ok := r.Mention(rec)
			if !ok {
				continue
			}
			if a.Kind == KindAttachment {
				a.Kind = KindMention
			}
			if a.ContextID == "" {
				a.ContextID = o.ContextID
			}
			if a.Name == "" {
				a.Name = rec.Path
			}
			t.Attachments = append(t.Attachments, a)
			continue
		}
		ar := contextref.AttachmentOf(byID[o.ContextID])
		if ar == nil {
			continue
		}
		a := Attachment{
			ContextID:    o.ContextID,
			AttachmentID: ar.AttachmentID,
			Name:         ar.Name,
			MimeType:     ar.MimeType,
			Size:         ar.SizeBytes,
		}
		if r.Asset != nil {
			if p, ok := r.Asset(ar.AttachmentID); ok {
				a.Path = p
			}
		}
		t.Attachments = append(t.Attachments, a)
	}
	return t
}

// indexRecords maps context ids to records; ids held by two records are in
// dup.
func indexRecords(records []contextref.Record) (map[string]contextref.Record, map[string]bool) {
	byID := make(map[string]contextref.Record, len(records))
	dup := map[string]bool{}
	for _, r := range records {
		id := r.RecordBase().ContextID
		if _, ok := byID[id]; ok {
			dup[id] = true
		}
		byID[id] = r
	}
	return byID, dup
}

// SkillNames lists the names of the skill records a message's text
// references, in first-reference order, once each (HistoryMessage.Skills).
func SkillNames(text string, records []contextref.Record) []string {
	if !contextref.HasReferences(text) {
		return nil
	}
	byID, dup := indexRecords(records)
	var names []string
	seen := map[string]bool{}
	for _, occ := range contextref.Scan(text) {
		s, _ := byID[occ.ContextID].(*contextref.SkillRecord)
		if s == nil || dup[occ.ContextID] {
			continue
		}
		name := strings.TrimSpace(s.Name)
		if name != "" && !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	return names
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

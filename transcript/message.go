package transcript

import (
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
)

// Message is one message of a thread as the transcript shows it.
type Message struct {
	ID string
	// Role is user or assistant; any other role is drawn as the agent's.
	Role message.Role
	// Text is the canonical Markdown of the message.
	Text string
	// Context is the structured context of a user message; nil for an older
	// message whose context, if any, is still in legacy blocks of the text.
	Context *contextref.MessageContext
	// RawContext is the structured context as stored (JSON), used when
	// Context is nil: the transcript decodes it (contextref.DecodeContext)
	// only when the message is first drawn or its chips are needed, and
	// keeps the result. One that does not decode counts as no context.
	RawContext []byte
	// Status is the message's status ("" is done).
	Status message.Status
	// Items are an assistant reply's items, in order (DESIGN.md section 9).
	// A reply with items is drawn from them, and Text is not used.
	Items []message.Item
	// PlainText says the reply may be plain text (an exec: backend's
	// output): its mode is decided once from its first 4 KB — Markdown
	// when they look like Markdown, else plain text with every line kept.
	// Without it a reply is Markdown.
	PlainText bool
}

// PagerMsg asks the app to show a whole item (or reply) in $PAGER. The
// transcript does no I/O itself.
type PagerMsg struct {
	Title string
	Text  string
}

// OpenMsg asks the app to open what a chip points at (a file, an image, a
// mention's path, a pull request's URL). The transcript does no I/O itself.
type OpenMsg struct {
	Record contextref.Record
}

// ForkMsg asks the app for a new thread holding the thread's messages up
// to and including this one.
type ForkMsg struct {
	MessageID string // the last message the new thread keeps
}

// RewindMsg asks the app to fork the thread before this user message and
// put the message in the fork's composer to edit (the rewind).
type RewindMsg struct {
	MessageID string // the user message; the fork holds the messages before it
}

// CopyMsg asks the app to copy a message: its canonical Markdown and the
// records its references point at (the clipboard layer writes the text and
// the fragment). From the details popover it is one chip alone.
type CopyMsg struct {
	MessageID string
	Markdown  string
	Records   []contextref.Record
}

// DecodeRawContext is the context a RawContext stands for: nil when raw
// is nil or does not decode (records that do not decode are dropped, as
// contextref.DecodeContext does).
func DecodeRawContext(raw []byte) *contextref.MessageContext {
	if raw == nil {
		return nil
	}
	ctx, _, err := contextref.DecodeContext(raw)
	if err != nil {
		return nil
	}
	return ctx
}

// ResolveUserMessageContext gives the text and records a user message is
// drawn from (DESIGN.md 5): a message with structured context is used as
// is; an older one is upgraded from its legacy blocks in memory (3.6), and
// the stored text is never rewritten.
func ResolveUserMessageContext(text string, ctx *contextref.MessageContext) (string, []contextref.Record) {
	if ctx != nil {
		return text, ctx.Records
	}
	return contextref.UpgradeLegacy(text)
}

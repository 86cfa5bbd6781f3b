package store

import "database/sql"

// How a reply's text is drawn, kept with the reply (issue 25 item 17): an
// exec: backend's output may be plain text, whose lines are kept as they
// came, while other backends answer in Markdown. Decided by the backend
// that wrote the reply, not the one running when the thread is reopened.

// Text modes of Message.TextMode.
const (
	// TextPlain: the reply may be plain text (an exec: backend's output):
	// drawn as plain text, every line kept, unless its first 4 KB look
	// like Markdown (the transcript decides the same way every time).
	TextPlain = "plain"
	// TextMarkdown: the reply is Markdown.
	TextMarkdown = "markdown"
)

// migrate8 adds messages.text_mode: a reply's TextMode (NULL: a message
// written before it was recorded, or a user message).
func migrate8(tx *sql.Tx) error {
	_, err := tx.Exec(`ALTER TABLE messages ADD COLUMN text_mode TEXT`)
	return err
}

// textMode is a TextMode for the text_mode column ("" is NULL).
func textMode(mode string) any {
	if mode == "" {
		return nil
	}
	return mode
}

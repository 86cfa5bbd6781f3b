package store

import (
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
)

// MaxTitleLen is the length, in characters, a derived thread title is cut to.
const MaxTitleLen = 80

// Message is one message of a thread. Text is canonical Markdown.
type Message struct {
	ID       string
	ThreadID string
	Seq      int64 // 1, 2, … in the thread
	Role     message.Role
	Text     string
	// Context is the structured context, decoded (nil: none, or left
	// undecoded by MessagesRaw). AddMessage stores it.
	Context *contextref.MessageContext
	// RawContext is the context JSON as stored (nil: none). Messages,
	// MessagesRaw and AddMessage fill it; AddMessage ignores it on input.
	// It may not decode: it was written by some other version.
	RawContext []byte
	Status     message.Status
	// TextMode is how a reply's text is drawn: TextPlain, TextMarkdown,
	// or "" when not recorded (a reply written before chipchat kept it).
	TextMode string
	Created  time.Time
	// Items are a reply's items, in order (an assistant message's text is
	// in its text items; Text is empty). AddMessage stores them.
	Items []message.Item
}

// AddMessage appends a message to its thread and returns it as stored: ID
// ("msg_…") when empty, Seq, Created when zero, and Status "done" when
// empty are filled in. The thread's Updated time moves to now, and an empty
// title is derived from a user message (see TitleFromText). When AddMessage
// returns, the message is committed; a user message is also synced to disk.
func (s *Store) AddMessage(m Message) (Message, error) {
	if !m.Role.Valid() {
		return Message{}, fmt.Errorf("store: add message: unknown role %q", m.Role)
	}
	if m.Status == "" {
		m.Status = message.StatusDone
	}
	if !m.Status.Valid() {
		return Message{}, fmt.Errorf("store: add message: unknown status %q", m.Status)
	}
	if m.ID == "" {
		m.ID = newID("msg_")
	}
	if m.Role == message.RoleAssistant && m.Text != "" && len(m.Items) == 0 {
		// A reply is its items: text handed as Text becomes one text item.
		m.Items = []message.Item{{ID: "item_1", Kind: message.ItemText, Text: m.Text}}
		m.Text = ""
	}
	var ctxJSON any // nil → NULL
	m.RawContext = nil
	if m.Context != nil {
		raw, err := m.Context.Marshal()
		if err != nil {
			return Message{}, fmt.Errorf("store: add message: context: %w", err)
		}
		ctxJSON, m.RawContext = string(raw), raw
	}
	created := toNS(m.Created)
	m.Created = fromNS(created)
	err := s.write(m.Role == message.RoleUser, func(tx *sql.Tx) error {
		if err := s.ensureThread(tx, m.ThreadID); err != nil { // a thread NewThread made (threads.go)
			return err
		}
		var title string
		if err := tx.QueryRow(`SELECT title FROM threads WHERE id = ?`, m.ThreadID).Scan(&title); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("thread %s: %w", m.ThreadID, ErrNotFound)
			}
			return err
		}
		if err := tx.QueryRow(`INSERT INTO messages(id, thread_id, seq, role, text, context, status, created_ns, text_mode)
			SELECT ?, ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ?, ? FROM messages WHERE thread_id = ?
			RETURNING seq`,
			m.ID, m.ThreadID, m.Role, m.Text, ctxJSON, m.Status, created, textMode(m.TextMode), m.ThreadID).Scan(&m.Seq); err != nil {
			return err
		}
		if err := insertItems(tx, m.ID, m.Items); err != nil {
			return err
		}
		if err := indexMessage(tx, m.ID); err != nil { // search.go
			return err
		}
		if title == "" && m.Role == message.RoleUser {
			title = TitleFromText(m.Text)
		}
		_, err := tx.Exec(`UPDATE threads SET updated_ns = ?, title = ? WHERE id = ?`, nowNS(), title, m.ThreadID)
		return err
	})
	if err != nil {
		return Message{}, fmt.Errorf("store: add message: %w", err)
	}
	s.stored(m.ThreadID)
	return m, nil
}

// TitleFromText derives a thread title from a message's canonical text: its
// first non-blank line, reference links shown as their labels, trimmed and
// cut to MaxTitleLen characters.
func TitleFromText(text string) string {
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(contextref.Replace(line, func(o contextref.Occurrence) string { return o.Label }))
		if line == "" {
			continue
		}
		if utf8.RuneCountInString(line) > MaxTitleLen {
			n := 0
			for i := range line {
				if n == MaxTitleLen {
					line = line[:i]
					break
				}
				n++
			}
			line = strings.TrimRightFunc(line, unicode.IsSpace)
		}
		return line
	}
	return ""
}

// Messages returns a thread's messages in order, each context decoded
// (Context) and as stored (RawContext). A stored context that no longer
// decodes loads as a nil Context (the text is kept). A thread that does not
// exist has no messages.
func (s *Store) Messages(threadID string) ([]Message, error) {
	out, err := s.MessagesRaw(threadID)
	if err != nil {
		return nil, err
	}
	decodeContexts(out)
	return out, nil
}

// MessagesRaw is Messages without decoding: every Context is nil and
// RawContext holds the stored JSON, for a caller that decodes only the
// contexts it needs (contextref.DecodeContext; one that fails to decode is
// no context). Decoding dominates loading a long thread: the transcript
// opens a thread this way and decodes a message's context when it first
// draws it.
func (s *Store) MessagesRaw(threadID string) ([]Message, error) {
	var out []Message
	err := s.read(func() error {
		// Sized up front (the count reads the index only): a long thread
		// is not copied over while the slice grows.
		var n int
		if err := s.db.QueryRow(`SELECT count(*) FROM messages WHERE thread_id = ?`, threadID).Scan(&n); err != nil {
			return err
		}
		out = make([]Message, 0, n)
		rows, err := s.db.Query(`SELECT id, seq, role, text, context, status, created_ns, COALESCE(text_mode, '')
			FROM messages WHERE thread_id = ? ORDER BY seq`, threadID)
		if err != nil {
			return err
		}
		if out, _, err = scanMessages(rows, threadID, out, -1); err != nil {
			return err
		}
		return s.readItems(threadID, out)
	})
	if err != nil {
		return nil, fmt.Errorf("store: messages of %s: %w", threadID, err)
	}
	return out, nil
}

// scanMessages appends the rows of a messages query (id, seq, role, text,
// context, status, created_ns, text_mode) to out, at most limit of them (limit < 0:
// all); more says a row was left. It closes rows.
func scanMessages(rows *sql.Rows, threadID string, out []Message, limit int) (_ []Message, more bool, _ error) {
	defer rows.Close()
	var created int64
	for rows.Next() {
		if limit >= 0 && len(out) == limit {
			return out, true, rows.Close()
		}
		out = append(out, Message{ThreadID: threadID})
		m := &out[len(out)-1]
		if err := rows.Scan(&m.ID, &m.Seq, &m.Role, &m.Text, &m.RawContext, &m.Status, &created, &m.TextMode); err != nil {
			return out, false, err
		}
		m.Created = fromNS(created)
	}
	return out, false, rows.Err()
}

// parallelDecodeMin is the number of messages from which contexts are
// decoded on several cores.
const parallelDecodeMin = 256

// decodeContexts sets each message's Context from its RawContext. Decoding
// dominates loading a long thread, and contextref.DecodeContext is pure, so
// a long thread is decoded in chunks on all cores.
func decodeContexts(msgs []Message) {
	decode := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if msgs[i].RawContext == nil {
				continue
			}
			if ctx, _, err := contextref.DecodeContext(msgs[i].RawContext); err == nil {
				msgs[i].Context = ctx
			}
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(msgs)/(parallelDecodeMin/2))
	if len(msgs) < parallelDecodeMin || workers < 2 {
		decode(0, len(msgs))
		return
	}
	var wg sync.WaitGroup
	chunk := (len(msgs) + workers - 1) / workers
	for lo := 0; lo < len(msgs); lo += chunk {
		wg.Go(func() { decode(lo, min(lo+chunk, len(msgs))) })
	}
	wg.Wait()
}

// MessageCount returns how many messages a thread has.
func (s *Store) MessageCount(threadID string) (int, error) {
	var n int
	err := s.read(func() error {
		return s.db.QueryRow(`SELECT count(*) FROM messages WHERE thread_id = ?`, threadID).Scan(&n)
	})
	if err != nil {
		return 0, fmt.Errorf("store: message count of %s: %w", threadID, err)
	}
	return n, nil
}

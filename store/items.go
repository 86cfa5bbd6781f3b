package store

import (
	"database/sql"
	"fmt"
	"unicode/utf8"

	"github.com/chipchat/chipchat/message"
)

// migrate4 stores agent replies as ordered items (DESIGN.md section 9):
// reply_items holds each item's kind and fields, reply_text the text of
// text, thought and notice items as appended chunks, so a growing item
// costs linear I/O. Each older reply becomes one text item holding its
// text, and its messages.text is emptied (the item has it now).
func migrate4(tx *sql.Tx) error {
	stmts := []string{
		`CREATE TABLE reply_items (
			message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
			pos        INTEGER NOT NULL,
			item_id    TEXT NOT NULL,
			kind       TEXT NOT NULL,
			data       BLOB,
			PRIMARY KEY (message_id, pos)
		)`,
		`CREATE TABLE reply_text (
			message_id TEXT NOT NULL,
			pos        INTEGER NOT NULL,
			seq        INTEGER NOT NULL,
			text       TEXT NOT NULL,
			PRIMARY KEY (message_id, pos, seq),
			FOREIGN KEY (message_id, pos) REFERENCES reply_items(message_id, pos) ON DELETE CASCADE
		)`,
		`INSERT INTO reply_items(message_id, pos, item_id, kind)
			SELECT id, 0, 'item_1', 'text' FROM messages WHERE role = 'assistant' AND text <> ''`,
		`INSERT INTO reply_text(message_id, pos, seq, text)
			SELECT id, 0, 0, text FROM messages WHERE role = 'assistant' AND text <> ''`,
		`UPDATE messages SET text = '' WHERE role = 'assistant'`,
	}
	for _, q := range stmts {
		if _, err := tx.Exec(q); err != nil {
			return err
		}
	}
	return nil
}

// ItemWrite is one change to a reply's item at position Pos: Item's kind and
// fields are written (inserted or replaced), then Append is added to its
// text. With Meta false only Append is written.
type ItemWrite struct {
	Pos    int
	Item   message.Item
	Meta   bool
	Append string
}

// WriteReply applies item writes to a reply in one transaction and, when
// status is not empty, sets the reply's status. The thread's Updated time
// moves to now.
func (s *Store) WriteReply(replyID string, writes []ItemWrite, status message.Status) error {
	if status != "" && !status.Valid() {
		return fmt.Errorf("store: write reply %s: unknown status %q", replyID, status)
	}
	err := s.write(false, func(tx *sql.Tx) error {
		var carry textCarry
		for k, w := range writes {
			if w.Meta {
				if !w.Item.Kind.Valid() {
					return fmt.Errorf("item %d: unknown kind %q", w.Pos, w.Item.Kind)
				}
				data, err := w.Item.Data()
				if err != nil {
					return fmt.Errorf("item %d: %w", w.Pos, err)
				}
				if _, err := tx.Exec(`INSERT INTO reply_items(message_id, pos, item_id, kind, data) VALUES (?, ?, ?, ?, ?)
					ON CONFLICT(message_id, pos) DO UPDATE SET item_id = excluded.item_id, kind = excluded.kind, data = excluded.data`,
					replyID, w.Pos, w.Item.ID, string(w.Item.Kind), data); err != nil {
					return err
				}
			}
			// A long append goes in rows of at most textChunk bytes: SQLite
			// copies what it is bound, and one 20 MB row would cost the
			// process that much again, twice. Appends to one item in a
			// row of writes (a long text's pieces) may cut a character:
			// its first bytes wait for the next append, so no row ends
			// inside one.
			rest := w.Append
			if carry.pos == w.Pos && carry.bytes != "" {
				rest, carry.bytes = carry.bytes+rest, ""
			}
			if next := k + 1; next < len(writes) && writes[next].Pos == w.Pos && !writes[next].Meta && writes[next].Append != "" {
				cut := partialRune(rest)
				rest, carry = rest[:cut], textCarry{pos: w.Pos, bytes: rest[cut:]}
			}
			for rest != "" {
				piece := rest[:chunkCut(rest, textChunk)]
				rest = rest[len(piece):]
				if _, err := tx.Exec(`INSERT INTO reply_text(message_id, pos, seq, text)
					SELECT ?, ?, COALESCE(MAX(seq), -1) + 1, ? FROM reply_text WHERE message_id = ? AND pos = ?`,
					replyID, w.Pos, piece, replyID, w.Pos); err != nil {
					return err
				}
			}
		}
		if status != "" {
			res, err := tx.Exec(`UPDATE messages SET status = ? WHERE id = ?`, status, replyID)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return ErrNotFound
			}
			if status.Final() { // indexed once, when it ends (search.go)
				if err := indexMessage(tx, replyID); err != nil {
					return err
				}
			}
		}
		_, err := tx.Exec(`UPDATE threads SET updated_ns = ? WHERE id = (SELECT thread_id FROM messages WHERE id = ?)`, nowNS(), replyID)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: write reply %s: %w", replyID, err)
	}
	return nil
}

// textCarry is the start of a character an append cut, kept for the
// item's next append.
type textCarry struct {
	pos   int
	bytes string
}

// partialRune is where an incomplete UTF-8 sequence at the end of s
// starts (len(s) when s ends with a whole character or is not UTF-8
// there).
func partialRune(s string) int {
	for k := 1; k <= min(3, len(s)); k++ {
		c := s[len(s)-k]
		if !utf8.RuneStart(c) {
			continue
		}
		if c >= 0xC0 && !utf8.FullRuneInString(s[len(s)-k:]) {
			return len(s) - k
		}
		break
	}
	return len(s)
}

// textChunk bounds one reply_text row.
const textChunk = 256 << 10

// chunkCut is where to cut s so the piece is at most n bytes and does not
// split a UTF-8 sequence (s's whole length when it is short enough).
func chunkCut(s string, n int) int {
	if len(s) <= n {
		return len(s)
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	if i == 0 {
		return n
	}
	return i
}

// SetStatus sets a message's status (a reply finishing, a queued message
// being sent).
func (s *Store) SetStatus(id string, status message.Status) error {
	return s.WriteReply(id, nil, status)
}

// readItems fills the Items of the replies in msgs, messages of the thread
// in Seq order (all of them, MessagesRaw, or a page, MessagesAfter), in one
// query over the rows of those messages only: each item row comes once per
// text chunk (or once, with a NULL chunk, when it has no text), ordered by
// message, position and chunk. It is the store's one reader of reply items.
func (s *Store) readItems(threadID string, msgs []Message) error {
	if len(msgs) == 0 {
		return nil
	}
	lo, hi := msgs[0].Seq, msgs[len(msgs)-1].Seq
	bySeq := make(map[int64]*Message, len(msgs))
	for i := range msgs {
		if msgs[i].Role == message.RoleAssistant {
			bySeq[msgs[i].Seq] = &msgs[i]
		}
	}
	if len(bySeq) == 0 {
		return nil
	}
	rows, err := s.db.Query(`SELECT m.seq, r.pos, r.item_id, r.kind, r.data, t.text
		FROM messages m JOIN reply_items r ON r.message_id = m.id
		LEFT JOIN reply_text t ON t.message_id = r.message_id AND t.pos = r.pos
		WHERE m.thread_id = ? AND m.seq BETWEEN ? AND ? AND m.role = 'assistant'
		ORDER BY m.seq, r.pos, t.seq`, threadID, lo, hi)
	if err != nil {
		return err
	}
	defer rows.Close()
	// A long text is read into pieces (message.TextBuf), not joined: it
	// is not held twice while it is read, nor grown by copies.
	var (
		cur     *message.Item
		curSeq  int64
		curPos  = -1
		text    = &message.TextBuf{}
		hasText bool
	)
	flush := func() {
		if cur != nil && hasText {
			if text.Len() <= message.TextPiece {
				cur.Text = text.String()
			} else {
				cur.Chunks = text.Text()
			}
		}
		text = &message.TextBuf{}
		hasText = false
	}
	for rows.Next() {
		var seq int64
		var pos int
		var itemID, kind string
		var data []byte
		var chunk sql.NullString
		if err := rows.Scan(&seq, &pos, &itemID, &kind, &data, &chunk); err != nil {
			return err
		}
		if seq != curSeq || pos != curPos {
			flush()
			m := bySeq[seq]
			if m == nil {
				cur = nil
				continue
			}
			it := message.Item{ID: itemID, Kind: message.ItemKind(kind)}
			_ = it.SetData(data) // fields a newer version wrote and this one cannot read are left out
			m.Items = append(m.Items, it)
			cur, curSeq, curPos = &m.Items[len(m.Items)-1], seq, pos
		}
		if chunk.Valid {
			text.Append(chunk.String)
			hasText = true
		}
	}
	flush()
	return rows.Err()
}

// insertItems writes a new reply's items (AddMessage and ForkThread).
func insertItems(tx *sql.Tx, replyID string, items []message.Item) error {
	for pos, it := range items {
		data, err := it.Data()
		if err != nil {
			return err
		}
		if _, err := tx.Exec(`INSERT INTO reply_items(message_id, pos, item_id, kind, data) VALUES (?, ?, ?, ?, ?)`,
			replyID, pos, it.ID, string(it.Kind), data); err != nil {
			return err
		}
		seq := 0
		for p := range it.Body().Pieces(0) {
			for rest := p; rest != ""; seq++ {
				piece := rest[:chunkCut(rest, textChunk)]
				rest = rest[len(piece):]
				if _, err := tx.Exec(`INSERT INTO reply_text(message_id, pos, seq, text) VALUES (?, ?, ?, ?)`, replyID, pos, seq, piece); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

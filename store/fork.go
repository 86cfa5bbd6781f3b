package store

import (
	"database/sql"
	"errors"
	"fmt"

	"github.com/chipchat/chipchat/message"
)

// ForkThread makes a new thread of the project holding copies of thread
// from's messages up to and including upTo, in one transaction: the copy
// is whole or not at all, and each message's context is copied as stored
// (a context this version cannot decode is kept, not dropped). A reply
// that was still streaming is copied as interrupted. The title is the
// original's.
func (s *Store) ForkThread(projectID int64, from, upTo string) (Thread, error) {
	now := nowNS()
	t := Thread{ID: newID("thr_"), ProjectID: projectID, Created: fromNS(now), Updated: fromNS(now)}
	err := s.write(false, func(tx *sql.Tx) error {
		var upSeq int64
		if err := tx.QueryRow(`SELECT seq FROM messages WHERE id = ? AND thread_id = ?`, upTo, from).Scan(&upSeq); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("message %s in thread %s: %w", upTo, from, ErrNotFound)
			}
			return err
		}
		if err := tx.QueryRow(`SELECT title FROM threads WHERE id = ?`, from).Scan(&t.Title); err != nil {
			return err
		}
		if _, err := tx.Exec(`INSERT INTO threads(id, project_id, title, created_ns, updated_ns) VALUES (?, ?, ?, ?, ?)`,
			t.ID, projectID, t.Title, now, now); err != nil {
			return err
		}
		rows, err := tx.Query(`SELECT id, seq, role, text, context, status, created_ns, text_mode FROM messages
			WHERE thread_id = ? AND seq <= ? ORDER BY seq`, from, upSeq)
		if err != nil {
			return err
		}
		type row struct {
			id         string
			seq        int64
			role, text string
			ctx        sql.NullString
			status     message.Status
			created    int64
			mode       sql.NullString
		}
		var copies []row
		for rows.Next() {
			var r row
			if err := rows.Scan(&r.id, &r.seq, &r.role, &r.text, &r.ctx, &r.status, &r.created, &r.mode); err != nil {
				rows.Close()
				return err
			}
			copies = append(copies, r)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, r := range copies {
			if r.status == message.StatusStreaming {
				r.status = message.StatusInterrupted
			}
			if r.status == message.StatusQueued {
				continue // not sent: it stays in its own thread's queue
			}
			id := newID("msg_")
			if _, err := tx.Exec(`INSERT INTO messages(id, thread_id, seq, role, text, context, status, created_ns, text_mode)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, t.ID, r.seq, r.role, r.text, r.ctx, r.status, r.created, r.mode); err != nil {
				return err
			}
			if _, err := tx.Exec(`INSERT INTO reply_items(message_id, pos, item_id, kind, data)
				SELECT ?, pos, item_id, kind, data FROM reply_items WHERE message_id = ?`, id, r.id); err != nil {
				return err
			}
			if _, err := tx.Exec(`INSERT INTO reply_text(message_id, pos, seq, text)
				SELECT ?, pos, seq, text FROM reply_text WHERE message_id = ?`, id, r.id); err != nil {
				return err
			}
			if err := indexMessage(tx, id); err != nil { // search.go
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Thread{}, fmt.Errorf("store: fork %s: %w", from, err)
	}
	return t, nil
}

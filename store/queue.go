package store

import (
	"database/sql"
	"errors"
	"fmt"

	"github.com/chipchat/chipchat/message"
)

// Dequeue marks a queued user message as sent and moves it to the end of
// its thread (so the reply that answers it follows it, after any message
// queued behind it was stored). It returns the message as it is now
// stored; ErrNotFound when it is not queued (sent already, or pulled back
// by another process). The message is synced to disk, as a user message is.
func (s *Store) Dequeue(id string) (Message, error) {
	var m Message
	err := s.write(true, func(tx *sql.Tx) error {
		var threadID string
		if err := tx.QueryRow(`SELECT thread_id FROM messages WHERE id = ? AND status = ?`, id, message.StatusQueued).Scan(&threadID); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return ErrNotFound
			}
			return err
		}
		var seq int64
		if err := tx.QueryRow(`SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE thread_id = ?`, threadID).Scan(&seq); err != nil {
			return err
		}
		now := nowNS()
		if _, err := tx.Exec(`UPDATE messages SET status = ?, seq = ?, created_ns = ? WHERE id = ?`, message.StatusDone, seq, now, id); err != nil {
			return err
		}
		if _, err := tx.Exec(`UPDATE threads SET updated_ns = ? WHERE id = ?`, now, threadID); err != nil {
			return err
		}
		var created int64
		m = Message{ID: id, ThreadID: threadID}
		if err := tx.QueryRow(`SELECT seq, role, text, context, status, created_ns FROM messages WHERE id = ?`, id).
			Scan(&m.Seq, &m.Role, &m.Text, &m.RawContext, &m.Status, &created); err != nil {
			return err
		}
		m.Created = fromNS(created)
		return nil
	})
	if err != nil {
		return Message{}, fmt.Errorf("store: dequeue %s: %w", id, err)
	}
	one := []Message{m}
	decodeContexts(one)
	return one[0], nil
}

// Unqueue deletes a queued user message (pulled back into the draft). It is
// ErrNotFound when the message is not queued any more.
func (s *Store) Unqueue(id string) error {
	err := s.write(false, func(tx *sql.Tx) error {
		res, err := tx.Exec(`DELETE FROM messages WHERE id = ? AND status = ?`, id, message.StatusQueued)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: unqueue %s: %w", id, err)
	}
	return nil
}

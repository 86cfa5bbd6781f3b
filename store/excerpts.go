package store

import (
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// migrate2 adds when each terminal excerpt was captured, so an excerpt in a
// draft can expire (the record itself carries no time).
func migrate2(tx *sql.Tx) error {
	_, err := tx.Exec(`CREATE TABLE excerpts (
		context_id  TEXT PRIMARY KEY,
		captured_ns INTEGER NOT NULL
	)`)
	return err
}

// NoteExcerpt records when the terminal excerpt with this context id was
// captured.
func (s *Store) NoteExcerpt(contextID string, at time.Time) error {
	err := s.write(false, func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO excerpts(context_id, captured_ns) VALUES (?, ?)
			ON CONFLICT(context_id) DO UPDATE SET captured_ns = excluded.captured_ns`, contextID, toNS(at))
		return err
	})
	if err != nil {
		return fmt.Errorf("store: note excerpt %s: %w", contextID, err)
	}
	return nil
}

// ExcerptCaptured returns when the excerpt was captured; false when this
// environment did not capture it (pasted or upgraded excerpts).
func (s *Store) ExcerptCaptured(contextID string) (time.Time, bool, error) {
	var ns int64
	err := s.read(func() error {
		return s.db.QueryRow(`SELECT captured_ns FROM excerpts WHERE context_id = ?`, contextID).Scan(&ns)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, fmt.Errorf("store: excerpt %s: %w", contextID, err)
	}
	return fromNS(ns), true, nil
}

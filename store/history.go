package store

import (
	"database/sql"
	"fmt"
	"time"

	"github.com/chipchat/chipchat/contextref"
)

// migrate6 adds the prompt history: every prompt sent in a project, with
// its chips' records, newest last (composer up/down and ctrl+r). It is
// kept apart from the messages, so deleting a thread keeps its prompts in
// the history, as a shell's history outlives the shell.
func migrate6(tx *sql.Tx) error {
	for _, q := range []string{
		`CREATE TABLE prompt_history (
			id         INTEGER PRIMARY KEY AUTOINCREMENT,
			project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
			markdown   TEXT NOT NULL,
			records    TEXT NOT NULL,
			created_ns INTEGER NOT NULL
		)`,
		`CREATE INDEX prompt_history_project ON prompt_history(project_id, id)`,
	} {
		if _, err := tx.Exec(q); err != nil {
			return err
		}
	}
	return nil
}

// MaxHistory is how many prompts a project's history keeps.
const MaxHistory = 1000

// HistoryEntry is one prompt of a project's history.
type HistoryEntry struct {
	ID       int64
	Markdown string
	Records  []contextref.Record
	Created  time.Time
}

// AddHistory appends a prompt to the project's history. A prompt equal to
// the newest entry is not added twice; past MaxHistory the oldest go.
// Concurrent processes append to the same table, so each sees the other's
// prompts on its next read.
func (s *Store) AddHistory(projectID int64, markdown string, recs []contextref.Record) error {
	raw, err := marshalRecords(recs)
	if err != nil {
		return fmt.Errorf("store: history: %w", err)
	}
	err = s.write(false, func(tx *sql.Tx) error {
		var last, lastRecs string
		err := tx.QueryRow(`SELECT markdown, records FROM prompt_history WHERE project_id = ? ORDER BY id DESC LIMIT 1`, projectID).Scan(&last, &lastRecs)
		if err == nil && last == markdown && lastRecs == raw {
			return nil
		}
		if err != nil && err != sql.ErrNoRows {
			return err
		}
		if _, err := tx.Exec(`INSERT INTO prompt_history(project_id, markdown, records, created_ns) VALUES (?, ?, ?, ?)`,
			projectID, markdown, raw, nowNS()); err != nil {
			return err
		}
		_, err = tx.Exec(`DELETE FROM prompt_history WHERE project_id = ? AND id <= (
			SELECT id FROM prompt_history WHERE project_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)`, projectID, projectID, MaxHistory)
		return err
	})
	if isFKError(err) {
		return fmt.Errorf("store: history: project %d: %w", projectID, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("store: history: %w", err)
	}
	return nil
}

// History returns up to limit of the project's prompts, newest first
// (limit ≤ 0: MaxHistory).
func (s *Store) History(projectID int64, limit int) ([]HistoryEntry, error) {
	if limit <= 0 || limit > MaxHistory {
		limit = MaxHistory
	}
	var out []HistoryEntry
	err := s.read(func() error {
		out = out[:0]
		rows, err := s.db.Query(`SELECT id, markdown, records, created_ns FROM prompt_history WHERE project_id = ?
			ORDER BY id DESC LIMIT ?`, projectID, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var e HistoryEntry
			var recs []byte
			var created int64
			if err := rows.Scan(&e.ID, &e.Markdown, &recs, &created); err != nil {
				return err
			}
			e.Records, e.Created = unmarshalRecords(recs), fromNS(created)
			out = append(out, e)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("store: history: %w", err)
	}
	return out, nil
}

package store

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/chipchat/chipchat/contextref"
)

// Caret is a position in a draft, as the composer counts it.
type Caret struct{ Line, Col int }

// Draft is the unsent composer content of a thread.
type Draft struct {
	ThreadID string
	Markdown string // canonical Markdown
	Records  []contextref.Record
	Caret    Caret
	Updated  time.Time
}

// SaveDraft stores a thread's draft, replacing the one before. A draft with
// no Markdown and no records deletes the stored one. Updated is set to now
// when zero.
func (s *Store) SaveDraft(d Draft) error {
	if d.Markdown == "" && len(d.Records) == 0 {
		return s.write(false, func(tx *sql.Tx) error {
			_, err := tx.Exec(`DELETE FROM drafts WHERE thread_id = ?`, d.ThreadID)
			return err
		})
	}
	recs, err := marshalRecords(d.Records)
	if err != nil {
		return fmt.Errorf("store: save draft of %s: %w", d.ThreadID, err)
	}
	updated := toNS(d.Updated)
	err = s.write(false, func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO drafts(thread_id, markdown, records, caret_line, caret_col, updated_ns)
			VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT(thread_id) DO UPDATE SET markdown = excluded.markdown, records = excluded.records,
				caret_line = excluded.caret_line, caret_col = excluded.caret_col, updated_ns = excluded.updated_ns`,
			d.ThreadID, d.Markdown, recs, d.Caret.Line, d.Caret.Col, updated)
		return err
	})
	if isFKError(err) {
		return fmt.Errorf("store: save draft: thread %s: %w", d.ThreadID, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("store: save draft of %s: %w", d.ThreadID, err)
	}
	return nil
}

// LoadDraft returns a thread's draft; false when it has none. Records that
// no longer decode are left out.
func (s *Store) LoadDraft(threadID string) (Draft, bool, error) {
	d := Draft{ThreadID: threadID}
	var recs []byte
	var updated int64
	err := s.read(func() error {
		return s.db.QueryRow(`SELECT markdown, records, caret_line, caret_col, updated_ns FROM drafts WHERE thread_id = ?`,
			threadID).Scan(&d.Markdown, &recs, &d.Caret.Line, &d.Caret.Col, &updated)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return Draft{}, false, nil
	}
	if err != nil {
		return Draft{}, false, fmt.Errorf("store: load draft of %s: %w", threadID, err)
	}
	d.Records = unmarshalRecords(recs)
	d.Updated = fromNS(updated)
	return d, true, nil
}

// StashEntry is a draft moved out of the composer to the project's stash.
type StashEntry struct {
	ID        int64
	ProjectID int64
	Markdown  string
	Records   []contextref.Record
	Created   time.Time
}

// PushStash adds an entry to its project's stash and returns it with its
// ID (and Created, when zero) filled in.
func (s *Store) PushStash(e StashEntry) (StashEntry, error) {
	recs, err := marshalRecords(e.Records)
	if err != nil {
		return StashEntry{}, fmt.Errorf("store: stash: %w", err)
	}
	created := toNS(e.Created)
	e.Created = fromNS(created)
	err = s.write(false, func(tx *sql.Tx) error {
		return tx.QueryRow(`INSERT INTO stash(project_id, markdown, records, created_ns) VALUES (?, ?, ?, ?) RETURNING id`,
			e.ProjectID, e.Markdown, recs, created).Scan(&e.ID)
	})
	if isFKError(err) {
		return StashEntry{}, fmt.Errorf("store: stash: project %d: %w", e.ProjectID, ErrNotFound)
	}
	if err != nil {
		return StashEntry{}, fmt.Errorf("store: stash: %w", err)
	}
	return e, nil
}

// Stash lists a project's stash, newest first.
func (s *Store) Stash(projectID int64) ([]StashEntry, error) {
	var out []StashEntry
	err := s.read(func() error {
		out = out[:0]
		rows, err := s.db.Query(`SELECT id, markdown, records, created_ns FROM stash WHERE project_id = ? ORDER BY id DESC`, projectID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			e := StashEntry{ProjectID: projectID}
			var recs []byte
			var created int64
			if err := rows.Scan(&e.ID, &e.Markdown, &recs, &created); err != nil {
				return err
			}
			e.Records = unmarshalRecords(recs)
			e.Created = fromNS(created)
			out = append(out, e)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("store: stash: %w", err)
	}
	return out, nil
}

// DropStash removes a stash entry.
func (s *Store) DropStash(id int64) error {
	return s.execOne(fmt.Sprintf("drop stash entry %d", id), `DELETE FROM stash WHERE id = ?`, id)
}

// marshalRecords encodes records as a JSON array, each with
// contextref.MarshalRecord.
func marshalRecords(recs []contextref.Record) (string, error) {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, r := range recs {
		raw, err := contextref.MarshalRecord(r)
		if err != nil {
			return "", fmt.Errorf("record %d: %w", i, err)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(raw)
	}
	b.WriteByte(']')
	return b.String(), nil
}

// unmarshalRecords decodes a JSON array of records one by one; a record
// that does not decode (or a list that is not an array) is left out.
func unmarshalRecords(raw []byte) []contextref.Record {
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return nil
	}
	out := make([]contextref.Record, 0, len(items))
	for _, it := range items {
		if r, err := contextref.DecodeRecord(it); err == nil {
			out = append(out, r)
		}
	}
	return out
}

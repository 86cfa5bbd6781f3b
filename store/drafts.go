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
	// Rev is the stored draft's revision: the stamp of the save that wrote
	// it (its updated_ns, unique per save, also across processes). LoadDraft
	// fills it in; SaveDraftOver compares it.
	Rev int64
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
		if err := s.ensureThread(tx, d.ThreadID); err != nil { // a thread NewThread made (threads.go)
			return err
		}
		_, err := tx.Exec(`INSERT INTO drafts(thread_id, markdown, records, caret_line, caret_col, updated_ns)
			VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT(thread_id) DO UPDATE SET markdown = excluded.markdown, records = excluded.records,
				caret_line = excluded.caret_line, caret_col = excluded.caret_col, updated_ns = excluded.updated_ns,
				piece_keys = NULL`,
			d.ThreadID, d.Markdown, recs, d.Caret.Line, d.Caret.Col, updated)
		if err != nil {
			return err
		}
		_, err = tx.Exec(`DELETE FROM draft_pieces WHERE thread_id = ?`, d.ThreadID) // written whole now
		return err
	})
	if isFKError(err) {
		return fmt.Errorf("store: save draft: thread %s: %w", d.ThreadID, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("store: save draft of %s: %w", d.ThreadID, err)
	}
	s.stored(d.ThreadID)
	return nil
}

// LoadDraft returns a thread's draft; false when it has none. Records that
// no longer decode are left out.
func (s *Store) LoadDraft(threadID string) (Draft, bool, error) {
	d := Draft{ThreadID: threadID}
	var recs, keys []byte
	var updated int64
	err := s.read(func() error {
		tx, err := s.db.Begin() // one snapshot: the row and its pieces
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if err := tx.QueryRow(`SELECT markdown, records, caret_line, caret_col, updated_ns, piece_keys FROM drafts WHERE thread_id = ?`,
			threadID).Scan(&d.Markdown, &recs, &d.Caret.Line, &d.Caret.Col, &updated, &keys); err != nil {
			return err
		}
		d.Markdown, err = storedDraftText(tx, threadID, d.Markdown, keys)
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		return Draft{}, false, nil
	}
	if err != nil {
		return Draft{}, false, fmt.Errorf("store: load draft of %s: %w", threadID, err)
	}
	d.Records = unmarshalRecords(recs)
	d.Updated = fromNS(updated)
	d.Rev = updated
	return d, true, nil
}

// DraftSave is what SaveDraftOver did.
type DraftSave struct {
	// Rev is the revision now stored: the one to pass as seen to the next
	// save. 0 when the draft was empty and the row is gone.
	Rev int64
	// Other is another process's version of the draft that this save would
	// have replaced (one this process had not seen): it was put in the
	// thread's project stash instead (nil when there was none).
	Other *StashEntry
}

// SaveDraftOver stores a thread's draft over revision seen: the revision
// this process last loaded or saved (0: none). When the stored draft has
// another revision — another chipchat process saved it since — that
// version is not lost: it goes to the project's stash, in the same
// transaction, and Other says so. into is the stash entry an earlier such
// save of this process made for this thread (0: none): it is updated in
// place while it exists, so two processes typing in one thread at once
// keep one stash entry each rather than one per save. A draft with no
// Markdown and no records deletes the stored one (still keeping an unseen
// version in the stash). d.Updated is ignored: the revision stamp is the
// time of the save.
func (s *Store) SaveDraftOver(d Draft, seen, into int64) (DraftSave, error) {
	empty := d.Markdown == "" && len(d.Records) == 0
	recs := "[]"
	if !empty {
		var err error
		if recs, err = marshalRecords(d.Records); err != nil {
			return DraftSave{}, fmt.Errorf("store: save draft of %s: %w", d.ThreadID, err)
		}
	}
	var res DraftSave
	err := s.write(false, func(tx *sql.Tx) error {
		res = DraftSave{}
		var cur int64
		err := tx.QueryRow(`SELECT updated_ns FROM drafts WHERE thread_id = ?`, d.ThreadID).Scan(&cur)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			cur = 0
		case err != nil:
			return err
		}
		var md string
		var curRecs []byte
		if cur != 0 && cur != seen {
			// Another process wrote it: only then is the stored text read
			// (a save over its own revision reads no megabytes).
			var keys []byte
			if err := tx.QueryRow(`SELECT markdown, records, piece_keys FROM drafts WHERE thread_id = ?`, d.ThreadID).Scan(&md, &curRecs, &keys); err != nil {
				return err
			}
			if md, err = storedDraftText(tx, d.ThreadID, md, keys); err != nil {
				return err
			}
		}
		if cur != 0 && cur != seen && (md != d.Markdown || string(curRecs) != recs) {
			other, err := stashOther(tx, d.ThreadID, md, curRecs, into)
			if err != nil {
				return err
			}
			res.Other = other
		}
		if empty {
			_, err := tx.Exec(`DELETE FROM drafts WHERE thread_id = ?`, d.ThreadID)
			return err
		}
		if err := s.ensureThread(tx, d.ThreadID); err != nil { // a thread NewThread made (threads.go)
			return err
		}
		rev := nowNS()
		if rev <= cur {
			rev = cur + 1
		}
		if rev == seen { // never hand out a revision the caller already holds
			rev++
		}
		_, err = tx.Exec(`INSERT INTO drafts(thread_id, markdown, records, caret_line, caret_col, updated_ns)
			VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT(thread_id) DO UPDATE SET markdown = excluded.markdown, records = excluded.records,
				caret_line = excluded.caret_line, caret_col = excluded.caret_col, updated_ns = excluded.updated_ns,
				piece_keys = NULL`,
			d.ThreadID, d.Markdown, recs, d.Caret.Line, d.Caret.Col, rev)
		if err != nil {
			return err
		}
		res.Rev = rev
		_, err = tx.Exec(`DELETE FROM draft_pieces WHERE thread_id = ?`, d.ThreadID) // written whole now
		return err
	})
	if isFKError(err) {
		return DraftSave{}, fmt.Errorf("store: save draft: thread %s: %w", d.ThreadID, ErrNotFound)
	}
	if err != nil {
		return DraftSave{}, fmt.Errorf("store: save draft of %s: %w", d.ThreadID, err)
	}
	if !empty {
		s.stored(d.ThreadID)
	}
	return res, nil
}

// stashOther puts another process's draft in the thread's project stash:
// into the entry into when it still exists, else a new one.
func stashOther(tx *sql.Tx, threadID, md string, recs []byte, into int64) (*StashEntry, error) {
	var project int64
	if err := tx.QueryRow(`SELECT project_id FROM threads WHERE id = ?`, threadID).Scan(&project); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("thread %s: %w", threadID, ErrNotFound)
		}
		return nil, err
	}
	e := &StashEntry{ProjectID: project, Markdown: md, Records: unmarshalRecords(recs)}
	created := nowNS()
	e.Created = fromNS(created)
	if into != 0 {
		r, err := tx.Exec(`UPDATE stash SET markdown = ?, records = ?, created_ns = ? WHERE id = ? AND project_id = ?`,
			md, string(recs), created, into, project)
		if err != nil {
			return nil, err
		}
		if n, _ := r.RowsAffected(); n == 1 {
			e.ID = into
			return e, nil
		}
	}
	if err := tx.QueryRow(`INSERT INTO stash(project_id, markdown, records, created_ns) VALUES (?, ?, ?, ?) RETURNING id`,
		project, md, string(recs), created).Scan(&e.ID); err != nil {
		return nil, err
	}
	return e, nil
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

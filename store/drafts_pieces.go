package store

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"

	"github.com/chipchat/chipchat/contextref"
)

// A draft is stored in pieces (schema 10) when the composer saves it:
// drafts.piece_keys lists the SHA-256 keys of its pieces in order, and
// draft_pieces holds each piece's text once per thread; the Markdown is
// the pieces' texts joined by newlines. A save writes the pieces the
// store lacks and deletes those no longer listed, so typing in a
// 10,000-line draft writes the piece the key changed, not the whole
// draft. A draft written whole (SaveDraft, a retry) has piece_keys NULL
// and its text in drafts.markdown, as before schema 10. Readers assemble
// it (storedDraftText); a listed piece that is missing is an error, never
// a shorter draft.

// PieceKeySize is the size of a piece's key (SHA-256).
const PieceKeySize = 32

// migrate10 adds the draft pieces.
func migrate10(tx *sql.Tx) error {
	for _, q := range []string{
		`ALTER TABLE drafts ADD COLUMN piece_keys BLOB`,
		`CREATE TABLE draft_pieces (
			thread_id TEXT NOT NULL REFERENCES drafts(thread_id) ON DELETE CASCADE,
			key       BLOB NOT NULL,
			text      TEXT NOT NULL,
			PRIMARY KEY (thread_id, key)
		) WITHOUT ROWID`,
	} {
		if _, err := tx.Exec(q); err != nil {
			return err
		}
	}
	return nil
}

// PiecedDraft is a draft given in pieces (composer.Snapshot.Pieces).
type PiecedDraft struct {
	ThreadID string
	// Keys are the pieces' keys in order (SHA-256 of each text).
	Keys [][PieceKeySize]byte
	// Text is piece i's text; it is called for the pieces the store
	// lacks only.
	Text func(i int) string
	// Markdown is the whole text (the pieces joined by newlines); it is
	// called only when another process wrote the draft since (to compare
	// and keep the other version).
	Markdown func() string
	Records  []contextref.Record
	Caret    Caret
}

type querier interface {
	Query(query string, args ...any) (*sql.Rows, error)
}

// storedDraftText is the stored draft's Markdown: md itself when it was
// written whole (keys nil), else its pieces joined.
func storedDraftText(q querier, threadID, md string, keys []byte) (string, error) {
	if keys == nil {
		return md, nil
	}
	if len(keys)%PieceKeySize != 0 {
		return "", fmt.Errorf("the draft's piece list is %d bytes, not a multiple of %d", len(keys), PieceKeySize)
	}
	rows, err := q.Query(`SELECT key, text FROM draft_pieces WHERE thread_id = ?`, threadID)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	texts := map[[PieceKeySize]byte]string{}
	for rows.Next() {
		var k []byte
		var t string
		if err := rows.Scan(&k, &t); err != nil {
			return "", err
		}
		if len(k) == PieceKeySize {
			texts[[PieceKeySize]byte(k)] = t
		}
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	n := len(keys)/PieceKeySize - 1
	for i := 0; i < len(keys); i += PieceKeySize {
		n += len(texts[[PieceKeySize]byte(keys[i:i+PieceKeySize])])
	}
	var b bytes.Buffer
	b.Grow(max(n, 0))
	for i := 0; i < len(keys); i += PieceKeySize {
		t, ok := texts[[PieceKeySize]byte(keys[i:i+PieceKeySize])]
		if !ok {
			return "", fmt.Errorf("piece %d of the draft is missing", i/PieceKeySize)
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(t)
	}
	return b.String(), nil
}

// SavePiecedDraftOver is SaveDraftOver of a draft in pieces: it writes
// the pieces the stored draft lacks (Text is called for those only) and
// deletes the pieces it no longer lists, in one transaction. What another
// process wrote since seen goes to the stash as SaveDraftOver says. An
// empty draft (one empty piece, no records) deletes the stored one.
func (s *Store) SavePiecedDraftOver(d PiecedDraft, seen, into int64) (DraftSave, error) {
	if len(d.Keys) == 0 {
		return DraftSave{}, fmt.Errorf("store: save draft of %s: no pieces", d.ThreadID)
	}
	if len(d.Keys) == 1 && len(d.Records) == 0 && d.Text(0) == "" {
		return s.SaveDraftOver(Draft{ThreadID: d.ThreadID}, seen, into)
	}
	recs, err := marshalRecords(d.Records)
	if err != nil {
		return DraftSave{}, fmt.Errorf("store: save draft of %s: %w", d.ThreadID, err)
	}
	list := make([]byte, 0, len(d.Keys)*PieceKeySize)
	for _, k := range d.Keys {
		list = append(list, k[:]...)
	}
	var res DraftSave
	err = s.write(false, func(tx *sql.Tx) error {
		res = DraftSave{}
		var cur int64
		var md string
		var curRecs, curKeys []byte
		err := tx.QueryRow(`SELECT updated_ns, markdown, records, piece_keys FROM drafts WHERE thread_id = ?`, d.ThreadID).
			Scan(&cur, &md, &curRecs, &curKeys)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			cur = 0
		case err != nil:
			return err
		}
		if cur != 0 && cur != seen && (!bytes.Equal(curKeys, list) || string(curRecs) != recs) {
			// Another process wrote it: its version is kept, unless it
			// is this very text.
			other, err := storedDraftText(tx, d.ThreadID, md, curKeys)
			if err != nil {
				return err
			}
			if other != d.Markdown() || string(curRecs) != recs {
				e, err := stashOther(tx, d.ThreadID, other, curRecs, into)
				if err != nil {
					return err
				}
				res.Other = e
			}
		}
		if err := s.ensureThread(tx, d.ThreadID); err != nil {
			return err
		}
		rev := nowNS()
		if rev <= cur {
			rev = cur + 1
		}
		if rev == seen {
			rev++
		}
		if _, err := tx.Exec(`INSERT INTO drafts(thread_id, markdown, records, caret_line, caret_col, updated_ns, piece_keys)
			VALUES (?, '', ?, ?, ?, ?, ?)
			ON CONFLICT(thread_id) DO UPDATE SET markdown = '', records = excluded.records,
				caret_line = excluded.caret_line, caret_col = excluded.caret_col, updated_ns = excluded.updated_ns,
				piece_keys = excluded.piece_keys`,
			d.ThreadID, recs, d.Caret.Line, d.Caret.Col, rev, list); err != nil {
			return err
		}
		if err := s.writePieces(tx, d); err != nil {
			return err
		}
		res.Rev = rev
		return nil
	})
	if isFKError(err) {
		return DraftSave{}, fmt.Errorf("store: save draft: thread %s: %w", d.ThreadID, ErrNotFound)
	}
	if err != nil {
		return DraftSave{}, fmt.Errorf("store: save draft of %s: %w", d.ThreadID, err)
	}
	s.stored(d.ThreadID)
	return res, nil
}

// writePieces makes the thread's stored pieces d's: the missing inserted,
// the unlisted deleted.
func (s *Store) writePieces(tx *sql.Tx, d PiecedDraft) error {
	have := map[[PieceKeySize]byte]bool{}
	rows, err := tx.Query(`SELECT key FROM draft_pieces WHERE thread_id = ?`, d.ThreadID)
	if err != nil {
		return err
	}
	for rows.Next() {
		var k []byte
		if err := rows.Scan(&k); err != nil {
			rows.Close()
			return err
		}
		if len(k) == PieceKeySize {
			have[[PieceKeySize]byte(k)] = true
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	want := make(map[[PieceKeySize]byte]bool, len(d.Keys))
	for i, k := range d.Keys {
		if want[k] {
			continue
		}
		want[k] = true
		if have[k] {
			continue
		}
		if _, err := tx.Exec(`INSERT INTO draft_pieces(thread_id, key, text) VALUES (?, ?, ?)`, d.ThreadID, k[:], d.Text(i)); err != nil {
			return err
		}
	}
	for k := range have {
		if !want[k] {
			if _, err := tx.Exec(`DELETE FROM draft_pieces WHERE thread_id = ? AND key = ?`, d.ThreadID, k[:]); err != nil {
				return err
			}
		}
	}
	return nil
}

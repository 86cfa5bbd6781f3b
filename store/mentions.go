package store

import (
	"database/sql"
	"fmt"
)

// migrate5 keeps what each @ mention of a sent message stood for: the
// snapshot of the file (or directory listing) taken at send, stored as an
// asset, so later turns resend what the user sent, not the file as it is
// now.
func migrate5(tx *sql.Tx) error {
	_, err := tx.Exec(`CREATE TABLE mention_snapshots (
		message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
		context_id TEXT NOT NULL,
		asset_id   TEXT NOT NULL,
		kind       TEXT NOT NULL,
		size_bytes INTEGER NOT NULL,
		mime_type  TEXT NOT NULL,
		PRIMARY KEY (message_id, context_id)
	)`)
	return err
}

// MentionSnapshot is the stored snapshot of one mention of a message.
type MentionSnapshot struct {
	ContextID string
	AssetID   string
	Kind      string // "mention" (a file) or "directory" (a listing)
	Size      int64  // the file's whole size at send
	MimeType  string
}

// AddMentionSnapshots records the snapshots of a message's mentions.
func (s *Store) AddMentionSnapshots(messageID string, snaps []MentionSnapshot) error {
	if len(snaps) == 0 {
		return nil
	}
	err := s.write(false, func(tx *sql.Tx) error {
		for _, m := range snaps {
			if _, err := tx.Exec(`INSERT OR REPLACE INTO mention_snapshots(message_id, context_id, asset_id, kind, size_bytes, mime_type)
				VALUES (?, ?, ?, ?, ?, ?)`, messageID, m.ContextID, m.AssetID, m.Kind, m.Size, m.MimeType); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: mention snapshots of %s: %w", messageID, err)
	}
	return nil
}

// MentionSnapshots returns a message's mention snapshots by context id.
func (s *Store) MentionSnapshots(messageID string) (map[string]MentionSnapshot, error) {
	out := map[string]MentionSnapshot{}
	err := s.read(func() error {
		rows, err := s.db.Query(`SELECT context_id, asset_id, kind, size_bytes, mime_type FROM mention_snapshots WHERE message_id = ?`, messageID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var m MentionSnapshot
			if err := rows.Scan(&m.ContextID, &m.AssetID, &m.Kind, &m.Size, &m.MimeType); err != nil {
				return err
			}
			out[m.ContextID] = m
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("store: mention snapshots of %s: %w", messageID, err)
	}
	return out, nil
}

// ThreadMentionSnapshots returns the mention snapshots of every message of
// a thread, by message id and context id (one query: a thread's history
// needs them all).
func (s *Store) ThreadMentionSnapshots(threadID string) (map[string]map[string]MentionSnapshot, error) {
	out := map[string]map[string]MentionSnapshot{}
	err := s.read(func() error {
		rows, err := s.db.Query(`SELECT n.message_id, n.context_id, n.asset_id, n.kind, n.size_bytes, n.mime_type
			FROM mention_snapshots n JOIN messages m ON m.id = n.message_id WHERE m.thread_id = ?`, threadID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			var m MentionSnapshot
			if err := rows.Scan(&id, &m.ContextID, &m.AssetID, &m.Kind, &m.Size, &m.MimeType); err != nil {
				return err
			}
			if out[id] == nil {
				out[id] = map[string]MentionSnapshot{}
			}
			out[id][m.ContextID] = m
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("store: mention snapshots of thread %s: %w", threadID, err)
	}
	return out, nil
}

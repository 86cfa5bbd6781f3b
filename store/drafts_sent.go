package store

import (
	"database/sql"
	"errors"
	"fmt"
)

// ClearSentDraft deletes a thread's draft when it holds exactly markdown:
// the text of a message just sent, which a save that raced the send may
// have written back. A draft with anything else in it is the user's and
// stays.
func (s *Store) ClearSentDraft(threadID, markdown string) error {
	err := s.write(false, func(tx *sql.Tx) error {
		var md string
		var keys []byte
		err := tx.QueryRow(`SELECT markdown, piece_keys FROM drafts WHERE thread_id = ?`, threadID).Scan(&md, &keys)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if md, err = storedDraftText(tx, threadID, md, keys); err != nil || md != markdown {
			return err
		}
		_, err = tx.Exec(`DELETE FROM drafts WHERE thread_id = ?`, threadID) // its pieces with it
		return err
	})
	if err != nil {
		return fmt.Errorf("store: clear the sent draft of %s: %w", threadID, err)
	}
	return nil
}

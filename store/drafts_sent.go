package store

import (
	"database/sql"
	"fmt"
)

// ClearSentDraft deletes a thread's draft when it holds exactly markdown:
// the text of a message just sent, which a save that raced the send may
// have written back. A draft with anything else in it is the user's and
// stays.
func (s *Store) ClearSentDraft(threadID, markdown string) error {
	err := s.write(false, func(tx *sql.Tx) error {
		_, err := tx.Exec(`DELETE FROM drafts WHERE thread_id = ? AND markdown = ?`, threadID, markdown)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: clear the sent draft of %s: %w", threadID, err)
	}
	return nil
}

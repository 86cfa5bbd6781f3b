package store

import (
	"database/sql"
	"errors"
	"fmt"
)

// DraftRev is the revision of a thread's stored draft (LoadDraft's Rev,
// SaveDraftOver's), 0 when it has none: a read, so a caller that knows
// what it last wrote can tell that nothing else wrote since and skip a
// save of the same text.
func (s *Store) DraftRev(threadID string) (int64, error) {
	var rev int64
	err := s.read(func() error {
		return s.db.QueryRow(`SELECT updated_ns FROM drafts WHERE thread_id = ?`, threadID).Scan(&rev)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("store: read the draft revision of %s: %w", threadID, err)
	}
	return rev, nil
}

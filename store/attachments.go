package store

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// BindAttachment records that the draft attachment with local id (the
// context id an image or file record uses) stores its bytes as asset
// assetID in this environment's asset store. Binding a local id again
// replaces the asset it points at. The binding is not the chip's identity
// (DESIGN.md 1): storage may change it without rewriting references.
func (s *Store) BindAttachment(localID, assetID string) error {
	if strings.TrimSpace(localID) == "" || strings.TrimSpace(assetID) == "" {
		return errors.New("store: bind attachment: empty id")
	}
	err := s.write(false, func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO attachment_bindings(local_id, asset_id, created_ns) VALUES (?, ?, ?)
			ON CONFLICT(local_id) DO UPDATE SET asset_id = excluded.asset_id`, localID, assetID, nowNS())
		return err
	})
	if err != nil {
		return fmt.Errorf("store: bind attachment %s: %w", localID, err)
	}
	return nil
}

// AttachmentBinding returns the asset id a local attachment id is bound to;
// false when it has no binding.
func (s *Store) AttachmentBinding(localID string) (assetID string, ok bool, err error) {
	err = s.read(func() error {
		return s.db.QueryRow(`SELECT asset_id FROM attachment_bindings WHERE local_id = ?`, localID).Scan(&assetID)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("store: attachment binding %s: %w", localID, err)
	}
	return assetID, true, nil
}

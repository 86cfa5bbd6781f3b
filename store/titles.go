package store

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// migrate7 adds whose a thread's title is: title_user is 1 once the user
// renamed the thread, and then the agent's session titles no longer
// replace it (AgentTitle).
func migrate7(tx *sql.Tx) error {
	_, err := tx.Exec(`ALTER TABLE threads ADD COLUMN title_user INTEGER NOT NULL DEFAULT 0`)
	return err
}

// AgentTitle sets a thread's title to one its agent gave the session (ACP's
// session_info_update), unless the user renamed the thread: it reports
// whether the title changed. The title is made one line, without control
// characters, cut to MaxTitleLen; an empty one changes nothing. A thread
// not stored yet is stored.
func (s *Store) AgentTitle(id, title string) (bool, error) {
	title = TitleFromText(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, title))
	if title == "" {
		return false, nil
	}
	if err := s.EnsureThread(id); err != nil {
		return false, err
	}
	var n int64
	err := s.write(false, func(tx *sql.Tx) error {
		var user int
		err := tx.QueryRow(`SELECT title_user FROM threads WHERE id = ?`, id).Scan(&user)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil || user != 0 {
			return err
		}
		res, err := tx.Exec(`UPDATE threads SET title = ? WHERE id = ? AND title_user = 0 AND title != ?`, title, id, title)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return false, fmt.Errorf("store: agent title of %s: %w", id, err)
	}
	return n > 0, nil
}

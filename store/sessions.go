package store

import (
	"database/sql"
	"errors"
	"fmt"
)

// migrate3 adds the agents' own session ids per thread, so a thread resumes
// the agent's session after a restart.
func migrate3(tx *sql.Tx) error {
	_, err := tx.Exec(`CREATE TABLE agent_sessions (
		thread_id  TEXT NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
		agent      TEXT NOT NULL,
		session_id TEXT NOT NULL,
		PRIMARY KEY (thread_id, agent)
	)`)
	return err
}

// SetAgentSession records the session id an agent (named by its backend
// spec) gave a thread; an empty id forgets it.
func (s *Store) SetAgentSession(threadID, agent, sessionID string) error {
	err := s.write(false, func(tx *sql.Tx) error {
		if sessionID == "" {
			_, err := tx.Exec(`DELETE FROM agent_sessions WHERE thread_id = ? AND agent = ?`, threadID, agent)
			return err
		}
		if err := s.ensureThread(tx, threadID); err != nil { // a thread NewThread made (threads.go)
			return err
		}
		_, err := tx.Exec(`INSERT INTO agent_sessions(thread_id, agent, session_id) VALUES (?, ?, ?)
			ON CONFLICT(thread_id, agent) DO UPDATE SET session_id = excluded.session_id`, threadID, agent, sessionID)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: agent session of %s: %w", threadID, err)
	}
	return nil
}

// AgentSession returns the session id an agent gave a thread.
func (s *Store) AgentSession(threadID, agent string) (string, bool, error) {
	var id string
	err := s.read(func() error {
		return s.db.QueryRow(`SELECT session_id FROM agent_sessions WHERE thread_id = ? AND agent = ?`, threadID, agent).Scan(&id)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("store: agent session of %s: %w", threadID, err)
	}
	return id, true, nil
}

// AgentSessionIDs are the session ids an agent (named by its backend spec)
// gave the project's threads.
func (s *Store) AgentSessionIDs(projectID int64, agent string) (map[string]bool, error) {
	out := map[string]bool{}
	err := s.read(func() error {
		clear(out)
		rows, err := s.db.Query(`SELECT a.session_id FROM agent_sessions a JOIN threads t ON t.id = a.thread_id
			WHERE t.project_id = ? AND a.agent = ?`, projectID, agent)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				return err
			}
			out[id] = true
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("store: agent sessions: %w", err)
	}
	return out, nil
}

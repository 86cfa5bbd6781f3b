package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// AgentCommand is one slash command an agent advertised.
type AgentCommand struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	InputHint   string `json:"inputHint,omitempty"`
}

// agentCommandsKey is the meta key of an agent's last advertised commands.
func agentCommandsKey(agent string) string { return "agent_commands:" + agent }

// SetAgentCommands records the slash commands an agent (named by its
// backend spec) advertised last, so they are known before it starts again
// (an ACP agent tells them only once it runs). They replace the ones
// recorded before; nil records an empty list.
func (s *Store) SetAgentCommands(agent string, cmds []AgentCommand) error {
	if cmds == nil {
		cmds = []AgentCommand{}
	}
	b, err := json.Marshal(cmds)
	if err != nil {
		return fmt.Errorf("store: commands of %s: %w", agent, err)
	}
	err = s.write(false, func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
			agentCommandsKey(agent), string(b))
		return err
	})
	if err != nil {
		return fmt.Errorf("store: commands of %s: %w", agent, err)
	}
	return nil
}

// AgentCommands returns the commands an agent advertised last; ok is false
// when it never did (or what was recorded is unreadable).
func (s *Store) AgentCommands(agent string) (cmds []AgentCommand, ok bool, err error) {
	var v string
	err = s.read(func() error {
		return s.db.QueryRow(`SELECT value FROM meta WHERE key = ?`, agentCommandsKey(agent)).Scan(&v)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("store: commands of %s: %w", agent, err)
	}
	if json.Unmarshal([]byte(v), &cmds) != nil {
		return nil, false, nil
	}
	return cmds, true, nil
}

package store

import (
	"database/sql"
	"fmt"
)

// migrations[i] brings the schema from version i to version i+1. A
// migration is never edited once released: a change is a new entry.
var migrations = []func(tx *sql.Tx) error{
	migrate1,
	migrate2,
	migrate3,
	migrate4,
	migrate5,
	migrate6,  // history.go: the prompt history
	migrate7,  // titles.go: whose the thread's title is
	migrate8,  // textmode.go: a reply's text mode
	migrate9,  // search.go: the full-text index of messages
	migrate10, // drafts_pieces.go: drafts stored in pieces
}

func init() {
	if len(migrations) != SchemaVersion {
		panic("store: SchemaVersion does not match the migrations")
	}
}

// migrate brings the database to SchemaVersion in one BEGIN IMMEDIATE
// transaction. The version is read again inside the transaction, so two
// processes opening a new data directory at once migrate it once.
func (s *Store) migrate() error {
	err := s.write(false, func(tx *sql.Tx) error {
		var version int
		if err := tx.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil {
			return err
		}
		if version > SchemaVersion {
			return &SchemaError{Path: s.path, Found: version, Supported: SchemaVersion}
		}
		for v := version; v < SchemaVersion; v++ {
			if err := migrations[v](tx); err != nil {
				return fmt.Errorf("migration to schema %d: %w", v+1, err)
			}
		}
		if version < SchemaVersion {
			if _, err := tx.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, SchemaVersion)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		if _, ok := err.(*SchemaError); ok {
			return err
		}
		return fmt.Errorf("store: %s: %w", s.path, err)
	}
	return nil
}

func migrate1(tx *sql.Tx) error {
	stmts := []string{
		fmt.Sprintf(`PRAGMA application_id = %d`, applicationID),
		`CREATE TABLE meta (
			key   TEXT PRIMARY KEY,
			value TEXT NOT NULL
		)`,
		`CREATE TABLE projects (
			id         INTEGER PRIMARY KEY,
			key        TEXT NOT NULL UNIQUE,
			created_ns INTEGER NOT NULL
		)`,
		`CREATE TABLE threads (
			id         TEXT PRIMARY KEY,
			project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
			title      TEXT NOT NULL DEFAULT '',
			created_ns INTEGER NOT NULL,
			updated_ns INTEGER NOT NULL
		)`,
		`CREATE INDEX threads_project_updated ON threads(project_id, updated_ns)`,
		`CREATE TABLE messages (
			id         TEXT PRIMARY KEY,
			thread_id  TEXT NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
			seq        INTEGER NOT NULL,
			role       TEXT NOT NULL,
			text       TEXT NOT NULL,
			context    TEXT,
			status     TEXT NOT NULL,
			created_ns INTEGER NOT NULL
		)`,
		`CREATE UNIQUE INDEX messages_thread_seq ON messages(thread_id, seq)`,
		`CREATE TABLE drafts (
			thread_id  TEXT PRIMARY KEY REFERENCES threads(id) ON DELETE CASCADE,
			markdown   TEXT NOT NULL,
			records    TEXT NOT NULL,
			caret_line INTEGER NOT NULL,
			caret_col  INTEGER NOT NULL,
			updated_ns INTEGER NOT NULL
		)`,
		`CREATE TABLE stash (
			id         INTEGER PRIMARY KEY AUTOINCREMENT,
			project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
			markdown   TEXT NOT NULL,
			records    TEXT NOT NULL,
			created_ns INTEGER NOT NULL
		)`,
		`CREATE INDEX stash_project ON stash(project_id, id)`,
		`CREATE TABLE attachment_bindings (
			local_id   TEXT PRIMARY KEY,
			asset_id   TEXT NOT NULL,
			created_ns INTEGER NOT NULL
		)`,
	}
	for _, q := range stmts {
		if _, err := tx.Exec(q); err != nil {
			return err
		}
	}
	_, err := tx.Exec(`INSERT INTO meta(key, value) VALUES ('environment_id', ?)`, newID("env_"))
	return err
}

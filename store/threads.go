package store

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Project is one project: the place chipchat was started in, keyed by its
// git root or else its working directory.
type Project struct {
	ID      int64
	Key     string
	Created time.Time
}

// ProjectKey returns the key of the project cwd belongs to: the root of the
// git work tree that holds cwd (the nearest directory with a .git
// directory or file, found by walking up), else the clean absolute cwd. It
// only looks at the file system.
func ProjectKey(cwd string) string {
	abs, err := filepath.Abs(cwd)
	if err != nil {
		abs = cwd
	}
	abs = filepath.Clean(abs)
	for dir := abs; ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return abs
		}
		dir = parent
	}
}

// Project returns the project with key, creating it when there is none.
func (s *Store) Project(key string) (Project, error) {
	if strings.TrimSpace(key) == "" {
		return Project{}, errors.New("store: empty project key")
	}
	p := Project{Key: key}
	var created int64
	err := s.read(func() error {
		return s.db.QueryRow(`SELECT id, created_ns FROM projects WHERE key = ?`, key).Scan(&p.ID, &created)
	})
	if errors.Is(err, sql.ErrNoRows) {
		err = s.write(false, func(tx *sql.Tx) error {
			if _, err := tx.Exec(`INSERT INTO projects(key, created_ns) VALUES (?, ?) ON CONFLICT(key) DO NOTHING`, key, nowNS()); err != nil {
				return err
			}
			return tx.QueryRow(`SELECT id, created_ns FROM projects WHERE key = ?`, key).Scan(&p.ID, &created)
		})
	}
	if err != nil {
		return Project{}, fmt.Errorf("store: project: %w", err)
	}
	p.Created = fromNS(created)
	return p, nil
}

// Thread is one conversation.
type Thread struct {
	ID        string
	ProjectID int64
	Title     string // "" until the first user message gives one
	// TitleByUser: the user renamed the thread; the agent's session
	// titles no longer replace its title (AgentTitle).
	TitleByUser bool
	Created     time.Time
	Updated     time.Time
}

// NewThread returns a new thread of the project that is not stored yet:
// its row is written just before its first message, draft or agent session
// (AddMessage, SaveDraft, SaveDraftOver, SetAgentSession call
// ensureThread), so opening a new thread and leaving it leaves nothing
// behind. Thread finds it meanwhile; Threads lists it only once stored.
func (s *Store) NewThread(projectID int64) Thread {
	now := nowNS()
	t := Thread{ID: newID("thr_"), ProjectID: projectID, Created: fromNS(now), Updated: fromNS(now)}
	s.pmu.Lock()
	if s.pending == nil {
		s.pending = map[string]Thread{}
	}
	s.pending[t.ID] = t
	s.pmu.Unlock()
	return t
}

// pendingThread is the thread NewThread made with id, not stored yet.
func (s *Store) pendingThread(id string) (Thread, bool) {
	s.pmu.Lock()
	defer s.pmu.Unlock()
	t, ok := s.pending[id]
	return t, ok
}

// ensureThread writes the row of a thread NewThread made, inside the
// transaction about to write the thread's first message, draft or session.
// A thread already stored (or not one of NewThread's) is left alone; the
// caller calls stored after its transaction committed.
func (s *Store) ensureThread(tx *sql.Tx, id string) error {
	t, ok := s.pendingThread(id)
	if !ok {
		return nil
	}
	_, err := tx.Exec(`INSERT INTO threads(id, project_id, title, created_ns, updated_ns) VALUES (?, ?, '', ?, ?)
		ON CONFLICT(id) DO NOTHING`, t.ID, t.ProjectID, toNS(t.Created), nowNS())
	return err
}

// stored forgets a pending thread once its row is committed.
func (s *Store) stored(id string) {
	s.pmu.Lock()
	delete(s.pending, id)
	s.pmu.Unlock()
}

// EnsureThread writes the row of a thread NewThread made, when it has none
// yet (for a caller about to write under the thread by other means).
func (s *Store) EnsureThread(id string) error {
	if _, ok := s.pendingThread(id); !ok {
		return nil
	}
	if err := s.write(false, func(tx *sql.Tx) error { return s.ensureThread(tx, id) }); err != nil {
		return fmt.Errorf("store: create thread %s: %w", id, err)
	}
	s.stored(id)
	return nil
}

// CreateThread makes an empty thread in the project and stores it now.
func (s *Store) CreateThread(projectID int64) (Thread, error) {
	now := nowNS()
	t := Thread{ID: newID("thr_"), ProjectID: projectID, Created: fromNS(now), Updated: fromNS(now)}
	err := s.write(false, func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO threads(id, project_id, title, created_ns, updated_ns) VALUES (?, ?, '', ?, ?)`,
			t.ID, projectID, now, now)
		return err
	})
	if isFKError(err) {
		return Thread{}, fmt.Errorf("store: create thread: project %d: %w", projectID, ErrNotFound)
	}
	if err != nil {
		return Thread{}, fmt.Errorf("store: create thread: %w", err)
	}
	return t, nil
}

const threadCols = `id, project_id, title, created_ns, updated_ns, title_user`

func scanThread(row interface{ Scan(...any) error }) (Thread, error) {
	var t Thread
	var created, updated, user int64
	if err := row.Scan(&t.ID, &t.ProjectID, &t.Title, &created, &updated, &user); err != nil {
		return Thread{}, err
	}
	t.Created, t.Updated, t.TitleByUser = fromNS(created), fromNS(updated), user != 0
	return t, nil
}

// Threads lists the project's threads, most recently updated first.
func (s *Store) Threads(projectID int64) ([]Thread, error) {
	var out []Thread
	err := s.read(func() error {
		out = out[:0]
		rows, err := s.db.Query(`SELECT `+threadCols+` FROM threads WHERE project_id = ?
			ORDER BY updated_ns DESC, rowid DESC`, projectID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			t, err := scanThread(rows)
			if err != nil {
				return err
			}
			out = append(out, t)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("store: threads: %w", err)
	}
	return out, nil
}

// Thread returns one thread, or ErrNotFound.
func (s *Store) Thread(id string) (Thread, error) {
	var t Thread
	err := s.read(func() error {
		var err error
		t, err = scanThread(s.db.QueryRow(`SELECT `+threadCols+` FROM threads WHERE id = ?`, id))
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		if p, ok := s.pendingThread(id); ok {
			return p, nil
		}
		return Thread{}, fmt.Errorf("store: thread %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Thread{}, fmt.Errorf("store: thread %s: %w", id, err)
	}
	return t, nil
}

// RenameThread sets a thread's title (trimmed): the user's, which the
// agent's session titles no longer replace (AgentTitle). An empty title
// lets the next user message, or the agent, give one again. A thread not
// stored yet is stored.
func (s *Store) RenameThread(id, title string) error {
	if err := s.EnsureThread(id); err != nil {
		return err
	}
	title = strings.TrimSpace(title)
	return s.execOne(fmt.Sprintf("rename thread %s", id),
		`UPDATE threads SET title = ?, title_user = ? WHERE id = ?`, title, title != "", id)
}

// DeleteThread deletes a thread with its messages and draft.
func (s *Store) DeleteThread(id string) error {
	if _, ok := s.pendingThread(id); ok {
		s.stored(id) // never stored: nothing to delete but the promise
		return nil
	}
	return s.execOne(fmt.Sprintf("delete thread %s", id), `DELETE FROM threads WHERE id = ?`, id)
}

// execOne runs one write statement that must touch a row; none is
// ErrNotFound.
func (s *Store) execOne(what, query string, args ...any) error {
	var n int64
	err := s.write(false, func(tx *sql.Tx) error {
		res, err := tx.Exec(query, args...)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	if n == 0 {
		return fmt.Errorf("store: %s: %w", what, ErrNotFound)
	}
	return nil
}

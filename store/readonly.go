package store

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// readOnlyDSN opens the file for reading only: SQLite opens it O_RDONLY
// (mode=ro) and refuses every write statement (query_only), so nothing run
// through this pool can change the database file. No journal mode is set:
// that is a write.
func readOnlyDSN(path string) string {
	return fileURI(path) + fmt.Sprintf("?mode=ro&_pragma=busy_timeout(%d)&_pragma=query_only(1)", busyTimeoutMS)
}

// OpenReadOnly opens the database in dir for reading only, for another
// process (chipchat mcp) that reads threads while the app writes them. It
// never creates, migrates or repairs anything: the directory and the file
// must exist (else an error wrapping os.ErrNotExist), the file must be a
// chipchat database (else an error wrapping ErrDamaged) of this build's
// schema (else a *SchemaError: a newer chipchat wrote it, or an older one
// and no chipchat of this version has opened it yet to migrate it). Unlike Open it skips the integrity
// check, whose cost grows with the file: a damaged page fails the read that
// meets it. Messages still marked streaming are read as they are (their
// writer may be alive).
//
// The write methods of a read-only Store fail (SQLite refuses them). Reads
// see what other processes committed, as with Open; SQLite may create the
// -wal and -shm files beside the database when no writer has them open,
// the database file itself is never written.
func OpenReadOnly(dir string) (*Store, error) {
	if dir == "" {
		return nil, errors.New("store: empty data directory")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("store: data directory: %w", err)
	}
	path := filepath.Join(abs, FileName)
	if err := checkHeader(path); err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", readOnlyDSN(path))
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	db.SetMaxOpenConns(2)
	db.SetMaxIdleConns(2)
	s := &Store{db: db, dir: abs, path: path}
	var appID, version, tables int
	err = s.read(func() error {
		return db.QueryRow(`SELECT (SELECT application_id FROM pragma_application_id),
			(SELECT user_version FROM pragma_user_version),
			(SELECT count(*) FROM sqlite_schema)`).Scan(&appID, &version, &tables)
	})
	if err == nil {
		switch {
		case version > SchemaVersion:
			err = &SchemaError{Path: path, Found: version, Supported: SchemaVersion}
		case appID != applicationID && (appID != 0 || version != 0 || tables != 0):
			err = &damagedError{path, "is a SQLite database of another program, not chipchat's"}
		case version == 0:
			// made but never migrated: nothing to read yet
			err = fmt.Errorf("store: %s holds no chipchat data yet (run chipchat with this --data-dir first): %w", path, os.ErrNotExist)
		case version < SchemaVersion:
			// an older schema lacks tables and columns the reads use,
			// and migrating is a write
			err = &SchemaError{Path: path, Found: version, Supported: SchemaVersion}
		}
	}
	if err == nil {
		err = s.read(func() error {
			return db.QueryRow(`SELECT value FROM meta WHERE key = 'environment_id'`).Scan(&s.envID)
		})
	}
	if err != nil {
		db.Close()
		var se *SchemaError
		if errors.As(err, &se) || errors.Is(err, ErrDamaged) || errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		if pe := probeErr(path, err); errors.Is(pe, ErrDamaged) {
			return nil, pe
		}
		if errors.Is(err, ErrBusy) {
			return nil, fmt.Errorf("store: %s: %w", path, ErrBusy)
		}
		return nil, fmt.Errorf("store: open %s read-only: %w", path, err)
	}
	return s, nil
}

// checkHeader makes sure path exists and starts like a SQLite file.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("store: no chipchat database at %s (run chipchat with this --data-dir first): %w", path, os.ErrNotExist)
		}
		return fmt.Errorf("store: %w", err)
	}
	head := make([]byte, 100)
	n, _ := io.ReadFull(f, head)
	f.Close()
	switch {
	case n == 0:
		return fmt.Errorf("store: %s holds no chipchat data yet (run chipchat with this --data-dir first): %w", path, os.ErrNotExist)
	case !bytes.HasPrefix(head[:n], sqliteMagic):
		return &damagedError{path, "is not a SQLite database"}
	}
	return newerSchema(path, head[:n])
}

// ProjectByKey returns the project with key without creating it: a key
// that has no project is ErrNotFound. It is Project for a read-only Store.
func (s *Store) ProjectByKey(key string) (Project, error) {
	if strings.TrimSpace(key) == "" {
		return Project{}, errors.New("store: empty project key")
	}
	p := Project{Key: key}
	var created int64
	err := s.read(func() error {
		return s.db.QueryRow(`SELECT id, created_ns FROM projects WHERE key = ?`, key).Scan(&p.ID, &created)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return Project{}, fmt.Errorf("store: project %s: %w", key, ErrNotFound)
	}
	if err != nil {
		return Project{}, fmt.Errorf("store: project %s: %w", key, err)
	}
	p.Created = fromNS(created)
	return p, nil
}

// MessagesAfter returns up to limit messages of a thread whose Seq is over
// after, in order, as MessagesRaw returns them (replies with their Items,
// RawContext filled, Context nil); more reports whether later messages
// exist. It reads only the rows of the page it returns, items included, so
// paging through a long thread costs each page its own size. limit < 1
// means 1.
func (s *Store) MessagesAfter(threadID string, after int64, limit int) (msgs []Message, more bool, err error) {
	limit = max(limit, 1)
	err = s.read(func() error {
		msgs, more = msgs[:0], false
		rows, err := s.db.Query(`SELECT id, seq, role, text, context, status, created_ns, COALESCE(text_mode, '')
			FROM messages WHERE thread_id = ? AND seq > ? ORDER BY seq LIMIT ?`, threadID, after, limit+1)
		if err != nil {
			return err
		}
		if msgs, more, err = scanMessages(rows, threadID, msgs, limit); err != nil {
			return err
		}
		if len(msgs) == 0 {
			return nil
		}
		return s.readItems(threadID, msgs)
	})
	if err != nil {
		return nil, false, fmt.Errorf("store: messages of %s: %w", threadID, err)
	}
	return msgs, more, nil
}

package store

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// FileName is the name of the database file inside the data directory.
const FileName = "chipchat.db"

// SchemaVersion is the newest schema this build knows.
const SchemaVersion = 10

// applicationID marks a SQLite file as chipchat's ("chip").
const applicationID = 0x63686970

// busyTimeoutMS is how long SQLite's own busy handler waits for a lock.
const busyTimeoutMS = 5000

// retryFor bounds the retries on top of the busy handler (a variable for
// tests).
var retryFor = 10 * time.Second

// writeBusyMS is the busy timeout while a write waits for the write lock.
const writeBusyMS = 50

var (
	// ErrNotFound is returned when a thread, message or stash entry does not
	// exist.
	ErrNotFound = errors.New("not found")
	// ErrDamaged is wrapped by the error Open returns for a file that is not
	// a chipchat SQLite database or fails its integrity check.
	ErrDamaged = errors.New("database is damaged or not chipchat's")
	// ErrBusy is wrapped by the error returned when another process kept the
	// database locked for longer than the store waits.
	ErrBusy = errors.New("the database stayed busy (another chipchat process is writing to it); try again")
)

// SchemaError says the database was written by a newer chipchat, or,
// opened read-only (OpenReadOnly), by an older one and not migrated yet.
type SchemaError struct {
	Path      string
	Found     int // the file's schema version
	Supported int // the newest version this build knows
}

func (e *SchemaError) Error() string {
	if e.Found < e.Supported {
		return fmt.Sprintf("store: %s is schema %d, written by an older chipchat and not upgraded yet (this one reads schema %d): run chipchat once with this --data-dir to upgrade it",
			e.Path, e.Found, e.Supported)
	}
	return fmt.Sprintf("store: %s is schema %d, written by a newer chipchat; this one knows schema %d at most: upgrade chipchat or use another --data-dir",
		e.Path, e.Found, e.Supported)
}

// damagedError is the error for a file Open refuses to touch.
type damagedError struct {
	path, why string
}

func (e *damagedError) Error() string {
	return fmt.Sprintf("store: %s %s; chipchat left it unchanged: move it aside or use another --data-dir", e.path, e.why)
}

func (e *damagedError) Unwrap() error { return ErrDamaged }

// Store is an open chipchat database. It is safe for concurrent use.
type Store struct {
	wmu     sync.Mutex // one writer at a time in this process: no busy polling among our own connections
	pmu     sync.Mutex
	pending map[string]Thread // threads NewThread made, not stored yet (threads.go)
	db      *sql.DB
	dir     string
	path    string
	envID   string
}

// DefaultDir returns the data directory: $CHIPCHAT_HOME, else
// $XDG_DATA_HOME/chipchat, else ~/.local/share/chipchat.
func DefaultDir() (string, error) {
	if d := os.Getenv("CHIPCHAT_HOME"); d != "" {
		return filepath.Abs(d)
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "chipchat"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("store: no data directory: set CHIPCHAT_HOME or --data-dir (%v)", err)
	}
	return filepath.Join(home, ".local", "share", "chipchat"), nil
}

// fileURI makes a SQLite URI for path: the characters that URIs give a
// meaning to are percent-encoded.
func fileURI(path string) string {
	var b strings.Builder
	b.WriteString("file:")
	for i := 0; i < len(path); i++ {
		c := path[i]
		switch {
		case c == '%' || c == '?' || c == '#' || c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, "%%%02x", c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// dsn is the data source name of the read-write pool.
func dsn(path string) string {
	return fileURI(path) + fmt.Sprintf("?_pragma=busy_timeout(%d)", busyTimeoutMS) +
		"&_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_txlock=immediate"
}

// probeDSN opens the file read-only, for the checks before any write.
func probeDSN(path string) string {
	return fileURI(path) + fmt.Sprintf("?mode=ro&_pragma=busy_timeout(%d)", busyTimeoutMS)
}

// Open opens (creating when needed) the database in dir. An existing file
// that is not a chipchat database, is damaged, or has a newer schema is
// never modified: Open returns an error wrapping ErrDamaged, or a
// *SchemaError.
func Open(dir string) (*Store, error) {
	if dir == "" {
		return nil, errors.New("store: empty data directory")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("store: data directory: %w", err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, dirError(abs, err)
	}
	path := filepath.Join(abs, FileName)
	if err := probe(path); err != nil {
		return nil, openError(abs, path, err)
	}
	// Create the file ourselves so it (and SQLite's -wal and -shm files,
	// which copy its mode) is private to the user.
	if f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
		f.Close()
	} else if !errors.Is(err, os.ErrExist) {
		return nil, openError(abs, path, err)
	}
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	db.SetMaxOpenConns(4)
	db.SetMaxIdleConns(4)
	s := &Store{db: db, dir: abs, path: path}
	if err := s.migrate(); err != nil {
		db.Close()
		return nil, openError(abs, path, err)
	}
	if err := s.read(func() error {
		return db.QueryRow(`SELECT value FROM meta WHERE key = 'environment_id'`).Scan(&s.envID)
	}); err != nil {
		db.Close()
		return nil, openError(abs, path, fmt.Errorf("store: environment id: %w", err))
	}
	return s, nil
}

// openError is the error Open returns: a write failure names the file and
// its cause in words (read-only, no permission, disk full), a lock held too
// long names the file; the rest is returned as it is.
func openError(dir, path string, err error) error {
	var ioe *IOError
	if errors.As(explain(dir, path, err), &ioe) {
		return fmt.Errorf("store: cannot open the database: %w", ioe)
	}
	if errors.Is(err, ErrBusy) {
		return fmt.Errorf("store: %s: %w", path, ErrBusy)
	}
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) {
		return fmt.Errorf("store: %s: %w", path, err)
	}
	return err
}

// sqliteMagic starts every SQLite database file.
var sqliteMagic = []byte("SQLite format 3\x00")

// probe checks an existing file read-only before the store writes to it.
// A missing or empty file is a new database.
func probe(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	head := make([]byte, 100)
	n, err := io.ReadFull(f, head)
	f.Close()
	switch {
	case n == 0:
		return nil // empty: SQLite treats it as a new database
	case err != nil || !bytes.HasPrefix(head, sqliteMagic):
		return &damagedError{path, "is not a SQLite database"}
	}
	if err := newerSchema(path, head); err != nil {
		return err
	}
	db, err := sql.Open("sqlite", probeDSN(path))
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	return retry(func() error {
		var appID, version, tables int
		err := db.QueryRow(`SELECT (SELECT application_id FROM pragma_application_id),
			(SELECT user_version FROM pragma_user_version),
			(SELECT count(*) FROM sqlite_schema)`).Scan(&appID, &version, &tables)
		if err != nil {
			return probeErr(path, err)
		}
		if version > SchemaVersion {
			return &SchemaError{Path: path, Found: version, Supported: SchemaVersion}
		}
		if version < 0 {
			return &damagedError{path, fmt.Sprintf("has schema version %d, which no chipchat writes", version)}
		}
		if appID != applicationID && (appID != 0 || version != 0 || tables != 0) {
			return &damagedError{path, "is a SQLite database of another program, not chipchat's"}
		}
		rows, err := db.Query(`PRAGMA quick_check(5)`)
		if err != nil {
			return probeErr(path, err)
		}
		defer rows.Close()
		var problems []string
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				return probeErr(path, err)
			}
			if line != "ok" {
				problems = append(problems, line)
			}
		}
		if err := rows.Err(); err != nil {
			return probeErr(path, err)
		}
		if len(problems) > 0 {
			return &damagedError{path, "is damaged (integrity check: " + strings.Join(problems, "; ") + ")"}
		}
		return nil
	})
}

// walHeaderLen is the size of a write-ahead log's header: a longer -wal
// file may hold pages newer than the database file's.
const walHeaderLen = 32

// newerSchema returns a *SchemaError when the database header (the first
// 100 bytes of the file) says a newer chipchat wrote it and no write-ahead
// log can hold a newer header. It reads the file only: a SQLite connection,
// even a read-only one, creates the -wal and -shm files of a WAL database,
// and a database this build refuses is left exactly as it was found.
// Otherwise (nil) SQLite's own reading decides.
func newerSchema(path string, head []byte) error {
	if len(head) < 64 {
		return nil
	}
	version := int(int32(binary.BigEndian.Uint32(head[60:64]))) // the header's user_version
	if version <= SchemaVersion {
		return nil
	}
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > walHeaderLen {
		return nil
	}
	return &SchemaError{Path: path, Found: version, Supported: SchemaVersion}
}

// probeErr classifies an error met while probing.
func probeErr(path string, err error) error {
	switch code(err) {
	case sqlite3.SQLITE_NOTADB:
		return &damagedError{path, "is not a SQLite database"}
	case sqlite3.SQLITE_CORRUPT:
		return &damagedError{path, "is damaged (" + err.Error() + ")"}
	}
	return err
}

// code returns the primary SQLite result code of err, or 0.
func code(err error) int {
	var e *sqlite.Error
	if errors.As(err, &e) {
		return e.Code() & 0xff
	}
	return 0
}

func isBusy(err error) bool {
	c := code(err)
	return c == sqlite3.SQLITE_BUSY || c == sqlite3.SQLITE_LOCKED
}

// retry runs fn again while it fails because the database is locked, for
// up to retryFor on top of SQLite's busy handler. A lock that outlasts that
// becomes ErrBusy, so the user never sees "database is locked". The sleeps
// are short and jittered: a writer that polls often gets the lock between
// another process's transactions instead of starving behind them.
func retry(fn func() error) error {
	deadline := time.Now().Add(retryFor)
	for {
		err := fn()
		if err == nil || !isBusy(err) {
			return err
		}
		if time.Now().After(deadline) {
			return ErrBusy
		}
		time.Sleep(time.Duration(1+mrand.IntN(4000)) * time.Microsecond)
	}
}

// read runs a read, retried while the database is locked.
func (s *Store) read(fn func() error) error { return retry(fn) }

// write runs fn in a BEGIN IMMEDIATE transaction and commits it, retrying
// the whole transaction while the database is locked. fn may run more than
// once, so it must set its results from scratch each time. With durable,
// the commit is synced to disk (synchronous=FULL) before write returns.
//
// While it waits for the write lock, the connection's busy timeout is cut to
// writeBusyMS, so retry's frequent polling takes over from SQLite's busy
// handler (which sleeps up to 100 ms at a time) after a short while.
func (s *Store) write(durable bool, fn func(tx *sql.Tx) error) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	return explain(s.dir, s.path, retry(func() error {
		ctx := context.Background()
		conn, err := s.db.Conn(ctx)
		if err != nil {
			return err
		}
		defer conn.Close()
		setup := fmt.Sprintf(`PRAGMA busy_timeout = %d`, writeBusyMS)
		restore := fmt.Sprintf(`PRAGMA busy_timeout = %d`, busyTimeoutMS)
		if durable {
			setup += `; PRAGMA synchronous = FULL`
			restore += `; PRAGMA synchronous = NORMAL`
		}
		if _, err := conn.ExecContext(ctx, setup); err != nil {
			return err
		}
		defer conn.ExecContext(ctx, restore)
		tx, err := conn.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		// Rolled back before the restore above runs, also when fn panics:
		// the connection is the transaction's until then, and the restore
		// would wait for it forever.
		defer tx.Rollback()
		if err := fn(tx); err != nil {
			return err
		}
		return tx.Commit()
	}))
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Dir returns the absolute data directory.
func (s *Store) Dir() string { return s.dir }

// Path returns the database file's path.
func (s *Store) Path() string { return s.path }

// EnvironmentID returns this data directory's environment id, made once
// when the database was created.
func (s *Store) EnvironmentID() string { return s.envID }

// newID returns prefix followed by 16 random hex digits.
func newID(prefix string) string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("store: no randomness: " + err.Error())
	}
	return prefix + hex.EncodeToString(b[:])
}

func nowNS() int64 { return time.Now().UnixNano() }

func fromNS(ns int64) time.Time { return time.Unix(0, ns) }

func toNS(t time.Time) int64 {
	if t.IsZero() {
		return nowNS()
	}
	return t.UnixNano()
}

// isFKError reports a foreign key violation (a parent row is missing).
func isFKError(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code() == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY
}

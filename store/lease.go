package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/chipchat/chipchat/message"
)

// A Lease is held by the process that writes a streaming reply (DESIGN.md
// section 9): a lock file under <data dir>/leases, locked while the process
// lives. The operating system drops the lock when the process dies, however
// it dies, so "the writer is gone" is a fact read from the lock, never a
// guess from another process having opened the store.
type Lease struct {
	path string
	f    *os.File
}

// leasePath is where the lease of reply id lives.
func (s *Store) leasePath(id string) string {
	return filepath.Join(s.dir, "leases", id+".lock")
}

// AcquireLease takes the lease of a reply this process is about to write.
func (s *Store) AcquireLease(replyID string) (*Lease, error) {
	p := s.leasePath(replyID)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return nil, fmt.Errorf("store: lease of %s: %w", replyID, err)
	}
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: lease of %s: %w", replyID, err)
	}
	ok, err := lockFile(f)
	if err != nil || !ok {
		f.Close()
		if err == nil {
			err = errors.New("held by another process")
		}
		return nil, fmt.Errorf("store: lease of %s: %w", replyID, err)
	}
	return &Lease{path: p, f: f}, nil
}

// Release gives the lease up and removes its file. Releasing twice, or a
// nil lease, does nothing.
func (l *Lease) Release() {
	if l == nil || l.f == nil {
		return
	}
	os.Remove(l.path)
	l.f.Close() // closing drops the lock
	l.f = nil
}

// leaseHeld reports whether some live process holds the lease of reply id.
func (s *Store) leaseHeld(id string) bool {
	if !fileLocks {
		_, err := os.Stat(s.leasePath(id))
		return err == nil
	}
	f, err := os.OpenFile(s.leasePath(id), os.O_RDWR, 0)
	if err != nil {
		return false // no lease file: nobody writes it
	}
	defer f.Close()
	ok, err := lockFile(f)
	if err != nil {
		return true // cannot tell: never interrupt a reply that may be live
	}
	if ok {
		os.Remove(s.leasePath(id)) // a dead writer's leftover
	}
	return !ok
}

// RecoverThread marks the thread's streaming replies whose writer is gone
// (no process holds their lease) as interrupted, keeping their items, and
// returns how many it marked. A reply still written by a live process, this
// one or another, is left alone.
func (s *Store) RecoverThread(threadID string) (int, error) {
	var ids []string
	err := s.read(func() error {
		rows, err := s.db.Query(`SELECT id FROM messages WHERE thread_id = ? AND status = ?`, threadID, message.StatusStreaming)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return rows.Err()
	})
	if err != nil {
		return 0, fmt.Errorf("store: recover %s: %w", threadID, err)
	}
	n := 0
	for _, id := range ids {
		if s.leaseHeld(id) {
			continue
		}
		if err := s.SetStatus(id, message.StatusInterrupted); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

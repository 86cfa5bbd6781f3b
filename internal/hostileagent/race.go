package hostileagent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
)

// The race: in project, "race" is a directory holding secret.txt
// (InsideSecret) and "racelink" a symlink to the directory outside/racedir
// holding secret.txt (OutsideSecret), by a relative target, so a client
// following it leaves the project. A goroutine exchanges the two names as
// fast as it can (renameat2 RENAME_EXCHANGE where the system has it, else
// three renames), while the operations write project/race/pwn-<i>.txt
// and read project/race/secret.txt. A read returning OutsideSecret, or a
// pwn file appearing in outside/racedir, is an escape.

// The secrets the race reads.
const (
	InsideSecret  = "inside the project\n"
	OutsideSecret = "OUTSIDE THE PROJECT\n"
)

// Ops are the client's operations under attack.
type Ops struct {
	Read  func(path string) (string, error)
	Write func(path, content string) error
}

// RaceResult counts a race.
type RaceResult struct {
	Pairs        int    `json:"pairs"`        // write/read pairs run
	Swaps        int64  `json:"swaps"`        // exchanges done meanwhile
	ReadEscapes  int    `json:"readEscapes"`  // reads that returned OutsideSecret
	WriteEscapes int    `json:"writeEscapes"` // writes that landed outside
	ReadsOK      int    `json:"readsOK"`      // reads that returned InsideSecret
	WritesOK     int    `json:"writesOK"`     // writes that succeeded
	Exchange     bool   `json:"exchange"`     // RENAME_EXCHANGE was used
	FirstError   string `json:"firstError,omitempty"`
}

// Escapes is the number of operations that reached outside.
func (r RaceResult) Escapes() int { return r.ReadEscapes + r.WriteEscapes }

// Race sets up the race in project and outside, then runs n write/read
// pairs through ops while the names are swapped; with stopAtFirst it
// stops at the first escape. The swapping stops before Race returns, and
// race is a directory again.
func Race(ctx context.Context, project, outside string, n int, stopAtFirst bool, ops Ops) (RaceResult, error) {
	race := filepath.Join(project, "race")
	link := filepath.Join(project, "racelink")
	outDir := filepath.Join(outside, "racedir")
	if err := setup(race, link, outDir, project); err != nil {
		return RaceResult{}, err
	}
	res := RaceResult{Exchange: canExchange(race, link)}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	var swaps atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for ctx.Err() == nil {
			if res.Exchange {
				if exchange(race, link) == nil {
					swaps.Add(1)
				}
				continue
			}
			// Three renames: race briefly missing, then the symlink.
			tmp := race + ".tmp"
			if os.Rename(race, tmp) == nil && os.Rename(link, race) == nil && os.Rename(tmp, link) == nil {
				swaps.Add(1)
			}
		}
	}()
	for i := range n {
		if parent.Err() != nil {
			break
		}
		name := fmt.Sprintf("pwn-%d.txt", i)
		err := ops.Write(filepath.Join(race, name), "pwned\n")
		if err == nil {
			res.WritesOK++
		} else if res.FirstError == "" {
			res.FirstError = err.Error()
		}
		if _, err := os.Lstat(filepath.Join(outDir, name)); err == nil {
			res.WriteEscapes++
		}
		got, err := ops.Read(filepath.Join(race, "secret.txt"))
		switch {
		case err != nil:
		case got == OutsideSecret:
			res.ReadEscapes++
		case got == InsideSecret:
			res.ReadsOK++
		}
		res.Pairs++
		if stopAtFirst && res.Escapes() > 0 {
			break
		}
	}
	cancel()
	wg.Wait()
	res.Swaps = swaps.Load()
	// Put race back as the directory.
	if fi, err := os.Lstat(race); err != nil || !fi.IsDir() {
		if res.Exchange {
			_ = exchange(race, link)
		} else if err != nil {
			_ = os.Rename(race+".tmp", race)
		} else {
			tmp := race + ".tmp"
			_ = os.Rename(race, tmp)
			_ = os.Rename(link, race)
			_ = os.Rename(tmp, link)
		}
	}
	return res, parent.Err()
}

func setup(race, link, outDir, project string) error {
	if err := os.MkdirAll(race, 0o755); err != nil {
		return err
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(race, "secret.txt"), []byte(InsideSecret), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(outDir, "secret.txt"), []byte(OutsideSecret), 0o644); err != nil {
		return err
	}
	target, err := filepath.Rel(project, outDir)
	if err != nil {
		return err
	}
	if err := os.Remove(link); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return os.Symlink(target, link)
}

// canExchange tries one exchange and undoes it.
func canExchange(a, b string) bool {
	if exchange(a, b) != nil {
		return false
	}
	return exchange(a, b) == nil
}

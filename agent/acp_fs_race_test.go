//go:build linux

package agent

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/internal/hostileagent"
)

// naiveResolve is the resolve-then-open boundary chipchat had before its
// fs went through os.Root, kept as the race test's control: it resolves
// symlinks, checks the result is inside a root, and leaves the opening to
// its caller, later.
func naiveResolve(roots []string, p string) (string, error) {
	p = filepath.Clean(p)
	real, rest := p, ""
	for {
		if r, err := filepath.EvalSymlinks(real); err == nil {
			real = filepath.Join(r, rest)
			break
		}
		parent := filepath.Dir(real)
		if parent == real {
			break
		}
		rest = filepath.Join(filepath.Base(real), rest)
		real = parent
	}
	for _, root := range roots {
		r, err := filepath.EvalSymlinks(root)
		if err != nil {
			r = root
		}
		if rel, err := filepath.Rel(r, real); err == nil && filepath.IsLocal(rel) {
			return real, nil
		}
	}
	return "", errors.New("outside")
}

func naiveOps(roots []string) hostileagent.Ops {
	return hostileagent.Ops{
		Read: func(p string) (string, error) {
			real, err := naiveResolve(roots, p)
			if err != nil {
				return "", err
			}
			b, err := os.ReadFile(real)
			return string(b), err
		},
		Write: func(p, content string) error {
			real, err := naiveResolve(roots, p)
			if err != nil {
				return err
			}
			return os.WriteFile(real, []byte(content), 0o644)
		},
	}
}

// TestHostileSymlinkRace: the hostile agent swaps proj/race (a directory)
// with a symlink out of the project while it writes and reads through
// proj/race 10,000 times over ACP: nothing escapes. The same harness run
// against naiveResolve finds escapes, so the race is real.
func TestHostileSymlinkRace(t *testing.T) {
	pairs := 10000
	if testing.Short() {
		pairs = 1000
	}
	h := newHostile(t, ACPOptions{})
	res, evs := h.run(hostileagent.Op{Op: "race", Project: h.proj, Outside: h.outside, N: pairs})
	r := res[0].Race
	if r == nil {
		t.Fatalf("race: %+v", res[0])
	}
	t.Logf("chipchat: %+v", *r)
	if r.Pairs != pairs || r.Escapes() != 0 {
		t.Errorf("%d pairs, %d reads and %d writes outside the project", r.Pairs, r.ReadEscapes, r.WriteEscapes)
	}
	// The race ran: names were swapped, and requests went both ways.
	if r.Swaps < 100 || r.ReadsOK == 0 || r.WritesOK == 0 || r.ReadsOK == r.Pairs || r.WritesOK == r.Pairs {
		t.Errorf("the race did not race: %+v", *r)
	}
	if r.WritesOK < r.Pairs && !strings.Contains(r.FirstError, "outside the project") && !strings.Contains(r.FirstError, "symlinks that loop or changed") {
		t.Errorf("a refused write said %q", r.FirstError)
	}
	// The disk: nothing outside but the secret; every accepted write is in
	// the project's directory (under either name).
	ents, err := os.ReadDir(filepath.Join(h.outside, "racedir"))
	if err != nil || len(ents) != 1 || ents[0].Name() != "secret.txt" {
		t.Errorf("outside/racedir holds %v (%v)", ents, err)
	}
	if b, _ := os.ReadFile(filepath.Join(h.outside, "racedir", "secret.txt")); string(b) != hostileagent.OutsideSecret {
		t.Errorf("the outside secret became %q", b)
	}
	inside := 0
	filepath.WalkDir(h.proj, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), "pwn-") {
			inside++
		}
		return nil
	})
	if inside != r.WritesOK {
		t.Errorf("%d pwn files in the project, %d writes accepted", inside, r.WritesOK)
	}
	// The user saw each accepted write, named inside the project.
	shown := writesShown(evs)
	if len(shown) != r.WritesOK {
		t.Errorf("%d write items for %d writes", len(shown), r.WritesOK)
	}
	for _, w := range shown {
		if !strings.HasPrefix(w.Title, "Write race/pwn-") {
			t.Errorf("write item %q", w.Title)
			break
		}
	}

	// The control: the same harness, a resolve-then-open boundary.
	base := t.TempDir()
	proj, outside := filepath.Join(base, "proj"), filepath.Join(base, "outside")
	os.Mkdir(proj, 0o755)
	os.Mkdir(outside, 0o755)
	c, err := hostileagent.Race(context.Background(), proj, outside, 200000, true, naiveOps([]string{proj}))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("naive: %+v", c)
	if c.Escapes() == 0 {
		t.Errorf("the naive boundary held for %d pairs (%d swaps): the race harness finds nothing", c.Pairs, c.Swaps)
	}
}

//go:build !race

package store

import (
	"database/sql"
	"fmt"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"
)

// fillSearch stores threads × 20 messages of one project, each message a
// line of words, and indexes them as AddMessage does (directly, in one
// transaction: the test measures the query, not the writes). One message
// of each thread mentions "handler".
func fillSearch(t *testing.T, threads int) *Store {
	t.Helper()
	s := open(t, t.TempDir())
	p, err := s.Project("/bench")
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"store", "thread", "reply", "agent", "review", "terminal", "chip", "draft", "model", "prompt", "context", "diff"}
	err = s.write(false, func(tx *sql.Tx) error {
		thr, err := tx.Prepare(`INSERT INTO threads(id, project_id, title, created_ns, updated_ns) VALUES (?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		msg, err := tx.Prepare(`INSERT INTO messages(id, thread_id, seq, role, text, status, created_ns) VALUES (?, ?, ?, 'user', ?, 'done', ?)`)
		if err != nil {
			return err
		}
		idx, err := tx.Prepare(`INSERT INTO message_search(rowid, body) VALUES (?, ?)`)
		if err != nil {
			return err
		}
		now := nowNS()
		for i := range threads {
			id := fmt.Sprintf("thr_%d", i)
			if _, err := thr.Exec(id, p.ID, fmt.Sprint("thread ", i), now, now); err != nil {
				return err
			}
			for k := range 20 {
				text := fmt.Sprintf("message %d of thread %d: the %s and the %s of the %s, then the %s again", k, i,
					words[(i+k)%len(words)], words[(i*3+k)%len(words)], words[(i*7+k)%len(words)], words[(k*5)%len(words)])
				if k == 7 {
					text += "; the handler fails"
				}
				res, err := msg.Exec(fmt.Sprintf("msg_%d_%d", i, k), id, k+1, text, now)
				if err != nil {
					return err
				}
				rowid, _ := res.LastInsertId()
				if _, err := idx.Exec(rowid, text); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func searchCPU(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestSearchQueryFlat: a query over 10,000 threads × 20 messages costs at
// most three times the same query over 100 threads (issue 27 item 2), in
// CPU time, both measured in the same run (the median of paired
// rounds); and the index's share of the database is stated.
func TestSearchQueryFlat(t *testing.T) {
	small, big := fillSearch(t, 100), fillSearch(t, 10000)
	queries := []string{"handler", "handler fails", "review term", "thread 42"}
	run := func(s *Store) time.Duration {
		runtime.GC()
		t0 := searchCPU(t)
		for range 20 {
			for _, q := range queries {
				hits, err := s.Search(SearchQuery{Text: q, ProjectID: 1})
				if err != nil || len(hits) == 0 {
					t.Fatalf("%q: %d hits, %v", q, len(hits), err)
				}
			}
		}
		return searchCPU(t) - t0
	}
	// Rounds of both sides back to back, the order alternating, and the
	// median of the rounds' ratios: each round compares the two under the
	// same load (CI runs other packages' ratio tests on the same 2 cores).
	// The cheapest of each side over rounds, taken apart, measured
	// 2.2–2.9 here and 3.10 once in CI (its small side the fastest seen).
	var ratios []float64
	var smalls, bigs []time.Duration
	for r := range 9 {
		var a, b time.Duration
		if r%2 == 0 {
			a, b = run(small), run(big) // calls run left to right
		} else {
			b, a = run(big), run(small)
		}
		smalls, bigs = append(smalls, a), append(bigs, b)
		ratios = append(ratios, float64(b)/float64(a))
	}
	slices.Sort(ratios)
	ratio := ratios[len(ratios)/2]
	t.Logf("80 queries: 100 threads %v, 10,000 threads %v (medians); ratio median %.2f× (rounds %.2f)",
		slices.Sorted(slices.Values(smalls))[len(smalls)/2], slices.Sorted(slices.Values(bigs))[len(bigs)/2], ratio, ratios)
	if ratio > 3 {
		t.Fatalf("a query over 10,000 threads costs %.2f× the same over 100 (median of the rounds %.2f; bound 3)", ratio, ratios)
	}
	var total, index int64
	if err := big.db.QueryRow(`SELECT SUM(pgsize), SUM(CASE WHEN name LIKE 'message_search%' THEN pgsize ELSE 0 END) FROM dbstat`).Scan(&total, &index); err != nil {
		t.Fatalf("dbstat: %v", err)
	}
	t.Logf("10,000 threads × 20 messages: database %d KB, the search index %d KB (%.0f%%)", total>>10, index>>10, 100*float64(index)/float64(total))
	if index == 0 || index >= total {
		t.Fatalf("index %d of %d bytes", index, total)
	}
}

package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime/pprof"
	"slices"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Measuring the real binary (issue 24): CHIPCHAT_CPUPROFILE=path writes a
// CPU profile of the whole run there (go tool pprof reads it);
// CHIPCHAT_KEYTRACE=path writes one line per key, "<unix ns> <µs>": when
// the app received the key (its Update began) and how long until the
// first frame written to the terminal after the View that followed it.
// A key that changes nothing on screen is counted at the next frame
// written.

// CHIPCHAT_MEMPROFILE=path writes a heap profile there as the app ends:
// what was allocated over the run (go tool pprof -sample_index=alloc_space)
// and what was live at the end (inuse_space).

// startMemProfile checks that path can be written; stop writes the heap
// profile of the run there.
func startMemProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("CHIPCHAT_MEMPROFILE: %w", err)
	}
	return func() {
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			fmt.Fprintf(os.Stderr, "chipchat: CHIPCHAT_MEMPROFILE: %v\n", err)
		}
		f.Close()
	}, nil
}

// startCPUProfile starts the CPU profile of path; stop ends and writes it.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("CHIPCHAT_CPUPROFILE: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("CHIPCHAT_CPUPROFILE: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// keyTrace records key latencies: keys are taken in Update, moved to
// drawn by the View after them, and timed by the next write of a frame.
type keyTrace struct {
	mu    sync.Mutex
	keys  []time.Time // received, their frame not drawn yet
	drawn []time.Time // drawn, not written yet
	f     *os.File
	w     *bufio.Writer
	now   func() time.Time
}

func openKeyTrace(path string) (*keyTrace, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("CHIPCHAT_KEYTRACE: %w", err)
	}
	return &keyTrace{f: f, w: bufio.NewWriter(f), now: time.Now}, nil
}

// Close writes what is left.
func (k *keyTrace) Close() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	err := k.w.Flush()
	if cerr := k.f.Close(); err == nil {
		err = cerr
	}
	return err
}

func (k *keyTrace) key() {
	t := k.now()
	k.mu.Lock()
	k.keys = append(k.keys, t)
	k.mu.Unlock()
}

func (k *keyTrace) viewed() {
	k.mu.Lock()
	if len(k.keys) > 0 {
		k.drawn = append(k.drawn, k.keys...)
		k.keys = k.keys[:0]
	}
	k.mu.Unlock()
}

// writing takes the keys drawn so far, as a write of the terminal starts;
// written logs them with t, the time it started.
func (k *keyTrace) writing() []time.Time {
	k.mu.Lock()
	defer k.mu.Unlock()
	keys := slices.Clone(k.drawn)
	k.drawn = k.drawn[:0]
	return keys
}

func (k *keyTrace) written(keys []time.Time, t time.Time) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, at := range keys {
		fmt.Fprintf(k.w, "%d %d\n", at.UnixNano(), t.Sub(at).Microseconds())
	}
}

// tracedModel is the app with its keys and views reported to a keyTrace.
type tracedModel struct {
	tea.Model
	k *keyTrace
}

func (m tracedModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.KeyPressMsg); ok {
		m.k.key()
	}
	inner, cmd := m.Model.Update(msg)
	return tracedModel{inner, m.k}, cmd
}

func (m tracedModel) View() tea.View {
	v := m.Model.View()
	m.k.viewed()
	return v
}

// tracedOut is the terminal with its writes reported to a keyTrace (still
// a terminal file: Bubble Tea sizes it and sets its modes).
type tracedOut struct {
	*os.File
	k *keyTrace
}

func (o tracedOut) Write(p []byte) (int, error) {
	// The frame is the terminal's once the kernel has its bytes: the time
	// is taken as they are handed over, not when write returns (the
	// terminal woken on the same 2 cores may run first, which is not
	// latency anyone sees).
	t, keys := o.k.now(), o.k.writing()
	n, err := o.File.Write(p)
	o.k.written(keys, t)
	return n, err
}

package store

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
)

// perWriter is how many messages each concurrent writer adds, each in its
// own transaction.
const perWriter = 200

// helperEnv switches the test binary into a writer process.
const helperEnv = "CHIPCHAT_STORE_TEST_WRITER"

func TestMain(m *testing.M) {
	if spec := os.Getenv(helperEnv); spec != "" {
		os.Exit(writerProcess(spec))
	}
	os.Exit(m.Run())
}

// writerProcess opens the store named in spec ("dir\x1fthreadID\x1fname")
// and adds perWriter messages, alternating roles; with spec
// "envid\x1fdir\x1f-" it opens dir and prints the environment id.
func writerProcess(spec string) int {
	var dir, thread, name string
	parts := splitSpec(spec)
	if len(parts) != 3 {
		fmt.Fprintln(os.Stderr, "bad spec")
		return 2
	}
	if parts[0] == "envid" { // open a new directory and print its environment id
		s, err := Open(parts[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, "open:", err)
			return 1
		}
		defer s.Close()
		fmt.Print(s.EnvironmentID())
		return 0
	}
	dir, thread, name = parts[0], parts[1], parts[2]
	s, err := Open(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		return 1
	}
	defer s.Close()
	if err := addMany(s, thread, name); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func splitSpec(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1f {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func addMany(s *Store, thread, name string) error {
	for i := range perWriter {
		role := message.RoleAssistant
		if i%2 == 0 {
			role = message.RoleUser
		}
		ctx := &contextref.MessageContext{Version: 1, Records: []contextref.Record{
			&contextref.SkillRecord{Base: contextref.NewBase(contextref.KindSkill, "s", "skill"), Name: name},
		}}
		if _, err := s.AddMessage(Message{ThreadID: thread, Role: role, Text: fmt.Sprintf("%s %d", name, i), Context: ctx}); err != nil {
			return fmt.Errorf("%s: message %d: %w", name, i, err)
		}
		if i%20 == 0 {
			if err := s.SaveDraft(Draft{ThreadID: thread, Markdown: fmt.Sprintf("%s typing %d", name, i)}); err != nil {
				return fmt.Errorf("%s: draft %d: %w", name, i, err)
			}
			if _, err := s.Messages(thread); err != nil {
				return fmt.Errorf("%s: read %d: %w", name, i, err)
			}
		}
	}
	return nil
}

// checkAll verifies that every writer's messages are present, once, with
// gapless sequence numbers.
func checkAll(t *testing.T, s *Store, thread string, names ...string) {
	t.Helper()
	msgs, err := s.Messages(thread)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != perWriter*len(names) {
		t.Fatalf("%d messages, want %d", len(msgs), perWriter*len(names))
	}
	seen := map[string]bool{}
	for i, m := range msgs {
		if m.Seq != int64(i+1) {
			t.Fatalf("message %d has seq %d", i, m.Seq)
		}
		text := m.Text
		if m.Role == message.RoleAssistant {
			text = message.ReplyText(m.Items) // a reply's text is its text item
		}
		if seen[text] {
			t.Fatalf("duplicate %q", text)
		}
		seen[text] = true
		if m.Context == nil || len(m.Context.Records) != 1 {
			t.Fatalf("message %q lost its context", text)
		}
	}
	for _, n := range names {
		for i := range perWriter {
			if !seen[fmt.Sprintf("%s %d", n, i)] {
				t.Fatalf("missing %s %d", n, i)
			}
		}
	}
}

func TestTwoStoresSideBySide(t *testing.T) {
	dir := t.TempDir()
	a := open(t, dir)
	b := open(t, dir)
	if a.EnvironmentID() != b.EnvironmentID() {
		t.Fatal("two stores on one directory disagree on the environment id")
	}
	p, _ := a.Project("/p")
	th, err := a.CreateThread(p.ID)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for _, w := range []struct {
		s    *Store
		name string
	}{{a, "alpha"}, {b, "beta"}} {
		wg.Go(func() { errs <- addMany(w.s, th.ID, w.name) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	checkAll(t, a, th.ID, "alpha", "beta")
}

func TestTwoProcessesSideBySide(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	// Both processes open the fresh directory themselves, racing on
	// creation and migration; the parent only makes the thread first.
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s := open(t, dir)
	p, _ := s.Project("/p")
	th, _ := s.CreateThread(p.ID)
	s.Close()

	start := time.Now()
	var cmds []*exec.Cmd
	for _, name := range []string{"one", "two"} {
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), helperEnv+"="+dir+"\x1f"+th.ID+"\x1f"+name)
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("writer process: %v", err)
		}
	}
	t.Logf("two processes × %d messages: %v", perWriter, time.Since(start))
	s = open(t, dir)
	checkAll(t, s, th.ID, "one", "two")
}

func TestTwoProcessesCreateTogether(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	// Two processes open one brand-new directory at the same moment: one
	// creates and migrates, the other waits and agrees on the environment.
	dir := t.TempDir()
	exe, _ := os.Executable()
	outs := make([][]byte, 2)
	var wg sync.WaitGroup
	for i := range 2 {
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), helperEnv+"=envid\x1f"+dir+"\x1fx")
		wg.Go(func() {
			out, err := cmd.Output()
			if err != nil {
				t.Errorf("process %d: %v", i, err)
			}
			outs[i] = out
		})
	}
	wg.Wait()
	if len(outs[0]) == 0 || string(outs[0]) != string(outs[1]) {
		t.Fatalf("environment ids %q and %q", outs[0], outs[1])
	}
	s := open(t, dir)
	if s.EnvironmentID() != string(outs[0]) {
		t.Fatalf("environment id %q, processes said %q", s.EnvironmentID(), outs[0])
	}
}

// holdWriteLock takes the database's write lock from a separate connection,
// as another process would, until the returned func is called.
func holdWriteLock(t *testing.T, dir string) (release func()) {
	t.Helper()
	other, err := sql.Open("sqlite", dsn(filepath.Join(dir, FileName)))
	if err != nil {
		t.Fatal(err)
	}
	tx, err := other.Begin() // BEGIN IMMEDIATE
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`INSERT INTO meta(key, value) VALUES ('held', 'x')`); err != nil {
		t.Fatal(err)
	}
	return func() {
		tx.Rollback()
		other.Close()
	}
}

func TestWriteWaitsForAnotherWriter(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	p, _ := s.Project("/p")
	th, _ := s.CreateThread(p.ID)
	release := holdWriteLock(t, dir)
	time.AfterFunc(300*time.Millisecond, release)
	start := time.Now()
	if _, err := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleUser, Text: "waited"}); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 250*time.Millisecond {
		t.Fatalf("did not wait for the lock (%v)", d)
	}
	// Reads are not blocked by a writer (WAL).
	release = holdWriteLock(t, dir)
	defer release()
	if msgs, err := s.Messages(th.ID); err != nil || len(msgs) != 1 {
		t.Fatalf("read during a write: %v %v", msgs, err)
	}
}

func TestLockHeldTooLongIsErrBusy(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	p, _ := s.Project("/p")
	th, _ := s.CreateThread(p.ID)
	old := retryFor
	retryFor = 200 * time.Millisecond
	defer func() { retryFor = old }()
	release := holdWriteLock(t, dir)
	defer release()
	_, err := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleUser, Text: "x"})
	if !errors.Is(err, ErrBusy) {
		t.Fatalf("AddMessage under a held lock: %v", err)
	}
	if strings.Contains(err.Error(), "locked") {
		t.Fatalf("SQLite's message reached the caller: %v", err)
	}
	t.Log(err)
}

package store

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/chipchat/chipchat/internal/testenv"
)

// mountTmpfs mounts a small tmpfs at a new dir (root only: fails in CI and skips
// elsewhere when it cannot) and unmounts it at the end.
func mountTmpfs(t *testing.T, opts string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "tmpfs", dir).CombinedOutput(); err != nil {
		testenv.Missing(t, fmt.Sprintf("cannot mount a tmpfs here (needs root): %v %s", err, out))
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", dir).Run() })
	return dir
}

func remount(t *testing.T, dir, opts string) {
	t.Helper()
	if out, err := exec.Command("mount", "-o", "remount,"+opts, dir).CombinedOutput(); err != nil {
		t.Fatalf("remount %s: %v %s", opts, err, out)
	}
}

func TestOpenOnReadOnlyFileSystem(t *testing.T) {
	mnt := mountTmpfs(t, "size=4m")
	dir := filepath.Join(mnt, "data")
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	remount(t, mnt, "ro")

	_, err = Open(dir)
	var ioe *IOError
	if !errors.As(err, &ioe) || ioe.Cause != CauseReadOnly {
		t.Fatalf("Open on a read-only file system: %v", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, filepath.Join(dir, FileName)) || !strings.Contains(msg, "read-only file system") {
		t.Fatalf("the error names neither the path nor the cause: %s", msg)
	}
	// A data dir that does not exist yet on a read-only file system.
	_, err = Open(filepath.Join(mnt, "new"))
	if !errors.As(err, &ioe) || ioe.Cause != CauseReadOnly || !strings.Contains(err.Error(), filepath.Join(mnt, "new")) {
		t.Fatalf("a new data dir on a read-only file system: %v", err)
	}
}

func TestSaveOnFullDisk(t *testing.T) {
	mnt := mountTmpfs(t, "size=1m")
	s, err := Open(filepath.Join(mnt, "data"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, _ := s.Project("/p")
	th, _ := s.CreateThread(p.ID)
	// Fill the disk.
	filler := filepath.Join(mnt, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	f.Close()
	big := strings.Repeat("draft text that does not fit ", 20000)
	_, err = s.SaveDraftOver(Draft{ThreadID: th.ID, Markdown: big}, 0, 0)
	var ioe *IOError
	if !errors.As(err, &ioe) || ioe.Cause != CauseDiskFull || !strings.Contains(err.Error(), "the disk is full") ||
		!strings.Contains(err.Error(), s.Path()) {
		t.Fatalf("save on a full disk: %v", err)
	}
	// Space again: the same save goes through.
	os.Remove(filler)
	if _, err := s.SaveDraftOver(Draft{ThreadID: th.ID, Markdown: big}, 0, 0); err != nil {
		t.Fatalf("save after space was freed: %v", err)
	}
	if d, ok, _ := s.LoadDraft(th.ID); !ok || d.Markdown != big {
		t.Fatal("the draft is not stored")
	}
}

func TestCauseWords(t *testing.T) {
	for err, want := range map[error]Cause{
		&os.PathError{Op: "open", Path: "x", Err: syscall.EROFS}:   CauseReadOnly,
		&os.PathError{Op: "open", Path: "x", Err: syscall.EACCES}:  CauseNoAccess,
		&os.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}: CauseDiskFull,
		errors.New("something else"):                               CauseUnknown,
	} {
		if got := causeOf(err); got != want {
			t.Errorf("causeOf(%v) = %v, want %v", err, got, want)
		}
	}
}

//go:build linux

package agent

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/chipchat/chipchat/internal/hostileagent"
)

// A hard link inside the project to a file outside it: os.Root follows it
// (a hard link is the file itself, not a path), so a read returns the
// outside file's text — the README says so — but a write is refused: in
// place it would change the outside file, replacing would split the link.
// The outside file keeps its content and the user is told.
func TestHostileHardLinkWriteRefused(t *testing.T) {
	h := newHostile(t, ACPOptions{})
	outside := filepath.Join(h.outside, "shared.txt")
	mustWrite(t, outside, []byte("outside text\n"))
	if err := os.Link(outside, h.path("linked.txt")); err != nil {
		t.Skipf("link: %v", err)
	}
	// Two names inside the project: refused as well (the count is all
	// chipchat can see).
	mustWrite(t, h.path("a.txt"), []byte("a\n"))
	if err := os.Link(h.path("a.txt"), h.path("b.txt")); err != nil {
		t.Fatal(err)
	}
	res, evs := h.run(
		hostileagent.Op{Op: "read", Path: h.path("linked.txt")},
		hostileagent.Op{Op: "write", Path: h.path("linked.txt"), Content: "pwned\n"},
		hostileagent.Op{Op: "write", Path: h.path("b.txt"), Content: "b\n"},
		hostileagent.Op{Op: "write", Path: h.path("single.txt"), Content: "fine\n"},
	)
	if res[0].Err != "" || res[0].Head != "outside text\n" {
		t.Errorf("read through the hard link: %+v", res[0])
	}
	want := "linked.txt has 2 hard links (other names share the file, perhaps outside the project); chipchat does not write a file with several links"
	if res[1].Err != want {
		t.Errorf("write through the hard link: %+v, want %q", res[1], want)
	}
	if !strings.HasPrefix(res[2].Err, "b.txt has 2 hard links") {
		t.Errorf("write of a file linked twice in the project: %+v", res[2])
	}
	if res[3].Err != "" {
		t.Errorf("an ordinary write failed: %+v", res[3])
	}
	for p, want := range map[string]string{outside: "outside text\n", h.path("linked.txt"): "outside text\n", h.path("a.txt"): "a\n", h.path("b.txt"): "a\n", h.path("single.txt"): "fine\n"} {
		if b, err := os.ReadFile(p); err != nil || string(b) != want {
			t.Errorf("%s = %q (%v), want %q", p, b, err, want)
		}
	}
	var a, b syscall.Stat_t
	if syscall.Stat(outside, &a) != nil || syscall.Stat(h.path("linked.txt"), &b) != nil || a.Ino != b.Ino {
		t.Errorf("the hard link was split")
	}
	if n := notices(evs); len(n) != 2 || n[0] != "chipchat refused the agent's write: "+want {
		t.Errorf("notices = %q", n)
	}
	if w := writesShown(evs); len(w) != 1 || w[0].Title != "Write single.txt" {
		t.Errorf("write items = %+v", w)
	}
}

// A device in the project (made with mknod, as root can) is refused at
// once for a read and a write, and stays what it was; /dev/zero would
// never end a read, a tty could become the controlling terminal.
func TestHostileDeviceRefused(t *testing.T) {
	h := newHostile(t, ACPOptions{})
	var st syscall.Stat_t
	if err := syscall.Stat("/dev/zero", &st); err != nil {
		t.Skip(err)
	}
	if err := syscall.Mknod(h.path("zero"), syscall.S_IFCHR|0o666, int(st.Rdev)); err != nil {
		t.Skipf("mknod needs root (CAP_MKNOD): %v", err)
	}
	res, evs := h.run(
		hostileagent.Op{Op: "read", Path: h.path("zero")},
		hostileagent.Op{Op: "write", Path: h.path("zero"), Content: "x"},
	)
	for i, r := range res {
		if !strings.Contains(r.Err, "zero is a character device, not a regular file") {
			t.Errorf("op %d on the device: %+v", i, r)
		}
	}
	if fi, err := os.Lstat(h.path("zero")); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("the device was replaced: %v %v", fi, err)
	}
	if n := notices(evs); len(n) != 2 || !strings.Contains(n[0], "refused the agent's read: zero is a character device") {
		t.Errorf("notices = %q", n)
	}
}

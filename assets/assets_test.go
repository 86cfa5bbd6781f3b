package assets

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chipchat/chipchat/contextref"
)

func open(t *testing.T, limit int64) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "assets"), limit)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// files lists every regular file under dir, relative to it.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sumID(b []byte) string {
	h := sha256.Sum256(b)
	return "sha256-" + hex.EncodeToString(h[:])
}

func TestOpenDefaults(t *testing.T) {
	s := open(t, 0)
	if s.Limit() != DefaultLimit || DefaultLimit != 20<<20 {
		t.Fatalf("limit %d", s.Limit())
	}
	info, err := os.Stat(s.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o700 {
		t.Errorf("dir mode %v, want 0700", perm)
	}
	if s2 := open(t, -5); s2.Limit() != DefaultLimit {
		t.Errorf("negative limit → %d", s2.Limit())
	}
	if _, err := Open("", 0); err == nil {
		t.Error("Open(\"\") succeeded")
	}
}

func TestPutAndDedupe(t *testing.T) {
	s := open(t, 0)
	data := []byte("hello, chips\n")
	id, n, err := s.Put(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if id != sumID(data) || n != int64(len(data)) {
		t.Fatalf("got %s %d", id, n)
	}
	if !contextref.IsContextID(id) || !ValidID(id) {
		t.Fatalf("id %q is not a valid context id", id)
	}
	id2, n2, err := s.Put(bytes.NewReader(data))
	if err != nil || id2 != id || n2 != n {
		t.Fatalf("second put: %s %d %v", id2, n2, err)
	}
	got := files(t, s.Dir())
	want := filepath.Join(id[7:9], id[7:])
	if len(got) != 1 || got[0] != want {
		t.Fatalf("files %v, want [%s]", got, want)
	}
	p, err := s.Path(id)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if !bytes.Equal(b, data) {
		t.Fatalf("stored %q", b)
	}
	if info, _ := os.Stat(p); info.Mode().Perm()&0o077 != 0 {
		t.Errorf("asset readable by others: %v", info.Mode())
	}
	if !s.Has(id) {
		t.Error("Has = false")
	}
	other := sumID([]byte("x"))
	if s.Has(other) {
		t.Error("Has(absent) = true")
	}
	if _, err := s.Path(other); !errors.Is(err, ErrNotFound) {
		t.Errorf("Path(absent) = %v", err)
	}

	// Empty content is a valid asset.
	eid, en, err := s.Put(strings.NewReader(""))
	if err != nil || en != 0 || eid != sumID(nil) {
		t.Fatalf("empty: %s %d %v", eid, en, err)
	}
}

func TestLimit(t *testing.T) {
	const limit = 1536
	s := open(t, limit)
	at := bytes.Repeat([]byte{'a'}, limit)
	if _, n, err := s.Put(bytes.NewReader(at)); err != nil || n != limit {
		t.Fatalf("exactly at the limit: %d %v", n, err)
	}
	over := bytes.Repeat([]byte{'b'}, limit+1)
	_, _, err := s.Put(bytes.NewReader(over))
	var tl *TooLargeError
	if !errors.As(err, &tl) {
		t.Fatalf("over the limit: %v", err)
	}
	if tl.Limit != limit {
		t.Errorf("Limit %d", tl.Limit)
	}
	if msg := err.Error(); !strings.Contains(msg, "1.5 KiB") || !strings.Contains(msg, "too large") {
		t.Errorf("message %q does not name the limit in human units", msg)
	}
	if got := files(t, s.Dir()); len(got) != 1 {
		t.Errorf("files after refusal: %v", got)
	}
	if s.Has(sumID(over)) {
		t.Error("over-limit content stored")
	}

	// PutFile knows the size and says it.
	big := filepath.Join(t.TempDir(), "big.bin")
	os.WriteFile(big, bytes.Repeat([]byte{'c'}, 3*1024), 0o600)
	_, err = s.PutFile(big)
	if !errors.As(err, &tl) || tl.Size != 3*1024 {
		t.Fatalf("PutFile over limit: %v", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "3 KiB") || !strings.Contains(msg, "1.5 KiB limit") {
		t.Errorf("message %q", msg)
	}

	d := open(t, 0)
	_, _, err = d.Put(io.LimitReader(zeros{}, DefaultLimit+10))
	if err == nil || !strings.Contains(err.Error(), "20 MiB") {
		t.Errorf("default limit error: %v", err)
	}
	if got := files(t, d.Dir()); len(got) != 0 {
		t.Errorf("files after refusal: %v", got)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

type failingReader struct{ n int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, errors.New("disk on fire")
	}
	k := min(len(p), f.n)
	f.n -= k
	return k, nil
}

func TestTempCleanedAfterFailure(t *testing.T) {
	s := open(t, 0)
	if _, _, err := s.Put(&failingReader{n: 10000}); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("err = %v", err)
	}
	if got := files(t, s.Dir()); len(got) != 0 {
		t.Fatalf("left behind: %v", got)
	}
}

func TestStaleTempsRemovedOnOpen(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, ".tmp-old")
	fresh := filepath.Join(dir, ".tmp-new")
	os.WriteFile(stale, []byte("x"), 0o600)
	os.WriteFile(fresh, []byte("x"), 0o600)
	old := time.Now().Add(-48 * time.Hour)
	os.Chtimes(stale, old, old)
	if _, err := Open(dir, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, fs.ErrNotExist) {
		t.Error("stale temp kept")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("fresh temp removed")
	}
}

var pngHeader = []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R', 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0}

func TestPutFileMime(t *testing.T) {
	s := open(t, 0)
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	goSrc := []byte("package main\n\nfunc main() {}\n")
	cases := []struct {
		name string
		data []byte
		mime string
	}{
		{"screenshot", pngHeader, "image/png"},          // no extension: magic bytes
		{"shot.PNG", pngHeader, "image/png"},            // extension, any case
		{"main.go", goSrc, "text/*"},                    // system tables may say text/x-go; else sniffed, no charset
		{"main.unknownext", goSrc, "text/plain"},        // sniffed, no charset
		{"app.ts", []byte("let x = 1\n"), "text/plain"}, // not a Qt file nor a video
		{"notes.md", []byte("# hi\n"), "text/markdown"},
		{"pic.jpg", []byte("not really"), "image/jpeg"},
		{"blob", []byte{0, 1, 2, 3, 0xff}, "application/octet-stream"},
		{"empty", nil, "text/plain"},
	}
	for _, c := range cases {
		a, err := s.PutFile(write(c.name, c.data))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := Asset{ID: sumID(c.data), Name: c.name, MimeType: c.mime, Size: int64(len(c.data))}
		if c.mime == "text/*" && strings.HasPrefix(a.MimeType, "text/") && !strings.Contains(a.MimeType, ";") {
			want.MimeType = a.MimeType
		}
		if a != want {
			t.Errorf("%s: got %+v, want %+v", c.name, a, want)
		}
	}

	// Bigger than the sniffing window: all bytes stored, not only the head.
	large := bytes.Repeat([]byte("0123456789abcdef"), 4096)
	a, err := s.PutFile(write("large.txt", large))
	if err != nil || a.Size != int64(len(large)) || a.ID != sumID(large) {
		t.Fatalf("large: %+v %v", a, err)
	}
}

func TestPutFileRefusals(t *testing.T) {
	s := open(t, 0)
	dir := t.TempDir()
	if _, err := s.PutFile(dir); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("directory: %v", err)
	}
	if _, err := s.PutFile(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	if _, err := s.PutFile("/dev/null"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("device: %v", err)
	}
	// A symlink to a regular file is followed.
	target := filepath.Join(dir, "real.txt")
	os.WriteFile(target, []byte("hi"), 0o600)
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(target, link); err == nil {
		a, err := s.PutFile(link)
		if err != nil || a.Name != "link.txt" || a.Size != 2 {
			t.Errorf("symlink: %+v %v", a, err)
		}
	}
}

func TestPathRejectsBadIDs(t *testing.T) {
	s := open(t, 0)
	id, _, err := s.Put(strings.NewReader("abc"))
	if err != nil {
		t.Fatal(err)
	}
	// A file that a traversal would reach, to be sure it is not.
	os.WriteFile(filepath.Join(s.Dir(), "x"), []byte("secret"), 0o600)
	hex64 := id[7:]
	bad := []string{
		"", "../x", "x", "sha256-", "sha256-../x",
		"sha256-" + hex64[:63],
		"sha256-" + hex64 + "0",
		"sha256-" + strings.ToUpper(hex64),
		"SHA256-" + hex64,
		"sha256-" + hex64[:62] + "/x",
		"sha256-" + hex64[:62] + "..",
		"sha512-" + hex64,
		"sha256-" + strings.Repeat("g", 64),
		hex64,
	}
	for _, b := range bad {
		p, err := s.Path(b)
		if !errors.Is(err, ErrInvalidID) {
			t.Errorf("Path(%q) = %q, %v; want ErrInvalidID", b, p, err)
		}
		if s.Has(b) {
			t.Errorf("Has(%q) = true", b)
		}
	}
	if p, err := s.Path(id); err != nil || !strings.HasPrefix(p, s.Dir()) {
		t.Errorf("Path(valid) = %q, %v", p, err)
	}
}

func TestConcurrentPutsSameContent(t *testing.T) {
	s := open(t, 0)
	data := bytes.Repeat([]byte("same bytes "), 10000)
	var wg sync.WaitGroup
	ids := make([]string, 16)
	errs := make([]error, 16)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Two stores on one directory behave like two processes.
			st := s
			if i%2 == 1 {
				st, _ = Open(s.Dir(), 0)
			}
			ids[i], _, errs[i] = st.Put(bytes.NewReader(data))
		}()
	}
	wg.Wait()
	for i := range ids {
		if errs[i] != nil || ids[i] != sumID(data) {
			t.Fatalf("put %d: %s %v", i, ids[i], errs[i])
		}
	}
	got := files(t, s.Dir())
	if len(got) != 1 {
		t.Fatalf("files %v", got)
	}
	p, _ := s.Path(ids[0])
	b, _ := os.ReadFile(p)
	if !bytes.Equal(b, data) {
		t.Fatal("stored content differs")
	}
}

func TestIsImage(t *testing.T) {
	for _, m := range []string{"image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "image/svg+xml", "IMAGE/PNG", "image/png; foo=bar"} {
		if !IsImage(m) {
			t.Errorf("IsImage(%q) = false", m)
		}
	}
	for _, m := range []string{"", "image", "image/tiff", "text/plain", "application/pdf", "image/pngx"} {
		if IsImage(m) {
			t.Errorf("IsImage(%q) = true", m)
		}
	}
}

func TestHumanSize(t *testing.T) {
	cases := map[int64]string{
		0:             "0 B",
		512:           "512 B",
		1023:          "1023 B",
		1024:          "1 KiB",
		1536:          "1.5 KiB",
		20 << 20:      "20 MiB",
		20<<20 + 1:    "20 MiB",
		1<<20 - 1:     "1 MiB",
		5 << 30:       "5 GiB",
		1<<62 + 1<<61: "6 EiB",
		-3:            "-3 B",
	}
	for n, want := range cases {
		if got := HumanSize(n); got != want {
			t.Errorf("HumanSize(%d) = %q, want %q", n, got, want)
		}
	}
}

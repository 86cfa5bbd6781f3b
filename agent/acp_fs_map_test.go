package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

var fuzzBases = func() []string {
	if runtime.GOOS == "windows" {
		return []string{`C:\proj`, `C:\proj\sub\extra`, `D:\other`}
	}
	return []string{"/proj", "/proj/sub/extra", "/other", ""}
}()

// FuzzACPMapPath: a path is mapped onto a base only when it lies lexically
// inside it, to a local path that joins back to it; NUL bytes and relative
// paths never map.
func FuzzACPMapPath(f *testing.F) {
	for _, s := range []string{"/proj/a.txt", "/proj", "/proj/../etc/passwd", "/proj/./x/../y", "/projx/a", "/other/a/b",
		"relative", "../proj/a", "/proj/a\x00b", "//proj//a", "/proj/sub/extra/z", "/", "", `C:\proj\a`, `C:\proj\..\x`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		i, rel, err := acpMapPath(fuzzBases, p)
		if strings.IndexByte(p, 0) >= 0 || !filepath.IsAbs(p) {
			if err == nil {
				t.Fatalf("acpMapPath(%q) = %d, %q: want an error", p, i, rel)
			}
			return
		}
		inside := -1
		for j, b := range fuzzBases {
			if b != "" && acpWithin(b, filepath.Clean(p)) {
				inside = j
				break
			}
		}
		if inside < 0 {
			if err == nil {
				t.Fatalf("acpMapPath(%q) = %d, %q: outside every base", p, i, rel)
			}
			return
		}
		if err != nil || i != inside {
			t.Fatalf("acpMapPath(%q) = %d, %q, %v; want base %d", p, i, rel, err, inside)
		}
		if rel != "." && !filepath.IsLocal(rel) {
			t.Fatalf("acpMapPath(%q) = %q, not a local path", p, rel)
		}
		if got := filepath.Join(fuzzBases[i], rel); got != filepath.Clean(p) {
			t.Fatalf("acpMapPath(%q) = %q under %q: joins to %q", p, rel, fuzzBases[i], got)
		}
	})
}

// FuzzACPReadText: the streaming read keeps what acpLines keeps of valid
// UTF-8, read a byte at a time or whole, refuses invalid UTF-8, and
// refuses exactly when the kept part's JSON is over the limit.
func FuzzACPReadText(f *testing.F) {
	f.Add("a\nb\nc", 2, 1, 100)
	f.Add("héllo\nwörld\n", 0, -1, 12)
	f.Add("x\xffy\n", 1, 1, 100)
	f.Add("<&>\u2028\n\"\\\n", 1, 5, 30)
	f.Add(strings.Repeat("€", 30000), 1, 0, 1<<20)
	f.Fuzz(func(t *testing.T, s string, line, limit, max int) {
		var lp, mp *int
		if line != 0 {
			lp = &line
		}
		if limit >= 0 {
			mp = &limit
		}
		max = max%(1<<20) + 2
		if max < 2 {
			max = -max + 2
		}
		for _, one := range []bool{false, true} {
			var rd io.Reader = strings.NewReader(s)
			if one {
				rd = iotest.OneByteReader(rd)
			}
			got, err := acpReadText(rd, lp, mp, int64(max), int64(len(s)%7))
			want := acpLines(s, lp, mp)
			switch {
			case errors.Is(err, errACPBinary):
				if utf8.ValidString(s) {
					t.Fatalf("valid UTF-8 %q refused as binary", s)
				}
			case err != nil:
				var big *acpTooLarge
				if !errors.As(err, &big) {
					t.Fatal(err)
				}
				if b, _ := json.Marshal(want); len(b) <= max && utf8.ValidString(s) {
					t.Fatalf("%q (JSON %d bytes) refused over a limit of %d", want, len(b), max)
				}
			default:
				if got != want {
					t.Fatalf("acpReadText(%q, %v, %v) = %q, acpLines %q", s, line, limit, got, want)
				}
				if !utf8.ValidString(got) {
					t.Fatalf("kept invalid UTF-8 %q", got)
				}
				if b, _ := json.Marshal(got); len(b) > max {
					t.Fatalf("%q (JSON %d bytes) kept under a limit of %d", got, len(b), max)
				}
			}
		}
	})
}

// FuzzACPJSONSize: the size is what json.Marshal writes.
func FuzzACPJSONSize(f *testing.F) {
	for _, s := range []string{"", "plain", "\"\\\n\r\t\b\f\x00\x1f\x7f", "<a href='x'>&amp;</a>", "\u2028\u2029é€😀", "\xff\xc3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := acpJSONSize([]byte(s)) + 2; got != int64(len(b)) {
			t.Fatalf("acpJSONSize(%q) + 2 = %d, json.Marshal writes %d: %s", s, got, len(b), b)
		}
	})
}

func TestACPReadTextKeepsTheLimit(t *testing.T) {
	// 100 lines of 100 '<' (600 bytes each in JSON): line 3 on, 10 lines
	// is 6,000+ bytes of JSON.
	s := strings.Repeat(strings.Repeat("<", 99)+"\n", 100)
	limit := 10
	line := 3
	if _, err := acpReadText(strings.NewReader(s), &line, &limit, 5000, 0); err == nil {
		t.Error("10 lines of 600 bytes kept under a limit of 5,000")
	}
	got, err := acpReadText(strings.NewReader(s), &line, &limit, 7000, 0)
	if err != nil || got != acpLines(s, &line, &limit) {
		t.Errorf("10 lines under 7,000: %d bytes, %v", len(got), err)
	}
	// A cut character across reads is whole again.
	s = strings.Repeat("é", 40000)
	got, err = acpReadText(bytes.NewReader([]byte(s)), nil, nil, 1<<20, int64(len(s)))
	if err != nil || got != s {
		t.Errorf("80,000 bytes of é: %d bytes, %v", len(got), err)
	}
}

// TestACPCloseClosesRoots: ACP.Close closes the opened roots, and a
// request after it opens none again.
func TestACPCloseClosesRoots(t *testing.T) {
	dir := t.TempDir()
	a, err := NewACP("true", ACPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := a.fs.root(dir)
	if err != nil {
		t.Fatal(err)
	}
	a.Close()
	if _, err := r.root.Stat("."); err == nil {
		t.Error("the root is still open after Close")
	}
	if _, err := a.fs.root(dir); !errors.Is(err, errACPClosed) {
		t.Errorf("root after Close: %v, want errACPClosed", err)
	}
}

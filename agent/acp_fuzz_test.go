package agent

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzTerminalBuffer: whatever is written in whatever pieces, the output
// is a suffix of all that was written, at most limit bytes, starting at a
// character, truncated exactly when something was dropped.
func FuzzTerminalBuffer(f *testing.F) {
	f.Add([]byte("héllo wörld"), 4, 3)
	f.Add([]byte("a€b€c"), 2, 1)
	f.Add([]byte{0xff, 0x80, 'a'}, 1, 2)
	f.Fuzz(func(t *testing.T, data []byte, limit, piece int) {
		if limit <= 0 || limit > 1<<12 || piece <= 0 {
			return
		}
		b := NewTerminalBuffer(limit)
		for i := 0; i < len(data); i += piece {
			b.Write(data[i:min(len(data), i+piece)])
		}
		out, truncated := b.Output()
		if len(out) > limit {
			t.Fatalf("%d bytes kept, limit %d", len(out), limit)
		}
		if !strings.HasSuffix(string(data), out) {
			t.Fatalf("output %q is not a suffix of %q", out, data)
		}
		if truncated != (len(out) < len(data)) {
			t.Fatalf("truncated = %v with %d of %d bytes", truncated, len(out), len(data))
		}
		// (In invalid UTF-8 a run of continuation bytes has no boundary.)
		if out != "" && len(out) < len(data) && utf8.Valid(data) && !utf8.RuneStart(out[0]) {
			t.Fatalf("output starts inside a character: %q", out)
		}
		if len(data) > limit && len(out) < limit-utf8.UTFMax {
			t.Fatalf("kept %d bytes of %d, limit %d: more dropped than the cut needs", len(out), len(data), limit)
		}
	})
}

// FuzzACPLines: the slice is a substring of s made of whole lines.
func FuzzACPLines(f *testing.F) {
	f.Add("a\nb\nc", 2, 1)
	f.Add("", 0, 0)
	f.Add("x\n\n\ny", 3, 9)
	f.Fuzz(func(t *testing.T, s string, line, limit int) {
		if limit < 0 {
			limit = -limit
		}
		got := acpLines(s, &line, &limit)
		if !strings.Contains(s, got) {
			t.Fatalf("acpLines(%q, %d, %d) = %q, not part of s", s, line, limit, got)
		}
		if n := strings.Count(got, "\n"); n > limit {
			t.Fatalf("%d lines, limit %d", n, limit)
		}
		if all := acpLines(s, nil, nil); all != s {
			t.Fatalf("no line/limit gave %q", all)
		}
	})
}

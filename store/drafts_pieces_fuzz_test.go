package store

import (
	"bytes"
	"strings"
	"testing"
)

// A draft in pieces reads back as its pieces joined by newlines, whatever
// the pieces hold (newlines, NULs, invalid UTF-8, repeats); and a piece
// list that is not whole keys is an error, never a draft.
func FuzzPiecedDraftRoundTrip(f *testing.F) {
	s := open(f, f.TempDir())
	p, _ := s.Project("/p")
	th, _ := s.CreateThread(p.ID)
	f.Add([]byte("one\x00two\nthree\x00one"), byte(0), int64(0))
	f.Add([]byte("\xff\xfe\x00\x00"), byte(0), int64(33))
	f.Fuzz(func(t *testing.T, data []byte, sep byte, cut int64) {
		texts := strings.Split(string(data), string([]byte{sep}))
		if len(texts) > 64 {
			texts = texts[:64]
		}
		var asked []int
		if _, err := s.SavePiecedDraftOver(pieced(th.ID, &asked, texts...), 0, 0); err != nil {
			t.Fatal(err)
		}
		d, ok, err := s.LoadDraft(th.ID)
		want := strings.Join(texts, "\n")
		if want == "" {
			if ok {
				t.Fatalf("an empty draft is stored: %q", d.Markdown)
			}
			return
		}
		if err != nil || !ok || d.Markdown != want {
			t.Fatalf("loaded %q, %v, %v; want %q", d.Markdown, ok, err, want)
		}
		// A damaged piece list: cut to a length that is not whole keys.
		var keys []byte
		if err := s.db.QueryRow(`SELECT piece_keys FROM drafts WHERE thread_id = ?`, th.ID).Scan(&keys); err != nil {
			t.Fatal(err)
		}
		n := int(uint64(cut) % uint64(len(keys)+1))
		if n%PieceKeySize == 0 {
			return
		}
		if _, err := storedDraftText(s.db, th.ID, "", bytes.Clone(keys[:n])); err == nil {
			t.Fatalf("a piece list of %d bytes read as a draft", n)
		}
	})
}

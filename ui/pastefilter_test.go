package ui

import (
	"os"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/internal/paste"
)

// A large paste streamed by the filter comes to the composer as one
// pasted-text chip whose file holds the whole paste, line ends made LF.
func TestLargePasteBecomesChip(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	h.typeText("before ")
	big := strings.Repeat("a line of a long paste\r", 100000) // 2.3 MB
	msg := h.app.clip.pasteStore()(strings.NewReader(big))
	h.update(h.app.clip.filterPaste(msg))
	h.pumpUntil("the chip", func() bool { return len(h.app.ed.Draft().Records()) == 1 })
	rec := h.app.ed.Draft().Records()[0].(*contextref.FileRecord)
	want := strings.ReplaceAll(big, "\r", "\n")
	if rec.Name != "pasted-text-1.txt" || rec.MimeType != "text/plain" || rec.SizeBytes != int64(len(want)) {
		t.Fatalf("record %+v", rec)
	}
	asset, ok, err := e.st.AttachmentBinding(rec.AttachmentID)
	if err != nil || !ok {
		t.Fatal("not bound", err)
	}
	p, err := e.as.Path(asset)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if string(b) != want {
		t.Fatalf("the chip's file holds %d bytes, want %d", len(b), len(want))
	}
	if !strings.HasPrefix(h.app.ed.Draft().Markdown(), "before [") {
		t.Fatalf("draft %q", h.app.ed.Draft().Markdown())
	}
}

// Over the limit: a toast says how to raise it; the composer is unchanged.
func TestRefusedPasteLeavesComposerAndSaysHowToRaise(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	h.typeText("keep me")
	h.update(h.app.clip.filterPaste(paste.StartedMsg{ID: 1}))
	h.update(h.app.clip.filterPaste(paste.ProgressMsg{ID: 1, Bytes: 5 << 20}))
	if !strings.Contains(h.plain(), "receiving a long paste: 5 MiB") {
		t.Fatalf("no progress toast:\n%s", h.footer())
	}
	h.update(h.app.clip.filterPaste(paste.RefusedMsg{ID: 1, Bytes: 20<<20 + 1, Limit: 20 << 20}))
	if m := h.app.clip.filterPaste(paste.EndedMsg{ID: 1, Bytes: 100 << 20, Refused: true}); m != nil {
		t.Fatalf("a refused paste's end gave %v", m)
	}
	if got := h.app.ed.Draft().Markdown(); got != "keep me" {
		t.Fatalf("composer %q", got)
	}
	if !strings.Contains(h.app.Toast(), "over the 20 MiB limit") || !strings.Contains(h.app.Toast(), "attachment_bytes") {
		t.Fatalf("toast %q", h.app.Toast())
	}
}

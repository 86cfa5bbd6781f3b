package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/contextref"
)

// tinyPNG is a valid 1×1 PNG.
var tinyPNG = []byte{
	0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
	0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x00, 0x01, 0x00, 0x00,
	0x05, 0x00, 0x01, 0x0d, 0x0a, 0x2d, 0xb4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae,
	0x42, 0x60, 0x82,
}

func (e *env) file(name string, data []byte) string {
	e.t.Helper()
	p := filepath.Join(e.dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		e.t.Fatal(err)
	}
	return p
}

// bound is the asset id a local id is bound to.
func (e *env) bound(local string) string {
	e.t.Helper()
	id, ok, err := e.st.AttachmentBinding(local)
	if err != nil || !ok {
		e.t.Fatalf("%s is not bound: %v %v", local, ok, err)
	}
	if !e.as.Has(id) {
		e.t.Fatalf("the bytes of %s are not stored", local)
	}
	return id
}

func TestAttachMakesAnImageOrAFileRecord(t *testing.T) {
	e := newEnv(t, 0)
	w := e.workspace()
	img := must(t, w.Attach(e.file("dot.png", tinyPNG)))
	ir, ok := img.(*contextref.ImageRecord)
	if !ok || ir.Name != "dot.png" || ir.MimeType != "image/png" || ir.SizeBytes != int64(len(tinyPNG)) || ir.Kind != contextref.KindImage {
		t.Fatalf("image record %#v", img)
	}
	e.bound(ir.AttachmentID)
	doc := must(t, w.Attach(e.file("notes.txt", []byte("hello"))))
	fr, ok := doc.(*contextref.FileRecord)
	if !ok || fr.Name != "notes.txt" || fr.SizeBytes != 5 || fr.Kind != contextref.KindFile || fr.AttachmentID == ir.AttachmentID {
		t.Fatalf("file record %#v", doc)
	}
	e.bound(fr.AttachmentID)
	if _, err := w.Attach(filepath.Join(e.dir, "missing"))(); err == nil {
		t.Fatal("a missing file was attached")
	}
}

func TestAttachWithoutAnAssetStoreIsRefused(t *testing.T) {
	e := newEnv(t, 0)
	w := e.open(Options{AttachmentBytes: 1234})
	if _, err := w.Attach(e.file("notes.txt", []byte("hi")))(); err == nil {
		t.Fatal("attached with no asset store")
	}
	if _, _, err := w.KeepStream(strings.NewReader("some text")); err == nil {
		t.Fatal("kept a paste with no asset store")
	}
	if w.PasteLimit() != 1234 {
		t.Fatalf("paste limit %d, want the configured 1234", w.PasteLimit())
	}
}

func TestKeepPasteNamesTheChip(t *testing.T) {
	e := newEnv(t, 0)
	w := e.workspace()
	txt := must(t, w.KeepPaste([]byte("long text"), 3, false))
	if f, ok := txt.(*contextref.FileRecord); !ok || f.Name != "pasted-text-3.txt" || f.MimeType != "text/plain" || f.SizeBytes != 9 {
		t.Fatalf("text paste %#v", txt)
	}
	img := must(t, w.KeepPaste(tinyPNG, 4, true))
	ir, ok := img.(*contextref.ImageRecord)
	if !ok || ir.Name != "pasted-image-4.png" || ir.MimeType != "image/png" {
		t.Fatalf("image paste %#v", img)
	}
	e.bound(ir.AttachmentID)
	if r := PasteRecord("att_x", 10, 7); r.RecordBase().Label != "pasted-text-7.txt" {
		t.Fatalf("paste record %#v", r)
	}
}

func TestKeepStreamOverTheLimitIsTooLarge(t *testing.T) {
	e := newEnv(t, 16)
	w := e.workspace()
	if w.PasteLimit() != 16 {
		t.Fatalf("paste limit %d, want the asset store's 16", w.PasteLimit())
	}
	local, size, err := w.KeepStream(strings.NewReader("short"))
	if err != nil || size != 5 {
		t.Fatalf("kept %q %d %v", local, size, err)
	}
	e.bound(local)
	_, _, err = w.KeepStream(strings.NewReader(strings.Repeat("x", 17)))
	if limit, ok := TooLarge(err); !ok || limit != 16 {
		t.Fatalf("over the limit: %v (%d %v)", err, limit, ok)
	}
	if _, ok := TooLarge(os.ErrNotExist); ok {
		t.Fatal("another error is TooLarge")
	}
}

func TestPathAndText(t *testing.T) {
	e := newEnv(t, 0)
	w := e.workspace()
	rec := must(t, w.Attach(e.file("notes.txt", []byte("0123456789"))))
	id := rec.(*contextref.FileRecord).AttachmentID
	p := must(t, w.Path(id))
	if b, err := os.ReadFile(p); err != nil || string(b) != "0123456789" {
		t.Fatalf("path %s: %q %v", p, b, err)
	}
	if got := must(t, func() (string, error) { return w.Text(id, 10)() }); got != "0123456789" {
		t.Fatalf("text %q", got)
	}
	if _, err := w.Text(id, 9)(); err == nil || !strings.Contains(err.Error(), "it is over 9 B") {
		t.Fatalf("over max: %v", err)
	}
	if _, err := w.Text("att_unknown", 10)(); err == nil || !strings.Contains(err.Error(), "not in this environment") {
		t.Fatalf("unknown: %v", err)
	}
}

// A copy names the bytes by asset id (another environment fetches them by
// it); the records the draft holds keep their local ids.
func TestForCopyUsesAssetIDs(t *testing.T) {
	e := newEnv(t, 0)
	w := e.workspace()
	img := must(t, w.Attach(e.file("dot.png", tinyPNG))).(*contextref.ImageRecord)
	men := &contextref.MentionRecord{Base: contextref.NewBase(contextref.KindMention, "m1", "a.go"), Path: "a.go"}
	out := w.ForCopy([]contextref.Record{img, men})()
	if len(out) != 2 || out[1] != contextref.Record(men) {
		t.Fatalf("copy %#v", out)
	}
	if c := out[0].(*contextref.ImageRecord); c.AttachmentID != e.bound(img.AttachmentID) || c == img {
		t.Fatalf("copied image %#v", c)
	}
	if !strings.HasPrefix(img.AttachmentID, "att_") {
		t.Fatalf("the draft's record changed: %q", img.AttachmentID)
	}
}

// The importer's LocalAssets: Rebind binds bytes this environment holds
// afresh; Adopt copies a file in.
func TestLocalAssetsRebindAndAdopt(t *testing.T) {
	e := newEnv(t, 0)
	w := e.workspace()
	img := must(t, w.Attach(e.file("dot.png", tinyPNG))).(*contextref.ImageRecord)
	la := w.Assets()
	for _, id := range []string{img.AttachmentID, e.bound(img.AttachmentID)} {
		local, err := la.Rebind(id)
		if err != nil || local == img.AttachmentID || e.bound(local) != e.bound(img.AttachmentID) {
			t.Fatalf("rebind %s: %q %v", id, local, err)
		}
	}
	if _, err := la.Rebind("sha256-gone"); err == nil || !strings.Contains(err.Error(), "gone") {
		t.Fatalf("rebind of gone bytes: %v", err)
	}
	local, err := la.Adopt(e.file("other.txt", []byte("other")))
	if err != nil {
		t.Fatal(err)
	}
	p := must(t, w.Path(local))
	if b, _ := os.ReadFile(p); string(b) != "other" {
		t.Fatalf("adopted %q", b)
	}
}

func TestCheckAttachmentsAppliesTheAgentsLimit(t *testing.T) {
	e := newEnv(t, 0)
	small := func(name string, size int64) contextref.Record {
		return &contextref.FileRecord{AttachmentRecord: contextref.AttachmentRecord{Base: contextref.NewBase(contextref.KindFile, "c-"+name, name),
			AttachmentID: "att_" + name, Name: name, SizeBytes: size}}
	}
	men := &contextref.MentionRecord{Base: contextref.NewBase(contextref.KindMention, "m1", "huge.bin"), Path: "huge.bin"}
	recs := []contextref.Record{men, small("ok.txt", 100), small("big\nname.bin", 2048)}
	if err := e.open(Options{}).CheckAttachments(recs); err != nil {
		t.Fatalf("no limit declared: %v", err)
	}
	w := e.open(Options{MaxAttachment: 1024})
	err := w.CheckAttachments(recs)
	want := "not sent: big name.bin is 2 KiB, more than the 1 KiB an agent is sent — remove the chip (or send the file some other way)"
	if err == nil || err.Error() != want {
		t.Fatalf("over the limit: %v\nwant %s", err, want)
	}
	if err := w.CheckAttachments(recs[:2]); err != nil {
		t.Fatalf("under the limit: %v", err)
	}
}

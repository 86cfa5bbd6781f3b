package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/contextref"
)

// ctrl+v with an image on the system clipboard (a fake xclip that offers
// only image/png) attaches it as an image chip pasted-image-N.png whose
// bytes are in the asset store.
func TestCtrlVPastesAnImage(t *testing.T) {
	clip, reg := clipEnv(t)
	tools := t.TempDir()
	png := filepath.Join(tools, "clip.png")
	if err := os.WriteFile(png, []byte(tinyPNG), 0o644); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\ncase \"$*\" in\n*TARGETS*) echo image/png ;;\n*image/png*) cat " + png + " ;;\n*) exit 1 ;;\nesac\n"
	if err := os.WriteFile(filepath.Join(tools, "xclip"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", tools+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("DISPLAY", ":99")
	e := newTestEnv(t)
	h := e.openClip(clip, reg)
	h.press("ctrl+v")
	h.pumpUntil("the image chip", func() bool { return len(h.app.ed.Draft().Shelf()) == 1 })
	// Rough edge 6 (issue 15): the toast says a pasted image was kept, not a long paste.
	if !strings.Contains(h.app.Toast(), "pasted image kept as pasted-image-1.png") || strings.Contains(h.app.Toast(), "long paste") {
		t.Fatalf("toast = %q", h.app.Toast())
	}
	id := h.app.ed.Draft().Shelf()[0]
	r, _ := h.app.ed.Draft().Record(id)
	img, ok := r.(*contextref.ImageRecord)
	if !ok || img.Name != "pasted-image-1.png" || img.MimeType != "image/png" || img.SizeBytes != int64(len(tinyPNG)) {
		t.Fatalf("pasted image record %+v", r)
	}
	if h.app.ed.Draft().References(id) != 1 || !strings.Contains(h.app.ed.Draft().Markdown(), "![pasted-image-1.png](t3-context://v1/image/") {
		t.Fatalf("no image chip in %q", h.app.ed.Draft().Markdown())
	}
	stored, ok, err := e.st.AttachmentBinding(img.AttachmentID)
	if err != nil || !ok || !e.as.Has(stored) {
		t.Fatalf("the image bytes are not stored: %q %v %v", stored, ok, err)
	}
}

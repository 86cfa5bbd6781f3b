package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/clipboard"
	"github.com/chipchat/chipchat/contextref"
)

// clipEnv gives tests a private clipboard: a cache and registry in a temp
// state dir, and no clipboard tool (the system carrier falls to OSC 52).
func clipEnv(t *testing.T) (*clipboard.Clipboard, *clipboard.Registry) {
	t.Helper()
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	for _, k := range []string{"DISPLAY", "WAYLAND_DISPLAY", "TMUX", "SSH_CONNECTION", "SSH_TTY"} {
		t.Setenv(k, "")
	}
	return &clipboard.Clipboard{Cache: &clipboard.Cache{Dir: filepath.Join(state, "clipboard")}, System: &clipboard.System{}},
		&clipboard.Registry{Path: filepath.Join(state, "environments.json")}
}

func (e *testEnv) openClip(clip *clipboard.Clipboard, reg *clipboard.Registry) *harness {
	e.t.Helper()
	opt := e.options("")
	opt.Clipboard, opt.Registry = clip, reg
	return e.openWith(opt)
}

func uiTerm(id string) *contextref.TerminalRecord {
	return &contextref.TerminalRecord{Base: contextref.NewBase(contextref.KindTerminal, id, "Terminal 1"),
		TerminalID: "t1", TerminalLabel: "Terminal 1", LineStart: 3, LineEnd: 3, Text: "FAIL"}
}

// attachImage stores tinyPNG in the env and binds a local id, as ctrl+o does.
func (e *testEnv) attachImage(local string) *contextref.ImageRecord {
	e.t.Helper()
	p := e.writeFile("shot.png", tinyPNG)
	asset, err := e.as.PutFile(p)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.st.BindAttachment(local, asset.ID); err != nil {
		e.t.Fatal(err)
	}
	return &contextref.ImageRecord{AttachmentRecord: contextref.AttachmentRecord{
		Base: contextref.NewBase(contextref.KindImage, local, "shot.png"), AttachmentID: local, Name: "shot.png", MimeType: "image/png", SizeBytes: asset.Size}}
}

func TestCopySelectionWritesCacheEntry(t *testing.T) {
	clip, reg := clipEnv(t)
	e := newTestEnv(t)
	h := e.openClip(clip, reg)
	h.typeText("see ")
	h.app.ed.InsertContext(uiTerm("ctx_t"), "")
	h.press("alt+a", "ctrl+c")
	h.pumpUntil("the copy toast", func() bool { return strings.Contains(h.app.Toast(), "copied") })
	text := "see " + contextref.LinkFor(uiTerm("ctx_t"))
	if got := h.app.ed.Draft().Markdown(); got != text {
		t.Fatalf("copy changed the draft: %q", got)
	}
	f, err := clip.Cache.Lookup(text)
	if err != nil || len(f.Records) != 1 || f.Source.EnvironmentID != e.st.EnvironmentID() || f.Source.ThreadID != h.app.thread.ID {
		t.Fatalf("cache: %+v %v", f, err)
	}
	if d, ok := reg.Lookup(e.st.EnvironmentID()); !ok || d != e.st.Dir() {
		t.Errorf("environment not registered: %q %v", d, ok)
	}
	// without a selection ctrl+c keeps its meaning: it clears the draft
	h.press("end", "ctrl+c")
	if !h.app.ed.Draft().IsEmpty() {
		t.Error("ctrl+c without a selection did not clear the draft")
	}
}

func TestCutSelection(t *testing.T) {
	clip, reg := clipEnv(t)
	e := newTestEnv(t)
	h := e.openClip(clip, reg)
	h.app.ed.InsertContext(uiTerm("ctx_t"), "")
	h.typeText(" tail")
	h.press("home", "shift+right", "ctrl+x")
	if got := h.app.ed.Draft().Markdown(); got != " tail" {
		t.Fatalf("after cut: %q", got)
	}
	h.pumpUntil("the cut toast", func() bool { return strings.Contains(h.app.Toast(), "cut") })
	if _, err := clip.Cache.Lookup(contextref.LinkFor(uiTerm("ctx_t"))); err != nil {
		t.Fatal(err)
	}
}

// Copy in environment A (a terminal chip and an image chip), paste in B:
// both chips resolve and the image bytes now live in B's asset store.
func TestPasteAcrossEnvironments(t *testing.T) {
	clip, reg := clipEnv(t)
	a := newTestEnv(t)
	img := a.attachImage("att_src")
	ha := a.openClip(clip, reg)
	ha.app.ed.InsertContext(img, "")
	ha.typeText(" and ")
	ha.app.ed.InsertContext(uiTerm("ctx_t"), "")
	ha.press("alt+a", "ctrl+c")
	ha.pumpUntil("the copy", func() bool { return strings.Contains(ha.app.Toast(), "copied") })
	text, _, _ := ha.app.ed.Draft().SelectedMarkdown()

	b := newTestEnv(t)
	hb := b.openClip(clip, reg)
	hb.paste(text)
	hb.pumpUntil("the paste", func() bool { return strings.Contains(hb.app.Toast(), "pasted") })
	d := hb.app.ed.Draft()
	recs := d.Records()
	if len(recs) != 2 {
		t.Fatalf("records after paste: %d (%s); toast %q", len(recs), d.Markdown(), hb.app.Toast())
	}
	for _, o := range contextref.Scan(d.Markdown()) {
		r, ok := d.Record(o.ContextID)
		if !ok {
			t.Errorf("chip %s is unresolved", o.ContextID)
			continue
		}
		if im, ok := r.(*contextref.ImageRecord); ok {
			if im.ContextID == "att_src" {
				t.Error("the image kept the source's local id")
			}
			asset, ok, err := b.st.AttachmentBinding(im.AttachmentID)
			if err != nil || !ok || !b.as.Has(asset) {
				t.Errorf("the image bytes are not in B's asset store: %q %v %v", asset, ok, err)
			}
		}
	}
	// one undo step takes the whole paste back
	d.Undo()
	if !d.IsEmpty() && d.Markdown() != "" {
		t.Errorf("after undo: %q", d.Markdown())
	}
}

func TestPasteUnknownEnvironmentLeavesImageUnresolved(t *testing.T) {
	clip, reg := clipEnv(t)
	img := &contextref.ImageRecord{AttachmentRecord: contextref.AttachmentRecord{
		Base: contextref.NewBase(contextref.KindImage, "att_x", "shot.png"), AttachmentID: "sha256-" + strings.Repeat("a", 64), Name: "shot.png", MimeType: "image/png", SizeBytes: 3}}
	text := contextref.LinkFor(img) + " " + contextref.LinkFor(uiTerm("ctx_t"))
	if err := clip.Cache.Put(text, &contextref.Fragment{Source: contextref.FragmentSource{EnvironmentID: "env_elsewhere"}, Records: []contextref.Record{img, uiTerm("ctx_t")}}); err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t)
	h := e.openClip(clip, reg)
	h.paste(text)
	h.pumpUntil("the paste", func() bool { return strings.Contains(h.app.Toast(), "pasted") })
	if !h.app.toast.err || !strings.Contains(h.app.Toast(), "unknown") {
		t.Errorf("toast %q", h.app.Toast())
	}
	d := h.app.ed.Draft()
	if _, ok := d.Record("att_x"); ok {
		t.Error("the unreachable image resolved")
	}
	if _, ok := d.Record("ctx_t"); !ok {
		t.Error("the terminal excerpt was not imported")
	}
	if d.Markdown() != text {
		t.Errorf("text %q", d.Markdown())
	}
}

func TestPasteTamperedCacheIsPlainText(t *testing.T) {
	clip, reg := clipEnv(t)
	text := "x " + contextref.LinkFor(uiTerm("ctx_t"))
	if err := os.MkdirAll(clip.Cache.Dir, 0o700); err != nil {
		t.Fatal(err)
	}
	bad := `{"text":"other","fragment":{"version":1,"source":{"environmentId":"e"},"records":[]}}`
	if err := os.WriteFile(filepath.Join(clip.Cache.Dir, clipboard.Key(text)+".json"), []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t)
	h := e.openClip(clip, reg)
	h.paste(text)
	h.pumpUntil("the refusal", func() bool { return strings.Contains(h.app.Toast(), "plain text") })
	d := h.app.ed.Draft()
	if d.Markdown() != text || len(d.Records()) != 0 {
		t.Errorf("draft %q %d records", d.Markdown(), len(d.Records()))
	}
}

func TestLongPasteBecomesChipAndExpands(t *testing.T) {
	clip, reg := clipEnv(t)
	e := newTestEnv(t)
	h := e.openClip(clip, reg)
	long := strings.Repeat("line of text\n", 30)
	h.paste(long)
	h.pumpUntil("the chip", func() bool { return len(h.app.ed.Draft().Records()) == 1 })
	r := h.app.ed.Draft().Records()[0].(*contextref.FileRecord)
	if r.Name != "pasted-text-1.txt" || r.MimeType != "text/plain" || r.SizeBytes != int64(len(long)) {
		t.Fatalf("record %+v", r)
	}
	if asset, ok, _ := e.st.AttachmentBinding(r.AttachmentID); !ok || !e.as.Has(asset) {
		t.Fatal("the pasted text is not in the asset store")
	}
	h.press("alt+e")
	h.pumpUntil("the expansion", func() bool { return h.app.ed.Draft().Markdown() == long })
	if len(h.app.ed.Draft().Records()) != 0 {
		t.Error("the file record stayed after expanding")
	}
	// a short paste stays prose
	h.app.ed.Draft().ClearAll()
	h.paste("short")
	if got := h.app.ed.Draft().Markdown(); got != "short" {
		t.Errorf("short paste: %q", got)
	}
}

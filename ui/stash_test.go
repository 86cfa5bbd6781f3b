package ui

import (
	"github.com/chipchat/chipchat/dialog"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/contextref"
)

func TestStashAndRestore(t *testing.T) {
	clip, reg := clipEnv(t)
	e := newTestEnv(t)
	img := e.attachImage("att_img")
	h := e.openClip(clip, reg)
	h.typeText("first ")
	h.app.ed.InsertContext(uiTerm("ctx_t"), "")
	h.app.ed.InsertContext(img, "")
	want := h.app.ed.Draft().Markdown()
	h.press("ctrl+s")
	h.pumpUntil("the stash", func() bool { return strings.Contains(h.app.Toast(), "stashed") })
	if !h.app.ed.Draft().IsEmpty() {
		t.Fatalf("composer not cleared: %q", h.app.ed.Draft().Markdown())
	}
	es, err := e.st.Stash(e.project.ID)
	if err != nil || len(es) != 1 || es[0].Markdown != want || len(es[0].Records) != 2 {
		t.Fatalf("stash: %+v %v", es, err)
	}
	h.typeText("second")
	h.press("ctrl+s")
	h.pumpUntil("the second stash", func() bool { return h.app.ed.Draft().IsEmpty() })

	h.press("ctrl+alt+s")
	h.pumpUntil("the list", func() bool {
		return top[*dialog.Stash](h.app) != nil && len(top[*dialog.Stash](h.app).Entries()) == 2
	})
	if !strings.Contains(h.plain(), "second") || strings.Index(h.plain(), "second") > strings.Index(h.plain(), "first") {
		t.Errorf("stash list is not newest first:\n%s", h.plain())
	}
	h.typeText("first")
	h.press("enter")
	h.pumpUntil("the restore", func() bool { return strings.Contains(h.app.Toast(), "restored") })
	d := h.app.ed.Draft()
	if len(d.Records()) != 2 {
		t.Fatalf("restored records %d: %q", len(d.Records()), d.Markdown())
	}
	for _, o := range contextref.Scan(d.Markdown()) {
		if _, ok := d.Record(o.ContextID); !ok {
			t.Errorf("chip %s unresolved after restore", o.ContextID)
		}
	}
	if !strings.HasPrefix(d.Markdown(), "first ") {
		t.Errorf("restored %q", d.Markdown())
	}
	h.pumpUntil("the drop", func() bool {
		es, _ := e.st.Stash(e.project.ID)
		return len(es) == 1
	})
}

package ui

import (
	"strings"
	"testing"

	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/dialog"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
	"github.com/chipchat/chipchat/ui/keymap"
)

// Rough edges of issue 15 that live in the app, each driven as the user
// did (the screen ones also run in tmux: e2e_habits_test.go).

// 3: the rename field takes ctrl+u, ctrl+w, ctrl+a and ctrl+e.
func TestRenameFieldEditingKeys(t *testing.T) {
	e := newTestEnv(t)
	alpha, _ := twoThreads(e)
	h := e.open(alpha.ID)
	h.openSwitcher()
	h.typeText("alpha")
	h.press("ctrl+r")
	if renamingID(h.app) == "" || renamingTitle(h.app) != "Alpha notes" {
		t.Fatalf("rename field = %q", renamingTitle(h.app))
	}
	h.press("ctrl+w") // "Alpha "
	h.typeText("plans")
	h.press("ctrl+a")
	h.typeText("My ")
	h.press("ctrl+e")
	h.typeText("!")
	if got := renamingTitle(h.app); got != "My Alpha plans!" {
		t.Fatalf("after ctrl+w, ctrl+a, ctrl+e: %q", got)
	}
	if !strings.Contains(h.plain(), "New title: My Alpha plans!") {
		t.Errorf("the field is not drawn:\n%s", h.plain())
	}
	h.press("ctrl+u")
	h.typeText("Fresh")
	h.press("enter")
	h.pumpUntil("the rename", func() bool { th, _ := e.st.Thread(alpha.ID); return th.Title == "Fresh" })
}

// 9: a fork is titled "<title> (fork)"; the list marks the open thread
// and shows ids.
func TestForkTitleAndTheListMarksTheOpenThread(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	from := h.app.thread.ID
	h.typeText("plan the release")
	h.press("enter")
	if r := h.replyAfter("the reply", 0); r.Status != message.StatusDone {
		t.Fatalf("the reply ended %s", r.Status)
	}
	h.press("tab", "end", "f")
	h.pumpUntil("the fork", func() bool { return h.app.thread.ID != from })
	if h.app.thread.Title != "plan the release (fork)" {
		t.Fatalf("fork title = %q", h.app.thread.Title)
	}
	h.press("esc")
	h.openSwitcher()
	scr := h.overlayText()
	if !strings.Contains(scr, "● plan the release (fork)") || !strings.Contains(scr, h.app.thread.ID) || !strings.Contains(scr, from) {
		t.Fatalf("the list does not mark the open thread or show ids:\n%s", scr)
	}
	if strings.Contains(scr, "● plan the release ") && strings.Count(scr, "●") != 1 {
		t.Errorf("more than one thread marked:\n%s", scr)
	}
}

// 11: the thread list closes with the rebound threads key, and its own
// keys are the table's.
func TestThreadListUsesItsTableKeys(t *testing.T) {
	c, err := config.Load(writeConfig(t, "[keys]\nthreads = [\"f4\"]\nthreads_rename = [\"f2\"]\n"), keymap.CheckKeys)
	if err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t)
	twoThreads(e)
	opt := e.options("")
	opt.Config = c
	h := e.openWith(opt)
	h.press("ctrl+l")
	if h.app.OverlayScope() == keymap.ScopeThreads {
		t.Fatal("ctrl+l still opens the list after threads = f4")
	}
	h.press("f4")
	h.pumpUntil("the thread list", func() bool {
		return top[*dialog.Threads](h.app) != nil && top[*dialog.Threads](h.app).Listed() != nil
	})
	if f := h.footer(); !strings.Contains(f, "F2 rename") || strings.Contains(f, "ctrl+r rename") {
		t.Errorf("the hint bar does not show the bound keys: %q", f)
	}
	h.press("f2")
	if renamingID(h.app) == "" {
		t.Fatal("the rebound rename key does not rename")
	}
	h.press("esc", "f4")
	if h.app.OverlayScope() != keymap.Scope("") {
		t.Fatal("the rebound threads key does not close the list")
	}
}

// 11: transcript keys can be rebound.
func TestTranscriptKeysRebind(t *testing.T) {
	c, err := config.Load(writeConfig(t, "[keys]\ncopy = [\"c\"]\n"), keymap.CheckKeys)
	if err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t)
	e.newThread("", store.Message{Role: message.RoleUser, Text: "copy me"})
	opt := e.options("")
	opt.Config = c
	h := e.openWith(opt)
	if !strings.Contains(strings.Join(h.app.tr.Keys.Copy.Keys(), ","), "c") {
		t.Fatalf("the transcript's copy key = %v", h.app.tr.Keys.Copy.Keys())
	}
	h.press("tab")
	if f := h.footer(); !strings.Contains(f, "c copy") {
		t.Errorf("transcript hint bar = %q", f)
	}
}

// 10: the "F1 keys" hint fits at every width down to 40 columns.
func TestHelpHintFitsNarrowWidths(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	for _, w := range []int{200, 120, 80, 60, 40} {
		h.update(windowSize(w, 24))
		if f := h.footer(); !strings.Contains(f, "F1 keys") || displayWidth(f) > w {
			t.Errorf("at %d columns the hint bar is %q", w, f)
		}
	}
	h.press("tab")
	h.update(windowSize(60, 24))
	if f := h.footer(); !strings.Contains(f, "F1 keys") {
		t.Errorf("transcript hints at 60 columns: %q", f)
	}
}

// 8: y in a chip's details copies the chip and says so.
func TestCopyInChipDetailsSaysChip(t *testing.T) {
	clip, reg := clipEnv(t)
	e := newTestEnv(t)
	e.newThread("", store.Message{Role: message.RoleUser, Text: "see [main.go](t3-context://v1/mention/m1) now",
		Context: mentionContext("m1", "main.go")})
	h := e.openClip(clip, reg)
	h.press("tab", "end", "right", "enter")
	if !h.app.tr.PopoverOpen() {
		t.Fatalf("no chip details open:\n%s", h.plain())
	}
	h.press("y")
	h.pumpUntil("the copy", func() bool { return strings.HasPrefix(h.app.Toast(), "copied") })
	if !strings.HasPrefix(h.app.Toast(), "copied the chip") {
		t.Fatalf("toast = %q", h.app.Toast())
	}
}

func mentionContext(id, path string) *contextref.MessageContext {
	rec := &contextref.MentionRecord{Base: contextref.NewBase(contextref.KindMention, id, path), Path: path}
	return &contextref.MessageContext{Version: 1, Records: []contextref.Record{rec}}
}

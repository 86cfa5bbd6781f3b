package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/assets"
	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/dialog"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
	"github.com/chipchat/chipchat/ui/keymap"
)

// attach runs ctrl+o, types path, presses enter and waits for the result.
func (h *harness) attach(path string) {
	h.t.Helper()
	h.press("ctrl+o")
	h.typeText(path)
	h.press("enter")
	h.pumpUntil("the attachment", func() bool {
		return h.app.OverlayScope() != keymap.ScopeAttach || top[*dialog.Attach](h.app).Err() != ""
	})
}

// onlyRecord is the draft's single record of type T.
func onlyRecord[T contextref.Record](t *testing.T, h *harness) T {
	t.Helper()
	var zero T
	recs := h.app.ed.Draft().Records()
	if len(recs) != 1 {
		t.Fatalf("draft holds %d records, want 1", len(recs))
	}
	r, ok := recs[0].(T)
	if !ok {
		t.Fatalf("record is %T, want %T", recs[0], zero)
	}
	return r
}

// ---- attach ----

func TestAttachTextFileGivesFileChip(t *testing.T) {
	e := newTestEnv(t)
	e.writeFile("notes.txt", []byte("remember the milk\n"))
	h := e.open("")
	h.typeText("see ")
	h.press("ctrl+o")
	if f := h.footer(); !strings.Contains(f, "tab complete") {
		t.Errorf("attach footer = %q", f)
	}
	if !strings.Contains(h.plain(), "Attach a file") {
		t.Fatalf("ctrl+o shows no path prompt:\n%s", h.plain())
	}
	h.typeText("notes.txt")
	if !strings.Contains(h.plain(), "> notes.txt") {
		t.Errorf("the prompt does not echo the path:\n%s", h.plain())
	}
	h.press("enter")
	h.pumpUntil("the attachment", func() bool { return h.app.OverlayScope() == keymap.Scope("") })

	f := onlyRecord[*contextref.FileRecord](t, h)
	if f.Name != "notes.txt" || f.MimeType != "text/plain" || f.SizeBytes != 18 || f.Kind != contextref.KindFile {
		t.Errorf("file record = %+v", f)
	}
	if f.ContextID != f.AttachmentID {
		t.Errorf("context id %s ≠ local attachment id %s", f.ContextID, f.AttachmentID)
	}
	// The local id is bound to the stored bytes.
	stored, ok, err := e.st.AttachmentBinding(f.AttachmentID)
	if err != nil || !ok || !e.as.Has(stored) {
		t.Errorf("binding of %s = %q %v %v", f.AttachmentID, stored, ok, err)
	}
	if len(h.app.ed.Draft().Shelf()) != 0 {
		t.Error("a text file went on the image shelf")
	}
	md := h.app.ed.Draft().Markdown()
	if !strings.HasPrefix(md, "see [notes.txt](t3-context://v1/file/"+f.ContextID+")") {
		t.Errorf("draft = %q", md)
	}
	if !strings.Contains(h.app.Toast(), "attached notes.txt (18 B)") {
		t.Errorf("toast = %q", h.app.Toast())
	}
	if h.app.focus != paneComposer || !h.app.ed.Focused() {
		t.Error("the composer is not focused after attaching")
	}
	if !strings.Contains(h.plain(), "notes.txt") {
		t.Errorf("no chip on screen:\n%s", h.plain())
	}
}

func TestAttachCompletionListsAndCompletes(t *testing.T) {
	e := newTestEnv(t)
	e.writeFile("shot-a.png", tinyPNG)
	e.writeFile("shot-b.png", tinyPNG)
	e.writeFile("other.txt", []byte("x"))
	e.writeFile("sub/inner.txt", []byte("y"))
	e.writeFile(".hidden-shot", []byte("z"))
	h := e.open("")
	h.press("ctrl+o")
	h.typeText("sh")
	h.press("tab")
	h.pumpUntil("the matches", func() bool { return len(top[*dialog.Attach](h.app).Matches()) > 0 })
	scr := h.plain()
	if !strings.Contains(scr, "> shot-█") && !strings.Contains(scr, "> shot-") {
		t.Errorf("the common prefix was not completed:\n%s", scr)
	}
	for _, w := range []string{"  shot-a.png", "  shot-b.png"} {
		if !strings.Contains(scr, w) {
			t.Errorf("matches do not list %q:\n%s", w, scr)
		}
	}
	if strings.Contains(scr, "other.txt") || strings.Contains(scr, ".hidden") {
		t.Errorf("non-matching or hidden files listed:\n%s", scr)
	}
	h.typeText("b")
	if len(top[*dialog.Attach](h.app).Matches()) != 0 {
		t.Error("typing did not clear the match list")
	}
	h.press("tab")
	h.pumpUntil("the completion", func() bool { return top[*dialog.Attach](h.app).Input() == "shot-b.png" })

	// A directory completes with a slash, and its entries then.
	h.press("ctrl+u")
	h.typeText("su")
	h.press("tab")
	h.pumpUntil("the directory", func() bool { return top[*dialog.Attach](h.app).Input() == "sub/" })
	h.press("tab")
	h.pumpUntil("the file inside", func() bool { return top[*dialog.Attach](h.app).Input() == "sub/inner.txt" })

	// No match says so.
	h.press("ctrl+u")
	h.typeText("zzz")
	h.press("tab")
	h.pumpUntil("the error", func() bool { return top[*dialog.Attach](h.app).Err() != "" })
	if !strings.Contains(h.plain(), "no such file") {
		t.Errorf("no-match not shown:\n%s", h.plain())
	}

	h.press("ctrl+u")
	h.typeText("shot-b.png")
	h.press("enter")
	h.pumpUntil("the attachment", func() bool { return h.app.OverlayScope() == keymap.Scope("") })
	img := onlyRecord[*contextref.ImageRecord](t, h)
	if img.Name != "shot-b.png" || img.MimeType != "image/png" || img.SizeBytes != int64(len(tinyPNG)) {
		t.Errorf("image record = %+v", img)
	}
	if sh := h.app.ed.Draft().Shelf(); len(sh) != 1 || sh[0] != img.ContextID {
		t.Errorf("shelf = %v", sh)
	}
	if n := h.app.ed.Draft().References(img.ContextID); n != 1 {
		t.Errorf("image chips = %d, want 1", n)
	}
	if !strings.HasPrefix(h.app.ed.Draft().Markdown(), "![shot-b.png](t3-context://v1/image/") {
		t.Errorf("draft = %q", h.app.ed.Draft().Markdown())
	}
	// The shelf row above the composer: name and size.
	shelfRow := ""
	for _, l := range strings.Split(h.plain(), "\n") {
		if strings.Contains(l, "images:") {
			shelfRow = l
		}
	}
	if !strings.Contains(shelfRow, "shot-b.png ("+assets.HumanSize(int64(len(tinyPNG)))+")") {
		t.Errorf("shelf row = %q, want name and size", shelfRow)
	}
	// It sits right above the composer's rule.
	lines := strings.Split(h.plain(), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "───") && (i == 0 || !strings.Contains(lines[i-1], "images:")) {
			t.Errorf("the line above the composer is %q, want the shelf", lines[max(i-1, 0)])
		}
	}
}

func TestAttachPathForms(t *testing.T) {
	e := newTestEnv(t)
	if err := os.WriteFile(filepath.Join(e.home, "from-home.txt"), []byte("h"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := e.open("")
	h.attach("~/from-home.txt")
	if f := onlyRecord[*contextref.FileRecord](t, h); f.Name != "from-home.txt" {
		t.Errorf("record = %+v", f)
	}
}

func TestAttachErrorsStayInPrompt(t *testing.T) {
	e := newTestEnv(t)
	e.writeFile("sub/x.txt", []byte("x"))
	h := e.open("")
	for _, tc := range []struct{ path, want string }{
		{"missing.txt", "no file " + filepath.Join(e.dir, "missing.txt")},
		{"sub", "directory"},
	} {
		h.attach(tc.path)
		if h.app.OverlayScope() != keymap.ScopeAttach {
			t.Fatalf("%s: the prompt closed on an error", tc.path)
		}
		// In the prompt, once: no toast says it again (issue 25 item 13).
		if scr := h.plain(); strings.Count(scr, tc.want) != 1 || h.app.Toast() != "" || strings.Contains(scr, "stat ") {
			t.Errorf("%s: the error is not shown once (toast %q):\n%s", tc.path, h.app.Toast(), scr)
		}
		h.press("esc")
		if h.app.OverlayScope() != keymap.Scope("") {
			t.Fatal("esc did not close the prompt")
		}
	}
	if !h.app.ed.Draft().IsEmpty() {
		t.Errorf("draft = %q", h.app.ed.Draft().Markdown())
	}
}

func TestAttachTooLargeRefused(t *testing.T) {
	e := newTestEnv(t)
	small, err := assets.Open(filepath.Join(e.dataDir, "small-assets"), 10)
	if err != nil {
		t.Fatal(err)
	}
	e.writeFile("big.txt", []byte(strings.Repeat("x", 11)))
	opt := e.options("")
	opt.Assets = small
	h := e.openWith(opt)
	h.attach("big.txt")
	if !strings.Contains(top[*dialog.Attach](h.app).Err(), "too large") {
		t.Errorf("the prompt says %q", top[*dialog.Attach](h.app).Err())
	}
	if !h.app.ed.Draft().IsEmpty() {
		t.Error("a refused file reached the draft")
	}
}

// ---- the image shelf ----

func TestShelfRemovalAsksWhileAChipShowsTheImage(t *testing.T) {
	e := newTestEnv(t)
	e.writeFile("shot.png", tinyPNG)
	h := e.open("")
	h.attach("shot.png")
	img := onlyRecord[*contextref.ImageRecord](t, h)
	h.typeText(" look")

	h.clearToast()
	h.press("tab", "tab")
	if h.app.focus != paneShelf {
		t.Fatalf("tab tab: focus = %d, want the shelf", h.app.focus)
	}
	if f := h.footer(); !strings.Contains(f, "x remove") {
		t.Errorf("shelf footer = %q", f)
	}
	h.press("tab")
	if h.app.focus != paneComposer {
		t.Fatalf("tab from the shelf: focus = %d, want the composer", h.app.focus)
	}
	h.press("shift+tab")
	if h.app.focus != paneShelf {
		t.Fatalf("shift+tab from the composer: focus = %d, want the shelf", h.app.focus)
	}

	h.press("x")
	if h.app.OverlayScope() != keymap.ScopeConfirm {
		t.Fatal("removing a referenced image did not ask")
	}
	if scr := h.plain(); !strings.Contains(scr, "Remove shot.png and the 1 chip(s)") {
		t.Errorf("confirmation not shown:\n%s", scr)
	}
	if f := h.footer(); !strings.Contains(f, "y yes") {
		t.Errorf("confirm footer = %q", f)
	}
	h.press("n")
	d := h.app.ed.Draft()
	if len(d.Shelf()) != 1 || d.References(img.ContextID) != 1 {
		t.Fatal("n removed something")
	}

	h.press("delete")
	if h.app.OverlayScope() != keymap.ScopeConfirm {
		t.Fatal("delete did not ask")
	}
	h.press("y")
	d = h.app.ed.Draft()
	if len(d.Shelf()) != 0 || d.References(img.ContextID) != 0 {
		t.Fatalf("y kept the image: shelf %v, refs %d", d.Shelf(), d.References(img.ContextID))
	}
	if _, ok := d.Record(img.ContextID); ok {
		t.Error("the record survived")
	}
	if md := d.Markdown(); strings.Contains(md, "t3-context") || !strings.Contains(md, "look") {
		t.Errorf("draft = %q", md)
	}
	if strings.Contains(h.plain(), "images:") {
		t.Error("the shelf row is still drawn")
	}
	// With the shelf gone, keys reach the composer again at once.
	h.typeText("!")
	if md := h.app.ed.Draft().Markdown(); !strings.HasSuffix(md, "!") {
		t.Errorf("the first key after emptying the shelf was lost: draft %q, focus %d", md, h.app.focus)
	}
	// ctrl+z (after undoing the "!") brings both back in one step.
	h.press("ctrl+z", "ctrl+z")
	if d := h.app.ed.Draft(); len(d.Shelf()) != 1 || d.References(img.ContextID) != 1 {
		t.Errorf("undo did not restore the image and its chip: shelf %v", d.Shelf())
	}
}

func TestShelfRemovalWithoutChipDoesNotAsk(t *testing.T) {
	e := newTestEnv(t)
	e.writeFile("a.png", tinyPNG)
	e.writeFile("b.png", append(append([]byte{}, tinyPNG...), 0))
	h := e.open("")
	h.attach("a.png")
	h.attach("b.png")
	if n := len(h.app.ed.Draft().Shelf()); n != 2 {
		t.Fatalf("shelf holds %d", n)
	}
	h.press("backspace", "backspace") // the b.png chip is selected, then goes; the image stays on the shelf
	d := h.app.ed.Draft()
	if len(d.Shelf()) != 2 {
		t.Fatal("deleting an image chip took the image off the shelf")
	}
	if !strings.Contains(h.plain(), "no chip") {
		t.Errorf("the shelf does not mark the image without chip:\n%s", h.plain())
	}
	h.press("tab", "tab", "right")
	h.press("x")
	if h.app.OverlayScope() == keymap.ScopeConfirm {
		t.Fatal("removing an image no chip shows asked")
	}
	d = h.app.ed.Draft()
	if sh := d.Shelf(); len(sh) != 1 {
		t.Fatalf("shelf = %v", sh)
	}
	if r, _ := d.Record(d.Shelf()[0]); r.(*contextref.ImageRecord).Name != "a.png" {
		t.Error("the wrong image went")
	}
	h.press("esc")
	if h.app.focus != paneComposer {
		t.Error("esc did not leave the shelf")
	}
}

// A draft whose only content is a shelf image nobody references sends
// nothing: the image is not sent (no chip), so the message would be empty.
func TestShelfOnlyDraftSendsNoEmptyMessage(t *testing.T) {
	e := newTestEnv(t)
	e.writeFile("a.png", tinyPNG)
	h := e.open("")
	h.attach("a.png")
	h.press("backspace", "backspace") // selects the chip, then deletes it
	if md := h.app.ed.Draft().Markdown(); md != "" {
		t.Fatalf("draft = %q", md)
	}
	h.press("enter")
	// The conversation refuses it before storing anything, and says so.
	h.pumpUntil("the refusal", func() bool {
		return strings.Contains(h.app.Toast(), "nothing to send") && h.app.conv.phase() == chat.Idle
	})
	if !h.app.toast.err || !strings.Contains(h.app.Toast(), "chip of the shelf image") {
		t.Errorf("toast %q (error %v)", h.app.Toast(), h.app.toast.err)
	}
	if msgs := e.messages(h.app.thread.ID); len(msgs) != 0 {
		t.Fatalf("a message was stored: %+v", msgs)
	}
	if len(h.app.ed.Draft().Shelf()) != 1 {
		t.Error("the shelf image vanished without being sent")
	}
}

// ---- send with attachments ----

func TestSendNormalizesAttachmentsToStoredIDs(t *testing.T) {
	e := newTestEnv(t)
	e.writeFile("shot.png", tinyPNG)
	e.writeFile("notes.txt", []byte("abc"))
	h := e.open("")
	h.typeText("look at ")
	h.attach("shot.png")
	h.typeText("and ")
	h.attach("notes.txt")
	local := map[string]string{}
	for _, r := range h.app.ed.Draft().Records() {
		b := r.RecordBase()
		local[b.Kind] = b.ContextID
	}
	h.press("enter")
	h.pumpUntil("the reply", func() bool {
		msgs := e.messages(h.app.thread.ID)
		return len(msgs) == 2 && msgs[1].Status == message.StatusDone
	})
	msgs := e.messages(h.app.thread.ID)
	user := msgs[0]
	if user.Context == nil || len(user.Context.Records) != 2 {
		t.Fatalf("stored context = %+v", user.Context)
	}
	for _, r := range user.Context.Records {
		var ar *contextref.AttachmentRecord
		switch r := r.(type) {
		case *contextref.ImageRecord:
			ar = &r.AttachmentRecord
		case *contextref.FileRecord:
			ar = &r.AttachmentRecord
		default:
			t.Fatalf("unexpected record %T", r)
		}
		if ar.ContextID != local[ar.Kind] {
			t.Errorf("%s context id = %s, want the local id %s kept", ar.Kind, ar.ContextID, local[ar.Kind])
		}
		if !strings.HasPrefix(ar.AttachmentID, assets.IDPrefix) || !e.as.Has(ar.AttachmentID) {
			t.Errorf("%s attachmentId = %s, want the stored asset id", ar.Kind, ar.AttachmentID)
		}
	}
	// The links in the text still name the local ids.
	for _, id := range local {
		if !strings.Contains(user.Text, "/"+id+")") {
			t.Errorf("text %q lost the reference to %s", user.Text, id)
		}
	}
	// The echo agent was handed both attachments with their paths.
	reply := msgs[1].Text
	for _, w := range []string{"- shot.png (image/png, ", "): an image part", "- notes.txt (text/plain, 3 B): inline as text"} {
		if !strings.Contains(reply, w) {
			t.Errorf("reply lacks %q:\n%s", w, reply)
		}
	}
	if strings.Contains(reply, "not available") {
		t.Errorf("an attachment did not reach the agent:\n%s", reply)
	}
}

func TestSendRefusedWhenAttachmentBytesAreGone(t *testing.T) {
	e := newTestEnv(t)
	e.writeFile("notes.txt", []byte("abc"))
	h := e.open("")
	h.attach("notes.txt")
	f := onlyRecord[*contextref.FileRecord](t, h)
	stored, _, _ := e.st.AttachmentBinding(f.AttachmentID)
	p, err := e.as.Path(stored)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	before := h.app.ed.Draft().Markdown()
	h.press("enter")
	h.pumpUntil("the refusal", func() bool { return h.app.Toast() != "" && !(h.app.conv.phase() == chat.Storing) && h.app.toast.err })
	if !strings.Contains(h.app.Toast(), "notes.txt") {
		t.Errorf("toast = %q, want it to name the file", h.app.Toast())
	}
	if h.app.ed.Draft().Markdown() != before {
		t.Error("the draft left the composer")
	}
	if n := len(e.messages(h.app.thread.ID)); n != 0 {
		t.Errorf("%d messages stored", n)
	}
}

func TestDraftWithChipsRestored(t *testing.T) {
	e := newTestEnv(t)
	e.writeFile("shot.png", tinyPNG)
	h := e.open("")
	h.typeText("x ")
	h.attach("shot.png")
	want := h.app.ed.Draft().Markdown()
	h.press("ctrl+q")
	h.pumpUntil("quit", h.sawQuit)
	h2 := e.open(h.app.thread.ID)
	d := h2.app.ed.Draft()
	if d.Markdown() != want || len(d.Shelf()) != 1 {
		t.Fatalf("restored draft = %q shelf %v, want %q with the image on the shelf", d.Markdown(), d.Shelf(), want)
	}
	if !strings.Contains(h2.plain(), "shot.png (") {
		t.Errorf("the shelf is not drawn after restore:\n%s", h2.plain())
	}
}

// ---- threads ----

// twoThreads makes "Alpha notes" and then "Beta plans" (the most recent).
func twoThreads(e *testEnv) (alpha, beta store.Thread) {
	alpha = e.newThread("Alpha notes", store.Message{Role: message.RoleUser, Text: "alpha message"},
		store.Message{Role: message.RoleAssistant, Text: "alpha reply"})
	// Threads made in the same nanosecond list the later one first.
	beta = e.newThread("Beta plans", store.Message{Role: message.RoleUser, Text: "beta message"})
	return alpha, beta
}

// popupLoaded feeds command results to Update until the open popup shows
// what it loads: the thread list's threads (help and the attach prompt
// load nothing).
func (h *harness) popupLoaded() {
	h.t.Helper()
	if h.app.OverlayScope() == keymap.ScopeThreads {
		h.pumpUntil("the thread list", func() bool { return top[*dialog.Threads](h.app).Listed() != nil })
	}
}

// overlayText is the screen between the header and the composer rule.
func (h *harness) overlayText() string {
	lines := strings.Split(h.plain(), "\n")
	var out []string
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, "───") {
			break
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

func (h *harness) openSwitcher() {
	h.t.Helper()
	h.press("ctrl+l")
	h.pumpUntil("the thread list", func() bool {
		return top[*dialog.Threads](h.app) != nil && top[*dialog.Threads](h.app).Listed() != nil
	})
}

func TestThreadSwitcherFiltersAndSwitches(t *testing.T) {
	e := newTestEnv(t)
	alpha, beta := twoThreads(e)
	h := e.open("")
	if h.app.thread.ID != beta.ID {
		t.Fatalf("opened %s, want the most recent thread", h.app.thread.Title)
	}
	h.typeText("wip on beta")
	h.openSwitcher()
	ov := h.overlayText()
	if !strings.Contains(ov, "Alpha notes") || !strings.Contains(ov, "Beta plans") {
		t.Fatalf("the list lacks a thread:\n%s", ov)
	}
	if f := h.footer(); !strings.Contains(f, "enter open") {
		t.Errorf("switcher footer = %q", f)
	}
	h.typeText("alp")
	ov = h.overlayText()
	if !strings.Contains(ov, "Alpha notes") || strings.Contains(ov, "Beta plans") {
		t.Fatalf("typing did not filter:\n%s", ov)
	}
	// Fuzzy: letters in order, not a substring.
	h.press("backspace", "backspace", "backspace")
	h.typeText("hno")
	ov = h.overlayText()
	if !strings.Contains(ov, "Alpha notes") || strings.Contains(ov, "Beta plans") {
		t.Fatalf("fuzzy filter %q:\n%s", "hno", ov)
	}
	h.press("enter")
	h.pumpUntil("the other thread", func() bool { return h.app.thread.ID == alpha.ID })
	scr := h.plain()
	for _, w := range []string{"Alpha notes", "alpha message", "alpha reply"} {
		if !strings.Contains(scr, w) {
			t.Errorf("screen lacks %q:\n%s", w, scr)
		}
	}
	if strings.Contains(scr, "beta message") || strings.Contains(scr, "wip on beta") {
		t.Errorf("the old thread shows through:\n%s", scr)
	}
	// The left thread's draft was saved on the way out.
	if d, ok := e.draft(beta.ID); !ok || d.Markdown != "wip on beta" {
		t.Errorf("beta draft = %+v %v", d, ok)
	}
	// And comes back with it.
	h.openSwitcher()
	h.typeText("beta")
	h.press("enter")
	h.pumpUntil("beta again", func() bool { return h.app.thread.ID == beta.ID })
	if got := h.app.ed.Draft().Markdown(); got != "wip on beta" {
		t.Errorf("draft back in beta = %q", got)
	}
	// esc closes the list without switching.
	h.openSwitcher()
	h.press("esc")
	if h.app.OverlayScope() != keymap.Scope("") || h.app.thread.ID != beta.ID {
		t.Error("esc did not just close the list")
	}
}

func TestCtrlNStartsThread(t *testing.T) {
	e := newTestEnv(t)
	_, beta := twoThreads(e)
	h := e.open("")
	h.typeText("half a thought")
	h.press("ctrl+n")
	h.pumpUntil("a new thread", func() bool { return h.app.thread.ID != beta.ID })
	// Issue 15: the new thread is stored with its first draft or message,
	// so ctrl+n and leaving leaves no empty thread behind.
	ts, err := e.st.Threads(e.project.ID)
	if err != nil || len(ts) != 2 {
		t.Fatalf("threads = %d, %v (the new one is not stored before it has a draft)", len(ts), err)
	}
	if !h.app.ed.Draft().IsEmpty() {
		t.Errorf("the new thread's draft = %q", h.app.ed.Draft().Markdown())
	}
	h.typeText("x")
	h.pumpUntil("the new thread stored with its draft", func() bool {
		ts, _ := e.st.Threads(e.project.ID)
		return len(ts) == 3
	})
	scr := h.plain()
	if !strings.Contains(strings.SplitN(scr, "\n", 2)[0], "New thread") || strings.Contains(scr, "beta message") {
		t.Errorf("screen after ctrl+n:\n%s", scr)
	}
	if d, ok := e.draft(beta.ID); !ok || d.Markdown != "half a thought" {
		t.Errorf("the old thread's draft = %+v %v", d, ok)
	}
	// A message goes to the new thread.
	h.typeText("fresh start")
	h.press("enter")
	h.pumpUntil("the send", func() bool { return len(e.messages(h.app.thread.ID)) == 2 })
	if n := len(e.messages(beta.ID)); n != 1 {
		t.Errorf("beta now has %d messages", n)
	}
}

func TestThreadSwitcherRenames(t *testing.T) {
	e := newTestEnv(t)
	alpha, beta := twoThreads(e)
	h := e.open("")
	h.openSwitcher()
	h.typeText("beta")
	h.press("ctrl+r")
	if !strings.Contains(h.overlayText(), "New title: Beta plans") {
		t.Fatalf("rename field not shown:\n%s", h.overlayText())
	}
	for range "Beta plans" {
		h.press("backspace")
	}
	h.typeText("Gamma")
	h.press("enter")
	h.pumpUntil("the rename", func() bool {
		th, err := e.st.Thread(beta.ID)
		return err == nil && th.Title == "Gamma"
	})
	// The list reloads (the filter "beta" stays, so it now matches
	// nothing) and the header shows the open thread's new title.
	h.pumpUntil("the list and header to show it", func() bool {
		for _, th := range top[*dialog.Threads](h.app).Listed() {
			if th.ID == beta.ID && th.Title == "Gamma" {
				return strings.Contains(strings.SplitN(h.plain(), "\n", 2)[0], "Gamma")
			}
		}
		return false
	})
	if th, _ := e.st.Thread(alpha.ID); th.Title != "Alpha notes" {
		t.Errorf("alpha renamed too: %q", th.Title)
	}
	h.press("backspace", "backspace", "backspace", "backspace")
	if !strings.Contains(h.overlayText(), "Gamma") {
		t.Errorf("the renamed thread is not listed:\n%s", h.overlayText())
	}
	// esc leaves rename without renaming.
	h.press("ctrl+r", "x", "esc")
	if h.app.OverlayScope() != keymap.ScopeThreads || renamingID(h.app) != "" {
		t.Error("esc in the rename field closed the list or kept renaming")
	}
}

func TestThreadSwitcherDeletesAfterAsking(t *testing.T) {
	e := newTestEnv(t)
	alpha, beta := twoThreads(e)
	h := e.open("")
	h.openSwitcher()
	h.typeText("alpha")
	h.press("ctrl+d")
	h.pumpUntil("the question", func() bool { return h.app.OverlayScope() == keymap.ScopeConfirm })
	if !strings.Contains(h.plain(), `Delete the thread "Alpha notes", updated `) || !strings.Contains(h.plain(), ", 2 messages? (y/n)") {
		t.Fatalf("ctrl+d did not ask with the title, age and count:\n%s", h.plain())
	}
	// Update does no I/O: a deletion would be a command, and n returns none.
	if _, cmd := h.app.Update(keyPress("n")); cmd != nil {
		t.Fatal("n answered with a command")
	}
	if h.app.OverlayScope() != keymap.ScopeThreads {
		t.Fatal("n did not return to the list")
	}
	if _, err := e.st.Thread(alpha.ID); err != nil {
		t.Fatalf("n deleted the thread: %v", err)
	}
	h.confirmDelete()
	h.pumpUntil("the deletion", func() bool {
		_, err := e.st.Thread(alpha.ID)
		return err != nil
	})
	h.pumpUntil("the list without it", func() bool {
		return len(top[*dialog.Threads](h.app).Listed()) == 1 && !strings.Contains(h.overlayText(), "Alpha notes")
	})
	if h.app.thread.ID != beta.ID {
		t.Error("deleting another thread moved the app")
	}
	if n := len(e.messages(alpha.ID)); n != 0 {
		t.Errorf("alpha's messages survive: %d", n)
	}
}

func TestDeletingTheOpenThreadMovesToAnother(t *testing.T) {
	e := newTestEnv(t)
	alpha, beta := twoThreads(e)
	h := e.open("")
	h.openSwitcher()
	h.typeText("beta")
	h.confirmDelete()
	h.pumpUntil("another thread", func() bool { return h.app.thread.ID == alpha.ID })
	if _, err := e.st.Thread(beta.ID); err == nil {
		t.Error("beta survives")
	}
	h.press("esc")
	if !strings.Contains(h.plain(), "alpha message") {
		t.Errorf("screen:\n%s", h.plain())
	}
	// The last thread going leaves a new one, stored once it has a draft.
	h.openSwitcher()
	h.confirmDelete()
	h.pumpUntil("a new thread", func() bool { return h.app.thread.ID != alpha.ID && h.app.thread.ID != "" })
	if ts, _ := e.st.Threads(e.project.ID); len(ts) != 0 {
		t.Errorf("threads = %+v, want none stored before a draft", ts)
	}
	// Typing in it saves to a thread that exists.
	h.press("esc")
	h.typeText("still here")
	h.pumpUntil("the draft", func() bool { d, ok := e.draft(h.app.thread.ID); return ok && d.Markdown == "still here" })
	if h.app.toast.err {
		t.Errorf("error toast: %q", h.app.Toast())
	}
}

// Switching away from a running turn and back: the turn ran on, and its
// reply is whole when the thread is shown again.
func TestSwitchWhileTurnRunsAndBack(t *testing.T) {
	e := newTestEnv(t)
	alpha, beta := twoThreads(e)
	opt := e.options(beta.ID)
	opt.Backend = agent.Echo{ChunkDelay: 5 * time.Millisecond, ChunkSize: 4}
	h := e.openWith(opt)
	h.typeText("long one")
	h.press("enter")
	h.pumpUntil("the turn", func() bool { return h.app.conv.phase() >= chat.Starting && h.app.ed.Draft().IsEmpty() }) // the composer cleared: the app heard the send
	h.openSwitcher()
	h.typeText("alpha")
	h.press("enter")
	h.pumpUntil("alpha", func() bool { return h.app.thread.ID == alpha.ID })
	h.pumpUntilWithin(20*time.Second, "beta's reply", func() bool {
		msgs := e.messages(beta.ID)
		return len(msgs) == 3 && msgs[2].Status == message.StatusDone
	})
	h.openSwitcher()
	h.typeText("beta")
	h.press("enter")
	h.pumpUntil("beta", func() bool { return h.app.thread.ID == beta.ID })
	h.pumpUntil("the whole reply", func() bool { return strings.Contains(h.plain(), "No attachments.") })
}

// ---- hostile names ----

func TestHostileThreadTitleNeverReachesScreen(t *testing.T) {
	e := newTestEnv(t)
	title := "evil" + hostileCSI + "title" + hostileOSC
	e.newThread(title, store.Message{Role: message.RoleUser, Text: "hi"})
	h := e.open("")
	checkNoControls(t, "header", h.view())
	h.openSwitcher()
	checkNoControls(t, "switcher", h.view())
	if !strings.Contains(h.overlayText(), "evil") {
		t.Errorf("title not listed:\n%s", h.overlayText())
	}
	h.press("ctrl+d")
	checkNoControls(t, "delete confirmation", h.view())
	h.press("n")
	h.press("ctrl+r")
	checkNoControls(t, "rename field", h.view())
	h.press("esc")
}

func TestHostileFileNameNeverReachesScreen(t *testing.T) {
	e := newTestEnv(t)
	name := "evil" + hostileCSI + "name" + hostileOSC + ".png"
	e.writeFile(name, tinyPNG)
	h := e.open("")
	h.press("ctrl+o")
	h.typeText("ev")
	h.press("tab")
	h.pumpUntil("the completion", func() bool { return top[*dialog.Attach](h.app).Input() == name })
	checkNoControls(t, "completed prompt", h.view())
	h.press("enter")
	h.pumpUntil("the attachment", func() bool { return h.app.OverlayScope() == keymap.Scope("") })
	if img := onlyRecord[*contextref.ImageRecord](t, h); img.Name != name {
		t.Errorf("record name = %q", img.Name)
	}
	checkNoControls(t, "chip, shelf and toast", h.view())
	h.press("tab", "tab")
	checkNoControls(t, "shelf focused", h.view())
	h.press("x")
	checkNoControls(t, "shelf confirmation", h.view())
	h.press("n", "esc")

	h.press("enter")
	if r := h.replyAfter("the reply", 0); r.Status != message.StatusDone {
		t.Fatalf("reply %s", r.Status)
	}
	checkNoControls(t, "sent message and echo reply", h.view())
	// The title derived from the label, once the UI has it.
	h.pumpUntil("the title", func() bool { return h.app.thread.Title != "" })
	if header := strings.SplitN(h.plain(), "\n", 2)[0]; !strings.Contains(header, "evil") {
		t.Errorf("the header does not show the title from the label: %q", header)
	}
	checkNoControls(t, "header", h.view())
	h.openSwitcher()
	checkNoControls(t, "switcher", h.view())
}

// heldUserStored holds the conversation's events from the one that says a
// message was stored: the UI has not seen the store finish yet.
func heldUserStored(m tea.Msg) bool {
	evs, ok := m.(chatMsg)
	if !ok {
		return false
	}
	for _, e := range evs {
		if _, ok := e.(chat.UserStored); ok {
			return true
		}
	}
	return false
}

// Threads may change while a message is being stored: the result belongs
// to its own thread, the other thread's draft is as it was, and the sent
// message shows only where it was sent.
func TestSwitchWhileSendingKeepsOtherThreadsDraft(t *testing.T) {
	e := newTestEnv(t)
	alpha, beta := twoThreads(e)
	if err := e.st.SaveDraft(store.Draft{ThreadID: alpha.ID, Markdown: "precious alpha draft"}); err != nil {
		t.Fatal(err)
	}
	h := e.open(beta.ID)
	h.hold = heldUserStored
	h.typeText("sent from beta")
	h.press("enter")
	h.pumpUntil("the message to be stored", func() bool { return len(h.held) == 1 })
	h.openSwitcher()
	h.typeText("alpha")
	h.press("enter")
	h.pumpUntil("alpha", func() bool { return h.app.thread.ID == alpha.ID })
	h.hold = nil
	h.update(h.held[0]) // the send's result arrives now
	h.pumpUntil("beta's reply", func() bool {
		msgs := e.messages(beta.ID)
		return len(msgs) == 3 && msgs[2].Status == message.StatusDone
	})
	if got := h.app.ed.Draft().Markdown(); got != "precious alpha draft" {
		t.Errorf("alpha's draft on screen = %q, want it kept", got)
	}
	if d, ok := e.draft(alpha.ID); !ok || d.Markdown != "precious alpha draft" {
		t.Errorf("alpha's draft on disk = %+v (%v), want it kept", d, ok)
	}
	if strings.Contains(h.plain(), "sent from beta") {
		t.Errorf("beta's message shows in alpha:\n%s", h.plain())
	}
	if d, ok := e.draft(beta.ID); ok && d.Markdown == "sent from beta" {
		t.Errorf("the sent message came back as beta's draft")
	}
}

// Starting a thread while the send is being stored: the sent text never
// comes back as the old thread's draft.
func TestCtrlNWhileSendingDoesNotResurrectSentDraft(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	first := h.app.thread.ID
	h.hold = heldUserStored
	h.typeText("already sent")
	h.press("enter")
	h.pumpUntil("the message to be stored", func() bool { return len(h.held) == 1 })
	h.press("ctrl+n")
	h.pumpUntil("the new thread", func() bool { return h.app.thread.ID != first })
	h.hold = nil
	h.update(h.held[0])
	h.pumpUntil("the reply", func() bool {
		msgs := e.messages(first)
		return len(msgs) == 2 && msgs[1].Status == message.StatusDone
	})
	if d, ok := e.draft(first); ok && d.Markdown == "already sent" {
		t.Errorf("the sent message came back as the old thread's draft")
	}
}

// Quitting while the send is being stored: after exit no reply is left
// "streaming" forever, and the sent text does not come back as the draft.
func TestQuitWhileSendingLeavesNothingStreaming(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	threadID := h.app.thread.ID
	h.hold = heldUserStored
	h.typeText("sent at the last moment")
	h.press("enter")
	h.pumpUntil("the message to be stored", func() bool { return len(h.held) == 1 })
	h.press("ctrl+q")
	h.hold = nil
	h.update(h.held[0])
	h.pumpUntil("quit", h.sawQuit)
	for _, m := range e.messages(threadID) {
		if m.Status == message.StatusStreaming {
			t.Errorf("after quitting, %s message %s is left %q", m.Role, m.ID, m.Status)
		}
	}
	if d, ok := e.draft(threadID); ok && d.Markdown == "sent at the last moment" {
		t.Errorf("the sent message was saved back as the draft")
	}
}

// confirmDelete is ctrl+d in the thread list and y once it asks (the
// question is read in a command).
func (h *harness) confirmDelete() {
	h.t.Helper()
	h.press("ctrl+d")
	h.pumpUntil("the delete question", func() bool { return h.app.OverlayScope() == keymap.ScopeConfirm })
	h.press("y")
}

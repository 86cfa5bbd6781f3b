package ui

import (
	"github.com/chipchat/chipchat/dialog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/review"
	"github.com/chipchat/chipchat/store"
)

// gitInit makes the project directory a repository with files committed.
func (e *testEnv) gitInit(files map[string]string) string {
	e.t.Helper()
	for name, text := range files {
		e.writeFile(name, []byte(text))
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "first"}} {
		e.git(args...)
	}
	return e.git("rev-parse", "HEAD")
}

func (e *testEnv) git(args ...string) string {
	e.t.Helper()
	c := exec.Command("git", args...)
	c.Dir = e.dir
	c.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := c.CombinedOutput()
	if err != nil {
		e.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// withReviewOptions sets the pane's options of the apps e opens: no gh unless
// given, ids from a counter.
func withReviewOptions(e *testEnv, gh string) {
	n := 0
	e.review = review.Options{GH: gh, NoPullRequest: gh == "",
		NewID: func() string { n++; return "review_" + string(rune('a'+n-1)) }}
}

// reviewRecords are the draft's review-comment records, in chip order.
func (h *harness) reviewRecords() []*contextref.ReviewCommentRecord {
	var out []*contextref.ReviewCommentRecord
	for _, r := range h.app.ed.Draft().Records() {
		if rc, ok := r.(*contextref.ReviewCommentRecord); ok {
			out = append(out, rc)
		}
	}
	return out
}

const appBefore = "package app\n\nfunc A() int {\n\treturn 1\n}\n\nfunc B() int {\n\treturn 2\n}\n"
const appAfter = "package app\n\nfunc A() int {\n\treturn 10\n}\n\nfunc B() int {\n\treturn 20\n}\n"

// /review opens the pane in the transcript's place; two lines selected and
// a comment confirmed make a chip at the composer's caret; esc closes the
// pane; the sent message's projection holds the review comment.
func TestReviewCommandCommentReachesAgent(t *testing.T) {
	e := newTestEnv(t)
	withReviewOptions(e, "")
	head := e.gitInit(map[string]string{"app.go": appBefore})
	e.writeFile("app.go", []byte(appAfter))
	h := e.open("")
	h.typeText("look at ")
	h.typeText("/review")
	h.press("enter")
	if h.app.rv.shown() {
		t.Fatal("/review inside a sentence is a message, not the command")
	}
	h.pumpUntil("the echo", func() bool { return strings.Contains(h.replyShown(), "look at /review") })

	h.typeText("/review")
	h.press("enter")
	h.pumpUntil("the pane", func() bool { return h.app.rv.shown() && h.app.rv.m.Loaded() })
	if !h.app.ed.Draft().IsEmpty() {
		t.Fatalf("the command stays in the draft: %q", h.app.ed.Draft().Markdown())
	}
	scr := h.plain()
	for _, want := range []string{"Review  Working tree vs HEAD", "app.go", "return 10", "review: v select · c comment · esc close"} {
		if !strings.Contains(scr, want) {
			t.Fatalf("no %q on screen:\n%s", want, scr)
		}
	}
	if strings.Contains(scr, "this message") {
		t.Fatalf("the pane takes the transcript's place:\n%s", scr)
	}
	// The first hunk: "-\treturn 1", "+\treturn 10", then context; select
	// the deleted and the added line.
	h.press("j", "j", "j", "v", "j", "c")
	if !h.app.rv.m.Editing() {
		t.Fatalf("the editor is not open:\n%s", h.plain())
	}
	h.typeText("why ten?")
	h.press("enter")
	h.pumpUntil("the chip", func() bool { return len(h.reviewRecords()) == 1 })
	rec := h.reviewRecords()[0]
	if rec.FilePath != "app.go" || rec.RangeLabel != "L4" || rec.StartIndex != 4 || rec.EndIndex != 4 || rec.Text != "why ten?" ||
		rec.SectionTitle != "Working tree vs HEAD" || rec.SourceRevision == nil || *rec.SourceRevision != head ||
		!strings.Contains(rec.Diff, "-\treturn 1\n+\treturn 10") {
		t.Fatalf("record %+v", rec)
	}
	// A second comment on the other hunk, in the same pass: its own chip.
	h.press("G", "k", "c") // the last line is "}", the one above "+\treturn 20"
	h.typeText("and twenty")
	h.press("enter")
	h.pumpUntil("the second chip", func() bool { return len(h.reviewRecords()) == 2 })
	if r := h.reviewRecords()[1]; r.RangeLabel != "L8" || r.Text != "and twenty" || r.SectionID != rec.SectionID {
		t.Fatalf("second record %+v", r)
	}
	if !strings.Contains(h.footer(), "2 comments in the composer") {
		h.clearToast()
		if !strings.Contains(h.footer(), "2 comments in the composer") {
			t.Fatalf("footer %q", h.footer())
		}
	}
	h.closeReview()
	if !h.app.ed.Focused() {
		t.Fatal("esc gives the composer the keys")
	}
	md := h.app.ed.Draft().Markdown()
	if strings.Count(md, "](t3-context://v1/review-comment/") != 2 {
		t.Fatalf("draft %q", md)
	}
	h.typeText("please fix")
	h.press("enter")
	h.pumpUntil("the projection", func() bool {
		return strings.Contains(h.replyShown(), "</t3_context>")
	})
	reply := h.replyShown()
	for _, want := range []string{"[Review comment: app.go L4; ref=review_a]", `<context kind="review-comment" id="review_a">`,
		"file: app.go", "range: L4 (4-4)", "section: Working tree vs HEAD", "source revision: " + head, "comment:\n  why ten?",
		"diff:\n  @@", "  -\treturn 1\n  +\treturn 10", "range: L8 (8-8)", "  and twenty"} {
		if !strings.Contains(reply, want) {
			t.Fatalf("the projection lacks %q:\n%s", want, reply)
		}
	}
	if strings.Contains(reply, "Source location is outdated") {
		t.Fatalf("nothing changed since the comment:\n%s", reply)
	}
}

// alt+g opens and closes the pane; /review --staged and /review <branch>
// compare what they say; bad arguments are a toast.
func TestReviewKeyAndArguments(t *testing.T) {
	e := newTestEnv(t)
	withReviewOptions(e, "")
	e.gitInit(map[string]string{"a.txt": "one\n", "b.txt": "bee\n"})
	e.git("checkout", "-q", "-b", "topic")
	e.writeFile("a.txt", []byte("one\ntwo\n"))
	e.git("commit", "-q", "-am", "two")
	e.writeFile("b.txt", []byte("bee\nstaged\n"))
	e.git("add", "b.txt")
	h := e.open("")

	h.press("alt+g")
	h.pumpUntil("the pane", func() bool { return h.app.rv.shown() && h.app.rv.m.Loaded() })
	if scr := h.plain(); !strings.Contains(scr, "Working tree vs HEAD") || !strings.Contains(scr, "b.txt") || strings.Contains(scr, "a.txt") {
		t.Fatalf("working tree:\n%s", scr)
	}
	h.press("alt+g")
	if h.app.rv.shown() {
		t.Fatal("alt+g in the pane closes it")
	}

	h.typeText("/review --staged")
	h.press("enter")
	h.pumpUntil("staged", func() bool { return h.app.rv.shown() && h.app.rv.m.Loaded() })
	if c := h.app.rv.m.Comparison(); c.Kind != review.Staged || !strings.Contains(h.plain(), "+ staged") {
		t.Fatalf("staged %v:\n%s", c, h.plain())
	}
	h.closeReview()

	h.typeText("/review main")
	h.press("enter")
	h.pumpUntil("against main", func() bool { return h.app.rv.shown() && h.app.rv.m.Loaded() })
	if scr := h.plain(); !strings.Contains(scr, "a.txt") || !strings.Contains(scr, "+ two") {
		t.Fatalf("against main:\n%s", scr)
	}
	h.closeReview()

	h.typeText("/review a b")
	h.press("enter")
	h.pumpUntil("the toast", func() bool { return strings.Contains(h.footer(), "one branch or commit") })
	if h.app.rv.shown() {
		t.Fatal("bad arguments open no pane")
	}
	// Outside a repository the pane says so.
	e2 := newTestEnv(t)
	h2 := e2.open("")
	h2.press("alt+g")
	h2.pumpUntil("the error", func() bool { return h2.app.rv.shown() && h2.app.rv.m.Loaded() })
	if !strings.Contains(strings.ToLower(h2.plain()), "git") {
		t.Fatalf("outside a repository:\n%s", h2.plain())
	}
}

// The agent's questions come before the pane's keys, and quit works from
// inside the pane.
func TestReviewPaneQuit(t *testing.T) {
	e := newTestEnv(t)
	withReviewOptions(e, "")
	e.gitInit(map[string]string{"a.txt": "one\n"})
	e.writeFile("a.txt", []byte("two\n"))
	h := e.open("")
	h.press("alt+g")
	h.pumpUntil("the pane", func() bool { return h.app.rv.shown() && h.app.rv.m.Loaded() })
	h.press("c")
	h.typeText("q")
	if !h.app.rv.m.Editing() {
		t.Fatal("q in the editor is text")
	}
	h.press("ctrl+q")
	h.pumpUntil("quit", h.sawQuit)
}

// A fake gh on PATH answers for the branch: the record carries the pull
// request and the chip shows its number.
func TestReviewPullRequest(t *testing.T) {
	e := newTestEnv(t)
	gh := filepath.Join(e.home, "gh")
	e.writeFile("../home/gh", []byte("#!/bin/sh\necho '{\"number\":42,\"title\":\"Fix it\",\"url\":\"https://example.com/pr/42\",\"headRefName\":\"topic\",\"baseRefName\":\"main\",\"state\":\"OPEN\",\"isDraft\":false}'\n"))
	if err := os.Chmod(gh, 0o755); err != nil {
		t.Fatal(err)
	}
	withReviewOptions(e, gh)
	e.gitInit(map[string]string{"a.txt": "one\n"})
	e.writeFile("a.txt", []byte("two\n"))
	h := e.open("")
	h.press("alt+g")
	h.pumpUntil("the pull request", func() bool { return h.app.rv.shown() && h.app.rv.m.PullRequest() != nil && h.app.rv.m.Loaded() })
	if !strings.Contains(h.plain(), "#42 open") {
		t.Fatalf("header:\n%s", h.plain())
	}
	h.press("j", "c")
	h.typeText("x")
	h.press("enter")
	h.pumpUntil("the chip", func() bool { return len(h.reviewRecords()) == 1 })
	if pr := h.reviewRecords()[0].PullRequest; pr == nil || pr.Number != 42 || pr.State != "open" {
		t.Fatalf("pull request %+v", pr)
	}
	h.closeReview()
	if !strings.Contains(h.plain(), "#42") {
		t.Fatalf("the chip shows the number:\n%s", h.plain())
	}
}

// closeReview presses esc in the pane and waits for it to close.
func (h *harness) closeReview() {
	h.t.Helper()
	h.press("esc")
	h.pumpUntil("the pane to close", func() bool { return !h.app.rv.shown() })
}

// agentEdit stores a reply with an edit tool call whose diff is the
// change of path from old to new.
func (e *testEnv) agentEdit(path, old, new string) store.Thread {
	e.t.Helper()
	return e.newThread("edits",
		store.Message{Role: message.RoleUser, Text: "change it", Status: message.StatusDone},
		store.Message{Role: message.RoleAssistant, Status: message.StatusDone, Items: []message.Item{
			{ID: "t1", Kind: message.ItemText, Text: "Changing the values."},
			{ID: "e1", Kind: message.ItemTool, Tool: &message.Tool{CallID: "call_1", Kind: "edit", Title: "Edit app.go", Status: message.ToolCompleted,
				Content: []message.ToolContent{{Type: "diff", Path: path, OldText: &old, NewText: new}}}},
		}})
}

// focusTranscriptItem focuses the transcript and moves to item k of the
// last message.
func (h *harness) focusTranscriptItem(k int) {
	h.t.Helper()
	if h.app.focus != paneTranscript {
		h.press("tab")
	}
	for i := 0; i < 40; i++ {
		if _, it := h.app.tr.SelectedItem(); it == k {
			return
		}
		h.press("up")
	}
	h.t.Fatalf("item %d never focused:\n%s", k, h.plain())
}

// v and c on a tool call's diff in the transcript open the pane on that
// agent edit with the editor on the selected lines; the record's path is
// relative to the project, its lines the agent's.
func TestAgentDiffComment(t *testing.T) {
	e := newTestEnv(t)
	withReviewOptions(e, "")
	head := e.gitInit(map[string]string{"app.go": appBefore})
	e.writeFile("app.go", []byte(appAfter))
	th := e.agentEdit(filepath.Join(e.dir, "app.go"), appBefore, appAfter)
	h := e.open(th.ID)
	h.focusTranscriptItem(1)
	h.press("v", "j", "c")
	h.pumpUntil("the editor", func() bool { return h.app.rv.shown() && h.app.rv.m.Editing() })
	scr := h.plain()
	if !strings.Contains(scr, "Agent edit") || !strings.Contains(scr, "2 lines selected") && !strings.Contains(scr, "Comment") {
		t.Fatalf("pane:\n%s", scr)
	}
	h.typeText("ten, really?")
	h.press("enter")
	h.pumpUntil("the chip", func() bool { return len(h.reviewRecords()) == 1 })
	rec := h.reviewRecords()[0]
	if rec.FilePath != "app.go" || rec.SectionTitle != "Agent edit" || rec.RangeLabel != "L4" || rec.Text != "ten, really?" ||
		!strings.Contains(rec.Diff, "-\treturn 1\n+\treturn 10") || rec.SourceRevision == nil || *rec.SourceRevision != head {
		t.Fatalf("record %+v", rec)
	}
	h.closeReview()
	// At send the file still has the agent's lines: not stale.
	h.press("enter")
	h.pumpUntil("the projection", func() bool { return strings.Contains(h.replyShown(), "</t3_context>") })
	if r := h.replyShown(); !strings.Contains(r, "section: Agent edit") || !strings.Contains(r, "file: app.go") ||
		strings.Contains(r, "Source location is outdated") {
		t.Fatalf("projection:\n%s", r)
	}
}

// A comment whose lines changed in the file before the send is marked
// stale in the projection.
func TestReviewCommentStaleAtSend(t *testing.T) {
	e := newTestEnv(t)
	withReviewOptions(e, "")
	e.gitInit(map[string]string{"app.go": appBefore})
	e.writeFile("app.go", []byte(appAfter))
	h := e.open("")
	h.press("alt+g")
	h.pumpUntil("the pane", func() bool { return h.app.rv.shown() && h.app.rv.m.Loaded() })
	h.press("j", "j", "j", "j", "c")
	h.typeText("hm")
	h.press("enter")
	h.pumpUntil("the chip", func() bool { return len(h.reviewRecords()) == 1 })
	h.closeReview()
	e.writeFile("app.go", []byte(strings.Replace(appAfter, "return 10", "return 11", 1)))
	h.press("enter")
	h.pumpUntilWithin(10*time.Second, "the projection", func() bool { return strings.Contains(h.replyShown(), "</t3_context>") })
	if r := h.replyShown(); !strings.Contains(r, "Source location is outdated; verify the captured excerpt against the current file before editing.") {
		t.Fatalf("projection:\n%s", r)
	}
}

// The pane's keys come from the app's key table: the config rebinds them
// (here c → m) and F1 lists them under the pane.
func TestReviewKeysFromConfig(t *testing.T) {
	e := newTestEnv(t)
	withReviewOptions(e, "")
	e.gitInit(map[string]string{"a.txt": "one\n"})
	e.writeFile("a.txt", []byte("two\n"))
	opt := e.options("")
	opt.Config.Keys = map[string][]string{"review_comment": {"m"}}
	h := e.openWith(opt)
	h.press("alt+g")
	h.pumpUntil("the pane", func() bool { return h.app.rv.shown() && h.app.rv.m.Loaded() })
	h.press("j", "c")
	if h.app.rv.m.Editing() {
		t.Fatal("c is no longer the comment key")
	}
	h.press("m")
	if !h.app.rv.m.Editing() {
		t.Fatal("m opens the editor")
	}
	help := strings.Join(commandHelpLines(t, h), "\n")
	for _, want := range []string{"In the review pane (alt+g, /review)", "comment on the selection or the line", "In the review pane's comment editor", "drop the comment"} {
		if !strings.Contains(help, want) {
			t.Fatalf("F1 lacks %q:\n%s", want, help)
		}
	}
}

// commandHelpLines is what F1 shows, every page of it.
func commandHelpLines(t *testing.T, h *harness) []string {
	t.Helper()
	h.app.openHelp()
	defer h.app.ovs.Remove(func(dialog.Overlay) bool { return true })
	return top[*dialog.Help](h.app).View(200, 10000)
}

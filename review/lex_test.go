package review

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/internal/vtscreen"
)

// keywordSGR is github-dark's colour for a Go keyword (#ff7b72).
const keywordSGR = "38;2;255;123;114"

// The diff is drawn at once, plain; each file is lexed once, in a command
// (off the UI goroutine), the cursor's file first; its tokens colour it
// when they come; keys start no lexing; tokens for a diff replaced since
// are dropped.
func TestLexedOncePerFileInTheBackground(t *testing.T) {
	m := coldPane(t, 3)
	m.doc = nil
	loaded := loadedMsg{pane: m.pane, doc: buildDoc(m.loadDiff(t)), cursor: 1}
	loaded.cursor = loaded.doc.fileRow[1] + 2 // on the second file
	_, cmd := m.Update(loaded)
	if v := m.View(); strings.Contains(v, keywordSGR) || !strings.Contains(v, "func f0()") {
		t.Fatalf("the first frame is not the plain diff:\n%s", v)
	}
	if cmd == nil {
		t.Fatal("no lexing started")
	}
	if _, next := m.Update(vtscreen.Key("j")); next != nil {
		t.Fatal("a key started a command")
	}

	lexedFiles := []int32{}
	for cmd != nil {
		msg := cmd()
		lm, ok := msg.(lexedMsg)
		if !ok {
			t.Fatalf("lexing sent %T", msg)
		}
		lexedFiles = append(lexedFiles, lm.file)
		_, cmd = m.Update(lm)
		// the same file's tokens again (a second lexing) are not taken
		if m.hl.lexed(lm, m.doc) {
			t.Fatalf("file %d lexed twice", lm.file)
		}
	}
	if len(lexedFiles) != 3 || lexedFiles[0] != 1 {
		t.Fatalf("files lexed in the order %v, want 3 files, the cursor's (1) first", lexedFiles)
	}
	if v := m.View(); !strings.Contains(v, keywordSGR) {
		t.Fatalf("no syntax colour once lexed:\n%q", v)
	}

	// A reload: tokens of the old diff are dropped, the new one is lexed.
	stale := m.hl.lexCmd(m.pane, m.doc, 0)()
	_, cmd = m.Update(loaded2(m))
	if _, next := m.Update(stale); next != nil || len(m.hl.files) != 0 {
		t.Fatalf("tokens of the old diff kept: %d files", len(m.hl.files))
	}
	if cmd == nil {
		t.Fatal("the new diff is not lexed")
	}
}

func (m *Model) loadDiff(t *testing.T) *Diff {
	t.Helper()
	files, err := ParseUnified([]byte(sizedDiff(3)))
	if err != nil {
		t.Fatal(err)
	}
	return &Diff{Files: files}
}

func loaded2(m *Model) tea.Msg {
	files, _ := ParseUnified([]byte(sizedDiff(2)))
	return loadedMsg{pane: m.pane, doc: buildDoc(&Diff{Files: files})}
}

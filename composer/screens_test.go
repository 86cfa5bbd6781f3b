package composer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/internal/vtscreen"
)

// Golden screens: what a user sees, text and looks, through a real
// terminal emulator. Regenerate with go test ./composer -run Screen -update
// and review the diff.

func screenEditor(root string) *host {
	e := New(Options{Registry: chips.Default(chips.DefaultTheme()), ProjectRoot: root, Home: root, MaxHeight: 8})
	return &host{ed: e}
}

func typeIn(s *vtscreen.Screen, text string) { s.Type(text) }

func reviewRec() contextref.Record {
	title := "Add checkout"
	_ = title
	return &contextref.ReviewCommentRecord{Base: contextref.NewBase(contextref.KindReviewComment, "rc1", "Pay.tsx L4"),
		SectionID: "s1", SectionTitle: "Diff", FilePath: "src/Pay.tsx", StartIndex: 4, EndIndex: 9, RangeLabel: "L4-L9",
		Text: "Rename", Diff: "-a\n+b", PullRequest: &contextref.PullRequest{Number: 42, Title: "Add checkout", URL: "https://example.com/pr/42",
			HeadBranch: "feat/checkout", BaseBranch: "main", State: "open"}}
}

func TestScreenChipsInline(t *testing.T) {
	h := screenEditor(t.TempDir())
	s := newScreen(t, h, 70, 6)
	typeIn(s, "Fix ")
	s.Send(insertMsg{rec: termRec("ctx_t")})
	typeIn(s, " then read ")
	s.Send(insertMsg{rec: mentionRec("m1", "internal/app/model.go")})
	typeIn(s, " and ")
	s.Send(insertMsg{rec: reviewRec()})
	typeIn(s, " please")
	s.WaitForText("please")
	s.Golden("chips_inline")
}

func TestScreenWrapAroundChips(t *testing.T) {
	h := screenEditor(t.TempDir())
	s := newScreen(t, h, 36, 8)
	typeIn(s, "The build fails when ")
	s.Send(insertMsg{rec: termRec("ctx_t")})
	typeIn(s, " runs after ")
	s.Send(insertMsg{rec: fileRec("f1"), label: "config-production.yaml"})
	typeIn(s, " is loaded, see 漢字 and 😀 too")
	s.WaitForText("too")
	s.Golden("wrap_around_chips")
}

func TestScreenSelection(t *testing.T) {
	h := screenEditor(t.TempDir())
	s := newScreen(t, h, 50, 4)
	typeIn(s, "select the last ")
	s.Send(insertMsg{rec: fileRec("f1")})
	typeIn(s, " words")
	for i := 0; i < 8; i++ {
		s.Send(tea.KeyPressMsg{Code: tea.KeyLeft, Mod: tea.ModShift})
	}
	s.WaitFor(func(string) bool { return strings.Count(s.Attrs(), "~") >= 6 })
	s.Golden("selection")
}

func TestScreenUnresolvedChip(t *testing.T) {
	h := screenEditor(t.TempDir())
	s := newScreen(t, h, 60, 4)
	s.Send(markdownMsg{text: "See [old log](t3-context://v1/terminal/gone) and [Future](t3-context://v1/hologram/h1) end"})
	s.WaitForText("end")
	s.Golden("unresolved_chip")
}

func TestScreenPickers(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"main.go", "go.mod", "internal/app/model.go", "internal/app/view.go", "docs/manual.md"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(root, ".agents", "skills", "review")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: review\ndescription: Review a diff carefully\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := screenEditor(root)
	s := newScreen(t, h, 60, 12)
	typeIn(s, "open @ma")
	s.WaitForText("main.go")
	s.Golden("file_picker")
	s.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	typeIn(s, "with $")
	s.WaitForText("Review a diff")
	s.Golden("skill_picker")
	s.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	s.WaitFor(func(text string) bool {
		return !strings.Contains(text, "Review a diff") && strings.Contains(text, "review")
	})
	s.Golden("after_pickers")
}

package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/dialog"
)

// Issue 25 item 14: the `/` picker's "no matches" is boxed as the other
// pickers' states are, and every picker words the same keys the same way
// (↑↓ move, esc close), the composer's @ picker included.
func TestPickersBoxedAndWordedAlike(t *testing.T) {
	e := newTestEnv(t)
	if err := os.MkdirAll(e.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(e.dir, "notes.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := e.open("")
	h.typeText("/xyz")
	scr := h.plain()
	if !strings.Contains(scr, "╭─ / command xyz") || !strings.Contains(scr, "│ no matches") {
		t.Errorf("the / picker's no matches is not in its box:\n%s", scr)
	}
	slashHint := h.footer()
	h.press("ctrl+u", "esc")
	h.typeText("@note")
	h.pumpUntil("the @ picker's match", func() bool { return strings.Contains(h.plain(), "notes.txt") })
	atHint := h.footer()
	for name, hint := range map[string]string{"/": slashHint, "@": atHint,
		"modes": dialog.NewModes(&h.app.keys.Editor, h.app.keys.Interrupt, "mode", chat.ScopeModes, nil, "").Hints()} {
		for _, want := range []string{"↑↓ move", "esc close"} {
			if !strings.Contains(hint, want) {
				t.Errorf("the %s picker's hint %q lacks %q", name, hint, want)
			}
		}
		if strings.Contains(hint, "↑↓ choose") || strings.Contains(hint, "enter send") {
			t.Errorf("the %s picker's hint %q", name, hint)
		}
	}
}

// A command name typed in full is what enter picks: Codex's /review has a
// longer input hint than its /review-commit, which the fuzzy score ranked
// first (found by TestEndToEndRealAgentsUI/codex/review-typed).
func TestSlashExactNameRanksFirst(t *testing.T) {
	cmds := []chat.Command{{Name: "review-commit", InputHint: "sha"}, {Name: "review", InputHint: "optional custom review instructions"},
		{Name: "review-branch", InputHint: "branch"}}
	p := composer.NewPicker("/ command")
	p.SetItems(dialog.CommandItems(chat.Info{Commands: cmds}, func(chat.SlashCommand) bool { return true }))
	p.SetQuery("review")
	if it, ok := p.Selected(); !ok || it.Value != "a:review" {
		t.Fatalf("enter on /review picks %+v", it)
	}
}

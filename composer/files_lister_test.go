package composer

import (
	"context"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chips"
)

// With Options.Files the @ picker lists through it (a remote project's
// list), never the project root here, and asks it again at each opening
// while it shows the last list, so a cache's background refresh shows up
// the next time.
func TestMentionPickerListsThroughFiles(t *testing.T) {
	var mu sync.Mutex
	calls := 0
	list := []string{"only/remote.go"}
	files := func(context.Context, int) ([]string, bool, error) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		return append([]string(nil), list...), false, nil
	}
	e := New(Options{Registry: chips.Default(chips.NoColorTheme()), ProjectRoot: t.TempDir(), Files: files})
	e.SetWidth(60)
	_, cmd := e.Update(tea.KeyPressMsg{Code: '@', Text: "@"})
	if cmd == nil {
		t.Fatal("@ loads no files")
	}
	e.Update(cmd())
	typeKeys(e, "rem")
	if item, ok := e.picker.Selected(); !ok || item.Value != "only/remote.go" {
		t.Fatalf("picker = %+v %v", item, ok)
	}
	press(e, "esc")
	mu.Lock()
	list = append(list, "only/later.go")
	mu.Unlock()
	typeKeys(e, " ")
	_, cmd = e.Update(tea.KeyPressMsg{Code: '@', Text: "@"})
	if cmd == nil {
		t.Fatal("the second opening asks the list again")
	}
	e.Update(cmd())
	typeKeys(e, "later")
	if item, ok := e.picker.Selected(); !ok || item.Value != "only/later.go" {
		t.Fatalf("second opening = %+v %v", item, ok)
	}
	if calls != 2 {
		t.Fatalf("Files called %d times", calls)
	}
}

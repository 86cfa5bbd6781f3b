package ui

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The app reaches storage through package workspace and the agent through
// the conversation (package chat): no file of package ui (or of a package
// under it: ui/overlay, ui/keymap) imports store, assets or agent —
// main.go wires them (DESIGN.md section 2). Test files may: their fake
// backends speak agent. The overlay stack (ui/overlay) holds values: it
// reaches no I/O component either (the clipboard, terminals, the review
// pane, the panes socket); the dialogs on it keep the same rule
// (dialog's TestImports).
func TestImports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	more, _ := filepath.Glob("*/*.go")
	files = append(files, more...)
	if err != nil || len(files) == 0 {
		t.Fatalf("no files: %v", err)
	}
	overlays := 0
	overlayBanned := map[string]bool{"github.com/chipchat/chipchat/clipboard": true, "github.com/chipchat/chipchat/terminal": true,
		"github.com/chipchat/chipchat/review": true, "github.com/chipchat/chipchat/mcpserver": true}
	banned := map[string]bool{"github.com/chipchat/chipchat/store": true, "github.com/chipchat/chipchat/assets": true,
		"github.com/chipchat/chipchat/agent": true}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		inOverlay := filepath.Dir(f) == "overlay"
		if inOverlay {
			overlays++
		}
		for _, im := range ast.Imports {
			if path, _ := strconv.Unquote(im.Path.Value); banned[path] || inOverlay && overlayBanned[path] {
				t.Errorf("%s imports %s", f, path)
			}
		}
	}
	if overlays == 0 {
		t.Fatal("the rule read no file of ui/overlay")
	}
}

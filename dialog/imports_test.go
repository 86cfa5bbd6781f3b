package dialog

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The dialogs draw and answer with values (doc.go): no file of package
// dialog imports package ui or the stack under it, storage, the agent, or
// an I/O component (the clipboard, terminals, the review pane, the panes
// socket). Of ui's subpackages it reads only the key table (ui/keymap).
func TestImports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no files: %v", err)
	}
	const project = "github.com/chipchat/chipchat/"
	banned := map[string]bool{"ui": true, "ui/overlay": true, "store": true, "assets": true, "agent": true,
		"clipboard": true, "terminal": true, "review": true, "mcpserver": true}
	read := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		read++
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range ast.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			pkg, ours := strings.CutPrefix(path, project)
			if ours && (banned[pkg] || strings.HasPrefix(pkg, "ui/") && pkg != "ui/keymap") {
				t.Errorf("%s imports %s", f, path)
			}
		}
	}
	if read < 10 {
		t.Fatalf("the rule read %d files of package dialog", read)
	}
}

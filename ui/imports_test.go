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
// under it) imports store, assets or agent — main.go wires them (DESIGN.md
// section 2). Test files may: their fake backends speak agent.
func TestImports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	more, _ := filepath.Glob("*/*.go")
	files = append(files, more...)
	if err != nil || len(files) == 0 {
		t.Fatalf("no files: %v", err)
	}
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
		for _, im := range ast.Imports {
			if path, _ := strconv.Unquote(im.Path.Value); banned[path] {
				t.Errorf("%s imports %s", f, path)
			}
		}
	}
}

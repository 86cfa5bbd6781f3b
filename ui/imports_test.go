package ui

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The app reaches storage through package workspace and the conversation
// through chat: no file of package ui imports store or assets (main.go
// wires them; DESIGN.md section 2).
func TestNoStorageImports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no files: %v", err)
	}
	banned := map[string]bool{"github.com/chipchat/chipchat/store": true, "github.com/chipchat/chipchat/assets": true}
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

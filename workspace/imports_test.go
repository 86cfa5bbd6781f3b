package workspace

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The import rule of DESIGN.md section 2: workspace imports store, assets,
// contextref and message of the project, never ui, chat, Bubble Tea or a
// component.
func TestImportsKeepTheRule(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no files: %v", err)
	}
	allowed := map[string]bool{"store": true, "assets": true, "contextref": true, "message": true}
	const project = "github.com/chipchat/chipchat/"
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range ast.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			if pkg, ok := strings.CutPrefix(path, project); ok && !allowed[pkg] {
				t.Errorf("%s imports %s", f, path)
			}
			if strings.Contains(path, "bubbletea") || strings.Contains(path, "charm.land") {
				t.Errorf("%s imports %s", f, path)
			}
		}
	}
}

package ui

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImports keeps DESIGN.md section 2's rule: ui reaches the agent only
// through package chat (main.go wires the backend). The files of the
// package are read, not its tests (fake backends there speak agent).
func TestImports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no files: %v", err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			switch p {
			case "github.com/chipchat/chipchat/agent":
				t.Errorf("%s imports %s (ui reaches it through chat; main wires it)", f, p)
			}
		}
	}
}

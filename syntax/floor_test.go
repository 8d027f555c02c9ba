package syntax

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOnlyFloorUsesCgo: in the whole module, only this package imports C
// or a tree-sitter module, and this package imports no other package of
// the module: the syntax floor is the bottom of everything that parses.
func TestOnlyFloorUsesCgo(t *testing.T) {
	const module = "github.com/codecortex/codecortex"
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root: %v", err)
	}
	checked := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		inFloor := filepath.Dir(rel) == "syntax"
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			switch {
			case !inFloor && (path == "C" || strings.Contains(path, "tree-sitter")):
				t.Errorf("%s imports %s: only syntax/ may", rel, path)
			case inFloor && strings.HasPrefix(path, module+"/"):
				t.Errorf("%s imports %s: syntax/ is the floor below the module's other packages", rel, path)
			}
		}
		checked++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Fatalf("only %d files checked", checked)
	}
}

package config_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Dependencies point down: config imports the layers, so no layer may
// import config. Only the root package, the front ends under cmd/ and the
// examples do.
func TestNoLayerImportsConfig(t *testing.T) {
	const self = "github.com/codecortex/codecortex/config"
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, ".."+string(filepath.Separator)))
		if d.IsDir() {
			switch rel {
			case "cmd", "examples", "config", "testdata", ".git", ".codecortex":
				return filepath.SkipDir
			}
			if strings.HasPrefix(d.Name(), ".") && rel != ".." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || filepath.Dir(p) == ".." {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == self {
				t.Errorf("%s imports %s: a layer must not depend on the configuration above it", rel, self)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

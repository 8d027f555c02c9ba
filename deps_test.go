package codecortex_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The packages every host imports stay free of dependencies: evidence/,
// trust/ and route/ import the standard library and each other, nothing
// else.
func TestCorePackagesImportOnlyStdlib(t *testing.T) {
	const module = "github.com/codecortex/codecortex/"
	allowed := map[string]bool{module + "evidence": true, module + "trust": true}
	for _, dir := range []string{"evidence", "trust", "route"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			parsed, err := parser.ParseFile(token.NewFileSet(), f, src, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range parsed.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				first, _, _ := strings.Cut(path, "/")
				if !strings.Contains(first, ".") || allowed[path] {
					continue
				}
				t.Errorf("%s imports %s: evidence/ and trust/ must import only the standard library", f, path)
			}
		}
	}
}

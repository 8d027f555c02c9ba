package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/codecortex/codecortex/syntax"
	"github.com/google/go-cmp/cmp"
)

// namedLoaded returns the paths of the files FactsNamed reads the facts
// of for name, asking for nothing more.
func namedLoaded(t *testing.T, ix *Index, name string) []string {
	t.Helper()
	var got []string
	_, err := ix.FactsNamed(context.Background(), name, func(files []FileFacts, loaded []bool) NamedMore {
		got = got[:0]
		for i := range files {
			if loaded[i] {
				got = append(got, files[i].Path)
			}
		}
		return NamedMore{}
	})
	if err != nil {
		t.Fatal(err)
	}
	return slices.Clone(got)
}

// The files that use a name are found by it, and no longer once the file
// stops using it or is removed: ref_names is written and deleted with
// the file's refs.
func TestFactsNamedFollowsEdits(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	dir := writeTree(t, map[string]string{
		"go.mod":     "module m\n",
		"p/def.go":   "package p\n\nfunc Target() {}\n",
		"p/use.go":   "package p\n\nfunc Use() { Target() }\n",
		"p/other.go": "package p\n\nfunc Other() {}\n",
		"q/imp.ts":   "import { Target as T } from './t'\nT()\n",
	})
	ix := openTest(t, dir, func(o *Options) { o.Extract, o.ExtractorVersion = nil, "" })
	want := []string{"p/def.go", "p/use.go", "q/imp.ts"}
	if diff := cmp.Diff(want, namedLoaded(t, ix, "Target")); diff != "" {
		t.Errorf("files of Target (-want +got):\n%s", diff)
	}
	writeFile(t, dir, "p/use.go", "package p\n\nfunc Use() { Other() }\n")
	if err := os.Remove(filepath.Join(dir, "q", "imp.ts")); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"p/def.go"}, namedLoaded(t, ix, "Target")); diff != "" {
		t.Errorf("files of Target after the edits (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"p/other.go", "p/use.go"}, namedLoaded(t, ix, "Other")); diff != "" {
		t.Errorf("files of Other after the edits (-want +got):\n%s", diff)
	}
}

// FactsOf reads the files asked for whole, every ref included, the same
// facts Facts reads of them, and leaves out a path the index does not hold.
func TestFactsOf(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	dir := writeTree(t, map[string]string{
		"go.mod":   "module m\n",
		"p/use.go": "package p\n\nimport \"fmt\"\n\nfunc Use() { Target(); fmt.Println(); Use() }\n",
		"p/def.go": "package p\n\nfunc Target() {}\n",
	})
	ix := openTest(t, dir, func(o *Options) { o.Extract, o.ExtractorVersion = nil, "" })
	ctx := context.Background()
	whole, err := ix.Facts(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ix.FactsOf(ctx, []string{"p/use.go", "p/missing.go"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != whole.Version || len(got.Files) != 1 {
		t.Fatalf("FactsOf: version %q (Facts %q), %d files, want 1", got.Version, whole.Version, len(got.Files))
	}
	i := slices.IndexFunc(whole.Files, func(f FileFacts) bool { return f.Path == "p/use.go" })
	if diff := cmp.Diff(whole.Files[i], got.Files[0]); diff != "" {
		t.Errorf("FactsOf p/use.go differs from Facts (-Facts +FactsOf):\n%s", diff)
	}
	if n := len(got.Files[0].Refs); n < 3 {
		t.Errorf("FactsOf p/use.go has %d refs, want every one (Target, Println, Use)", n)
	}
}

// Aliases finds where files bind a name to another's definition, by the
// alias, and passes over the imports that bind a module or a default
// export (which name no definition of another name), and a name bound to
// itself.
func TestAliases(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	dir := writeTree(t, map[string]string{
		"src/index.ts": "export { isFSA as isFluxStandardAction } from './action'\nexport * as ns from './x'\nexport { same as same } from './s'\n",
		"src/use.ts":   "import { isFSA as isFluxStandardAction } from './action'\nimport fetch from './f'\n",
		"app.py":       "from pkg import load as fetch\nimport numpy as np\n",
	})
	ix := openTest(t, dir, func(o *Options) { o.Extract, o.ExtractorVersion = nil, "" })
	for _, tt := range []struct {
		alias string
		want  []Alias
	}{
		{"isFluxStandardAction", []Alias{{Path: "src/index.ts", Line: 1, Column: 10, Module: "./action", Name: "isFSA", As: "isFluxStandardAction"},
			{Path: "src/use.ts", Line: 1, Column: 10, Module: "./action", Name: "isFSA", As: "isFluxStandardAction"}}},
		{"fetch", []Alias{{Path: "app.py", Line: 1, Column: 17, Module: "pkg", Name: "load", As: "fetch"}}},
		{"np", []Alias{}},
		{"ns", []Alias{}},
		{"same", []Alias{}},
	} {
		got, _, err := ix.Aliases(context.Background(), tt.alias)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("aliases %s (-want +got):\n%s", tt.alias, diff)
		}
	}
	if _, _, err := ix.Aliases(context.Background(), "a.b"); !errors.Is(err, ErrEmptyQuery) {
		t.Errorf("a qualified name: %v, want ErrEmptyQuery", err)
	}
}

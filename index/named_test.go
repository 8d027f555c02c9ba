package index

import (
	"context"
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

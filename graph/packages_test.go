package graph

import (
	"context"
	"fmt"
	"path"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/internal/testtool"
)

// TestPackageImports: an import of a package of the project by its name
// (a test of its own package, a workspace's other package) names the file
// its package.json's entry point is built from, and its uses resolve
// there; an import of a package the project does not hold names nothing.
func TestPackageImports(t *testing.T) {
	needSyntax(t)
	files := map[string]string{
		"packages/kit/package.json": `{"name": "@acme/kit", "main": "dist/cjs/index.js",
  "exports": {".": {"types": "./dist/index.d.ts", "default": "./dist/cjs/index.js"},
    "./query": {"types": "./dist/query/index.d.ts"}, "./package.json": "./package.json"}}`,
		"packages/kit/src/index.ts":          "export { make } from './make'\n",
		"packages/kit/src/make.ts":           "export function make() {}\n",
		"packages/kit/src/query/index.ts":    "export function ask() {}\n",
		"packages/kit/src/tests/kit.test.ts": "import { make } from '@acme/kit'\nimport { ask } from '@acme/kit/query'\n\ntest('make', () => {\n  make()\n  ask()\n})\n",
		"packages/app/package.json":          `{"name": "app", "main": "main.ts"}`,
		"packages/app/main.ts":               "import { make } from '@acme/kit'\n\nexport function main() {\n  make()\n}\n",
		"packages/app/pad.ts":                "import { make } from 'left-pad'\n\nexport function pad() {\n  make()\n}\n",
		"packages/other/make.ts":             "export function make() {}\n",
	}
	p := wholeIndexed(t, testtool.WriteTree(t, files))
	defer p.Close()
	wantUses(t, p, []useCase{
		{"packages/kit/src/make.ts#make", []string{
			"import packages/app/main.ts:1", "call packages/app/main.ts:4",
			"import packages/kit/src/index.ts:1",
			"import packages/kit/src/tests/kit.test.ts:1", "call packages/kit/src/tests/kit.test.ts:5"}},
		{"ask", []string{"import packages/kit/src/tests/kit.test.ts:2", "call packages/kit/src/tests/kit.test.ts:6"}},
		{"packages/other/make.ts#make", nil},
	}, evidence.Reference, evidence.Call, evidence.Import)
	wantNamedEqualsWhole(t, files)
}

// TestParsePackage: a package.json's entry points, by subpath; a package
// without a name, a path out of the package and JSON that does not parse
// give none.
// TestManifestsBounded: a go.mod or package.json past maxManifest bytes
// is left out, not read whole; one within it is read.
func TestManifestsBounded(t *testing.T) {
	big := strings.Repeat(" ", maxManifest)
	fsys := fstest.MapFS{
		"a/go.mod":       {Data: []byte("module a\n")},
		"b/go.mod":       {Data: []byte("module b\n" + big)},
		"a/package.json": {Data: []byte(`{"name": "a", "main": "i.js"}`)},
		"b/package.json": {Data: []byte(`{"name": "b", "main": "i.js"}` + big)},
	}
	paths := []string{"a/go.mod", "b/go.mod", "a/package.json", "b/package.json"}
	if got := ReadGoModules(fsys, paths); len(got) != 1 || got[0].Path != "a" {
		t.Errorf("modules: %+v, want a's alone", got)
	}
	if got := ReadPackages(fsys, paths); len(got) != 1 || got[0].Name != "a" {
		t.Errorf("packages: %+v, want a's alone", got)
	}
}

func TestParsePackage(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want map[string][]string
	}{
		{`{"name": "a", "main": "index.js"}`, map[string][]string{".": {"index.js"}}},
		{`{"name": "a", "exports": "./x.js", "types": "x.d.ts"}`, map[string][]string{".": {"x.js", "x.d.ts"}}},
		{`{"name": "a", "exports": {"import": "./m.mjs", "require": ["./c.cjs", "../up.js"]}}`,
			map[string][]string{".": {"m.mjs", "c.cjs"}}},
		{`{"name": "a", "exports": {".": "./i.js", "./q": {"node": {"types": "./q.d.ts"}}}, "main": "/abs.js"}`,
			map[string][]string{".": {"i.js"}, "./q": {"q.d.ts"}}},
		{`{"main": "index.js"}`, nil},
		{`{"name": "a b"}`, nil},
		{`{"name": "a",`, nil},
		{`{"name": "a", "exports": 7, "main": 3}`, map[string][]string{}},
	} {
		pkg, ok := parsePackage([]byte(tt.in))
		if ok != (tt.want != nil) {
			t.Errorf("%s: ok %v", tt.in, ok)
			continue
		}
		if diff := cmp.Diff(tt.want, pkg.Entries); ok && diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.in, diff)
		}
	}
}

// FuzzParsePackage: any package.json parses without a panic into entry
// points that stay inside the package.
func FuzzParsePackage(f *testing.F) {
	f.Add([]byte(`{"name": "a", "exports": {".": {"types": "./dist/index.d.ts"}, "./q": ["./q.js"]}, "main": "i.js"}`))
	f.Add([]byte(`{"name": "a", "exports": "../x.js"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		pkg, ok := parsePackage(data)
		if !ok {
			return
		}
		for sub, files := range pkg.Entries {
			if !isSubpath(sub) || len(files) == 0 {
				t.Fatalf("entry %q: %q", sub, files)
			}
			for _, p := range files {
				if p == "" || path.IsAbs(p) || p == ".." || strings.HasPrefix(p, "../") {
					t.Fatalf("entry %q names %q, outside the package", sub, p)
				}
			}
		}
	})
}

// TestReexportedUnderAnotherName: a definition a module exports under
// another name (export { isFSA as isFluxStandardAction } from …), and a
// module that exports that name again under a third, are used through
// each name: its uses resolve to the definition, asked by its name from
// the whole graph and from the files that concern it. A module that
// exports a name only as another (export { make as other }) does not
// export it as itself.
func TestReexportedUnderAnotherName(t *testing.T) {
	needSyntax(t)
	files := map[string]string{
		"package.json":               `{"name": "@acme/kit", "main": "dist/index.js"}`,
		"src/index.ts":               "export { isFSA as isFluxStandardAction } from './action'\nexport { make as other } from './make'\n",
		"src/action.ts":              "export function isFSA(a: unknown) { return true }\n",
		"src/make.ts":                "export function make() {}\n",
		"src/compat/index.ts":        "export { isFluxStandardAction as isAction } from '../index'\n",
		"src/tests/action.test-d.ts": "import { isFluxStandardAction } from '@acme/kit'\n\ntest('fsa', () => {\n  isFluxStandardAction(1)\n})\n",
		"src/tests/compat.test.ts":   "import { isAction } from '../compat'\n\ntest('compat', () => {\n  isAction(2)\n})\n",
		"src/tests/make.test.ts":     "import { make } from '../index'\n\ntest('make', () => {\n  make()\n})\n",
	}
	p := wholeIndexed(t, testtool.WriteTree(t, files))
	defer p.Close()
	wantUses(t, p, []useCase{
		{"isFSA", []string{
			"import src/compat/index.ts:1", "import src/index.ts:1",
			"import src/tests/action.test-d.ts:1", "call src/tests/action.test-d.ts:4",
			"import src/tests/compat.test.ts:1", "call src/tests/compat.test.ts:4"}},
		{"make", []string{"import src/index.ts:2"}},
	}, evidence.Reference, evidence.Call, evidence.Import)
	wantNamedEqualsWhole(t, files)
}

// TestReexportsLookThroughNothingForFree: looking for a name through
// modules that export nothing under it (every Go package's files, for
// each pkg.X the package does not define) allocates nothing; it is asked
// for many uses of a large tree.
func TestReexportsLookThroughNothingForFree(t *testing.T) {
	needSyntax(t)
	files := map[string]string{"go.mod": "module m\n"}
	for i := range 8 {
		files[fmt.Sprintf("p/f%d.go", i)] = fmt.Sprintf("package p\n\nimport (\n\t\"io\"\n\tstr \"strings\"\n)\n\nfunc F%d(r io.Reader) { str.ToLower(\"\") }\n", i)
	}
	ix, err := index.Open(index.Options{Dir: testtool.WriteTree(t, files), Budget: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	facts, err := ix.Facts(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	b := newBuilder(facts, layout{})
	pkg := b.g.dirFiles["p"]
	if len(pkg) != 8 {
		t.Fatalf("files of p: %v", pkg)
	}
	if n := testing.AllocsPerRun(100, func() { b.reexports(pkg, "Missing") }); n != 0 {
		t.Errorf("%v allocations a look through a package that exports nothing", n)
	}
}

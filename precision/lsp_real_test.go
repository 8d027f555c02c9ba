package precision

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/trust"
)

// compareWithServer asks a language server (through the provider, which
// routes lang's files to it) and the index the same questions at each
// position, for kinds; in-repository answers must agree except for the
// known divergences, keyed by kind and SCIP symbol (see compareWithGopls).
// It returns how many records of each kind the server gave.
func compareWithServer(t *testing.T, ix *Index, dir string, lsp *LSPProvider, lang string, positions []Location, kinds []evidence.Kind, known map[string]divergence) map[evidence.Kind]int {
	t.Helper()
	root, err := contain.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	snap := snapshot{ix: ix, root: root}
	nonEmpty := map[evidence.Kind]int{}
	seen := map[string]bool{}
	var firstProc any
	for _, l := range positions {
		pos := fmt.Sprintf("%s:%d:%d", l.Path, l.StartLine, l.StartColumn)
		t.Run(pos, func(t *testing.T) {
			s, _, err := ix.SymbolAt(l.Path, l.StartLine, l.StartColumn)
			if err != nil {
				t.Fatal(err)
			}
			q := evidence.Query{Path: l.Path, Line: l.StartLine, Column: l.StartColumn, Kinds: kinds}
			resp, err := lsp.Gather(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range resp.Records {
				nonEmpty[r.Kind]++
				if r.Trust != trust.NearExact || r.Exact || r.Provenance != trust.LanguageServer {
					t.Errorf("LSP record %s: trust %s exact %v provenance %s", r.Location(), r.Trust, r.Exact, r.Provenance)
				}
				if err := r.Validate(); err != nil {
					t.Error(err)
				}
			}
			srv, _ := lsp.server(lang)
			if firstProc == nil {
				firstProc = srv.proc
			} else if firstProc != any(srv.proc) {
				t.Error("a second language server was started")
			}
			answer, why := snap.atPosition(&q)
			if why != "" {
				t.Fatalf("the index has no answer: %s", why)
			}
			for _, kind := range kinds {
				key := string(kind) + " " + s.Name
				want := answerSet(answer, kind)
				d, ok := known[key]
				if ok {
					seen[key] = true
					want = withDivergence(want, d)
				}
				if diff := cmp.Diff(want, answerSet(resp.Records, kind)); diff != "" {
					t.Errorf("%s of %s (-index +%s):\n%s", kind, s.Name, srv.name(), diff)
					if ok {
						t.Logf("known divergence: %s", d.why)
					}
				}
			}
		})
	}
	for key := range known {
		if !seen[key] {
			t.Errorf("known divergence %q was not compared", key)
		}
	}
	return nonEmpty
}

// realServer returns a provider for the indexed fixture lang (py, ts)
// whose files of language go to the named server, or skips when the
// server is not installed.
func realServer(t *testing.T, fixture, language string, argv ...string) (*Index, string, *LSPProvider) {
	t.Helper()
	testtool.Require(t, argv[0], installHint)
	ix, dir := indexFixture(t, fixture)
	lsp := NewLSP(LSPOptions{Dir: dir, Servers: map[string][]string{language: argv},
		RequestTimeout: 30 * time.Second, LoadTimeout: 2 * time.Minute})
	t.Cleanup(func() {
		if err := lsp.Close(); err != nil {
			t.Errorf("%s did not shut down cleanly: %v", argv[0], err)
		}
	})
	return ix, dir, lsp
}

// renameSites returns the index's references of the symbol at l,
// declaration included: the ranges a rename must edit.
func renameSites(t *testing.T, ix *Index, dir string, l Location) []string {
	t.Helper()
	root, err := contain.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	snap := snapshot{ix: ix, root: root}
	q := evidence.Query{Path: l.Path, Line: l.StartLine, Column: l.StartColumn, Kinds: []evidence.Kind{evidence.Reference}}
	recs, why := snap.atPosition(&q)
	if why != "" {
		t.Fatal(why)
	}
	var out []string
	for _, r := range recs {
		out = append(out, r.Location())
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// editSites returns where edits apply, as record locations read, and
// fails unless every edit writes newName.
func editSites(t *testing.T, edits []FileEdits, newName string) []string {
	t.Helper()
	var out []string
	for _, f := range edits {
		for _, e := range f.Edits {
			if e.NewText != newName {
				t.Errorf("%s: edit writes %q, want %q", f.Path, e.NewText, newName)
			}
			out = append(out, fmt.Sprintf("%s:%d:%d-%d:%d", f.Path, e.StartLine, e.StartColumn, e.EndLine, e.EndColumn))
		}
	}
	sort.Strings(out)
	return out
}

// pyrightDivergences are where pyright and scip-python's index of the
// Python fixture disagree, and why.
var pyrightDivergences = func() map[string]divergence {
	const py = "scip-python python shapes 0.1.0 "
	const params = "pyright's definition of a parameter spans its annotation; scip-python's, its name"
	return map[string]divergence{
		// from pkg.shapes import ...: the caret at 1:6 is on "pkg".
		"definition " + py + "`pkg.shapes`/__init__:": {why: "scip-python reads the dotted module name as one occurrence of pkg.shapes; pyright reads pkg, then shapes",
			onlyIndex: []string{"pkg/shapes.py:1:1-1:1"}, onlyGopls: []string{"pkg/__init__.py:1:1-1:1"}},
		"reference " + py + "`pkg.shapes`/__init__:": {why: "as its definition: pyright answers about the package pkg",
			onlyIndex: []string{"main.py:1:6-1:16", "pkg/shapes.py:1:1-1:1 declaration"},
			onlyGopls: []string{"main.py:1:6-1:9", "main.py:2:6-2:9"}},
		"reference " + py + "pkg/__init__:": {why: "pyright also counts pkg in pkg.shapes, and no module as its own reference",
			onlyIndex: []string{"pkg/__init__.py:1:1-1:1 declaration"}, onlyGopls: []string{"main.py:1:6-1:9"}},
		"reference " + py + "`pkg.other`/__init__:": {why: "scip-python counts a module's start as its declaration; pyright does not list it",
			onlyIndex: []string{"pkg/other.py:1:1-1:1 declaration"}},
		"definition " + py + "`pkg.other`/Shape#__init__().(name)": {why: params,
			onlyIndex: []string{"pkg/other.py:5:24-5:28"}, onlyGopls: []string{"pkg/other.py:5:24-5:33"}},
		"definition " + py + "`pkg.other`/label().(s)": {why: params,
			onlyIndex: []string{"pkg/other.py:9:11-9:12"}, onlyGopls: []string{"pkg/other.py:9:11-9:19"}},
		"definition " + py + "`pkg.shapes`/Square#__init__().(side)": {why: params,
			onlyIndex: []string{"pkg/shapes.py:10:24-10:28"}, onlyGopls: []string{"pkg/shapes.py:10:24-10:35"}},
		"definition " + py + "`pkg.shapes`/total().(xs)": {why: params,
			onlyIndex: []string{"pkg/shapes.py:20:11-20:13"}, onlyGopls: []string{"pkg/shapes.py:20:11-20:19"}},
	}
}()

// TestAgainstPyright compares scip-python's index of the Python fixture
// with pyright at one occurrence of every global symbol (definitions and
// references: pyright has no implementation request), then renames a
// function and a class and compares the edits with the index's
// references.
func TestAgainstPyright(t *testing.T) {
	ix, dir, lsp := realServer(t, "py", "python", "pyright-langserver", "--stdio")
	// The first question already sees files no question opened: pyright
	// answers only from the files it has listed, so the provider waits
	// until it says it has listed them.
	first, err := lsp.Gather(context.Background(), evidence.Query{Path: "pkg/shapes.py", Line: 20, Column: 5,
		Kinds: []evidence.Kind{evidence.Reference}})
	if err != nil {
		t.Fatal(err)
	}
	if got := answerSet(first.Records, evidence.Reference); !slices.Contains(got, "main.py:4:16-4:21") {
		t.Errorf("first answer %v misses main.py, which it had not opened", got)
	}
	var positions []Location
	for _, l := range firstOccurrences(ix) {
		if _, _, err := ix.SymbolAt(l.Path, l.StartLine, l.StartColumn); err == nil {
			positions = append(positions, l)
		}
	}
	kinds := []evidence.Kind{evidence.Definition, evidence.Reference}
	n := compareWithServer(t, ix, dir, lsp, "python", positions, kinds, pyrightDivergences)
	if n[evidence.Definition] < 10 || n[evidence.Reference] < 20 {
		t.Errorf("pyright gave few records (%v): the comparison proves little", n)
	}
	t.Logf("compared %d symbols; pyright records: %v", len(positions), n)
	compareNames(t, ix, dir, lsp, []string{"total", "Square", "Shape", "label", "Nothing"})
	compareRename(t, ix, dir, lsp, []Location{
		{Path: "pkg/shapes.py", StartLine: 20, StartColumn: 5}, // def total
		{Path: "main.py", StartLine: 4, StartColumn: 29},       // Square(2)
	})
}

// tsDivergences are where typescript-language-server and
// scip-typescript's index of the TypeScript fixture disagree, and why.
var tsDivergences = func() map[string]divergence {
	const ts = "scip-typescript npm shapes-ts 1.0.0 src/"
	const ctor = "tsserver's definition of a constructor spans its declaration; scip-typescript's, the keyword"
	const newCall = "tsserver counts new C() as a reference of the class C; scip-typescript, of its constructor"
	const method = "tsserver counts an implementing method and the interface method as references of each other"
	return map[string]divergence{
		"reference " + ts + "`shapes.ts`/Shape#area().":  {why: method, onlyGopls: []string{"src/shapes.ts:4:84-4:88"}},
		"reference " + ts + "`shapes.ts`/Square#area().": {why: method, onlyGopls: []string{"src/shapes.ts:2:26-2:30"}},
		"reference " + ts + "`shapes.ts`/Square#": {why: newCall,
			onlyGopls: []string{"src/main.ts:4:40-4:46", "src/shapes.ts:6:41-6:47"}},
		"reference " + ts + "`other.ts`/Shape#": {why: newCall, onlyGopls: []string{"src/main.ts:4:75-4:80"}},
		"definition " + ts + "`shapes.ts`/Square#`<constructor>`().": {why: ctor,
			onlyIndex: []string{"src/shapes.ts:4:48-4:59"}, onlyGopls: []string{"src/shapes.ts:4:48-4:83"}},
		"definition " + ts + "`other.ts`/Shape#`<constructor>`().": {why: ctor,
			onlyIndex: []string{"src/other.ts:2:30-2:41"}, onlyGopls: []string{"src/other.ts:2:30-2:65"}},
	}
}()

// TestAgainstTypeScriptServer compares scip-typescript's index of the
// TypeScript fixture with typescript-language-server at one occurrence of
// every global symbol (definitions and references; implementations at the
// interface and its method, since tsserver answers a concrete symbol's
// implementation with the symbol itself, and the index with what it
// implements), then renames and compares the edits with the index's
// references.
func TestAgainstTypeScriptServer(t *testing.T) {
	ix, dir, lsp := realServer(t, "ts", "typescript", "typescript-language-server", "--stdio")
	positions := firstOccurrences(ix)
	kinds := []evidence.Kind{evidence.Definition, evidence.Reference}
	n := compareWithServer(t, ix, dir, lsp, "typescript", positions, kinds, tsDivergences)
	interfaces := []Location{
		{Path: "src/shapes.ts", StartLine: 2, StartColumn: 18}, // interface Shape
		{Path: "src/shapes.ts", StartLine: 2, StartColumn: 26}, // its area()
	}
	m := compareWithServer(t, ix, dir, lsp, "typescript", interfaces, []evidence.Kind{evidence.Implementation}, nil)
	if n[evidence.Definition] < 10 || n[evidence.Reference] < 20 || m[evidence.Implementation] < 2 {
		t.Errorf("typescript-language-server gave few records (%v, %v): the comparison proves little", n, m)
	}
	t.Logf("compared %d symbols; typescript-language-server records: %v, %v", len(positions), n, m)
	compareNames(t, ix, dir, lsp, []string{"total", "Square", "Shape", "label", "Nothing"})
	compareRename(t, ix, dir, lsp, []Location{
		{Path: "src/shapes.ts", StartLine: 8, StartColumn: 25}, // function total
		{Path: "src/main.ts", StartLine: 4, StartColumn: 30},   // unit
	})
}

// compareRename renames the symbol at each position and compares where
// the server's edits apply with the index's references of the symbol,
// declaration included.
func compareRename(t *testing.T, ix *Index, dir string, lsp *LSPProvider, at []Location) {
	t.Helper()
	for _, l := range at {
		t.Run(fmt.Sprintf("rename %s:%d:%d", l.Path, l.StartLine, l.StartColumn), func(t *testing.T) {
			edits, err := lsp.Rename(context.Background(), l.Path, l.StartLine, l.StartColumn, "renamed")
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, s := range renameSites(t, ix, dir, l) {
				want = append(want, strings.TrimSuffix(s, " declaration"))
			}
			if diff := cmp.Diff(want, editSites(t, edits, "renamed")); diff != "" {
				t.Errorf("rename edits (-index references +server edits):\n%s", diff)
			}
		})
	}
}

// gopls renames as the index's references read: a function and a field.
func TestGoplsRename(t *testing.T) {
	testtool.Require(t, "gopls", installHint)
	ix, dir := indexFixture(t, "go")
	lsp := NewLSP(LSPOptions{Dir: dir, RequestTimeout: 30 * time.Second, LoadTimeout: 2 * time.Minute})
	defer lsp.Close()
	compareRename(t, ix, dir, lsp, []Location{
		{Path: "shapes.go", StartLine: 17, StartColumn: 6},  // func Total
		{Path: "shapes.go", StartLine: 11, StartColumn: 21}, // field Side
	})
}

// compareNames asks the index and the server about each name: the same
// candidates, defined at the same places.
func compareNames(t *testing.T, ix *Index, dir string, lsp *LSPProvider, names []string) {
	t.Helper()
	root, err := contain.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	snap := snapshot{ix: ix, root: root}
	for _, name := range names {
		t.Run("name "+name, func(t *testing.T) {
			q := evidence.Query{Symbol: name, Kinds: []evidence.Kind{evidence.Definition}}
			recs, _ := snap.byName(&q)
			resp, err := lsp.Gather(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(answerSet(recs, evidence.Definition), answerSet(resp.Records, evidence.Definition)); diff != "" {
				t.Errorf("definitions of %q (-index +server):\n%s", name, diff)
			}
		})
	}
}

package graph

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/index"
)

// TestResolveAllIsResolvingInOrder: resolving files in blocks on several
// workers makes the graph that resolving them one after another makes,
// the same edges in the same order, the same notes of bases and embedded
// types the project does not define. The project spans many blocks and
// holds what crosses them: Rust impls of a type defined in another file,
// the same impl written at the same line of two files blocks apart (one
// edge), Python classes of an outside base, a method called on a class
// that inherits it and through super(), Go types embedding outside
// types, tests of code in other files. Without the Rust files no edge
// starts outside its file, and the blocks' edges are copied on every CPU.
// The refs left encoded (index.Index.FactsLazy), each file's decoded as
// the file is resolved, make the same graph again.
func TestResolveAllIsResolvingInOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	files := map[string]string{
		"src/shape.rs":       "pub trait Shape {}\n",
		"src/a_impl.rs":      "impl Shape for S1 {}\n",
		"src/z_impl.rs":      "impl Shape for S1 {}\n",
		"go/api/reader.go":   "package api\n\ntype Reader interface{ Read() int }\n",
		"py/base.py":         "class Base:\n    def run(self):\n        pass\n",
		"py/test_zz_base.py": "from base import Base\n\ndef test_run():\n    Base().run()\n",
	}
	for k := range 3 * resolveBlock {
		files[fmt.Sprintf("src/s%d.rs", k)] = fmt.Sprintf("pub struct S%d;\n\nimpl S%d {\n    pub fn area(&self) -> u32 { helper%d() }\n}\n\nfn helper%d() -> u32 { %d }\n", k, k, k, k, k)
		files[fmt.Sprintf("src/i%d.rs", k)] = fmt.Sprintf("use crate::shape::Shape;\n\nimpl Shape for S%d {}\n\nfn use%d(s: &S%d) -> u32 { s.area() }\n", k, k, k)
		files[fmt.Sprintf("go/api/t%d.go", k)] = fmt.Sprintf("package api\n\nimport \"io\"\n\ntype T%d struct {\n\tio.Writer\n\tunknown%d\n}\n\nfunc (t *T%d) Read() int { return F%d() }\n\nfunc F%d() int { return %d }\n", k, k, k, k, k, k)
		files[fmt.Sprintf("py/m%d.py", k)] = fmt.Sprintf("from base import Base\n\nclass C%d(Exception):\n    pass\n\nclass D%d(Base):\n    def run(self):\n        return f%d()\n\nclass E%d(Base):\n    def go(self):\n        return super().run()\n\ndef f%d():\n    return %d\n", k, k, k, k, k, k)
		files[fmt.Sprintf("py/test_m%d.py", k)] = fmt.Sprintf("from m%d import f%d, D%d, E%d\n\ndef test_f():\n    assert f%d() == %d\n    D%d().run()\n    E%d().run()\n", k, k, k, k, k, k, k, k)
	}
	t.Run("edges across files", func(t *testing.T) { checkResolveAll(t, files) })
	noRust := map[string]string{}
	for p, text := range files {
		if !strings.HasSuffix(p, ".rs") {
			noRust[p] = text
		}
	}
	t.Run("edges within their files", func(t *testing.T) { checkResolveAll(t, noRust) })
}

// checkResolveAll compares the graph of files resolved in blocks with
// the graph of files resolved in order.
func checkResolveAll(t *testing.T, files map[string]string) {
	dir := t.TempDir()
	writeAged(t, dir, files)
	ix, err := index.Open(index.Options{Dir: dir, Budget: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	ctx := context.Background()
	build := func(lazy bool, resolve func(b *builder)) *builder {
		facts, err := ix.Facts(ctx, "")
		var refs index.EncodedRefs
		if lazy {
			facts, refs, err = ix.FactsLazy(ctx, "")
		}
		if err != nil {
			t.Fatal(err)
		}
		b := newBuilder(facts, layout{})
		b.refs = refs
		b.readBases()
		resolve(b)
		b.matchMethodSets()
		b.testNaming()
		b.flushEdges()
		return b
	}
	inOrder := build(false, func(b *builder) {
		for fi := range b.facts {
			b.resolveFile(fi)
		}
	})
	inBlocks := build(false, func(b *builder) { b.resolveAll(true) })
	// The refs left encoded and decoded file by file as they are resolved
	// make the same graph.
	lazily := build(true, func(b *builder) {
		for fi := range b.facts {
			if b.facts[fi].Refs != nil {
				t.Fatalf("%s: refs decoded before they are resolved", b.facts[fi].Path)
			}
		}
		b.resolveAll(true)
	})
	if diff := cmp.Diff(inOrder.g.Edges, lazily.g.Edges); diff != "" {
		t.Errorf("edges (-in order +decoded as resolved):\n%s", diff)
	}
	if diff := cmp.Diff(inOrder.g.known, lazily.g.known); diff != "" {
		t.Errorf("known supertypes (-in order +decoded as resolved):\n%s", diff)
	}
	if len(inOrder.facts) < 3*resolveBlock {
		t.Fatalf("%d files indexed, want at least %d", len(inOrder.facts), 3*resolveBlock)
	}
	if diff := cmp.Diff(inOrder.g.Edges, inBlocks.g.Edges); diff != "" {
		t.Errorf("edges (-in order +in blocks):\n%s", diff)
	}
	if diff := cmp.Diff(inOrder.g.known, inBlocks.g.known); diff != "" {
		t.Errorf("known supertypes (-in order +in blocks):\n%s", diff)
	}
	if a, b := inOrder.g.stats.Unresolved, inBlocks.g.stats.Unresolved; a != b {
		t.Errorf("unresolved: %d in order, %d in blocks", a, b)
	}
	// What the project was made to hold, so that the comparison is not of
	// two empty graphs.
	var impls, tests, methodSets int
	for _, e := range inOrder.g.Edges {
		switch {
		case e.Kind == Implements && e.Method == MethodSet:
			methodSets++
		case e.Kind == Implements || e.Kind == Inherits:
			impls++
		case e.Kind == Tests:
			tests++
		}
	}
	if impls < 3*resolveBlock || tests < 3*resolveBlock || methodSets < 3*resolveBlock || len(inOrder.g.known) == 0 {
		t.Errorf("the project resolved %d impls and bases, %d tests edges, %d method-set edges, %d outside bases: too few to compare",
			impls, tests, methodSets, len(inOrder.g.known))
	}
}

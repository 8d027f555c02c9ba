package graph

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/syntax"
	"github.com/google/go-cmp/cmp"
)

// namedFixture uses names across files in the ways resolution looks
// beyond the files that write a name: Go packages, receivers and
// embedding, a value a function of the file returns, renamed and
// re-exported imports (a use under the alias an alias is exported as,
// alone or beside a use of the name), inheritance and methods of bases,
// modules written as qualifiers.
var namedFixture = map[string]string{
	"go.mod":              "module m\n",
	"a/a.go":              "package a\n\ntype Base struct{}\n\nfunc (b *Base) Run() { b.Stop() }\n\nfunc (b *Base) Stop() {}\n\ntype Top struct {\n\tBase\n}\n\nfunc (t *Top) Go() { t.Run(); Helper() }\n",
	"a/b.go":              "package a\n\nfunc Helper() { Helper() }\n\ntype Runner interface{ Run() }\n",
	"a/a_test.go":         "package a\n\nimport \"testing\"\n\nfunc TestRun(t *testing.T) { (&Top{}).Go(); Helper() }\n",
	"c/c.go":              "package c\n\nimport \"m/a\"\n\nfunc Use() { a.Helper(); var t a.Top; t.Run() }\n\nfunc Run() {}\n",
	"e/x.go":              "package e\n\ntype X struct{ Mid }\n\nfunc (x *X) F() { x.Deep() }\n",
	"e/m.go":              "package e\n\ntype Mid struct{ Low }\n",
	"e/l.go":              "package e\n\ntype Low struct{}\n\nfunc (l Low) Deep() {}\n\nfunc (l Low) Other() { l.Deep() }\n",
	"e/y.go":              "package e\n\nfunc (x *X) Grow() {}\n",
	"e/x_test.go":         "package e\n\nimport \"testing\"\n\nfunc newX() *X { return &X{} }\n\nfunc TestGrow(t *testing.T) {\n\tx := newX()\n\tx.Grow()\n}\n",
	"d/d.go":              "package d\n\ntype Top struct{}\n\nfunc (t Top) Run() {}\n",
	"js/base.ts":          "export class Shape { area() { return 0 } }\nexport function make() { return new Shape() }\n",
	"js/index.ts":         "export * from './base'\nexport { make as build } from './base'\n",
	"js/use.ts":           "import { Shape, build } from './index'\nimport { make as mk } from './base'\nclass Square extends Shape { area() { return super.area() + 1 } }\nexport function f() { mk(); build(); return new Square().area() }\n",
	"js/app/index.ts":     "export { build as create } from '../index'\n",
	"js/only.ts":          "import { create } from './app'\nexport function g() { return create() }\n",
	"js/both.ts":          "import { make } from './base'\nimport { create } from './app'\nexport function h() {\n  make()\n  return create()\n}\n",
	"py/pkg/__init__.py":  "from .core import *\n",
	"py/pkg/core.py":      "class Model:\n    def save(self):\n        return self.check()\n    def check(self):\n        return True\n\ndef load():\n    return Model()\n",
	"py/app.py":           "from pkg import Model, load as fetch\n\nclass User(Model):\n    def go(self):\n        self.save()\n        return fetch()\n",
	"py/test_app.py":      "from app import User\n\ndef test_go():\n    User().go()\n",
	"py2/lib/__init__.py": "from . import shapes\n",
	"py2/lib/shapes.py":   "class Circle:\n    pass\n",
	"py2/main.py":         "from lib import Circle\n\nclass Ring(Circle):\n    pass\n",
	"rb/shape.rb":         "module Geo\n  def self.area\n    1\n  end\nend\nclass Shape\n  def size\n    area\n  end\n  def area\n    2\n  end\nend\nclass Box < Shape\n  def volume\n    size + Geo.area\n  end\nend\n",
	"rs/lib.rs":           "mod unicode;\npub trait Draw { fn draw(&self); }\npub struct P;\nimpl Draw for P { fn draw(&self) { unicode::width(); } }\n",
	"rs/sub/q.rs":         "pub struct Q;\n",
	"rs/imp.rs":           "use crate::Draw;\nuse crate::sub::Q;\nimpl Draw for Q { fn draw(&self) {} }\n",
	"rs/unicode.rs":       "pub fn width() -> usize { 1 }\n",
}

// namedRecords returns the records of the full graph's depth-1 answer
// and of the per-name one for each definition name of the provider's
// graph; it fails the test where they differ. It returns how many names
// it compared and how many took the whole graph.
func compareNamed(t *testing.T, dir string, keep func(name string) bool) (compared, whole int) {
	t.Helper()
	ctx := context.Background()
	ix, err := index.Open(index.Options{Dir: dir, Budget: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	full := New(Options{Index: ix})
	g, err := full.Graph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for n := range g.byName {
		if keep(n) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	eq := evidence.Query{Kinds: []evidence.Kind{evidence.Reference, evidence.Call, evidence.Import}}
	for _, name := range names {
		q := Query{Targets: []Target{{Symbol: name}}, Depth: 1}
		want := impactRecords(g.Impact(q), &eq)
		im, ok, err := New(Options{Index: ix}).namedImpact(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			whole++
			continue
		}
		compared++
		if diff := cmp.Diff(want, impactRecords(im, &eq)); diff != "" {
			t.Errorf("%s: the per-name answer differs from the whole graph's (-want +got):\n%s", name, diff)
		}
	}
	return compared, whole
}

// For every definition name of a fixture, the answer from the files that
// concern the name is the whole graph's.
func TestNamedEqualsWhole(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	dir := testtool.WriteTree(t, namedFixture)
	compared, whole := compareNamed(t, dir, func(string) bool { return true })
	t.Logf("%d names compared, %d answered from the whole graph", compared, whole)
	if compared < 20 {
		t.Errorf("only %d names compared", compared)
	}
}

// The same on a real tree: cobra's names.
func TestNamedEqualsWholeCobra(t *testing.T) {
	if testing.Short() {
		t.Skip("a real tree")
	}
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	src := os.Getenv("CORTEX_NAMED_TREE")
	if src == "" {
		src = moduleDir(t, "github.com/spf13/cobra@v1.10.2")
	}
	dir := copyTree(t, src)
	compared, whole := compareNamed(t, dir, func(string) bool { return true })
	t.Logf("%d names compared, %d answered from the whole graph", compared, whole)
}

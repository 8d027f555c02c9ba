package index

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/symbols"
	"github.com/codecortex/codecortex/syntax"
)

func TestSymbolsRoundTrip(t *testing.T) {
	r := func(sl, sc, el, ec, sb, eb int) symbols.Range {
		return symbols.Range{StartLine: sl, StartColumn: sc, EndLine: el, EndColumn: ec, StartByte: sb, EndByte: eb}
	}
	in := []symbols.Symbol{
		{Name: "M", Kind: symbols.Method, Container: "*T", Signature: "func (t *T) M()", Exported: true,
			NameRange: r(5, 13, 5, 14, 60, 61), Range: r(5, 1, 7, 2, 48, 90), DocLine: 4},
		{Name: "T", Kind: symbols.Struct, Package: "own", NameRange: r(3, 6, 3, 7, 20, 21), Range: r(3, 1, 3, 18, 15, 32), DocLine: 3},
		{Name: "inner", Kind: symbols.Function, NameRange: r(6, 5, 6, 10, 70, 75), Range: r(6, 1, 6, 20, 66, 85), DocLine: -1},
		{Name: "Outer", Kind: symbols.Class, NameRange: r(5, 7, 5, 12, 55, 60), Range: r(5, 1, 9, 1, 48, 120), DocLine: 5},
	}
	want := []symbols.Symbol{in[1], in[3], in[0], in[2]} // by start, the longer first
	for i := range want {
		if want[i].Package == "" {
			want[i].Package = "pkg"
		}
	}
	enc := encodeSymbols(in, "pkg")
	if diff := cmp.Diff(want, decodeSymbols(enc, interner{})); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	// A truncated encoding gives the symbols it holds whole, never a panic.
	for n := range len(enc) {
		if got := decodeSymbols(enc[:n], nil); len(got) >= len(in) {
			t.Fatalf("%d of %d bytes decoded to %d symbols", n, len(enc), len(got))
		}
	}
}

func FuzzDecodeSymbols(f *testing.F) {
	f.Add(encodeSymbols([]symbols.Symbol{{Name: "a", Kind: symbols.Function, Range: symbols.Range{StartLine: 1, EndLine: 2}}}, "p"))
	f.Add([]byte{1, 'a', 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		syms := decodeSymbols(b, interner{})
		if len(syms) > len(b)/19 {
			t.Fatalf("%d bytes decoded to %d symbols: each takes at least 19", len(b), len(syms))
		}
		// What was decoded encodes to what decodes the same.
		if again := decodeSymbols(encodeSymbols(syms, ""), nil); len(again) != len(syms) {
			t.Fatalf("decoded %d symbols, encoded again %d", len(syms), len(again))
		}
	})
}

// TestFactsAgreeWithRows: the symbols Facts reads from each file's one
// value are the symbols its rows hold (FactsOf reads those), in the same
// order, after a cold index and after an edit that keeps some rows. (A C
// declaration of a struct and its variables starts them all at one byte.)
func TestFactsAgreeWithRows(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	dir := writeTree(t, map[string]string{
		"go.mod":    "module m\n",
		"p/a.go":    "package p\n\n// T is a thing.\ntype T struct{ x int }\n\nfunc (t *T) M() { f := func() {}; f() }\n\nfunc F() {}\n",
		"py/m.py":   "class A:\n    class B:\n        def run(self):\n            def inner():\n                pass\n\ndef top():\n    pass\n",
		"js/x.js":   "(function () {\n  function hidden() {}\n  class K { m() {} }\n})();\n",
		"c/conf.c":  "struct config { int verbose; } conf, other;\n\nint main(void) { return conf.verbose; }\n",
		"rs/lib.rs": "pub mod m {\n    pub struct S;\n    impl S { pub fn go(&self) {} }\n}\n",
	})
	ix := openTest(t, dir, func(o *Options) { o.Extract, o.ExtractorVersion = nil, "" })
	ctx := context.Background()
	agree := func(when string) {
		t.Helper()
		whole, err := ix.Facts(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		for _, f := range whole.Files {
			paths = append(paths, f.Path)
		}
		rows, err := ix.FactsOf(ctx, paths)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows.Files) != len(whole.Files) {
			t.Fatalf("%s: %d files by rows, %d by values", when, len(rows.Files), len(whole.Files))
		}
		n := 0
		for i := range whole.Files {
			n += len(whole.Files[i].Symbols)
			if diff := cmp.Diff(rows.Files[i].Symbols, whole.Files[i].Symbols); diff != "" {
				t.Errorf("%s: %s (-rows +values):\n%s", when, whole.Files[i].Path, diff)
			}
		}
		if n < 10 {
			t.Errorf("%s: %d symbols in all, too few to compare", when, n)
		}
	}
	agree("cold")
	if err := os.WriteFile(filepath.Join(dir, "p", "a.go"), []byte("package p\n\nfunc G() {}\n\n// T is a thing.\ntype T struct{ x int }\n\nfunc (t *T) M() { f := func() {}; f() }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "js", "x.js")); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Update(ctx); err != nil {
		t.Fatal(err)
	}
	agree("after an edit")
}

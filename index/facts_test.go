package index

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/codecortex/codecortex/symbols"
	"github.com/codecortex/codecortex/syntax"
)

func TestRefsRoundTrip(t *testing.T) {
	in := []symbols.Ref{
		{Name: "Println", Qualifier: "fmt", Kind: symbols.Call, Line: 3, Column: 6, Byte: 40},
		{Name: "Base", Kind: symbols.Inherit, Line: 1, Column: 1, Byte: 0},
		{Name: "Error", Qualifier: "error", Kind: symbols.Inherit, Of: "ParseError", Line: 2, Column: 6, Byte: 20},
		{Name: "Thing", Kind: symbols.Use, Line: 900000, Column: 7, Byte: 1 << 20},
		{Name: "Find", Kind: symbols.Call, Selected: true, Line: 4, Column: 9, Byte: 70},
		{Name: "Host", Qualifier: "r", Kind: symbols.Call, Type: "mux.NewRouter()", Line: 5, Column: 2, Byte: 90},
		{Name: "Info", Qualifier: "e", Kind: symbols.Use, Selected: true, Type: "*Entry", Line: 6, Column: 2, Byte: 99},
		{Name: "Error", Kind: symbols.Inherit, Of: "E", Type: "T", Line: 7, Column: 1, Byte: 110},
	}
	if diff := cmp.Diff(in, decodeRefs(encodeRefs(in))); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	if n := countRefs(encodeRefs(in)); n != len(in) {
		t.Errorf("countRefs = %d, want %d", n, len(in))
	}
	// A truncated encoding gives what it holds whole, never a panic.
	enc := encodeRefs(in)
	for n := range len(enc) {
		got := decodeRefs(enc[:n])
		if len(got) > len(in) {
			t.Fatalf("%d bytes decoded to %d refs", n, len(got))
		}
	}
}

// A RefDecoder gives what decodeRefs gives, for every prefix of an
// encoding, into the memory of the file decoded before when it fits; RefsOf gives the
// refs of one kind, and Len counts them all.
func TestRefDecoder(t *testing.T) {
	in := []symbols.Ref{
		{Name: "Base", Kind: symbols.Inherit, Line: 1, Column: 1, Byte: 0},
		{Name: "Println", Qualifier: "fmt", Kind: symbols.Call, Line: 3, Column: 6, Byte: 40},
		{Name: "Error", Qualifier: "error", Kind: symbols.Inherit, Of: "ParseError", Line: 4, Column: 6, Byte: 60},
		{Name: "Info", Qualifier: "e", Kind: symbols.Use, Selected: true, Type: "*Entry", Line: 6, Column: 2, Byte: 99},
		{Name: "Shape", Kind: symbols.Inherit, Of: "S", Type: "T", Line: 7, Column: 1, Byte: 110},
	}
	enc := encodeRefs(in)
	var files [][]byte
	for n := len(enc); n >= 0; n-- { // longest first: the rest fit in its memory
		files = append(files, enc[:n])
	}
	e := EncodedRefs{files: files}
	var d RefDecoder
	var last []symbols.Ref
	for i := range files {
		all := decodeRefs(files[i])
		got := d.Refs(e, i)
		if diff := cmp.Diff(all, got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("%d bytes (-want +got):\n%s", i, diff)
		}
		if len(last) > 0 && len(got) > 0 && &last[0] != &got[0] {
			t.Errorf("%d bytes: decoded into new memory, not the last file's", i)
		}
		last = got
		var inherits []symbols.Ref
		for _, r := range all {
			if r.Kind == symbols.Inherit {
				inherits = append(inherits, r)
			}
		}
		if diff := cmp.Diff(inherits, d.RefsOf(e, i, symbols.Inherit), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("%d bytes, inherits (-want +got):\n%s", i, diff)
		}
		if n := e.Len(i); n != len(all) {
			t.Errorf("%d bytes: Len = %d, want %d", i, n, len(all))
		}
	}
	if got := d.Refs(e, len(files)); got != nil || e.Len(len(files)) != 0 {
		t.Errorf("a file past the last: %v, Len %d", got, e.Len(len(files)))
	}
}

func FuzzDecodeRefs(f *testing.F) {
	f.Add(encodeRefs([]symbols.Ref{{Name: "a", Kind: symbols.Call, Line: 1, Column: 1}}))
	f.Add([]byte{2, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Add(encodeRefs([]symbols.Ref{{Name: "Host", Qualifier: "r", Kind: symbols.Call, Type: "F()", Line: 1, Column: 1}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		refs := decodeRefs(b)
		for _, r := range refs {
			if r.Name == "" || !r.Kind.Valid() {
				t.Fatalf("decoded %+v", r)
			}
		}
		if n := countRefs(b); n < len(refs) {
			t.Fatalf("countRefs = %d, fewer than the %d refs decoded", n, len(refs))
		}
		var inherits []symbols.Ref
		for _, r := range refs {
			if r.Kind == symbols.Inherit {
				inherits = append(inherits, r)
			}
		}
		if got := refsOfKind(b, symbols.Inherit, interner{}); len(got) < len(inherits) {
			t.Fatalf("refsOfKind gave %d inherits, fewer than the %d decoded", len(got), len(inherits))
		}
	})
}

func TestFacts(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	dir := writeTree(t, map[string]string{
		"a.go": "package a\n\nimport \"fmt\"\n\nfunc Alpha() { fmt.Println(Beta()) }\n",
		"b.go": "package a\n\nfunc Beta() int { return 1 }\n",
	})
	ix, err := Open(Options{Dir: dir, Budget: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	ctx := context.Background()
	fs, err := ix.Facts(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(fs.Files) != 2 || fs.Files[0].Path != "a.go" {
		t.Fatalf("files: %+v", fs.Files)
	}
	a := fs.Files[0]
	if len(a.Symbols) != 1 || a.Symbols[0].Name != "Alpha" || len(a.Imports) != 1 || a.Imports[0].Path != "fmt" {
		t.Errorf("a.go: %+v", a)
	}
	var calls []string
	for _, r := range a.Refs {
		if r.Kind == symbols.Call {
			calls = append(calls, r.Qualifier+"."+r.Name)
		}
	}
	if diff := cmp.Diff([]string{"fmt.Println", ".Beta"}, calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	again, err := ix.Facts(ctx, fs.Version)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Unchanged || again.Files != nil || again.Version != fs.Version {
		t.Errorf("second read: unchanged %v, %d files, version %q vs %q", again.Unchanged, len(again.Files), again.Version, fs.Version)
	}
}

// decodeRefsWhere keeps what a filter of the whole decoding keeps, in the
// same order, for every prefix of an encoding, with or without an
// interner, and the members a kept selected ref is selected from when
// they are written just before it, back to the chain's first (mu in
// t.mu.b, request and Header in c.request.Header.b), not one written
// elsewhere (a in x.a then b.b).
func TestDecodeRefsWhere(t *testing.T) {
	in := []symbols.Ref{
		{Name: "b", Kind: symbols.Call, Line: 1, Column: 1, Byte: 1},
		{Name: "Base", Kind: symbols.Inherit, Of: "T", Line: 2, Column: 1, Byte: 9},
		{Name: "a", Qualifier: "b", Kind: symbols.Use, Line: 3, Column: 2, Byte: 20},
		{Name: "b", Qualifier: "x", Kind: symbols.Use, Selected: true, Line: 4, Column: 3, Byte: 30},
		{Name: "mu", Qualifier: "t", Kind: symbols.Use, Line: 5, Column: 3, Byte: 40},
		{Name: "b", Qualifier: "t", Kind: symbols.Call, Selected: true, Line: 5, Column: 6, Byte: 43},
		{Name: "request", Qualifier: "c", Kind: symbols.Use, Line: 6, Column: 3, Byte: 50},
		{Name: "Header", Qualifier: "c", Kind: symbols.Use, Selected: true, Line: 6, Column: 11, Byte: 58},
		{Name: "b", Qualifier: "c", Kind: symbols.Call, Selected: true, Line: 6, Column: 18, Byte: 65},
	}
	keep := func(r *symbols.Ref, name []byte) bool { return r.Kind == symbols.Inherit || string(name) == "b" }
	enc := encodeRefs(in)
	for n := range len(enc) + 1 {
		var want []symbols.Ref
		all := decodeRefs(enc[:n])
		from := make([]bool, len(all)) // in the chain a kept selected b is selected from
		for i, r := range all {
			if r.Name != "b" || !r.Selected {
				continue
			}
			for j := i - 1; j >= 0 && all[j].Qualifier == all[j+1].Qualifier && all[j].Byte+len(all[j].Name)+1 == all[j+1].Byte; j-- {
				from[j] = true
				if !all[j].Selected {
					break
				}
			}
		}
		for i, r := range all {
			if keep(&r, []byte(r.Name)) || from[i] {
				want = append(want, r)
			}
		}
		if diff := cmp.Diff(want, decodeRefsWhere(nil, enc[:n], keep, nil)); diff != "" {
			t.Fatalf("%d bytes (-want +got):\n%s", n, diff)
		}
		if diff := cmp.Diff(want, decodeRefsWhere(nil, enc[:n], keep, interner{})); diff != "" {
			t.Fatalf("%d bytes, interned (-want +got):\n%s", n, diff)
		}
		if diff := cmp.Diff(all, decodeRefsWhere(nil, enc[:n], nil, interner{})); diff != "" {
			t.Fatalf("%d bytes, all interned (-want +got):\n%s", n, diff)
		}
	}
}

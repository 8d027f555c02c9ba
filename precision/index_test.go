package precision

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/scip-code/scip/bindings/go/scip"
	"google.golang.org/protobuf/proto"
)

const (
	pkgA   = "scip-go gomod example.com/a v1.0.0 `example.com/a`/"
	pkgB   = "scip-go gomod example.com/b v1.0.0 `example.com/b`/"
	shapeA = pkgA + "Shape#"
	shapeB = pkgB + "Shape#"
	square = pkgA + "Square#"
)

// fixtureSources are the files the synthetic index describes. Line 1 of
// a.go has "😀" (4 bytes, 2 UTF-16 units, 1 code point) before Square.
var fixtureSources = fstest.MapFS{
	"a.go":     {Data: []byte("package a\n/*😀*/ type Square struct{}\ntype Shape interface{}\nvar v Shape = Square{}\n")},
	"b/b.go":   {Data: []byte("package b\ntype Shape struct{}\nfunc f() { x := 1; _ = x }\n")},
	"b/c.go":   {Data: []byte("package b\nfunc g() { x := 2; _ = x }\nvar s Shape\n")},
	"multi.go": {Data: []byte("package a\nvar long = `a\nb`\n")},
}

func occ(rg []int32, sym string, roles scip.SymbolRole) *scip.Occurrence {
	return &scip.Occurrence{Range: rg, Symbol: sym, SymbolRoles: int32(roles)}
}

// fixtureIndex is a small scip-go index over fixtureSources, in UTF-8 byte
// columns: Square starts at byte 14 on line 1 (code point 11, zero-based).
func fixtureIndex() *scip.Index {
	def := scip.SymbolRole_Definition
	return &scip.Index{
		Metadata: &scip.Metadata{ToolInfo: &scip.ToolInfo{Name: "scip-go", Version: "0.1.26"}, ProjectRoot: "file:///src"},
		Documents: []*scip.Document{
			{RelativePath: "a.go", Occurrences: []*scip.Occurrence{
				occ([]int32{1, 14, 20}, square, def),
				occ([]int32{2, 5, 10}, shapeA, def),
				occ([]int32{3, 6, 11}, shapeA, scip.SymbolRole_ReadAccess),
				occ([]int32{3, 14, 20}, square, 0), // role 0 is a reference too
			}, Symbols: []*scip.SymbolInformation{
				{Symbol: square, DisplayName: "Square", Relationships: []*scip.Relationship{{Symbol: shapeA, IsImplementation: true}}},
				{Symbol: shapeA, DisplayName: "Shape", Documentation: []string{"Shape is an interface."}},
			}},
			{RelativePath: "b/b.go", Occurrences: []*scip.Occurrence{
				occ([]int32{1, 5, 10}, shapeB, def),
				occ([]int32{2, 11, 12}, "local 0", def),
				occ([]int32{2, 23, 24}, "local 0", scip.SymbolRole_ReadAccess),
			}},
			{RelativePath: "b/c.go", Occurrences: []*scip.Occurrence{
				occ([]int32{1, 11, 12}, "local 0", def),
				occ([]int32{1, 23, 24}, "local 0", scip.SymbolRole_ReadAccess),
			}},
			// scip-typescript repeats a document for every project that
			// includes it: the repeat is merged by path.
			{RelativePath: "b/c.go", Occurrences: []*scip.Occurrence{
				occ([]int32{1, 11, 12}, "local 0", def),
				occ([]int32{2, 6, 11}, shapeB, 0),
			}},
			// A 4-element range.
			{RelativePath: "multi.go", Occurrences: []*scip.Occurrence{
				occ([]int32{1, 4, 8}, pkgA+"long.", def),
				occ([]int32{1, 11, 2, 2}, pkgA+"long.", scip.SymbolRole_ReadAccess),
			}},
			// scip-go writes generated test files from the build cache.
			{RelativePath: "../../root/.cache/go-build/ab/x_test.go", Occurrences: []*scip.Occurrence{
				occ([]int32{0, 0, 1}, square, 0),
			}},
		},
	}
}

func marshal(t testing.TB, ix *scip.Index) []byte {
	t.Helper()
	b, err := proto.Marshal(ix)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func loadFixture(t testing.TB) *Index {
	t.Helper()
	data := marshal(t, fixtureIndex())
	ix, err := Load(context.Background(), bytes.NewReader(data), LoadOptions{Source: fixtureSources, Size: int64(len(data))})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func loc(path string, sl, sc, el, ec int, sym string, roles scip.SymbolRole) Location {
	return Location{Path: path, StartLine: sl, StartColumn: sc, EndLine: el, EndColumn: ec, Symbol: sym,
		Roles: int32(roles), Encoding: UTF8, EncodingSource: Measured, Exact: true}
}

func TestLoadStats(t *testing.T) {
	ix := loadFixture(t)
	want := Stats{Documents: 4, Symbols: 6, Occurrences: 12, MergedDocuments: 1,
		Encodings: map[string]int{"utf-8 (measured)": 4}}
	if diff := cmp.Diff(want, ix.Stats()); diff != "" {
		t.Errorf("Stats (-want +got):\n%s", diff)
	}
	wantDropped := []DroppedDocument{{Path: "../../root/.cache/go-build/ab/x_test.go", Reason: "outside the project root"}}
	if diff := cmp.Diff(wantDropped, ix.Dropped()); diff != "" {
		t.Errorf("Dropped (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Metadata{Tool: "scip-go", ToolVersion: "0.1.26", ProjectRoot: "file:///src"}, ix.Metadata()); diff != "" {
		t.Errorf("Metadata (-want +got):\n%s", diff)
	}
}

func TestSymbolAtAndAnswers(t *testing.T) {
	ix := loadFixture(t)
	def := scip.SymbolRole_Definition
	tests := []struct {
		name            string
		path            string
		line, col       int
		wantSym         string
		wantErr         error
		wantDefs        []Location
		wantRefs        []Location
		wantImpls       []string
		wantImplementsN int
	}{
		{name: "after emoji: code point 12 is byte 15 (one-based)", path: "a.go", line: 2, col: 12, wantSym: square,
			wantDefs:        []Location{loc("a.go", 2, 12, 2, 18, square, def)},
			wantRefs:        []Location{loc("a.go", 4, 15, 4, 21, square, 0)},
			wantImplementsN: 1},
		{name: "last character of the token", path: "a.go", line: 2, col: 17, wantSym: square,
			wantDefs:        []Location{loc("a.go", 2, 12, 2, 18, square, def)},
			wantRefs:        []Location{loc("a.go", 4, 15, 4, 21, square, 0)},
			wantImplementsN: 1},
		{name: "end column belongs to the next token", path: "a.go", line: 2, col: 18, wantErr: ErrNoSymbol},
		{name: "before the token", path: "a.go", line: 2, col: 11, wantErr: ErrNoSymbol},
		{name: "interface", path: "a.go", line: 3, col: 6, wantSym: shapeA,
			wantDefs:  []Location{loc("a.go", 3, 6, 3, 11, shapeA, def)},
			wantRefs:  []Location{loc("a.go", 4, 7, 4, 12, shapeA, scip.SymbolRole_ReadAccess)},
			wantImpls: []string{square}},
		{name: "same name, other package", path: "b/b.go", line: 2, col: 6, wantSym: shapeB,
			wantDefs: []Location{loc("b/b.go", 2, 6, 2, 11, shapeB, def)},
			wantRefs: []Location{loc("b/c.go", 3, 7, 3, 12, shapeB, 0)}},
		{name: "local scoped to its document", path: "b/c.go", line: 2, col: 24, wantSym: "local 0",
			wantDefs: []Location{loc("b/c.go", 2, 12, 2, 13, "local 0", def)},
			wantRefs: []Location{loc("b/c.go", 2, 24, 2, 25, "local 0", scip.SymbolRole_ReadAccess)}},
		{name: "4-element range", path: "multi.go", line: 3, col: 1, wantSym: pkgA + "long.",
			wantDefs: []Location{loc("multi.go", 2, 5, 2, 9, pkgA+"long.", def)},
			wantRefs: []Location{loc("multi.go", 2, 12, 3, 3, pkgA+"long.", scip.SymbolRole_ReadAccess)}},
		{name: "dropped document is never served", path: "../../root/.cache/go-build/ab/x_test.go", line: 1, col: 1, wantErr: ErrNoDocument},
		{name: "unknown document", path: "nope.go", line: 1, col: 1, wantErr: ErrNoDocument},
		{name: "zero position", path: "a.go", line: 0, col: 0, wantErr: ErrNoSymbol},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _, err := ix.SymbolAt(tt.path, tt.line, tt.col)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("SymbolAt error = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Name != tt.wantSym {
				t.Fatalf("SymbolAt = %q, want %q", s.Name, tt.wantSym)
			}
			if diff := cmp.Diff(tt.wantDefs, ix.Definitions(s)); diff != "" {
				t.Errorf("Definitions (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantRefs, ix.References(s)); diff != "" {
				t.Errorf("References (-want +got):\n%s", diff)
			}
			var impls []string
			for _, i := range ix.Implementations(s) {
				impls = append(impls, i.Name)
			}
			if diff := cmp.Diff(tt.wantImpls, impls); diff != "" {
				t.Errorf("Implementations (-want +got):\n%s", diff)
			}
			if got := len(ix.Implements(s)); got != tt.wantImplementsN {
				t.Errorf("Implements: %d symbols, want %d", got, tt.wantImplementsN)
			}
		})
	}
}

func TestLocalsAreScopedPerDocument(t *testing.T) {
	ix := loadFixture(t)
	inB, err := ix.Lookup("local 0", "b/b.go")
	if err != nil {
		t.Fatal(err)
	}
	inC, err := ix.Lookup("local 0", "b/c.go")
	if err != nil {
		t.Fatal(err)
	}
	if inB.id == inC.id {
		t.Fatal("local 0 of b/b.go and b/c.go are one symbol")
	}
	for _, l := range ix.References(inB) {
		if l.Path != "b/b.go" {
			t.Errorf("a reference of b/b.go's local 0 is in %s", l.Path)
		}
	}
}

func TestLookupNameKeepsPackages(t *testing.T) {
	ix := loadFixture(t)
	got := ix.LookupName("Shape")
	var pkgs, syms []string
	for _, c := range got {
		pkgs = append(pkgs, c.Package)
		syms = append(syms, c.Symbol.Name)
	}
	if diff := cmp.Diff([]string{"gomod example.com/a v1.0.0", "gomod example.com/b v1.0.0"}, pkgs); diff != "" {
		t.Errorf("packages (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{shapeA, shapeB}, syms); diff != "" {
		t.Errorf("symbols (-want +got):\n%s", diff)
	}
	if len(got) == 2 && got[0].Symbol.Info.Documentation != "Shape is an interface." {
		t.Errorf("documentation = %q", got[0].Symbol.Info.Documentation)
	}
}

func TestLoadFailures(t *testing.T) {
	good := marshal(t, fixtureIndex())
	withDoc := func(p string) []byte {
		ix := fixtureIndex()
		ix.Documents = append(ix.Documents, &scip.Document{RelativePath: p})
		return marshal(t, ix)
	}
	future := fixtureIndex()
	future.Metadata.Version = 7
	noMeta := fixtureIndex()
	noMeta.Metadata = nil
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"truncated", good[:len(good)-3], ErrUnreadable},
		{"garbage", []byte("this is not an index"), ErrUnreadable},
		{"huge length", []byte{0x12, 0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2}, ErrUnreadable},
		{"no metadata", marshal(t, noMeta), ErrUnreadable},
		{"empty", nil, ErrUnreadable},
		{"future protocol", marshal(t, future), ErrUnsupported},
		{"absolute path", withDoc("/etc/passwd"), ErrProtocol},
		{"backslash path", withDoc(`a\b.go`), ErrProtocol},
		{"unclean path", withDoc("a/./b.go"), ErrProtocol},
		{"empty path", withDoc(""), ErrProtocol},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			readers := map[string]io.Reader{
				"unknown size": struct{ io.Reader }{bytes.NewReader(tt.data)},
				"known size":   bytes.NewReader(tt.data),
			}
			for name, r := range readers {
				_, err := Load(context.Background(), r, LoadOptions{})
				if !errors.Is(err, tt.want) {
					t.Errorf("%s: Load error = %v, want %v", name, err, tt.want)
				}
			}
		})
	}
}

func TestInvalidRangesAreSkipped(t *testing.T) {
	ix := fixtureIndex()
	ix.Documents[0].Occurrences = append(ix.Documents[0].Occurrences,
		occ([]int32{1, 2}, square, 0), occ([]int32{5, 4, 3}, square, 0), occ([]int32{-1, 0, 1}, square, 0))
	data := marshal(t, ix)
	got, err := Load(context.Background(), bytes.NewReader(data), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := got.Stats().InvalidOccurrences; n != 3 {
		t.Errorf("InvalidOccurrences = %d, want 3", n)
	}
}

func TestDeclaredEncodingWins(t *testing.T) {
	ix := fixtureIndex()
	// Declared UTF-16: "😀" is 2 units, so Square starts at unit 6+... on
	// line 1 ("/*😀*/ type " = 2+2+2+1+5 = 12 units).
	ix.Documents[0].PositionEncoding = scip.PositionEncoding_UTF16CodeUnitOffsetFromLineStart
	ix.Documents[0].Occurrences[0].Range = []int32{1, 12, 18}
	ix.Metadata.ToolInfo.Name = "some-new-indexer"
	ix.Documents[1].PositionEncoding = 0
	data := marshal(t, ix)
	got, err := Load(context.Background(), bytes.NewReader(data), LoadOptions{Source: fixtureSources})
	if err != nil {
		t.Fatal(err)
	}
	s, l, err := got.SymbolAt("a.go", 2, 12)
	if err != nil || s.Name != square {
		t.Fatalf("SymbolAt = %q, %v", s.Name, err)
	}
	want := Location{Path: "a.go", StartLine: 2, StartColumn: 12, EndLine: 2, EndColumn: 18, Symbol: square,
		Roles: int32(scip.SymbolRole_Definition), Encoding: UTF16, EncodingSource: Declared, Exact: true}
	if diff := cmp.Diff(want, l); diff != "" {
		t.Errorf("location (-want +got):\n%s", diff)
	}
	// The unknown tool's undeclared document is assumed code points and
	// not exact.
	s, l, err = got.SymbolAt("b/b.go", 2, 6)
	if err != nil || s.Name != shapeB {
		t.Fatalf("SymbolAt = %q, %v", s.Name, err)
	}
	if l.EncodingSource != Assumed || l.Exact {
		t.Errorf("undeclared encoding of an unknown tool: source %s exact %v, want assumed, not exact", l.EncodingSource, l.Exact)
	}
}

func TestNoSourceIsNotExact(t *testing.T) {
	data := marshal(t, fixtureIndex())
	ix, err := Load(context.Background(), bytes.NewReader(data), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := ix.Lookup(square, "")
	for _, l := range ix.Definitions(s) {
		if l.Exact {
			t.Errorf("%+v is exact without source text to convert from", l)
		}
	}
}

// scip-python writes locals outside the symbol grammar, such as
// "local 38(x)"; they are tolerated and scoped to their document like any
// local.
func TestOddLocals(t *testing.T) {
	ix := fixtureIndex()
	ix.Metadata.ToolInfo.Name = "scip-python"
	ix.Documents[1].Occurrences = append(ix.Documents[1].Occurrences, occ([]int32{0, 0, 1}, "local 38(x)", scip.SymbolRole_Definition))
	ix.Documents[2].Occurrences = append(ix.Documents[2].Occurrences, occ([]int32{0, 0, 1}, "local 38(x)", scip.SymbolRole_Definition))
	data := marshal(t, ix)
	got, err := Load(context.Background(), bytes.NewReader(data), LoadOptions{Source: fixtureSources})
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := got.SymbolAt("b/b.go", 1, 1)
	if err != nil || s.Name != "local 38(x)" || s.Document != "b/b.go" {
		t.Fatalf("SymbolAt = %+v, %v", s, err)
	}
	if defs := got.Definitions(s); len(defs) != 1 || defs[0].Path != "b/b.go" {
		t.Errorf("definitions of b/b.go's local 38(x): %+v", defs)
	}
	if c := got.LookupName("x"); len(c) != 0 {
		t.Errorf("a local is a name-lookup candidate: %+v", c)
	}
}

// Queries share the index and its source cache; run them side by side
// (go test -race checks the sharing).
func TestConcurrentQueries(t *testing.T) {
	ix := loadFixture(t)
	done := make(chan string, 8)
	for range 8 {
		go func() {
			for range 50 {
				s, l, err := ix.SymbolAt("a.go", 2, 12)
				if err != nil || s.Name != square || l.StartColumn != 12 {
					done <- fmt.Sprintf("SymbolAt = %q %+v %v", s.Name, l, err)
					return
				}
				ix.References(s)
			}
			done <- ""
		}()
	}
	for range 8 {
		if msg := <-done; msg != "" {
			t.Error(msg)
		}
	}
}

// A method's dynamic references go one step through interface satisfaction
// each way, as gopls's do: an interface method reaches calls of the methods
// implementing it, a concrete method reaches calls through the interface
// method it implements, and never its sibling implementations. A Go method
// declared only in a _test.go file is reached only from its own directory.
func TestDynamicReferences(t *testing.T) {
	const (
		pkg  = "scip-go gomod example.com/m v1.0.0 `example.com/m`/"
		iM   = pkg + "I#M."
		tM   = pkg + "T#M()."
		uM   = pkg + "U#M()."
		vM   = pkg + "V#M()." // declared in a test file
		typI = pkg + "I#"
		// An interface method of the standard library, which the index
		// does not define.
		ext = "scip-go gomod github.com/golang/go/src go1.22 `io`/Closer#Close."
	)
	def, read := scip.SymbolRole_Definition, scip.SymbolRole_ReadAccess
	impl := func(of string) []*scip.Relationship {
		return []*scip.Relationship{{Symbol: of, IsImplementation: true}}
	}
	data := marshal(t, &scip.Index{
		Metadata: &scip.Metadata{ToolInfo: &scip.ToolInfo{Name: "scip-go"}},
		Documents: []*scip.Document{
			{RelativePath: "m.go", Occurrences: []*scip.Occurrence{
				occ([]int32{0, 0, 1}, typI, def),
				occ([]int32{1, 0, 1}, iM, def),
				occ([]int32{2, 0, 1}, tM, def),
				occ([]int32{3, 0, 1}, uM, def),
				occ([]int32{4, 0, 1}, iM, read), // a call through the interface
				occ([]int32{5, 0, 1}, tM, read), // a call on T
				occ([]int32{6, 0, 1}, uM, read), // a call on U
				occ([]int32{7, 0, 1}, typI, read),
				occ([]int32{8, 0, 1}, ext, read), // a call through io.Closer in T's package
			}, Symbols: []*scip.SymbolInformation{
				{Symbol: tM, Relationships: append(impl(iM), impl(ext)...)},
				{Symbol: uM, Relationships: impl(iM)},
			}},
			{RelativePath: "m_test.go", Occurrences: []*scip.Occurrence{
				occ([]int32{0, 0, 1}, vM, def),
			}, Symbols: []*scip.SymbolInformation{
				{Symbol: vM, Relationships: impl(iM)},
			}},
			{RelativePath: "sub/s.go", Occurrences: []*scip.Occurrence{
				occ([]int32{0, 0, 1}, iM, read),  // a call through the interface elsewhere
				occ([]int32{1, 0, 1}, ext, read), // through io.Closer elsewhere: gopls counts none
			}},
		},
	})
	ix, err := Load(context.Background(), bytes.NewReader(data), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		sym  string
		want []string
	}{
		{iM, []string{"m.go:6 " + tM, "m.go:7 " + uM}},
		{tM, []string{"m.go:5 " + iM, "sub/s.go:1 " + iM, "m.go:9 " + ext}},
		{uM, []string{"m.go:5 " + iM, "sub/s.go:1 " + iM}},
		{vM, []string{"m.go:5 " + iM}},
		{typI, nil}, // a use of an interface type is not a use of its implementations
	}
	for _, tt := range tests {
		t.Run(tt.sym, func(t *testing.T) {
			s, err := ix.Lookup(tt.sym, "")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range ix.DynamicReferences(s) {
				got = append(got, fmt.Sprintf("%s:%d %s", l.Path, l.StartLine, l.Symbol))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("DynamicReferences (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAliasedReferences: scip-typescript defines a local or a property
// at a reference to a function where a module binds it (const { concat }
// = require('./buffer-util'), module.exports = { concat }) and names the
// uses by that symbol; they are the function's. A field embedding a type
// (scip-go) is no alias of the type.
func TestAliasedReferences(t *testing.T) {
	const (
		util  = "scip-typescript npm ws 8.0.0 lib/`buffer-util.js`/"
		fn    = util + "concat()."
		prop  = util + "concat0:"
		pkg   = "scip-go gomod example.com/m v1.0.0 `example.com/m`/"
		typ   = pkg + "T#"
		field = pkg + "S#T."
	)
	def, read := scip.SymbolRole_Definition, scip.SymbolRole_ReadAccess
	data := marshal(t, &scip.Index{
		Metadata: &scip.Metadata{ToolInfo: &scip.ToolInfo{Name: "scip-typescript"}},
		Documents: []*scip.Document{
			{RelativePath: "lib/buffer-util.js", Occurrences: []*scip.Occurrence{
				occ([]int32{0, 9, 15}, fn, def),
				occ([]int32{5, 19, 25}, prop, def), // module.exports = { concat }
				occ([]int32{5, 19, 25}, fn, 0),
			}},
			{RelativePath: "lib/receiver.js", Occurrences: []*scip.Occurrence{
				occ([]int32{0, 8, 14}, "local 0", def), // const { concat } = require(…)
				occ([]int32{0, 8, 14}, fn, 0),
				occ([]int32{3, 2, 8}, "local 0", 0),
				occ([]int32{4, 9, 15}, "local 0", 0),
			}},
			{RelativePath: "lib/user.js", Occurrences: []*scip.Occurrence{
				occ([]int32{2, 10, 16}, prop, 0), // util.concat(…)
			}},
			{RelativePath: "m.go", Occurrences: []*scip.Occurrence{
				occ([]int32{0, 5, 6}, typ, def),
				occ([]int32{1, 16, 17}, field, def), // type S struct{ T }
				occ([]int32{1, 16, 17}, typ, read),
				occ([]int32{2, 2, 3}, field, read),
			}},
		},
	})
	ix, err := Load(context.Background(), bytes.NewReader(data), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		sym  string
		want []string
	}{
		{fn, []string{"lib/receiver.js:4 local 0", "lib/receiver.js:5 local 0", "lib/user.js:3 " + prop}},
		{typ, nil},
	} {
		s, err := ix.Lookup(tt.sym, "")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range ix.AliasedReferences(s) {
			got = append(got, fmt.Sprintf("%s:%d %s", l.Path, l.StartLine, l.Symbol))
		}
		slices.Sort(got)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("AliasedReferences(%s) (-want +got):\n%s", tt.sym, diff)
		}
	}
}

// lookupIndex is an index holding Go, TypeScript and Python symbols with
// namespaces of every form LookupName reads.
func lookupIndex(t testing.TB) *Index {
	const (
		cobra = "scip-go gomod github.com/spf13/cobra . `github.com/spf13/cobra`/"
		other = "scip-go gomod github.com/other/x v2.0.0 `github.com/other/x/v2`/"
		yaml  = "scip-go gomod gopkg.in/yaml.v3 v3.0.1 `gopkg.in/yaml.v3`/"
		ts    = "scip-typescript npm shapes-ts 1.0.0 src/`shapes.ts`/"
		py    = "scip-python python shapes 0.1.0 `pkg.shapes`/"
	)
	syms := []string{
		cobra + "Command#", cobra + "Command#Find().", cobra + "Command#ExecuteC().",
		other + "Command#Find().", yaml + "Node#",
		ts + "Square#", ts + "total().(xs)", py + "Square#",
	}
	var occs []*scip.Occurrence
	for i, s := range syms {
		occs = append(occs, occ([]int32{int32(i), 0, 1}, s, scip.SymbolRole_Definition))
	}
	data := marshal(t, &scip.Index{
		Metadata:  &scip.Metadata{ToolInfo: &scip.ToolInfo{Name: "scip-go"}},
		Documents: []*scip.Document{{RelativePath: "x.go", Occurrences: occs}},
	})
	ix, err := Load(context.Background(), bytes.NewReader(data), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func TestLookupNameForms(t *testing.T) {
	ix := lookupIndex(t)
	tests := []struct {
		name string
		want []string // qualified names
	}{
		{"ExecuteC", []string{"github.com/spf13/cobra.Command.ExecuteC"}},
		{"Find", []string{"github.com/other/x/v2.Command.Find", "github.com/spf13/cobra.Command.Find"}},
		{"Command.Find", []string{"github.com/other/x/v2.Command.Find", "github.com/spf13/cobra.Command.Find"}},
		{"cobra.Command.Find", []string{"github.com/spf13/cobra.Command.Find"}},
		{"x.Command.Find", []string{"github.com/other/x/v2.Command.Find"}},
		{"v2.Command.Find", []string{"github.com/other/x/v2.Command.Find"}},
		{"github.com/spf13/cobra.Command", []string{"github.com/spf13/cobra.Command"}},
		{"Command", []string{"github.com/spf13/cobra.Command"}},
		{"yaml.Node", []string{"gopkg.in/yaml.v3.Node"}},
		{"shapes.Square", []string{"pkg.shapes.Square", "src/shapes.ts.Square"}},
		{"pkg.shapes.Square", []string{"pkg.shapes.Square"}},
		{"shapes.ts.Square", []string{"src/shapes.ts.Square"}},
		{"cobra.Find", nil}, // a qualifier needs the whole chain
		{"mand.Find", nil},  // names are whole descriptors
		{"xs", nil},         // parameters are never candidates
		{"cobra.Command.", nil},
		{"", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, c := range ix.LookupName(tt.name) {
				got = append(got, c.QualifiedName)
			}
			slices.Sort(got)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("LookupName(%q) (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}

// FuzzLookupName looks arbitrary names up: it never panics, and every
// candidate's descriptor chain ends with the name's last element.
func FuzzLookupName(f *testing.F) {
	for _, s := range []string{"ExecuteC", "Command.Find", "cobra.Command", "github.com/spf13/cobra.Command",
		"x.Command.Find", "yaml.Node", "shapes.Square", "..", ".", "a..b", "/", "`", "Command#Find()."} {
		f.Add(s)
	}
	ix := lookupIndex(f)
	f.Fuzz(func(t *testing.T, name string) {
		last := name[strings.LastIndexByte(name, '.')+1:]
		for _, c := range ix.LookupName(name) {
			if !strings.HasSuffix(c.QualifiedName, "."+last) && c.QualifiedName != last {
				t.Errorf("LookupName(%q) gave %s", name, c.QualifiedName)
			}
		}
	})
}

// Symbols come from index files, which may arrive with the repository:
// parsing one never panics, and one that parses names what it was read from.
func FuzzParseGlobal(f *testing.F) {
	for _, s := range []string{
		"scip-go gomod example.com/m v1.0.0 `example.com/m`/Engine#NewInstantQuery().",
		"scip-typescript npm pkg 1.0.0 src/`a.ts`/Foo#bar().",
		"local 3",
		" ʸ", // panicked in the bindings' parser
		"a b c d ʸ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sym string) {
		g, ok := parseGlobal(sym)
		if ok && (len(g.chain) == 0 || g.chain[len(g.chain)-1] == "") {
			t.Errorf("parseGlobal(%q) = %+v, true: no name", sym, g)
		}
	})
}

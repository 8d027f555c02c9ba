//go:build cgo

package syntax

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/internal/testtool"
)

// TestParseEveryLanguage parses a small definition in each language and
// compares the tree's S-expression, field names included.
func TestParseEveryLanguage(t *testing.T) {
	for _, tc := range []struct {
		lang      Language
		src, want string
	}{
		{Go, "package a\nfunc F() {}\n",
			"(source_file (package_clause (package_identifier)) (function_declaration name: (identifier) parameters: (parameter_list) body: (block)))"},
		{Python, "def f(x):\n    pass\n",
			"(module (function_definition name: (identifier) parameters: (parameters (identifier)) body: (block (pass_statement))))"},
		{JavaScript, "export function f() {}\n",
			"(program (export_statement declaration: (function_declaration name: (identifier) parameters: (formal_parameters) body: (statement_block))))"},
		{TypeScript, "interface I { a: number }\n",
			"(program (interface_declaration name: (type_identifier) body: (interface_body (property_signature name: (property_identifier) type: (type_annotation (predefined_type))))))"},
		{TSX, "const a = <b/>;\n",
			"(program (lexical_declaration (variable_declarator name: (identifier) value: (jsx_self_closing_element name: (identifier)))))"},
		{Rust, "pub struct S;\n",
			"(source_file (struct_item (visibility_modifier) name: (type_identifier)))"},
		{Java, "class A { void m() {} }\n",
			"(program (class_declaration name: (identifier) body: (class_body (method_declaration type: (void_type) name: (identifier) parameters: (formal_parameters) body: (block)))))"},
		{C, "int f(void) { return 0; }\n",
			"(translation_unit (function_definition type: (primitive_type) declarator: (function_declarator declarator: (identifier) parameters: (parameter_list (parameter_declaration type: (primitive_type)))) body: (compound_statement (return_statement (number_literal)))))"},
		{Cpp, "namespace n { class C {}; }\n",
			"(translation_unit (namespace_definition name: (namespace_identifier) body: (declaration_list (class_specifier name: (type_identifier) body: (field_declaration_list)))))"},
		{CSharp, "class C { int F() => 1; }\n",
			"(compilation_unit (class_declaration name: (identifier) body: (declaration_list (method_declaration returns: (predefined_type) name: (identifier) parameters: (parameter_list) body: (arrow_expression_clause (integer_literal))))))"},
		{Ruby, "class A\n  def m; end\nend\n",
			"(program (class name: (constant) body: (body_statement (method name: (identifier)))))"},
		{PHP, "function f() {}\n",
			"(program (function_definition name: (name) parameters: (formal_parameters) body: (compound_statement)))"},
		{Bash, "f() { echo hi; }\n",
			"(program (function_definition name: (word) body: (compound_statement (command name: (command_name (word)) argument: (word)))))"},
		{Kotlin, "fun f() = 1\n",
			"(source_file (function_declaration name: (identifier) (function_value_parameters) (function_body (number_literal))))"},
		{JSON, `{"a": [1]}`,
			"(document (object (pair key: (string (string_content)) value: (array (number)))))"},
	} {
		t.Run(string(tc.lang), func(t *testing.T) {
			tr, err := Parse(tc.lang, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, tr.String()); diff != "" {
				t.Errorf("tree (-want +got):\n%s", diff)
			}
			if tr.HasError() || tr.Language() != tc.lang || tr.Grammar().Language() != tc.lang {
				t.Errorf("HasError %v, Language %q", tr.HasError(), tr.Language())
			}
			checkTree(t, tr)
		})
	}
}

func TestParseUnknownLanguage(t *testing.T) {
	if _, err := Parse("cobol", nil); !errors.Is(err, ErrUnknownLanguage) {
		t.Errorf("Parse = %v, want ErrUnknownLanguage", err)
	}
	if _, err := NewParser("cobol"); !errors.Is(err, ErrUnknownLanguage) {
		t.Errorf("NewParser = %v, want ErrUnknownLanguage", err)
	}
}

// TestNavigation follows one Go method through the navigation methods.
func TestNavigation(t *testing.T) {
	src := "package a\n\n// M does it.\nfunc (r *T) M(x int) error { return nil }\n"
	tr, err := Parse(Go, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var method NodeID
	found := false
	tr.Walk(tr.Root(), func(n NodeID, depth int) bool {
		if tr.Kind(n) == "method_declaration" {
			method, found = n, true
			if depth != 1 {
				t.Errorf("method at depth %d, want 1", depth)
			}
		}
		return !found
	})
	if !found {
		t.Fatal("no method_declaration")
	}
	name, ok := tr.ChildByField(method, "name")
	if !ok || tr.Text(name) != "M" || tr.Field(name) != "name" || tr.Kind(name) != "field_identifier" {
		t.Fatalf("name: %v %q %q %q", ok, tr.Text(name), tr.Field(name), tr.Kind(name))
	}
	recv, ok := tr.ChildByField(method, "receiver")
	if !ok || tr.Text(recv) != "(r *T)" {
		t.Errorf("receiver: %v %q", ok, tr.Text(recv))
	}
	if _, ok := tr.ChildByField(method, "type_parameters"); ok {
		t.Error("a type_parameters field where there is none")
	}
	if _, ok := tr.ChildByField(method, "no such field"); ok {
		t.Error("a field the grammar lacks")
	}
	want := Range{StartLine: 4, StartColumn: 13, EndLine: 4, EndColumn: 14, StartByte: 37, EndByte: 38}
	if diff := cmp.Diff(want, tr.Range(name)); diff != "" {
		t.Errorf("Range (-want +got):\n%s", diff)
	}
	first, _ := tr.FirstChild(method)
	if tr.Kind(first) != "func" || tr.Named(first) || tr.Child(method, 0) != first {
		t.Errorf("first child %q named %v", tr.Kind(first), tr.Named(first))
	}
	if got := tr.Kind(tr.Root()); got != "source_file" {
		t.Errorf("root %q", got)
	}
	if _, ok := tr.NextSibling(tr.Root()); ok {
		t.Error("the root has a sibling")
	}
	if tr.End(method) != NodeID(tr.Len()) {
		t.Errorf("End(method) = %d, want %d", tr.End(method), tr.Len())
	}
	g := tr.Grammar()
	if id, ok := g.FieldID("name"); !ok || g.FieldName(id) != "name" || tr.FieldID(name) != id {
		t.Errorf("FieldID(name) = %d, %v", id, ok)
	}
	ids := g.KindIDs("method_declaration")
	if len(ids) == 0 || g.KindName(ids[0]) != "method_declaration" || !g.KindNamed(ids[0]) {
		t.Errorf("KindIDs(method_declaration) = %v", ids)
	}
	if g.KindName(ErrorKind) != "ERROR" || g.KindName(uint16(g.KindCount())) != "" {
		t.Error("ERROR kind or an id past the table")
	}
	kw := map[string]bool{}
	for _, k := range g.Keywords() {
		kw[k] = true
	}
	if !kw["func"] || !kw["return"] || kw["("] {
		t.Errorf("keywords %v", g.Keywords())
	}
}

// TestBrokenSource: an error leaves ERROR or MISSING nodes, which the
// tree reports, and the tree's invariants hold around them.
func TestBrokenSource(t *testing.T) {
	for _, tc := range []struct {
		lang             Language
		src              string
		isError, missing bool
	}{
		{Go, "package a\nfunc f( {\n", true, false},
		{Go, "package a\nfunc f() { g(1 }\n", false, true},
		{Python, "def f(:\n", false, true},
		{Python, "def f(x):\n  return )\n", true, false},
	} {
		t.Run(tc.src, func(t *testing.T) {
			tr, err := Parse(tc.lang, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if !tr.HasError() {
				t.Fatal("HasError is false")
			}
			var isError, missing bool
			for i := range tr.Len() {
				isError = isError || tr.IsError(NodeID(i))
				missing = missing || tr.IsMissing(NodeID(i))
			}
			if isError != tc.isError || missing != tc.missing {
				t.Errorf("ERROR %v, MISSING %v; want %v, %v", isError, missing, tc.isError, tc.missing)
			}
			checkTree(t, tr)
		})
	}
}

// TestParseSpans: parsing only some declarations, spread over several
// lines and starting mid-line, gives the nodes the whole parse has there.
func TestParseSpans(t *testing.T) {
	src := []byte("package a\n\nfunc A() {\n\treturn\n}\n\nvar x = 1; func B(y int) int {\n\treturn y\n}\n\ntype T struct{ é int }\n")
	whole, err := Parse(Go, src)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewParser(Go)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var decls []Span
	for c, ok := whole.FirstChild(0); ok; c, ok = whole.NextSibling(c) {
		if k := whole.Kind(c); k == "function_declaration" || k == "type_declaration" {
			decls = append(decls, Span{whole.StartByte(c), whole.EndByte(c)})
		}
	}
	if len(decls) != 3 {
		t.Fatalf("%d declarations", len(decls))
	}
	for _, spans := range [][]Span{decls, decls[1:], decls[:1], {decls[1], decls[2]}} {
		part, err := p.ParseSpans(src, spans)
		if err != nil {
			t.Fatal(err)
		}
		checkTree(t, part)
		if diff := cmp.Diff(shapeIn(whole, spans), shapeIn(part, spans)); diff != "" {
			t.Errorf("spans %v (-whole +part):\n%s", spans, diff)
		}
	}
	// Adjacent spans are joined, empty ones allowed.
	if _, err := p.ParseSpans(src, []Span{{0, 10}, {10, 20}, {20, 20}}); err != nil {
		t.Errorf("adjacent spans: %v", err)
	}
	for _, bad := range [][]Span{{{5, 4}}, {{0, 10}, {5, 20}}, {{0, len(src) + 1}}, {{-1, 3}}} {
		if _, err := p.ParseSpans(src, bad); !errors.Is(err, ErrParse) {
			t.Errorf("spans %v: %v, want ErrParse", bad, err)
		}
	}
	// The parser forgets the spans of the parse before.
	again, err := p.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(shapeIn(whole, nil), shapeIn(again, nil)); diff != "" {
		t.Errorf("whole parse after a partial one (-want +got):\n%s", diff)
	}
}

// TestParseSpansInto: one tree filled again and again, by sources that
// grow past its node array and shrink again, with spans, syntax errors
// and another language between, holds each time what ParseSpans gives
// for the same source (line index included), and leaves a tree
// ParseSpans returned before as it was; an error leaves it empty.
func TestParseSpansInto(t *testing.T) {
	small := []byte("package a\n\nfunc A() { f(1) }\n")
	big := []byte("package b\n\n" + strings.Repeat("func B(x int) int {\n\treturn g(x, []int{1, 2})\n}\n", 400))
	broken := []byte("package c\nfunc ( {{ = := ;\n")
	p, err := NewParser(Go)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	kept, err := p.Parse(small)
	if err != nil {
		t.Fatal(err)
	}
	keptShape := shapeIn(kept, nil)
	var into Tree
	for _, in := range []struct {
		src   []byte
		spans []Span
	}{{small, nil}, {big, nil}, {small, nil}, {big, []Span{{0, 9}, {len(big) / 2, len(big)}}}, {broken, nil}, {small, nil}} {
		if err := p.ParseSpansInto(&into, in.src, in.spans); err != nil {
			t.Fatal(err)
		}
		want, err := p.ParseSpans(in.src, in.spans)
		if err != nil {
			t.Fatal(err)
		}
		checkTree(t, &into)
		if diff := cmp.Diff(shapeIn(want, nil), shapeIn(&into, nil)); diff != "" {
			t.Errorf("%d bytes (-ParseSpans +ParseSpansInto):\n%s", len(in.src), diff)
		}
		last := NodeID(into.Len() - 1)
		if into.HasError() != want.HasError() || into.Range(last) != want.Range(last) || &into.Source()[0] != &in.src[0] {
			t.Errorf("%d bytes: broken %v, last node at %+v; ParseSpans: %v, %+v", len(in.src), into.HasError(), into.Range(last), want.HasError(), want.Range(last))
		}
	}
	if diff := cmp.Diff(keptShape, shapeIn(kept, nil)); diff != "" {
		t.Errorf("a tree from ParseSpans changed (-before +after):\n%s", diff)
	}
	if err := p.ParseSpansInto(&into, small, []Span{{5, 4}}); !errors.Is(err, ErrParse) || into.Len() != 0 {
		t.Errorf("bad spans: %v, %d nodes left", err, into.Len())
	}
}

// TestParseFunc: the tree fn is given is the one Parse gives, for sources
// that grow past the pooled parser's scratch and shrink again, with a
// syntax error between; it has no nodes once fn returns, and a tree from
// Parse is left as it was. An unknown language is an error, fn uncalled.
func TestParseFunc(t *testing.T) {
	small := []byte("package a\n\nfunc A() { f(1) }\n")
	big := []byte("package b\n\n" + strings.Repeat("func B(x int) int {\n\treturn g(x, []int{1, 2})\n}\n", 400))
	broken := []byte("package c\nfunc ( {{ = := ;\n")
	kept, err := Parse(Go, small)
	if err != nil {
		t.Fatal(err)
	}
	keptShape := shapeIn(kept, nil)
	for _, src := range [][]byte{small, big, broken, small} {
		want, err := Parse(Go, src)
		if err != nil {
			t.Fatal(err)
		}
		var given *Tree
		err = ParseFunc(Go, src, func(tr *Tree) {
			given = tr
			checkTree(t, tr)
			if diff := cmp.Diff(shapeIn(want, nil), shapeIn(tr, nil)); diff != "" {
				t.Errorf("%d bytes (-Parse +ParseFunc):\n%s", len(src), diff)
			}
			if tr.HasError() != want.HasError() || &tr.Source()[0] != &src[0] {
				t.Errorf("%d bytes: broken %v, want %v; or not the source given", len(src), tr.HasError(), want.HasError())
			}
		})
		if err != nil || given == nil {
			t.Fatalf("%d bytes: %v, tree given %v", len(src), err, given != nil)
		}
		if given.Len() != 0 {
			t.Errorf("%d bytes: %d nodes left once fn returned", len(src), given.Len())
		}
	}
	if diff := cmp.Diff(keptShape, shapeIn(kept, nil)); diff != "" {
		t.Errorf("a tree from Parse changed (-before +after):\n%s", diff)
	}
	called := false
	if err := ParseFunc("cobol", small, func(*Tree) { called = true }); !errors.Is(err, ErrUnknownLanguage) || called {
		t.Errorf("unknown language: %v, fn called %v", err, called)
	}
}

// shapeIn lists the nodes below the root inside one of spans (all of
// them when spans is nil) by range, kind, flags, field and children.
func shapeIn(tr *Tree, spans []Span) []string {
	var out []string
	for i := 1; i < tr.Len(); i++ {
		n := NodeID(i)
		in := spans == nil
		for _, s := range spans {
			in = in || tr.StartByte(n) >= s.Start && tr.EndByte(n) <= s.End
		}
		if in {
			out = append(out, fmt.Sprintf("%d-%d %s %v%v%v %s %d", tr.StartByte(n), tr.EndByte(n), tr.Kind(n),
				tr.Named(n), tr.IsError(n), tr.IsMissing(n), tr.Field(n), tr.ChildCount(n)))
		}
	}
	return out
}

// TestParseRealFiles: the tree invariants hold on standard library files.
func TestParseRealFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testtool.GOROOT(t), "src", "go", "ast", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no sources: %v", err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := Parse(Go, src)
		if err != nil {
			t.Fatal(err)
		}
		checkTree(t, tr)
	}
}

// TestParseConcurrent parses from several goroutines through the pool.
func TestParseConcurrent(t *testing.T) {
	srcs := map[Language]string{Go: "package a\nfunc F() {}\n", Python: "def f(): pass\n", Rust: "fn f() {}\n"}
	want := map[Language]string{}
	for l, s := range srcs {
		tr, err := Parse(l, []byte(s))
		if err != nil {
			t.Fatal(err)
		}
		want[l] = tr.String()
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				l := []Language{Go, Python, Rust}[(w+i)%3]
				tr, err := Parse(l, []byte(srcs[l]))
				if err != nil {
					errs <- err
					return
				}
				if got := tr.String(); got != want[l] {
					errs <- fmt.Errorf("%s: %s, want %s", l, got, want[l])
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestParserClose(t *testing.T) {
	p, err := NewParser(JSON)
	if err != nil {
		t.Fatal(err)
	}
	if p.Language() != JSON {
		t.Errorf("Language %q", p.Language())
	}
	p.Close()
	p.Close() // twice is fine
	if _, err := p.Parse([]byte("{}")); !errors.Is(err, ErrParse) {
		t.Errorf("Parse after Close = %v, want ErrParse", err)
	}
}

// maxFuzzBytes bounds the inputs fuzz targets parse.
const maxFuzzBytes = 4 << 10

// FuzzParse: any bytes parse without a panic into a tree whose
// invariants hold, in a few grammars.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "package a\nfunc f() { g(1 }\n", "def f(:\n  pass", "{\"a\": [1, }", "fn main() { let x = ; }",
		"class A { void m( }", "<?php function f() {", "f() { echo", "\xff\xfe\x00", "é日😀\n\t"} {
		for l := range 4 {
			f.Add(uint8(l), []byte(s))
		}
	}
	langs := []Language{Go, Python, JavaScript, Rust}
	f.Fuzz(func(t *testing.T, l uint8, src []byte) {
		if len(src) > maxFuzzBytes {
			return // tree-sitter's error recovery is slow on long garbage
		}
		tr, err := Parse(langs[int(l)%len(langs)], src)
		if err != nil {
			t.Fatal(err)
		}
		checkTree(t, tr)
	})
}

// checkTree checks a tree's invariants: ids in pre-order, children inside
// their parent and in order, links consistent with End and Walk, every
// node within the source, and ranges that agree with the bytes.
func checkTree(t testing.TB, tr *Tree) {
	t.Helper()
	n := tr.Len()
	if n == 0 {
		t.Fatal("no nodes")
	}
	if tr.End(0) != NodeID(n) {
		t.Fatalf("End(root) = %d, want %d", tr.End(0), n)
	}
	next := NodeID(0)
	tr.Walk(0, func(id NodeID, _ int) bool {
		if id != next {
			t.Fatalf("Walk visits %d, want %d (pre-order)", id, next)
		}
		next++
		return true
	})
	if int(next) != n {
		t.Fatalf("Walk visited %d of %d nodes", next, n)
	}
	src := tr.Source()
	// end[i] is the id past i's subtree, from the children up (they have
	// higher ids), so the check stays linear in the tree.
	end := make([]NodeID, n)
	var kids []NodeID
	for i := n - 1; i >= 0; i-- {
		kids = tr.AppendChildren(kids[:0], NodeID(i))
		if len(kids) == 0 {
			end[i] = NodeID(i + 1)
		} else {
			end[i] = end[kids[len(kids)-1]]
		}
		if i < 3 || i%97 == 0 {
			if got := tr.End(NodeID(i)); got != end[i] {
				t.Fatalf("End(%d) = %d, want %d", i, got, end[i])
			}
		}
	}
	for i := range n {
		id := NodeID(i)
		s, e := tr.StartByte(id), tr.EndByte(id)
		if s < 0 || s > e || e > len(src) {
			t.Fatalf("node %d spans [%d, %d) of %d bytes", id, s, e, len(src))
		}
		if r := tr.Range(id); r.Validate() != nil || r.StartByte != s || r.EndByte != e {
			t.Fatalf("node %d: range %+v", id, r)
		}
		if tr.Text(id) != string(src[s:e]) {
			t.Fatalf("node %d: text", id)
		}
		if f := tr.FieldID(id); f != 0 && tr.Grammar().FieldName(f) == "" {
			t.Fatalf("node %d: field id %d has no name", id, f)
		}
		kids = tr.AppendChildren(kids[:0], id)
		if len(kids) != tr.ChildCount(id) {
			t.Fatalf("node %d: %d children, count %d", id, len(kids), tr.ChildCount(id))
		}
		at := s
		for k, c := range kids {
			if k == 0 && c != id+1 || k > 0 && c != end[kids[k-1]] {
				t.Fatalf("node %d: child %d is %d, not in pre-order", id, k, c)
			}
			if tr.StartByte(c) < at || tr.EndByte(c) > e {
				t.Fatalf("node %d [%d, %d): child %d [%d, %d) out of order or outside", id, s, e, c, tr.StartByte(c), tr.EndByte(c))
			}
			at = tr.EndByte(c)
			if (k < 2 || k == len(kids)-1) && tr.Child(id, k) != c {
				t.Fatalf("Child(%d, %d) = %d, want %d", id, k, tr.Child(id, k), c)
			}
		}
	}
}

// TestParseOverflowSame: a source with more nodes than a fresh parser's
// first guess (a third of its bytes) comes out the same from that parser,
// which walks the tree again into memory of its size, as from a parser
// whose node array is already large enough.
func TestParseOverflowSame(t *testing.T) {
	dense := []byte("package a\n\nvar x = []int{" + strings.Repeat("1,2,", 3000) + "}\n")
	big := []byte("package b\n\nvar y = []int{" + strings.Repeat("3,", 20000) + "}\n")
	fresh, err := NewParser(Go)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	grown, err := NewParser(Go)
	if err != nil {
		t.Fatal(err)
	}
	defer grown.Close()
	if _, err := grown.Parse(big); err != nil {
		t.Fatal(err)
	}
	want, err := grown.Parse(dense)
	if err != nil {
		t.Fatal(err)
	}
	got, err := fresh.Parse(dense)
	if err != nil {
		t.Fatal(err)
	}
	if got.Len() <= len(dense)/3+64 {
		t.Fatalf("%d nodes for %d bytes: not past the first guess", got.Len(), len(dense))
	}
	if diff := cmp.Diff(shapeIn(want, nil), shapeIn(got, nil)); diff != "" {
		t.Errorf("(-large enough +grown on the way):\n%s", diff)
	}
}

//go:build cgo

package structural

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/internal/testtool"
)

// goStmtMatches renders matches as "line:col-line:col text | NAME=text@line:col-line:col ...".
func goStmtMatches(ms []Match) []string {
	var out []string
	for _, m := range ms {
		r := m.Range
		s := fmt.Sprintf("%d:%d-%d:%d %s", r.StartLine, r.StartColumn, r.EndLine, r.EndColumn, m.Text)
		for _, c := range m.Captures {
			cr := Range{}
			if len(c.Nodes) > 0 {
				cr = c.Nodes[0].Range
				cr.EndLine, cr.EndColumn = c.Nodes[len(c.Nodes)-1].Range.EndLine, c.Nodes[len(c.Nodes)-1].Range.EndColumn
			}
			s += fmt.Sprintf(" | %s=%s@%d:%d-%d:%d", c.Name, c.Text, cr.StartLine, cr.StartColumn, cr.EndLine, cr.EndColumn)
		}
		out = append(out, s)
	}
	return out
}

// TestGoStatementPatterns: Go patterns in the shapes people write most,
// which tree-sitter-go reads differently at the top of a file (a.B(x) as
// a type conversion) and which Compile therefore reads in a function
// body. Columns are one-based code points (the fixture has é, π, ü, ï).
func TestGoStatementPatterns(t *testing.T) {
	tests := []struct {
		pattern string
		kind    string // the compiled pattern's root
		want    []string
	}{
		{"fmt.Println($X)", "call_expression", []string{
			`11:2-11:22 fmt.Println("héllo") | X="héllo"@11:14-11:21`,
		}},
		{"$F.Println($$$A)", "call_expression", []string{
			`11:2-11:22 fmt.Println("héllo") | A="héllo"@11:14-11:21 | F=fmt@11:2-11:5`,
			`12:2-12:23 fmt.Println("a", "b") | A="a", "b"@12:14-12:22 | F=fmt@12:2-12:5`,
		}},
		{"pkg.Func($A, $B)", "call_expression", []string{
			`14:7-14:23 pkg.Func("π", 2) | A="π"@14:16-14:19 | B=2@14:21-14:22`,
		}},
		{"errors.Is($E, context.Canceled)", "call_expression", []string{
			`23:5-23:37 errors.Is(err, context.Canceled) | E=err@23:15-23:18`,
		}},
		{"x := $Y", "short_var_declaration", []string{
			`14:2-14:23 x := pkg.Func("π", 2) | Y=pkg.Func("π", 2)@14:7-14:23`,
		}},
		{"return $X, nil", "return_statement", []string{
			`24:3-24:16 return x, nil | X=x@24:10-24:11`,
			`27:2-27:15 return y, nil | X=y@27:9-27:10`,
		}},
		{"if err != nil { return $$$ }", "if_statement", []string{
			"17:2-19:3 if err != nil {\n\t\treturn 0, err\n\t}",
		}},
		{"defer $F.Close()", "defer_statement", []string{
			`20:2-20:17 defer f.Close() | F=f@20:8-20:9`,
		}},
		// A type or a selector expression: both readings match.
		{"strings.Builder", "selector_expression", []string{
			`32:7-32:22 strings.Builder`,
			`35:48-35:63 strings.Builder`,
		}},
		{"$A.buf", "selector_expression", []string{
			`35:36-35:41 a.buf | A=a@35:36-35:37`,
		}},
		{"go $F($$$)", "go_statement", []string{
			`21:2-21:19 go worker(ctx, x) | F=worker@21:5-21:11`,
			`22:2-22:16 go func() {}() | F=func() {}@22:5-22:14`,
		}},
	}
	e := NewBuiltin(BuiltinOptions{})
	for _, tc := range tests {
		t.Run(tc.pattern, func(t *testing.T) {
			p, err := Compile(tc.pattern, Go)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.g.name(p.root.sym); got != tc.kind {
				t.Errorf("pattern root = %s, want %s", got, tc.kind)
			}
			res, err := e.Search(context.Background(), Request{Root: "testdata/gostmt", Pattern: tc.pattern, Language: Go})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, goStmtMatches(res.Matches)); diff != "" {
				t.Errorf("matches (-want +got):\n%s", diff)
			}
			for _, m := range res.Matches {
				if err := m.Validate(); err != nil {
					t.Errorf("invalid match: %v", err)
				}
			}
		})
	}
}

// TestGoPatternReadings pins which reading each kind of Go pattern gets:
// the function-body one where it parses cleanly, the top-level one for
// what only exists at the top (declarations of functions, methods,
// imports), and an error, with its offset in the pattern as written, when
// neither parses.
func TestGoPatternReadings(t *testing.T) {
	tests := []struct {
		pattern string
		kind    string         // the compiled root, when valid
		problem PatternProblem // when invalid
		offset  int
	}{
		{pattern: "a.B(c)", kind: "call_expression"},
		{pattern: "$X.Lock()", kind: "call_expression"},
		{pattern: "[]int($X)", kind: "type_conversion_expression"},  // a conversion in a body too
		{pattern: "$F[$T]($X)", kind: "type_conversion_expression"}, // as tree-sitter-go reads generic calls in bodies
		{pattern: "<-$CH", kind: "unary_expression"},                // does not parse at the top level
		{pattern: "func $F($$$) { $$$ }", kind: "function_declaration"},
		{pattern: "func ($R $T) $M($$$P) error { $$$ }", kind: "method_declaration"},
		{pattern: "import ($$$SPECS)", kind: "import_declaration"},
		{pattern: "type $T struct { $$$F }", kind: "type_declaration"},
		{pattern: "switch $X { $$$ }", kind: "expression_switch_statement"},
		{pattern: "  fmt.Println($X)\n", kind: "call_expression"},
		{pattern: "x := 1; y := 2", problem: ProblemMultiple, offset: 6}, // the top level's answer: at the first ";"
		// Neither reading parses: the function body's error is reported,
		// at its place in the pattern as written ($ is one byte, its
		// stand-in µ two; the top level's ERROR wraps it all at byte 0).
		{pattern: "fmt.Println($X", problem: ProblemMissing, offset: 14},
		{pattern: "return $X, nil)", problem: ProblemSyntax, offset: 14},
		{pattern: "µ := $Y +", problem: ProblemSyntax, offset: 9},
		{pattern: "$$$", problem: ProblemBareMulti, offset: 0},
		{pattern: "case $X: $$$", problem: ProblemSyntax, offset: 0},
	}
	for _, tc := range tests {
		t.Run(tc.pattern, func(t *testing.T) {
			p, err := Compile(tc.pattern, Go)
			if tc.problem == "" {
				if err != nil {
					t.Fatal(err)
				}
				if got := p.g.name(p.root.sym); got != tc.kind {
					t.Errorf("pattern root = %s, want %s", got, tc.kind)
				}
				return
			}
			var pe *PatternError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a *PatternError", err)
			}
			if diff := cmp.Diff([]any{tc.problem, tc.offset}, []any{pe.Problem, pe.Offset}); diff != "" {
				t.Errorf("problem, offset (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMetaVarErrorOnlyAmongItems: an ERROR node whose text is a
// metavariable is accepted where it stands for bracketed items, and not
// where it displaces a required part.
func TestMetaVarErrorOnlyAmongItems(t *testing.T) {
	_, ps := goParser(t)
	for _, tc := range []struct {
		src    string
		broken bool
	}{
		// In a body, a named func reads as a literal whose name is an ERROR.
		{"func _() {\nfunc µF(µµµ) { µµµ }\n}", true},
		{"func _() {\nswitch µX { µµµ }\n}", false},
		{"import (µµµSPECS)", false},
		{"func _() {\nfunc µF() {}\n}", true},
	} {
		tr, ok := ps.parse([]byte(tc.src), nil, nil)
		if !ok {
			t.Fatal("parse failed")
		}
		if _, got := tr.firstBroken(0, expando(Go)); got != tc.broken {
			t.Errorf("%q: broken = %v, want %v", tc.src, got, tc.broken)
		}
	}
}

// TestStatementContextMeasured: every one-line statement of Go's strings
// and encoding/json packages (with their tests: 2829 distinct ones), used
// as a pattern, finds itself. Read at the top of a file instead, as
// before, 291 of them failed: calls such as b.grow(n), which
// tree-sitter-go reads there as type conversions, found nothing.
func TestStatementContextMeasured(t *testing.T) {
	var files []string
	for _, pkg := range []string{"strings", "encoding/json"} {
		fs, err := filepath.Glob(filepath.Join(testtool.GOROOT(t), "src", pkg, "*.go"))
		if err != nil || len(fs) == 0 {
			t.Fatalf("no Go sources for %s: %v", pkg, err)
		}
		files = append(files, fs...)
	}
	tried, failed := 0, 0
	eachOneLineStatement(t, files, func(f string, tr *tree, c nodeID, text string) {
		tried++
		p, err := Compile(text, Go)
		if err != nil {
			failed++
			t.Errorf("%s: Compile(%q): %v", filepath.Base(f), text, err)
			return
		}
		var m matcher
		found := false
		for _, got := range searchTree(&m, p, tr, "f", 1<<20, new(matchScratch)) {
			found = found || got.Range.StartByte == tr.StartByte(c)
		}
		if !found {
			failed++
			t.Errorf("%s: pattern %q does not find itself", filepath.Base(f), text)
		}
	})
	if tried < 1000 {
		t.Errorf("only %d statements tried", tried)
	}
	t.Logf("%d one-line statements, %d failed", tried, failed)
}

// eachOneLineStatement calls fn with every distinct statement of files
// that fits on one line (comments aside), in file order.
func eachOneLineStatement(t *testing.T, files []string, fn func(file string, tr *tree, node nodeID, text string)) {
	t.Helper()
	g, ps := goParser(t)
	seen := map[string]bool{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tr, ok := ps.parse(src, nil, nil)
		if !ok {
			t.Fatalf("%s: parse failed", f)
		}
		for i := range tr.Len() {
			if tr.Kind(nodeID(i)) != "statement_list" {
				continue
			}
			for _, c := range tr.appendKids(nil, nodeID(i)) {
				text := tr.text(c)
				if !tr.named(c) || g.isComment(tr.KindID(c)) || strings.Contains(text, "\n") || seen[text] {
					continue
				}
				seen[text] = true
				fn(f, tr, c, text)
			}
		}
	}
}

// goParser returns Go's grammar and a parser closed with the test.
func goParser(t *testing.T) (*grammar, *parser) {
	t.Helper()
	g, _ := grammarOf(Go)
	ps, err := newParser(g)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ps.Close)
	return g, ps
}

//go:build cgo

package structural

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCheckTemplate(t *testing.T) {
	tests := []struct {
		pattern, template string
		wantVar           string // "" means valid
		wantOffset        int
	}{
		{"old_api($X)", "new_api($X)", "", 0},
		{"old_api($$$ARGS)", "new_api(ctx, $$$ARGS)", "", 0},
		{"old_api($$$ARGS)", "new_api($ARGS)", "", 0}, // any sigils name the capture
		{"f($A, $B)", "g($B, $A, $A)", "", 0},
		{"old_api($X)", "new_api($Y)", "Y", 8},
		{"f($A)", "g($A, $B)", "B", 6},
		{"f($_X)", "g($_X)", "_X", 2}, // anonymous: captures nothing
		{"f($$$)", "g($$$)", "", 0},   // a bare $$$ is literal text in a template
		{"f($X)", "`$${x}`", "", 0},   // a $ that no name follows is literal
		{"f($X)", "g(\n  $$$REST)", "REST", 5},
	}
	for _, tc := range tests {
		t.Run(tc.pattern+"→"+tc.template, func(t *testing.T) {
			err := CheckTemplate(tc.pattern, tc.template)
			if tc.wantVar == "" {
				if err != nil {
					t.Fatalf("CheckTemplate: %v", err)
				}
				return
			}
			var te *TemplateError
			if !errors.As(err, &te) || !errors.Is(err, ErrTemplate) {
				t.Fatalf("CheckTemplate error = %v, want a *TemplateError", err)
			}
			got := [3]any{te.Problem, te.Var, te.Offset}
			if diff := cmp.Diff([3]any{TemplateUnbound, tc.wantVar, tc.wantOffset}, got); diff != "" {
				t.Errorf("problem, var, offset (-want +got):\n%s\n%v", diff, err)
			}
		})
	}
}

// TestCheckEdits rewrites real files with valid and broken templates in
// several languages: a broken one is refused with the file and position
// of the first syntax error it introduced; syntax errors the file
// already had do not count.
func TestCheckEdits(t *testing.T) {
	tests := []struct {
		name, file, src, pattern string
		lang                     Language
		template                 string
		wantLine, wantCol        int // 0: valid
	}{
		{name: "go valid", file: "a.go", lang: Go,
			src:     "package a\n\nfunc f() {\n\toldAPI(1)\n}\n",
			pattern: "oldAPI($X)", template: "newAPI($X)"},
		{name: "go unclosed call (the issue's case)", file: "a.go", lang: Go,
			src:     "package a\n\nfunc f() {\n\toldAPI(1)\n}\n",
			pattern: "oldAPI($X)", template: "newAPI($X", wantLine: 4},
		{name: "python valid", file: "a.py", lang: Python,
			src:     "x = old_api(1)\n",
			pattern: "old_api($X)", template: "new_api($X, 2)"},
		{name: "python unclosed call", file: "a.py", lang: Python,
			src:     "x = old_api(1)\ny = 2\n",
			pattern: "old_api($X)", template: "new_api($X", wantLine: 1},
		{name: "python statement where an expression belongs", file: "a.py", lang: Python,
			src:     "x = old_api(1)\n",
			pattern: "old_api($X)", template: "if $X:\n    go()", wantLine: 1},
		{name: "python error elsewhere is not the rewrite's", file: "a.py", lang: Python,
			src:     "def broken(:\n    pass\n\nold_api(1)\n",
			pattern: "old_api($X)", template: "new_api($X)"},
		{name: "python error after a growing edit", file: "a.py", lang: Python,
			src:     "old_api(1)\n\ndef broken(:\n    pass\n",
			pattern: "old_api($X)", template: "a_much_longer_new_api($X, $X)"},
		{name: "python error elsewhere, broken template", file: "a.py", lang: Python,
			src:     "def broken(:\n    pass\n\nold_api(1)\n",
			pattern: "old_api($X)", template: "new_api(($X)", wantLine: 4},
		{name: "javascript valid", file: "a.js", lang: JavaScript,
			src:     "foo(1);\nfoo(2);\n",
			pattern: "foo($X)", template: "bar($X)"},
		{name: "javascript extra parenthesis", file: "a.js", lang: JavaScript,
			src:     "foo(1);\nfoo(2);\n",
			pattern: "foo($X)", template: "bar($X))", wantLine: 1},
		{name: "javascript broken operand inside the call", file: "a.js", lang: JavaScript,
			src:     "foo(1);\n",
			pattern: "foo($X)", template: "bar($X +)", wantLine: 1},
		{name: "javascript error inside the match is kept, not introduced", file: "a.js", lang: JavaScript,
			src:     "foo(1 +);\nfoo(2);\n",
			pattern: "foo($$$X)", template: "bar($$$X)"},
		{name: "rust valid", file: "a.rs", lang: Rust,
			src:     "fn f() { let y = double(x); }\n",
			pattern: "double($X)", template: "$X + $X"},
		{name: "rust operand missing", file: "a.rs", lang: Rust,
			src:     "fn f() { let y = double(x); }\n",
			pattern: "double($X)", template: "$X +", wantLine: 1},
		{name: "java unterminated string", file: "A.java", lang: Java,
			src:     "class A {\n  void f() {\n    old(1);\n  }\n}\n",
			pattern: "old($X)", template: "neu(\"$X)", wantLine: 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, tc.file), []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := NewBuiltin(BuiltinOptions{}).Search(context.Background(), Request{Root: dir, Pattern: tc.pattern, Language: tc.lang})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Matches) == 0 {
				t.Fatal("no match to rewrite")
			}
			edits, err := Rewrite(res.Matches, tc.template)
			if err != nil {
				t.Fatal(err)
			}
			err = CheckEdits(context.Background(), dir, edits, tc.template)
			if tc.wantLine == 0 {
				if err != nil {
					t.Fatalf("CheckEdits: %v", err)
				}
				return
			}
			var te *TemplateError
			if !errors.As(err, &te) || te.Problem != TemplateSyntax {
				t.Fatalf("CheckEdits error = %v, want a syntax TemplateError", err)
			}
			if te.Path != tc.file || te.Line != tc.wantLine || te.Column < 1 {
				t.Errorf("error at %s:%d:%d, want %s:%d: %v", te.Path, te.Line, te.Column, tc.file, tc.wantLine, err)
			}
			if !strings.Contains(err.Error(), tc.file) {
				t.Errorf("the message does not name the file: %v", err)
			}
		})
	}
}

func TestCheckEditsStale(t *testing.T) {
	root := projectWith(t, map[string]string{"a.go": "package a\nvar x = f(1)\n"})
	e := Edit{Path: "a.go", StartByte: 18, EndByte: 22, Old: "f(2)", New: "g(2)"}
	if err := CheckEdits(context.Background(), root, []Edit{e}, "g($X)"); !errors.Is(err, ErrStaleEdit) {
		t.Fatalf("CheckEdits = %v, want ErrStaleEdit", err)
	}
}

// TestTemplateErrorQuotesOddFileNames: a file name with an escape
// sequence or a line break reaches a message quoted, never raw.
func TestTemplateErrorQuotesOddFileNames(t *testing.T) {
	name := "a\x1b[31m\n.py"
	root := projectWith(t, map[string]string{name: "x = old_api(1)\n"})
	res, err := NewBuiltin(BuiltinOptions{}).Search(context.Background(), Request{Root: root, Pattern: "old_api($X)", Language: Python})
	if err != nil || len(res.Matches) != 1 {
		t.Fatalf("search: %v, %d matches", err, len(res.Matches))
	}
	edits, err := Rewrite(res.Matches, "new_api($X")
	if err != nil {
		t.Fatal(err)
	}
	msgs := []string{(&TemplateError{Template: "t", Problem: TemplateSyntax, Offset: -1, Path: name, Line: 1, Column: 5, Reason: "r"}).Error()}
	if err := CheckEdits(context.Background(), root, edits, "new_api($X"); err == nil {
		t.Error("CheckEdits let the edit through")
	} else {
		msgs = append(msgs, err.Error())
	}
	if _, err := ApplyEdits(nil, edits); err != nil {
		msgs = append(msgs, err.Error())
	}
	for _, msg := range msgs {
		if strings.ContainsAny(msg, "\x1b\n") {
			t.Errorf("message %q carries the name raw", msg)
		}
	}
}

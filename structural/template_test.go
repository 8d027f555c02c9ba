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

// rewriteFile searches one file with pattern and applies template to
// every outermost match.
func rewriteFile(t *testing.T, name, src, pattern string, lang Language, template string) (string, []Edit) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := NewBuiltin(BuiltinOptions{}).Search(context.Background(), Request{Root: dir, Pattern: pattern, Language: lang})
	if err != nil {
		t.Fatal(err)
	}
	edits, err := Rewrite(res.Matches, template)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckEdits(context.Background(), dir, edits, template); err != nil {
		t.Fatalf("a valid rewrite was refused: %v", err)
	}
	out, err := ApplyEdits([]byte(src), edits)
	if err != nil {
		t.Fatal(err)
	}
	return string(out), edits
}

func TestRewrite(t *testing.T) {
	tests := []struct {
		name, file, src, pattern string
		lang                     Language
		template, want           string
	}{
		{
			name: "single capture", file: "a.py", lang: Python,
			src:     "x = old_api(1)\n",
			pattern: "old_api($X)", template: "new_api($X)",
			want: "x = new_api(1)\n",
		},
		{
			name: "multi capture keeps separators", file: "a.py", lang: Python,
			src:     "old_api(1,  2 ,3)\n",
			pattern: "old_api($$$ARGS)", template: "new_api(ctx, $$$ARGS)",
			want: "new_api(ctx, 1,  2 ,3)\n",
		},
		{
			name: "empty multi capture", file: "a.js", lang: JavaScript,
			src:     "f();\n",
			pattern: "f($$$A)", template: "g($$$A)",
			want: "g();\n",
		},
		{
			name: "multi-line template indented with tabs", file: "a.go", lang: Go,
			src:     "package p\n\nfunc f() {\n\tif ok {\n\t\tlog(1, 2)\n\t}\n}\n",
			pattern: "log($A, $B)", template: "if $A > 0 {\n\tlog($B)\n}",
			want: "package p\n\nfunc f() {\n\tif ok {\n\t\tif 1 > 0 {\n\t\t\tlog(2)\n\t\t}\n\t}\n}\n",
		},
		{
			name: "multi-line capture re-indented with spaces", file: "a.py", lang: Python,
			src:     "def f():\n    if ok:\n        run(\n            a,\n            b)\n",
			pattern: "run($$$ARGS)", template: "with ctx:\n    go(\n        $$$ARGS)",
			want: "def f():\n    if ok:\n        with ctx:\n            go(\n                a,\n                b)\n",
		},
		{
			name: "nested matches rewrite the outermost", file: "a.js", lang: JavaScript,
			src:     "wrap(wrap(1));\n",
			pattern: "wrap($X)", template: "unwrap($X)",
			want: "unwrap(wrap(1));\n",
		},
		{
			name: "repeated reference", file: "a.rs", lang: Rust,
			src:     "fn f() { let y = double(x); }\n",
			pattern: "double($X)", template: "$X + $X",
			want: "fn f() { let y = x + x; }\n",
		},
		{
			// The match's line is cut for display; the indentation of a
			// multi-line replacement still comes from the whole line.
			name: "multi-line template on a long indented line", file: "a.go", lang: Go,
			src:     "package p\n\nfunc f() {\n\t\t" + strings.Repeat("x();", 200) + "log(1, 2)\n}\n",
			pattern: "log($A, $B)", template: "if $A > 0 {\n\tlog($B)\n}",
			want: "package p\n\nfunc f() {\n\t\t" + strings.Repeat("x();", 200) + "if 1 > 0 {\n\t\t\tlog(2)\n\t\t}\n}\n",
		},
		{
			name: "dollar without a name is literal", file: "a.js", lang: JavaScript,
			src:     "price(3);\n",
			pattern: "price($N)", template: "`$${$N}`",
			want: "`$${3}`;\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := rewriteFile(t, tc.file, tc.src, tc.pattern, tc.lang, tc.template)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("rewrite (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRewriteUnknownCapture(t *testing.T) {
	m := Match{Path: "a.go", Text: "f(1)", Range: Range{StartLine: 1, StartColumn: 1, EndLine: 1, EndColumn: 5, EndByte: 4}}
	_, err := Rewrite([]Match{m}, "g($Y)")
	var te *TemplateError
	if !errors.As(err, &te) || !errors.Is(err, ErrTemplate) || te.Var != "Y" || te.Problem != TemplateUnbound || te.Offset != 2 {
		t.Fatalf("Rewrite error = %v, want a TemplateError for Y at byte 2", err)
	}
}

func TestApplyEditsRejectsStaleAndOverlap(t *testing.T) {
	src := []byte("abcdef")
	if _, err := ApplyEdits(src, []Edit{{StartByte: 1, EndByte: 3, Old: "xx", New: "y"}}); !errors.Is(err, ErrStaleEdit) {
		t.Errorf("stale edit: err = %v", err)
	}
	overlap := []Edit{{StartByte: 1, EndByte: 3, Old: "bc"}, {StartByte: 2, EndByte: 4, Old: "cd"}}
	if _, err := ApplyEdits(src, overlap); !errors.Is(err, ErrStaleEdit) {
		t.Errorf("overlapping edits: err = %v", err)
	}
}

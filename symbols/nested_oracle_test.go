//go:build cgo

package symbols

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
)

// nestedOracleRules name, for ast-grep, every function of a language
// wherever it is declared: in a function's body, an anonymous class, an
// enum constant's body, a block, a type literal. Each matches the name
// node.
var nestedOracleRules = map[string]string{
	"rust": `
id: fn
language: rust
rule: {kind: identifier, inside: {field: name, any: [{kind: function_item}, {kind: function_signature_item}]}}
`,
	"java": `
id: method
language: java
rule: {kind: identifier, inside: {field: name, kind: method_declaration}}
`,
	"ruby": `
id: def
language: ruby
rule:
  any:
    - {kind: identifier, inside: {field: name, any: [{kind: method}, {kind: singleton_method}]}}
    - {kind: constant, inside: {field: name, any: [{kind: class}, {kind: module}]}}
`,
	"typescript": `
id: method
language: typescript
rule: {kind: property_identifier, inside: {field: name, kind: method_signature}}
`,
}

// TestNestedOracleAstGrep: every function ast-grep finds by its syntax
// alone, nested ones included, is a symbol at the same name, on the
// fixtures of TestNestedDefinitions and on real code the module cache
// holds (the grammars' examples, the structural oracle's fixtures).
func TestNestedOracleAstGrep(t *testing.T) {
	sg := testtool.Require(t, "ast-grep", "bash .ci/install-structural.sh (npm install @ast-grep/cli@0.51.1)")
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	mod := filepath.Join(strings.TrimSpace(string(out)), "github.com", "tree-sitter")
	files := map[string][]string{
		"rust": {"../structural/testdata/oracle/fixture.rs", "testdata/rust/cart.rs",
			filepath.Join(mod, "tree-sitter-rust@v0.24.1/examples/ast.rs"),
			filepath.Join(mod, "tree-sitter-rust@v0.24.1/examples/weird-exprs.rs")},
		"java":       {"../structural/testdata/oracle/Fixture.java", "testdata/java/Cart.java"},
		"ruby":       {"../structural/testdata/oracle/fixture.rb", "testdata/ruby/cart.rb"},
		"typescript": {"../structural/testdata/oracle/fixture.ts", "testdata/typescript/cart.ts", filepath.Join(mod, "tree-sitter-typescript@v0.23.2/examples/parser.ts")},
	}
	ext := map[string]string{"rust": ".rs", "java": ".java", "ruby": ".rb", "typescript": ".ts"}
	for lang, srcs := range files {
		t.Run(lang, func(t *testing.T) {
			dir := t.TempDir()
			for i, s := range srcs {
				b, err := os.ReadFile(s)
				if err != nil {
					t.Skipf("%v (the module cache holds the grammars once the module is built)", err)
				}
				name := fmt.Sprintf("f%d%s", i, ext[lang])
				if lang == "java" {
					name = strings.TrimSuffix(filepath.Base(s), ".java") + fmt.Sprint(i) + ".java"
				}
				if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, c := range nestedCases {
				if strings.HasSuffix(c.path, ext[lang]) {
					if err := os.WriteFile(filepath.Join(dir, "nested_"+c.path), []byte(c.src), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			theirs := astGrepNames(t, sg, dir, nestedOracleRules[lang])
			n := 0
			for _, offs := range theirs {
				n += len(offs)
			}
			if n < 5 {
				t.Fatalf("ast-grep found %d functions; the case proves little", n)
			}
			for path, offsets := range theirs {
				src, err := os.ReadFile(filepath.Join(dir, path))
				if err != nil {
					t.Fatal(err)
				}
				f, err := Extract(path, src)
				if err != nil {
					t.Fatal(err)
				}
				ours := map[int]bool{}
				for _, s := range f.Symbols {
					ours[s.NameRange.StartByte] = true
				}
				for _, off := range offsets {
					if !ours[off] {
						line := bytes.Count(src[:off], []byte("\n")) + 1
						t.Errorf("%s:%d: ast-grep's function %q is no symbol", path, line, src[off:off+bytes.IndexAny(src[off:], "(<: \n")])
					}
				}
			}
		})
	}
}

// astGrepNames runs the rules over dir and returns the byte offsets of the
// matches, by file.
func astGrepNames(t *testing.T, sg, dir, rules string) map[string][]int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := safeexec.Run(ctx, safeexec.Invocation{
		Path: sg, Args: []string{"scan", "--inline-rules", rules, "--json=compact", "."},
		Dir: dir, Env: safeexec.Environ("PATH", "HOME"),
	})
	if err != nil {
		t.Fatalf("ast-grep: %v: %s", err, res.Stderr)
	}
	var ms []struct {
		File  string `json:"file"`
		Range struct {
			ByteOffset struct {
				Start int `json:"start"`
			} `json:"byteOffset"`
		} `json:"range"`
	}
	if err := json.Unmarshal(res.Stdout, &ms); err != nil {
		t.Fatalf("ast-grep's output: %v", err)
	}
	out := map[string][]int{}
	for _, m := range ms {
		out[m.File] = append(out[m.File], m.Range.ByteOffset.Start)
	}
	return out
}

//go:build cgo

package structural

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
)

// oracleCorpus copies the fixtures and real code that the Go toolchain
// and the module cache already hold (Go's own sources, the grammar
// modules' examples) into one directory, so that both engines see the same
// files under the same names.
var oracleCorpus = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "structural-oracle-")
	if err != nil {
		return "", err
	}
	goroot := runtime.GOROOT()
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return "", err
	}
	mod := filepath.Join(strings.TrimSpace(string(out)), "github.com", "tree-sitter")
	sources := []string{
		"testdata/oracle/fixture.go", "testdata/oracle/fixture.py", "testdata/oracle/Fixture.java",
		"testdata/oracle/fixture.rs", "testdata/oracle/fixture.ts", "testdata/oracle/fixture.tsx",
		"testdata/oracle/fixture.js",
		filepath.Join(goroot, "src/strings/builder.go"),
		filepath.Join(goroot, "src/strings/strings.go"),
		filepath.Join(goroot, "src/encoding/json/decode.go"),
		filepath.Join(goroot, "src/sync/mutex.go"),
		filepath.Join(goroot, "src/runtime/runtime-gdb.py"),
		filepath.Join(goroot, "lib/wasm/wasm_exec.js"),
		filepath.Join(mod, "tree-sitter-go@v0.25.0/examples/proc.go"),
		filepath.Join(mod, "tree-sitter-javascript@v0.25.0/examples/jquery.js"),
		filepath.Join(mod, "tree-sitter-python@v0.25.0/examples/python3.8_grammar.py"),
		filepath.Join(mod, "tree-sitter-rust@v0.24.1/examples/ast.rs"),
		filepath.Join(mod, "tree-sitter-rust@v0.24.1/examples/weird-exprs.rs"),
		filepath.Join(mod, "tree-sitter-typescript@v0.23.2/examples/parser.ts"),
		filepath.Join(mod, "tree-sitter-typescript@v0.23.2/common/define-grammar.js"),
	}
	for i, s := range sources {
		b, err := os.ReadFile(s)
		if err != nil {
			return "", err
		}
		name := fmt.Sprintf("c%02d_%s", i, filepath.Base(s))
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
})

type oracleCase struct {
	lang    Language
	pattern string
}

// oracleCases: variadics, repeated metavariables, method calls on
// metavariable receivers, imports, decorators and annotations, JSX, and
// patterns that match nothing.
var oracleCases = []oracleCase{
	{Go, "fmt.Errorf($F, $$$ARGS)"},
	{Go, "$S.items[$K] = $V"},
	{Go, "$X.Lock()"},
	{Go, "defer $M.Unlock()"},
	{Go, "if err != nil { return $$$R }"},
	{Go, "$A == $A"},
	{Go, "append($S, $$$)"},
	{Go, "append($S, $$$REST, 3)"},
	{Go, "for $I, $V := range $X { $$$BODY }"},
	{Go, "func ($R $T) $NAME($$$P) error { $$$ }"},
	{Go, "len($A) == 0"},
	{Go, "make(map[$K]$V)"},
	{Go, "return nil, $E"},
	{Go, "$A, $B := $C, $D"},
	{Go, "Index($S, $T)"},
	{Go, "import ($$$SPECS)"},
	{Go, "$$X"},
	{Go, "nonexistentFunctionZZ($A)"},
	{Python, "print($$$ARGS)"},
	{Python, "self.$ATTR = $VAL"},
	{Python, "import $M"},
	{Python, "from $M import $$$NAMES"},
	{Python, "$A == $A"},
	{Python, "[$E for $X in $Y]"},
	{Python, "lambda $$$A: $B"},
	{Python, "@$DEC\ndef $F($$$P):\n    $$$B"},
	{Python, "def $F(self, $$$P):\n    $$$B"},
	{Python, "len($X)"},
	{Python, "nonexistent_zz($X)"},
	{JavaScript, "console.log($$$)"},
	{JavaScript, "$O.on($EVT, $H)"},
	{JavaScript, "require($M)"},
	{JavaScript, "function $F($$$P) { $$$B }"},
	{JavaScript, "new $C($$$ARGS)"},
	{JavaScript, "$A ? $B : $C"},
	{JavaScript, "$A === $A"},
	{JavaScript, `import $D, { $$$N } from "./mod"`},
	{JavaScript, "if ($C) { $$$ }"},
	{JavaScript, "$X.length"},
	{JavaScript, "zzNothing($A)"},
	{JavaScript, "foo(1, 2)"},
	{JavaScript, "foo(bar())"},
	{JavaScript, "foo($A)"},
	{JavaScript, "foo($_)"},
	{JavaScript, "foo()"},
	{JavaScript, "foo($A, $B)"},
	{Go, "if err != nil { return $$$ }"},
	{TypeScript, "$X as $T"},
	{TypeScript, "interface $I { $$$ }"},
	{TypeScript, `import { $$$N } from "fs"`},
	{TypeScript, "this.$P.$F($$$A)"},
	{TypeScript, "$A !== undefined"},
	{TypeScript, "@Component($$$A)"},
	{TypeScript, "type $T = $U"},
	{TypeScript, "function $F($$$P): $R { $$$B }"},
	{TypeScript, "new Promise($$$)"},
	{TSX, "<$C $$$P />"},
	{TSX, "useState($INIT)"},
	{TSX, "const [$A, $B] = useState($$$)"},
	{TSX, "<span>$$$C</span>"},
	{Rust, "println!($$$)"},
	{Rust, "$X.unwrap()"},
	{Rust, "fn $F($$$P) -> $R { $$$B }"},
	{Rust, "impl $T for $S { $$$ }"},
	{Rust, "Some($X)"},
	{Rust, "use $P;"},
	{Rust, "let $P = $E;"},
	{Rust, "$A == $A"},
	{Java, "System.out.println($$$A)"},
	{Java, "$O.equals($A)"},
	{Java, "new $C($$$A)"},
	{Java, "for ($T $V : $C) { $$$ }"},
	{Java, "import $P;"},
	{Java, "$A == null"},
	{Java, "throw new $E($$$)"},
	{Java, "$X.equals($X)"},
}

// negativeCases are patterns that must match nothing in the corpus.
var negativeCases = map[string]bool{
	"foo(bar())": true, // only foo(/* c */ bar()): a comment before a non-leaf node is not skipped
}

// outcome of one engine on one case: "error" or the match set.
func matchKeys(ms []Match) []string {
	var out []string
	for _, m := range ms {
		var caps []string
		for _, c := range m.Captures {
			var ns []string
			for _, n := range c.Nodes {
				ns = append(ns, fmt.Sprintf("%d-%d", n.Range.StartByte, n.Range.EndByte))
			}
			kind := "$"
			if c.Multi {
				kind = "$$$"
			}
			caps = append(caps, kind+c.Name+"="+strings.Join(ns, ","))
		}
		out = append(out, fmt.Sprintf("%s:%d-%d [%d:%d-%d:%d] %s", m.Path, m.Range.StartByte, m.Range.EndByte,
			m.Range.StartLine, m.Range.StartColumn, m.Range.EndLine, m.Range.EndColumn, strings.Join(caps, " ")))
	}
	sort.Strings(out)
	return out
}

func TestOracleAstGrep(t *testing.T) {
	sg := testtool.Require(t, "ast-grep", astGrepInstall)
	dir, err := oracleCorpus()
	if err != nil {
		t.Fatal(err)
	}
	e := NewBuiltin(BuiltinOptions{})
	langs := map[Language]bool{}
	for _, tc := range oracleCases {
		langs[tc.lang] = true
		t.Run(string(tc.lang)+"/"+tc.pattern, func(t *testing.T) {
			ours, ourErr := e.Search(context.Background(), Request{Root: dir, Pattern: tc.pattern, Language: tc.lang, Limits: Limits{MaxMatches: 1 << 20}})
			theirs, theirErr := runAstGrep(t, sg, dir, tc)
			if (ourErr != nil) != (theirErr != nil) {
				t.Fatalf("errors differ: ours %v, ast-grep %v", ourErr, theirErr)
			}
			if ourErr != nil {
				return
			}
			if diff := cmp.Diff(matchKeys(theirs), matchKeys(ours.Matches)); diff != "" {
				t.Errorf("match sets differ (-ast-grep +ours):\n%s", diff)
			}
			if len(ours.Matches) == 0 && !strings.Contains(strings.ToLower(tc.pattern), "zz") && !negativeCases[tc.pattern] {
				t.Errorf("pattern matched nothing; the case proves little")
			}
		})
	}
	if len(langs) < 5 || len(oracleCases) < 30 {
		t.Errorf("oracle suite too small: %d patterns, %d languages", len(oracleCases), len(langs))
	}
}

func runAstGrep(t *testing.T, sg, dir string, tc oracleCase) ([]Match, error) {
	t.Helper()
	var files []string
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if l, ok := LanguageOf(e.Name()); ok && l == tc.lang {
			files = append(files, e.Name())
		}
	}
	args := append([]string{"run", "--pattern", tc.pattern, "--lang", string(tc.lang), "--json=stream", "--"}, files...)
	res, err := safeexec.Run(context.Background(), safeexec.Invocation{Path: sg, Args: args, Dir: dir, MaxStdout: 256 << 20})
	var ee *safeexec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	if perr := patternWarning(Request{Pattern: tc.pattern, Language: tc.lang}, res.Stdout, res.Stderr); perr != nil {
		return nil, perr
	}
	ms, err := ParseAstGrepStream(bytes.NewReader(res.Stdout))
	if err != nil {
		t.Fatal(err)
	}
	return ms, nil
}

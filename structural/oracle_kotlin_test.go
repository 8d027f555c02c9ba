//go:build cgo

package structural

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
)

// kotlinModule is the grammar module this package links for Kotlin.
const kotlinModule = "github.com/tree-sitter-grammars/tree-sitter-kotlin"

// kotlinLinkedLang is the name ast-grep knows the linked grammar by.
const kotlinLinkedLang = "kotlinlinked"

var kotlinLinkedOnce struct {
	sync.Mutex
	args   []string
	failed string // why building it failed, once it has
}

// kotlinLinked returns the ast-grep arguments that load the Kotlin grammar
// this package links as a custom language: the grammar module's parser,
// from the module cache at the version go.mod selects, compiled into a
// shared library, and an sgconfig.yml that declares it with the expando
// character this package uses for Kotlin. ast-grep then reads Kotlin
// exactly as this package does, so the match sets compare the engines
// alone. Built once per test binary, in a directory removed when the
// tests end; a failure fails every test that asks.
func kotlinLinked(t *testing.T) []string {
	t.Helper()
	kotlinLinkedOnce.Lock()
	defer kotlinLinkedOnce.Unlock()
	if kotlinLinkedOnce.failed != "" {
		t.Fatal(kotlinLinkedOnce.failed)
	}
	if kotlinLinkedOnce.args == nil {
		args, err := buildKotlinLinked(t)
		if err != nil {
			kotlinLinkedOnce.failed = err.Error()
			t.Fatal(err)
		}
		kotlinLinkedOnce.args = args
	}
	return kotlinLinkedOnce.args
}

// buildKotlinLinked builds what kotlinLinked returns.
func buildKotlinLinked(t *testing.T) ([]string, error) {
	// The module at the version go.mod selects, which is the one linked,
	// in the module cache since the build compiled it (a test binary's
	// build information lists no dependencies).
	gobin := testtool.Require(t, "go", "install Go")
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	res, err := safeexec.Run(context.Background(), safeexec.Invocation{Path: gobin, Args: []string{"list", "-m", "-json", kotlinModule},
		Dir: wd, Env: safeexec.Environ("HOME", "PATH", "GOPATH", "GOMODCACHE", "GOPROXY", "GOFLAGS", "GOCACHE", "GOTOOLCHAIN")})
	var mod struct{ Version, Dir string }
	if jerr := json.Unmarshal(res.Stdout, &mod); err != nil || jerr != nil || mod.Dir == "" {
		return nil, fmt.Errorf("go list -m %s: %v %v %s", kotlinModule, err, jerr, res.Stderr)
	}
	src := filepath.Join(mod.Dir, "src")
	ccName := strings.Fields(os.Getenv("CC"))
	if len(ccName) == 0 {
		ccName = []string{"cc"}
	}
	cc := testtool.Require(t, ccName[0], "install a C compiler (cgo needs one too)")
	dir, err := os.MkdirTemp("", "structural-kotlin-grammar-")
	if err != nil {
		return nil, err
	}
	kotlinGrammarDir.Store(&dir)
	lib := filepath.Join(dir, "kotlin.so")
	args := slices.Concat(ccName[1:], []string{"-shared", "-fPIC", "-O2", "-I", src,
		filepath.Join(src, "parser.c"), filepath.Join(src, "scanner.c"), "-o", lib})
	res, err = safeexec.Run(context.Background(), safeexec.Invocation{Path: cc, Args: args, Dir: dir,
		Env: safeexec.Environ("PATH", "TMPDIR"), Timeout: 5 * time.Minute})
	if err != nil {
		return nil, fmt.Errorf("compiling %s@%s for ast-grep: %w\n%s", kotlinModule, mod.Version, err, res.Stderr)
	}
	config := "customLanguages:\n" +
		"  " + kotlinLinkedLang + ":\n" +
		"    libraryPath: " + lib + "\n" +
		"    languageSymbol: tree_sitter_kotlin\n" +
		"    extensions: [kt, kts]\n" +
		"    expandoChar: " + string(expando(Kotlin)) + "\n"
	cfg := filepath.Join(dir, "sgconfig.yml")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		return nil, err
	}
	return []string{"--config", cfg, "--custom-languages", "allow", "--lang", kotlinLinkedLang}, nil
}

// TestOracleKotlinBundledGrammar records where ast-grep's own Kotlin
// grammar reads the oracle cases differently from the grammar linked here
// (kotlinGrammarDiffers): the other cases must agree with it as they agree
// with the linked one, and the listed ones must still differ as listed, so
// that the list is dropped when ast-grep's grammar and this one converge.
func TestOracleKotlinBundledGrammar(t *testing.T) {
	sg := testtool.Require(t, "ast-grep", astGrepInstall)
	dir, err := oracleCorpus()
	if err != nil {
		t.Fatal(err)
	}
	e := NewBuiltin(BuiltinOptions{})
	for _, tc := range oracleCases {
		if tc.lang != Kotlin || tc.broken {
			continue
		}
		t.Run(tc.pattern, func(t *testing.T) {
			ours, err := e.Search(context.Background(), Request{Root: dir, Pattern: tc.pattern, Language: Kotlin, Limits: Limits{MaxMatches: 1 << 20}})
			if err != nil {
				t.Fatal(err)
			}
			bundled, err := runAstGrepLang(t, sg, dir, tc, []string{"--lang", string(Kotlin)})
			if err != nil {
				t.Fatalf("ast-grep rejects the pattern: %v", err)
			}
			rangesDiff := cmp.Diff(matchRanges(bundled), matchRanges(ours.Matches))
			keysDiff := cmp.Diff(matchKeys(bundled), matchKeys(ours.Matches))
			switch kotlinGrammarDiffers[tc.pattern] {
			case "":
				if keysDiff != "" {
					t.Errorf("match sets differ (-ast-grep's Kotlin grammar +ours); list the case in kotlinGrammarDiffers if the grammars read it differently:\n%s", keysDiff)
				}
			case "captures":
				if rangesDiff != "" {
					t.Errorf("match ranges differ (-ast-grep's Kotlin grammar +ours), where only captures did:\n%s", rangesDiff)
				}
				if keysDiff == "" {
					t.Errorf("the captures agree now: drop the case from kotlinGrammarDiffers")
				}
			case "ranges":
				if rangesDiff == "" {
					t.Errorf("the match ranges agree now: drop the case from kotlinGrammarDiffers")
				}
				t.Logf("ast-grep's Kotlin grammar: %d matches, the linked one: %d", len(bundled), len(ours.Matches))
			}
		})
	}
}

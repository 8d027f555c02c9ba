//go:build cgo

package structural

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/internal/testtool"
)

// goSources returns the Go files of a few standard library packages, tests
// included: the corpus the prefilter tests compare on.
func goSources(t testing.TB, pkgs ...string) []string {
	t.Helper()
	var files []string
	for _, pkg := range pkgs {
		fs, err := filepath.Glob(filepath.Join(testtool.GOROOT(t), "src", pkg, "*.go"))
		if err != nil || len(fs) == 0 {
			t.Fatalf("no Go sources for %s: %v", pkg, err)
		}
		files = append(files, fs...)
	}
	return files
}

// shape lists the nodes of a tree below its root that lie in the marked
// segments, by range, kind, flags, field and child count.
func shape(t *tree, segs []segment, marks []bool) []string {
	var out []string
	for i := 1; i < t.Len(); i++ {
		n := nodeID(i)
		start, end := uint32(t.StartByte(n)), uint32(t.EndByte(n))
		for k, s := range segs {
			if marks[k] && start >= s.start && end <= s.end {
				out = append(out, fmt.Sprintf("%d-%d:%d/%v%v%v/%d/%d", start, end, t.KindID(n),
					t.Named(n), t.IsError(n), t.IsMissing(n), t.FieldID(n), t.ChildCount(n)))
				break
			}
		}
	}
	return out
}

// TestPartialParseKeepsDeclarations: on every file of the corpus that
// parses without an error, parsing only some segments gives exactly the
// nodes the whole parse has in them, and no top-level node of the whole
// parse straddles two segments.
func TestPartialParseKeepsDeclarations(t *testing.T) {
	if raceEnabled {
		t.Skip("single-threaded; the run without the race detector covers it")
	}
	_, ps := goParser(t)
	files := goSources(t, "go/*", "strings", "encoding/json", "net/http", "sync", "os/exec")
	checked := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		segs := goSegments(src)
		if segs == nil {
			continue
		}
		whole, ok := ps.parse(src, nil, nil)
		if !ok {
			t.Fatalf("%s: parse failed", f)
		}
		if whole.HasError() {
			continue
		}
		for _, c := range whole.appendKids(nil, 0) {
			start, end := uint32(whole.StartByte(c)), uint32(whole.EndByte(c))
			inOne := false
			for _, s := range segs {
				inOne = inOne || start >= s.start && end <= s.end
			}
			if !inOne {
				t.Errorf("%s: top-level node %d-%d straddles segments", f, start, end)
			}
		}
		if broken := comparePartial(t, filepath.Base(f), ps, src, segs, whole); broken > 0 {
			t.Errorf("%s: %d of its partial parses have an error", filepath.Base(f), broken)
		}
		checked++
	}
	if checked < len(files)*9/10 {
		t.Errorf("only %d of %d files checked", checked, len(files))
	}
	t.Logf("%d of %d files split and compared", checked, len(files))
}

// comparePartial parses the even segments of src, then the odd ones, and
// reports every node that differs from the whole parse's. It returns how
// many of the two parses had a syntax error, which it does not compare
// (the engine parses such a file whole).
func comparePartial(t *testing.T, name string, ps *parser, src []byte, segs []segment, whole *tree) (broken int) {
	t.Helper()
	all := make([]bool, len(segs))
	for k := range all {
		all[k] = true
	}
	for parity := range 2 {
		marks := make([]bool, len(segs))
		for k := range marks {
			marks[k] = k%2 == parity
		}
		part, ok := ps.parse(src, segs, marks)
		if !ok {
			t.Fatalf("%s: partial parse failed", name)
		}
		if part.HasError() {
			broken++
			continue
		}
		if diff := cmp.Diff(shape(whole, segs, marks), shape(part, segs, all)); diff != "" {
			t.Errorf("%s, parity %d: partial parse differs (-whole +partial):\n%s", name, parity, diff)
		}
	}
	return broken
}

// prefilterPatterns are Go patterns with chains of every shape: operators,
// selectors, keywords, brackets, separators after multi metavariables.
var prefilterPatterns = []string{
	"if err != nil { return $$$ }",
	"if err != nil { return err }",
	"err != nil",
	"$X == nil",
	"errors.Is($E, $T)",
	"errors.New($S)",
	"fmt.Errorf($$$A)",
	"fmt.Sprintf($F, $$$)",
	"return nil, err",
	"return $A, nil",
	"$M.Lock()",
	"defer $M.Unlock()",
	"for $I := range $S { $$$ }",
	"for _, $V := range $S { $$$ }",
	"len($X) == 0",
	"len($X) > 0",
	"make([]$T, 0, $N)",
	"make(map[$K]$V)",
	"[]byte($S)",
	"append($S, $$$)",
	"go func() { $$$ }()",
	"select { $$$ }",
	"<-$C",
	"switch $X.(type) { $$$ }",
	"strings.HasPrefix($A, $B)",
	"strings.TrimSpace($S)",
	"$X := $Y",
	"$X, $Y := $Z",
	"$A, ok := $M[$K]",
	"if !ok { $$$ }",
	"func ($R $T) String() string { $$$ }",
	"func $F($$$) error { $$$ }",
	"type $T struct { $$$ }",
	"var $V = $E",
	"t.Fatalf($$$)",
	"t.Errorf($F, $$$A)",
	"if $C { return $$$ }",
	"ctx.Err()",
	"x++",
	"$X.Close()",
	"json.Unmarshal($D, &$V)",
	"http.StatusOK",
	"w.Header().Set($K, $V)",
	"&$T{$$$}",
	"panic($X)",
	"*$P = $V",
	"$A[$I:$J]",
	"import \"fmt\"",
	"$A == $A",
	"$A != $B",
	"$A && $B",
	"$X := <-$C",
	"$F($$$A)",
	"append($S, $T...)",
}

// TestPrefiltersChangeNoMatch: the literals, chains and segments never
// lose a match. Every pattern above, and every 100th one-line statement of
// the corpus used as a pattern, finds exactly what parsing every file
// whole finds.
func TestPrefiltersChangeNoMatch(t *testing.T) {
	root := t.TempDir()
	pkgs := []string{"go/*", "strings", "encoding/json", "sync", "os/exec"}
	if raceEnabled {
		pkgs = []string{"strings", "sync", "os/exec"}
	}
	files := goSources(t, pkgs...)
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// Keep the package directory in the name: several packages have
		// files of the same name.
		rel := filepath.Join(strings.ReplaceAll(filepath.Base(filepath.Dir(f)), ".", "_"), fmt.Sprintf("%03d_%s", i, filepath.Base(f)))
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, rel), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The fixtures are not named .go: gofmt would reformat the first and
	// refuse the second.
	for _, name := range []string{"tricky.go", "broken.go"} {
		data, err := os.ReadFile(filepath.Join("testdata", "prefilter", name+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	patterns := append([]string{}, prefilterPatterns...)
	patterns = append(patterns, trickyPatterns...)
	if !raceEnabled {
		patterns = append(patterns, sampleStatements(t, files, 100)...)
	}

	ctx := context.Background()
	exhaustive := NewBuiltin(BuiltinOptions{})
	exhaustive.exhaustive = true
	shared := NewBuiltin(BuiltinOptions{}) // partial trees grow across patterns
	limits := Limits{MaxMatches: 1 << 20}
	total, chained := 0, 0
	for _, pat := range patterns {
		req := Request{Root: root, Pattern: pat, Language: Go, Limits: limits}
		want, err := exhaustive.Search(ctx, req)
		if err != nil {
			t.Fatalf("%q: %v", pat, err)
		}
		fresh := want // without a literal or a chain nothing is filtered: every file parses whole
		if p, _ := Compile(pat, Go); len(p.literals) > 0 || len(p.chains) > 0 {
			if fresh, err = NewBuiltin(BuiltinOptions{CacheBytes: -1}).Search(ctx, req); err != nil {
				t.Fatalf("%q: %v", pat, err)
			}
		}
		grown, err := shared.Search(ctx, req)
		if err != nil {
			t.Fatalf("%q: %v", pat, err)
		}
		// reflect.DeepEqual first: cmp.Diff over every match of every
		// pattern took a fifth of the test's time, and only a difference
		// needs its report.
		if !reflect.DeepEqual(want.Matches, fresh.Matches) {
			t.Errorf("%q: prefiltered search differs (-whole +prefiltered):\n%s", pat, cmp.Diff(want.Matches, fresh.Matches))
		}
		if !reflect.DeepEqual(want.Matches, grown.Matches) {
			t.Errorf("%q: search over cached partial trees differs (-whole +cached):\n%s", pat, cmp.Diff(want.Matches, grown.Matches))
		}
		total += len(want.Matches)
		if p, _ := Compile(pat, Go); len(p.chains) > 0 {
			chained++
		}
	}
	if chained < len(patterns)/2 {
		t.Errorf("only %d of %d patterns have chains", chained, len(patterns))
	}
	t.Logf("%d patterns (%d with chains), %d matches, over %d files", len(patterns), chained, total, len(files)+2)
}

// trickyPatterns meet testdata/prefilter/tricky.go.txt, whose code spells them
// with comments, line breaks and trailing separators between the tokens,
// and testdata/prefilter/broken.go.txt, which has a syntax error.
var trickyPatterns = []string{
	"if err != nil { return $$$ }",
	"call(a, b)",
	"x.y.z()",
	"return a, b",
	"f($$$A, last)",
	"v := `func x() {}`",
	"m[k] = v",
}

// sampleStatements returns every nth distinct one-line statement of files
// that compiles as a pattern.
func sampleStatements(t *testing.T, files []string, nth int) []string {
	var out []string
	k := 0
	eachOneLineStatement(t, files, func(_ string, _ *tree, _ nodeID, text string) {
		if k++; k%nth == 0 {
			if _, err := Compile(text, Go); err == nil {
				out = append(out, text)
			}
		}
	})
	if len(out) < 20 {
		t.Fatalf("only %d statements sampled", len(out))
	}
	return out
}

// TestChainGrammarFacts checks, against tree-sitter-go's own grammar.json,
// the facts chains rely on (see chain.go): every unnamed token is a fixed
// string that reads as its kind name and is a word or punctuation alone,
// the extras are whitespace and comments, there is no external scanner,
// and hidden tokens (inline patterns no node covers) are whitespace or
// live inside string literals.
func TestChainGrammarFacts(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/tree-sitter/tree-sitter-go").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "src", "grammar.json"))
	if err != nil {
		t.Fatal(err)
	}
	var gram struct {
		Rules     map[string]any `json:"rules"`
		Extras    []any          `json:"extras"`
		Externals []any          `json:"externals"`
	}
	if err := json.Unmarshal(data, &gram); err != nil {
		t.Fatal(err)
	}
	if len(gram.Externals) != 0 {
		t.Errorf("external tokens: %v", gram.Externals)
	}
	extras, _ := json.Marshal(gram.Extras)
	if string(extras) != `[{"name":"comment","type":"SYMBOL"},{"type":"PATTERN","value":"\\s"}]` {
		t.Errorf("extras: %s", extras)
	}
	punct := func(s string) bool {
		return s != "" && !strings.ContainsAny(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
	}
	var walk func(rule string, n any, top bool)
	walk = func(rule string, n any, top bool) {
		switch v := n.(type) {
		case map[string]any:
			switch v["type"] {
			case "ALIAS":
				if v["named"] != true {
					t.Errorf("%s: an alias to an unnamed kind %v", rule, v["value"])
				}
			case "STRING":
				if s, _ := v["value"].(string); !isWord(s) && !punct(s) && strings.TrimSpace(s) != "" && s != "\x00" {
					t.Errorf("%s: token %q is neither a word nor punctuation", rule, s)
				}
			case "PATTERN", "TOKEN", "IMMEDIATE_TOKEN":
				if top {
					return // a named token, compared by its text
				}
				if p, _ := v["value"].(string); p == `\n` {
					break
				}
				if !strings.Contains(rule, "string") {
					t.Errorf("%s: hidden token %v outside a string literal", rule, v)
				}
				return
			}
			for k, c := range v {
				if k != "type" && k != "value" && k != "name" && k != "named" {
					walk(rule, c, false)
				}
			}
		case []any:
			for _, c := range v {
				walk(rule, c, false)
			}
		}
	}
	for name, r := range gram.Rules {
		if strings.HasPrefix(name, "_") {
			if m, _ := r.(map[string]any); m != nil && (m["type"] == "PATTERN" || m["type"] == "TOKEN") {
				t.Errorf("hidden terminal rule %s", name)
			}
		}
		walk(name, r, true)
	}
}

// FuzzPartialParse: for any source that parses without an error, the
// segments' partial parses hold exactly the whole parse's nodes.
func FuzzPartialParse(f *testing.F) {
	for _, name := range []string{"testdata/prefilter/tricky.go.txt", "testdata/gostmt/stmt.go"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("package p\nvar f = 1\nfunc g() {}\ntype T struct{ x int }\nconst c = `\nfunc`\n"))
	for _, name := range []string{"strings/builder.go", "sync/once.go", "go/token/position.go", "encoding/json/tags.go"} {
		data, err := os.ReadFile(filepath.Join(testtool.GOROOT(f), "src", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	g, _ := grammarOf(Go)
	f.Fuzz(func(t *testing.T, src []byte) {
		segs := goSegments(src)
		if segs == nil {
			return
		}
		ps, err := newParser(g)
		if err != nil {
			t.Fatal(err)
		}
		defer ps.Close()
		whole, ok := ps.parse(src, nil, nil)
		if !ok || whole.HasError() {
			return
		}
		comparePartial(t, "input", ps, src, segs, whole) // an error: parsed whole
	})
}

// BenchmarkPartialParseAroundErrors measures what segment.go leaves open:
// a file with a syntax error in a declaration a search skips. It breaks a
// random declaration of each corpus file (one byte deleted, or = or :=
// inserted; three tries per file, fixed seed) and reports how many of the
// broken files have a declaration that parses cleanly alone but reads
// differently in the whole parse (differ/broken-file). Run it with
// -benchtime 1x.
func BenchmarkPartialParseAroundErrors(b *testing.B) {
	g, _ := grammarOf(Go)
	ps, err := newParser(g)
	if err != nil {
		b.Fatal(err)
	}
	defer ps.Close()
	files := goSources(b, "go/*", "strings", "encoding/json", "net/http", "sync", "os/exec")
	for range b.N {
		rng := rand.New(rand.NewSource(1))
		broken, differ := 0, 0
		for _, f := range files {
			orig, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			for range 3 {
				segs := goSegments(orig)
				if len(segs) < 3 {
					break
				}
				s := segs[1+rng.Intn(len(segs)-1)]
				pos := int(s.start) + rng.Intn(int(s.end-s.start))
				src := append([]byte(nil), orig[:pos]...)
				switch rng.Intn(3) {
				case 0:
					src = append(src, orig[pos+1:]...)
				case 1:
					src = append(append(src, '='), orig[pos:]...)
				default:
					src = append(append(src, " := "...), orig[pos:]...)
				}
				if segs = goSegments(src); segs == nil {
					continue
				}
				whole, ok := ps.parse(src, nil, nil)
				if !ok || !whole.HasError() {
					continue
				}
				broken++
				if readsDifferently(ps, src, segs, whole) {
					differ++
				}
			}
		}
		b.ReportMetric(float64(broken), "broken-files")
		b.ReportMetric(float64(differ), "differ")
	}
}

// readsDifferently reports whether a segment of src that parses cleanly
// alone holds other nodes than the whole parse has there.
func readsDifferently(ps *parser, src []byte, segs []segment, whole *tree) bool {
	all := make([]bool, len(segs))
	for k := range all {
		all[k] = true
	}
	for k := range segs {
		marks := make([]bool, len(segs))
		marks[k] = true
		part, ok := ps.parse(src, segs, marks)
		if !ok || part.HasError() {
			continue
		}
		if !cmp.Equal(shape(whole, segs, marks), shape(part, segs, all)) {
			return true
		}
	}
	return false
}

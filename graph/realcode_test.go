package graph

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/evidence/evidencetest"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/syntax"
)

// moduleDir returns module@version's directory in the module cache,
// downloading it when missing; it skips the test without the go command
// or the network (fails it in CI).
func moduleDir(t testing.TB, modVersion string) string {
	t.Helper()
	goCmd := testtool.Require(t, "go", "install Go from https://go.dev/dl/")
	cmd := exec.Command(goCmd, "mod", "download", "-json", modVersion)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); err != nil || jerr != nil || info.Dir == "" {
		if testtool.InCI() {
			t.Fatalf("go mod download %s: %v %s", modVersion, err, info.Error)
		}
		t.Skipf("go mod download %s: %v %s", modVersion, err, info.Error)
	}
	return info.Dir
}

// copyTree copies src into a new temporary directory (the module cache
// is read-only; the index writes under .codecortex), dated an hour back
// as a checked-out tree is: the index does not trust an mtime too close to
// the moment it reads it, and would read such files again.
// needGopls skips a test that runs gopls over real code (why says how) in
// -short mode or without tree-sitter, and returns gopls's path, installed
// by .ci/install-precision.sh.
func needGopls(t *testing.T, why string) string {
	t.Helper()
	if testing.Short() {
		t.Skip(why)
	}
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	return testtool.Require(t, "gopls", "bash .ci/install-precision.sh")
}

// moduleGraph copies the module modVersion to a new directory, indexes it
// and builds its graph: it returns the directory (its links resolved, as
// a language server reports paths), the index, closed when the test ends,
// and the graph.
func moduleGraph(t *testing.T, modVersion string) (string, *index.Index, *Graph) {
	t.Helper()
	root, err := filepath.EvalSymlinks(copyTree(t, moduleDir(t, modVersion)))
	if err != nil {
		t.Fatal(err)
	}
	ix, err := index.Open(index.Options{Dir: root, Budget: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	g, err := New(Options{Index: ix}).Graph(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return root, ix, g
}

func copyTree(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(target, data, 0o644); err != nil {
			return err
		}
		old := time.Now().Add(-time.Hour)
		return os.Chtimes(target, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func cobraProvider(t *testing.T) (*Provider, string) {
	t.Helper()
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	dir := copyTree(t, moduleDir(t, "github.com/spf13/cobra@v1.10.2"))
	p := New(Options{Dir: dir, IndexOptions: index.Options{Budget: -1}})
	t.Cleanup(func() { p.Close() })
	return p, dir
}

func keys(hs []Hit) []string {
	var out []string
	for _, h := range hs {
		out = append(out, h.Symbol)
	}
	return out
}

// TestCobra checks callers, tests and import resolution on real code.
func TestCobra(t *testing.T) {
	p, _ := cobraProvider(t)
	ctx := context.Background()
	g, err := p.Graph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st := g.Stats()
	t.Logf("cobra: %+v", st)
	if st.ByKind[Calls] < 200 || st.ByKind[Imports] < 5 || st.ByKind[Tests] < 20 {
		t.Errorf("too few edges: %+v", st.ByKind)
	}

	im, err := p.Impact(ctx, Query{Targets: []Target{{Symbol: "Command.ExecuteC"}}})
	if err != nil {
		t.Fatal(err)
	}
	callers := keys(im.Callers)
	for _, want := range []string{"command.go#Command.Execute", "command.go#Command.ExecuteContextC"} {
		if !slices.Contains(callers, want) {
			t.Errorf("callers of ExecuteC lack %s: %v", want, callers)
		}
	}
	var tests []string
	for _, tt := range im.Tests {
		tests = append(tests, tt.Path)
	}
	if !slices.Contains(tests, "command_test.go") {
		t.Errorf("tests of ExecuteC lack command_test.go: %v", tests)
	}
	if im.Mix.InferredHigh == 0 {
		t.Errorf("no caller reached by a scope- or import-resolved edge: %+v", im.Mix)
	}

	// An unexported helper: its callers in args.go, its test in cobra_test.go.
	im, err = p.Impact(ctx, Query{Targets: []Target{{Symbol: "stringInSlice"}}, Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(keys(im.Callers), "args.go#OnlyValidArgs") {
		t.Errorf("callers of stringInSlice: %v", keys(im.Callers))
	}
	for _, h := range im.Callers {
		if h.Depth != 1 {
			t.Errorf("%s at depth %d with Depth 1", h.Symbol, h.Depth)
		}
	}

	// The doc package imports cobra: its uses of cobra.Command resolve
	// through the import.
	im, err = p.Impact(ctx, Query{Targets: []Target{{Symbol: "cobra.Command"}}, Depth: 1, MaxNodes: 5000})
	if err != nil {
		t.Fatal(err)
	}
	fromDoc := 0
	for _, h := range im.Callers {
		if strings.HasPrefix(h.Path, "doc/") && h.Via.Method == ImportResolved {
			fromDoc++
		}
	}
	if fromDoc == 0 {
		t.Errorf("no use of cobra.Command in doc/ resolved through its import")
	}

	// A line range: the lines of OnlyValidArgs in args.go.
	im, err = p.Impact(ctx, Query{Targets: []Target{{Path: "args.go", StartLine: 55, EndLine: 56}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Affected) != 1 || im.Affected[0].Name != "OnlyValidArgs" {
		t.Errorf("affected by args.go:55-56: %v", keys(im.Affected))
	}

	// The second question reuses the graph.
	g2, err := p.Graph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if g2 != g {
		t.Errorf("graph built again for an unchanged index")
	}
}

// TestCobraProvider runs the evidence conformance check on real code.
func TestCobraProvider(t *testing.T) {
	p, dir := cobraProvider(t)
	evidencetest.TestProvider(t, p, dir,
		evidence.Query{Symbol: "Command.ExecuteC"},
		evidence.Query{Symbol: "stringInSlice"},
		evidence.Query{Path: "args.go", Line: 55},
		evidence.Query{Text: "nothing asked"},
		evidence.Query{Symbol: "NoSuchSymbolAnywhere"},
	)
	resp, err := p.Gather(context.Background(), evidence.Query{Symbol: "stringInSlice"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Records) == 0 {
		t.Fatal("no records for the callers of stringInSlice")
	}
	for _, r := range resp.Records {
		if r.TargetSymbol == "" || r.Provider != ProviderName {
			t.Errorf("record %+v", r)
		}
	}
}

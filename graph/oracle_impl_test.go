package graph

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/precision"
	"github.com/codecortex/codecortex/symbols"
)

// Floors of the gopls implementation oracle, set from measurement on chi
// v5.0.12, pflag v1.0.9, go-cmp v0.7.0 and logr v1.4.3 (docs/benchmarks.md,
// "Graph and impact"), a little under what was measured.
const (
	implOracleMinPrecision = 0.95
	implOracleMinRecall    = 0.95
)

// TestGoplsImplementations compares the concrete types the graph answers
// as implementing each interface of two real modules (method sets, without
// exact edges) with gopls implementation at the interface's name: both
// sides' types are keyed by the line of their name, interfaces left out
// (gopls lists the interfaces one is assignable to as well).
func TestGoplsImplementations(t *testing.T) {
	needGopls(t, "runs gopls once per interface")
	var tp, fp, fn, ifaces int
	for _, mod := range []string{"github.com/go-chi/chi/v5@v5.0.12", "github.com/spf13/pflag@v1.0.9", "github.com/google/go-cmp@v0.7.0", "github.com/go-logr/logr@v1.4.3"} {
		dir := copyTree(t, moduleDir(t, mod))
		p := New(Options{Dir: dir, IndexOptions: index.Options{Budget: -1}})
		t.Cleanup(func() { p.Close() })
		g, err := p.Graph(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		root, err := filepath.EvalSymlinks(dir)
		if err != nil {
			t.Fatal(err)
		}
		gopls := precision.NewLSP(precision.LSPOptions{Dir: root, RequestTimeout: 2 * time.Minute, LoadTimeout: 5 * time.Minute})
		t.Cleanup(func() { gopls.Close() })
		concrete := map[string]bool{} // "path:line" of the name of each Go type that is no interface
		for i := range g.Nodes {
			if n := &g.Nodes[i]; (n.Kind == string(symbols.Struct) || n.Kind == string(symbols.Type)) && n.Container == "" {
				concrete[fmt.Sprintf("%s:%d", n.Path, n.NameLine)] = true
			}
		}
		for i := range g.Nodes {
			n := &g.Nodes[i]
			if n.Kind != string(symbols.Interface) || n.Container != "" || n.Test {
				continue
			}
			ifaces++
			want := goplsImplementations(t, gopls, n, concrete)
			got := map[string]bool{}
			for _, r := range g.Subtypes([]int{i}, MaxImplementations) {
				if k := fmt.Sprintf("%s:%d", r.Path, r.Line); concrete[k] {
					got[k] = true
				}
			}
			miss, extra := compareKeys(want, got, &tp, &fp, &fn)
			t.Logf("%s %s: gopls %d types, graph %d; missed %v, extra %v", mod, n.Name, len(want), len(got), miss, extra)
		}
	}
	prec := float64(tp) / float64(max(1, tp+fp))
	rec := float64(tp) / float64(max(1, tp+fn))
	t.Logf("gopls implementation oracle, %d interfaces: precision %.3f recall %.3f (tp %d fp %d fn %d)", ifaces, prec, rec, tp, fp, fn)
	if tp == 0 || prec < implOracleMinPrecision || rec < implOracleMinRecall {
		t.Errorf("below the floors (precision %.2f, recall %.2f)", implOracleMinPrecision, implOracleMinRecall)
	}
}

// goplsImplementations asks gopls for the implementations of interface n
// at its name and returns those that are concrete types, as "path:line".
func goplsImplementations(t *testing.T, gopls *precision.LSPProvider, n *Node, concrete map[string]bool) map[string]bool {
	t.Helper()
	q := evidence.Query{Path: n.Path, Line: n.NameLine, Column: n.NameColumn, Kinds: []evidence.Kind{evidence.Implementation}}
	resp, err := gopls.Gather(context.Background(), q)
	if err != nil {
		t.Fatalf("gopls implementation at %s:%d:%d: %v", q.Path, q.Line, q.Column, err)
	}
	if len(resp.Report.Dropped) > 0 {
		t.Logf("gopls implementation at %s:%d:%d dropped %v", q.Path, q.Line, q.Column, resp.Report.Dropped)
	}
	out := map[string]bool{}
	for _, r := range resp.Records {
		k := fmt.Sprintf("%s:%d", r.Path, r.StartLine)
		if r.Kind == evidence.Implementation && concrete[k] && !slices.Contains([]string{n.Path + ":" + fmt.Sprint(n.NameLine)}, k) {
			out[k] = true
		}
	}
	return out
}

// TestGoplsKnownImplementations compares the project's types the graph
// answers as implementing a standard library interface (which it has no
// node for: see knownImplementations) with gopls implementation at a
// place the project writes the interface's name, keyed by the line of the
// type's name, the standard library's own types left out.
func TestGoplsKnownImplementations(t *testing.T) {
	needGopls(t, "runs gopls on real modules")
	var tp, fp, fn int
	for _, c := range []struct{ mod, file, iface, written string }{
		{"github.com/go-chi/chi/v5@v5.0.12", "mux.go", "http.Handler", "handler http.Handler"},
		{"github.com/google/go-cmp@v0.7.0", "cmp/report_text.go", "fmt.Stringer", "Comment    fmt.Stringer"},
		{"github.com/go-logr/logr@v1.4.3", "funcr/funcr.go", "fmt.Stringer", "func invokeStringer(s fmt.Stringer)"},
	} {
		root, ix, g := moduleGraph(t, c.mod)
		concrete := map[string]bool{}
		for i := range g.Nodes {
			if n := &g.Nodes[i]; (n.Kind == string(symbols.Struct) || n.Kind == string(symbols.Type)) && n.Container == "" {
				concrete[fmt.Sprintf("%s:%d", n.Path, n.NameLine)] = true
			}
		}
		line, col := findWritten(t, filepath.Join(root, c.file), c.written, c.iface)
		gopls := precision.NewLSP(precision.LSPOptions{Dir: root, RequestTimeout: 2 * time.Minute, LoadTimeout: 5 * time.Minute})
		t.Cleanup(func() { gopls.Close() })
		want := goplsImplementations(t, gopls, &Node{Path: c.file, NameLine: line, NameColumn: col}, concrete)
		// A new provider reads the types from the snapshot's known section.
		resp, ok, err := New(Options{Index: ix}).implementations(context.Background(),
			evidence.Query{Symbol: c.iface, Kinds: []evidence.Kind{evidence.Implementation}})
		if err != nil || !ok {
			t.Fatalf("%s: %v, %v", c.iface, ok, err)
		}
		got := map[string]bool{}
		for _, r := range resp.Records {
			got[fmt.Sprintf("%s:%d", r.Path, r.StartLine)] = true
		}
		miss, extra := compareKeys(want, got, &tp, &fp, &fn)
		t.Logf("%s %s: gopls %d types, graph %d; missed %v, extra %v", c.mod, c.iface, len(want), len(got), miss, extra)
	}
	prec := float64(tp) / float64(max(1, tp+fp))
	rec := float64(tp) / float64(max(1, tp+fn))
	t.Logf("standard library interfaces against gopls: precision %.3f recall %.3f (tp %d fp %d fn %d)", prec, rec, tp, fp, fn)
	if tp == 0 || prec < knownOracleMinPrecision || rec < knownOracleMinRecall {
		t.Errorf("below the floors (precision %.2f, recall %.2f)", knownOracleMinPrecision, knownOracleMinRecall)
	}
}

// Floors of the standard library interfaces against gopls, a little under
// what was measured (docs/benchmarks.md, "Implementations of standard
// library interfaces"): gopls leaves out the files of another build tag
// and an _examples module, and lists three test types the graph does not.
const (
	knownOracleMinPrecision = 0.9
	knownOracleMinRecall    = 0.9
)

// findWritten returns the one-based line and code-point column of the
// interface's last name in the first line of file that holds written.
func findWritten(t *testing.T, file, written, iface string) (int, int) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	name := iface[strings.LastIndexByte(iface, '.')+1:]
	for i, l := range strings.Split(string(src), "\n") {
		if j := strings.Index(l, written); j >= 0 {
			k := j + strings.LastIndex(written, name)
			return i + 1, utf8.RuneCountInString(l[:k]) + 1
		}
	}
	t.Fatalf("%s does not hold %q", file, written)
	return 0, 0
}

// compareKeys counts what got holds of want into tp, what it holds beyond
// into fp and what it misses into fn, and returns the missed and the
// extra keys, sorted.
func compareKeys(want, got map[string]bool, tp, fp, fn *int) (miss, extra []string) {
	for k := range want {
		if got[k] {
			*tp++
		} else {
			*fn++
			miss = append(miss, k)
		}
	}
	for k := range got {
		if !want[k] {
			*fp++
			extra = append(extra, k)
		}
	}
	sort.Strings(miss)
	sort.Strings(extra)
	return miss, extra
}

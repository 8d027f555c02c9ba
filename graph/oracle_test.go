package graph

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/precision"
	"github.com/codecortex/codecortex/symbols"
)

// Floors of the gopls oracle, set from measurement on cobra v1.10.2
// (docs/benchmarks.md, "Graph and impact"), a little under what was
// measured so that a regression fails and noise does not.
const (
	oracleMinCallerPrecision = 0.95
	oracleMinCallerRecall    = 0.95
	oracleMinSitePrecision   = 0.95
)

// oracleWant are the definitions the oracle always checks; more are
// sampled from the rest.
var oracleWant = []string{"command.go#Command.ExecuteC", "cobra.go#stringInSlice", "command.go#Command.Find"}

// oracleMax is how many definitions the oracle checks in all.
const oracleMax = 20

// TestGoplsOracle compares the graph's depth-1 callers (its calls and
// references edges, without exact edges fused in) with gopls references on
// cobra: for each checked definition, gopls' reference sites (declaration
// excluded) are mapped to the definitions that hold them, and compared
// with the graph's callers by key; each graph edge's site must also be
// one of gopls' sites. A use of a definition within itself (recursion)
// makes it its own caller, on both sides.
func TestGoplsOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("runs gopls once per definition")
	}
	testtool.Require(t, "gopls", "bash .ci/install-precision.sh")
	p, dir := cobraProvider(t)
	g, err := p.Graph(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	// One server answers every question: it loads cobra once.
	gopls := precision.NewLSP(precision.LSPOptions{Dir: root, RequestTimeout: 2 * time.Minute, LoadTimeout: 5 * time.Minute})
	defer gopls.Close()

	byKey := map[string]int{}
	var sample []string
	for i := range g.Nodes {
		n := &g.Nodes[i]
		if n.Test || (n.Kind != string(symbols.Function) && n.Kind != string(symbols.Method)) {
			continue
		}
		byKey[n.Key()] = i
		sample = append(sample, n.Key())
	}
	sort.Strings(sample)
	// The wanted ones first, then the rest in a fixed shuffled order, so
	// that the sample spreads over the files and packages.
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(sample), func(i, j int) { sample[i], sample[j] = sample[j], sample[i] })
	cands := append(slices.Clone(oracleWant), sample...)

	var tp, fp, fn, sites, siteOK int
	checked := map[string]bool{}
	for _, key := range cands {
		if len(checked) == oracleMax || checked[key] {
			continue
		}
		n, ok := byKey[key]
		if !ok {
			t.Fatalf("%s is not in the graph", key)
		}
		refs := goplsRefs(t, gopls, root, &g.Nodes[n])
		// Few to moderate callers: none says nothing, many is a type's
		// worth of uses.
		if len(refs) == 0 || len(refs) > 40 {
			if slices.Contains(oracleWant, key) {
				t.Fatalf("gopls finds %d references to %s", len(refs), key)
			}
			continue
		}
		checked[key] = true

		want := map[string]bool{} // callers by gopls
		refLines := map[string]bool{}
		for _, r := range refs {
			refLines[fmt.Sprintf("%s:%d", r.path, r.line)] = true
			// A recursive use makes the definition its own caller.
			if c := g.enclosingLine(r.path, r.line); c >= 0 {
				want[g.Nodes[c].Key()] = true
			} else {
				want[r.path] = true
			}
		}
		got := map[string]bool{} // callers by the graph
		for _, ei := range g.Incoming(n) {
			e := &g.Edges[ei]
			if e.Kind != Calls && e.Kind != References {
				continue
			}
			got[g.Nodes[e.From].Key()] = true
			sites++
			if refLines[fmt.Sprintf("%s:%d", e.Path, e.Line)] {
				siteOK++
			} else {
				t.Logf("%s: graph site %s:%d (%s, %s) is no gopls reference", key, e.Path, e.Line, e.Kind, e.Method)
			}
		}
		miss, extra := compareKeys(want, got, &tp, &fp, &fn)
		t.Logf("%s: gopls %d sites in %d callers, graph %d callers; missed %v, extra %v", key, len(refs), len(want), len(got), miss, extra)
	}
	if len(checked) < oracleMax {
		t.Fatalf("checked %d definitions, want %d", len(checked), oracleMax)
	}
	prec := float64(tp) / float64(max(1, tp+fp))
	rec := float64(tp) / float64(max(1, tp+fn))
	sitePrec := float64(siteOK) / float64(max(1, sites))
	t.Logf("gopls oracle on cobra, %d definitions: callers precision %.3f recall %.3f (tp %d fp %d fn %d); sites precision %.3f (%d/%d)",
		len(checked), prec, rec, tp, fp, fn, sitePrec, siteOK, sites)
	if prec < oracleMinCallerPrecision || rec < oracleMinCallerRecall || sitePrec < oracleMinSitePrecision {
		t.Errorf("below the floors (callers precision %.2f recall %.2f, sites precision %.2f)",
			oracleMinCallerPrecision, oracleMinCallerRecall, oracleMinSitePrecision)
	}
}

// goplsRef is one reference site gopls reports.
type goplsRef struct {
	path string // relative to the root, slash-separated
	line int
}

// goplsRefs asks gopls, through the language-server provider, for the
// references to definition n at its name, and returns their sites,
// declaration excluded, as `gopls references` without -d answers.
func goplsRefs(t *testing.T, gopls *precision.LSPProvider, root string, n *Node) []goplsRef {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(n.Path)))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(src, []byte("\n"))
	if n.Line < 1 || n.Line > len(lines) {
		t.Fatalf("%s: line %d out of the file", n.Key(), n.Line)
	}
	line := string(lines[n.Line-1])
	// The name follows "func " or the receiver's closing parenthesis.
	start := strings.Index(line, "func ") + len("func ")
	if n.Kind == string(symbols.Method) {
		start = strings.Index(line, ")") + 1
	}
	col := strings.Index(line[start:], n.Name)
	if start < len("func ") || col < 0 {
		t.Fatalf("%s: name not found on line %d: %q", n.Key(), n.Line, line)
	}
	q := evidence.Query{Path: n.Path, Line: n.Line, Column: utf8.RuneCountInString(line[:start+col]) + 1,
		Kinds: []evidence.Kind{evidence.Reference}}
	resp, err := gopls.Gather(context.Background(), q)
	if err != nil {
		t.Fatalf("gopls references at %s:%d:%d: %v", q.Path, q.Line, q.Column, err)
	}
	if resp.Report.Reason != "" || len(resp.Report.Dropped) > 0 {
		t.Fatalf("gopls references at %s:%d:%d: %s %v", q.Path, q.Line, q.Column, resp.Report.Reason, resp.Report.Dropped)
	}
	var out []goplsRef
	for _, r := range precision.WithoutDeclarations(resp.Records) {
		out = append(out, goplsRef{path: r.Path, line: r.StartLine})
	}
	return out
}

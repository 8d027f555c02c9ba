package graph

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/safeexec"
)

// TestGoplsCallees checks what a function calls (an outgoing query)
// against gopls' call hierarchy on two real modules, without a precision
// index: for functions and methods sampled across each module, the call
// sites gopls lists in the body against the answer's sites (recall and
// precision), and, for each site both list that the graph resolved, the
// definition it names against gopls' (resolution precision).
func TestGoplsCallees(t *testing.T) {
	goplsPath := needGopls(t, "runs gopls on real modules")
	var tp, fp, fn, resolved, right int
	for _, mod := range []string{"github.com/go-chi/chi/v5@v5.0.12", "github.com/google/go-cmp@v0.7.0"} {
		root, ix, g := moduleGraph(t, mod)
		p := New(Options{Index: ix})
		defs := map[string]string{} // "path:line" of each node by key
		var sample []int
		for i := range g.Nodes {
			n := &g.Nodes[i]
			defs[n.Key()] = fmt.Sprintf("%s:%d", n.Path, n.NameLine)
			if callable(n) && !n.Test && n.EndLine > n.Line+2 {
				sample = append(sample, i)
			}
		}
		step := max(1, len(sample)/12)
		for k := 0; k < len(sample); k += step {
			n := &g.Nodes[sample[k]]
			want, ok := goplsCallees(t, goplsPath, root, n)
			if !ok {
				t.Logf("%s: gopls does not load its file (a build tag)", n.Key())
				continue
			}
			resp, err := p.callees(context.Background(), evidence.Query{Path: n.Path, Line: n.NameLine,
				Kinds: []evidence.Kind{evidence.Call}, Outgoing: true})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{} // the site's callee definition, "" when not resolved
			for _, r := range resp.Records {
				if r.Symbol != n.Key() {
					continue
				}
				site := fmt.Sprintf("%s:%d:%d", r.Path, r.StartLine, r.StartColumn)
				if r.Metadata.Attributes["resolved"] == "true" {
					got[site] = defs[r.TargetSymbol]
				} else if _, ok := got[site]; !ok {
					got[site] = ""
				}
			}
			var miss, extra, wrong []string
			for site, def := range want {
				to, ok := got[site]
				switch {
				case !ok:
					fn++
					miss = append(miss, site)
					continue
				case to != "":
					resolved++
					if to == def {
						right++
					} else {
						wrong = append(wrong, site+" "+to+" not "+def)
					}
				}
				tp++
			}
			for site := range got {
				if _, ok := want[site]; !ok {
					fp++
					extra = append(extra, site)
				}
			}
			slices.Sort(miss)
			slices.Sort(extra)
			t.Logf("%s: gopls %d calls, graph %d; missed %v, extra %v, wrongly resolved %v", n.Key(), len(want), len(got), miss, extra, wrong)
		}
	}
	prec := float64(tp) / float64(max(1, tp+fp))
	rec := float64(tp) / float64(max(1, tp+fn))
	res := float64(right) / float64(max(1, resolved))
	t.Logf("callees against gopls: sites precision %.3f recall %.3f (tp %d fp %d fn %d); resolution precision %.3f (%d/%d)",
		prec, rec, tp, fp, fn, res, right, resolved)
	if tp == 0 || prec < calleesMinPrecision || rec < calleesMinRecall || res < calleesMinResolution {
		t.Errorf("below the floors (sites precision %.2f, recall %.2f, resolution %.2f)", calleesMinPrecision, calleesMinRecall, calleesMinResolution)
	}
}

// Floors of the callees against gopls, a little under what was measured
// (docs/benchmarks.md, "What a function calls").
const (
	calleesMinPrecision  = 0.9
	calleesMinRecall     = 0.95
	calleesMinResolution = 0.95
)

// goplsCallee matches a callee line of `gopls call_hierarchy`:
// "callee[0]: ranges 316:11-23, 320:4-9 in /abs/mux.go from/to function
// RouteContext in /abs/context.go:27:6-18".
var goplsCallee = regexp.MustCompile(`^callee\[\d+\]: ranges (.*) in (\S+) from/to \S+ \S+ in (\S+):(\d+):\d+-\d+$`)

// goplsCallees runs gopls' call hierarchy at n's name and returns the
// call sites in n's file, "path:line:column" (root-relative), each with
// the "path:line" of the definition it calls (outside the root: its
// absolute path); false for a file gopls does not load.
func goplsCallees(t *testing.T, gopls, root string, n *Node) (map[string]string, bool) {
	t.Helper()
	pos := fmt.Sprintf("%s:%d:%d", filepath.Join(root, n.Path), n.NameLine, n.NameColumn)
	res, err := safeexec.Run(context.Background(), safeexec.Invocation{Path: gopls, Args: []string{"call_hierarchy", pos},
		Dir: root, Env: os.Environ(), Timeout: 2 * time.Minute})
	if strings.Contains(string(res.Stderr), "no package metadata") {
		return nil, false // a file of another build (a build tag): gopls does not load it
	}
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("gopls call_hierarchy %s: %v %s", pos, err, res.Stderr)
	}
	rel := func(p string) string {
		if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
			return filepath.ToSlash(r)
		}
		return p
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(res.Stdout), "\n") {
		m := goplsCallee.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		def := rel(m[3]) + ":" + m[4]
		for _, r := range strings.Split(m[1], ", ") {
			l, c, ok := strings.Cut(r, ":")
			if !ok {
				continue
			}
			c, _, _ = strings.Cut(c, "-")
			if _, err := strconv.Atoi(l); err == nil {
				out[fmt.Sprintf("%s:%s:%s", rel(m[2]), l, c)] = def
			}
		}
	}
	return out, true
}

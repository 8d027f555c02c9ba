package graph

import (
	"fmt"
	"sort"
	"testing"

	"pgregory.net/rapid"
)

// randomGraph draws a graph of symbol nodes with random edges of the
// kinds an impact walks, cycles and self-loops allowed.
func randomGraph(t *rapid.T) *Graph {
	n := rapid.IntRange(1, 40).Draw(t, "nodes")
	g := &Graph{fileNode: map[string]int32{}, fileSyms: map[string][]int32{}, byName: map[string][]int32{}}
	for i := range n {
		name := fmt.Sprintf("f%d", i)
		g.Nodes = append(g.Nodes, Node{Path: "a.go", Name: name, Kind: "function", Line: i + 1, EndLine: i + 1})
		g.byName[name] = append(g.byName[name], int32(i))
		g.fileSyms["a.go"] = append(g.fileSyms["a.go"], int32(i))
	}
	m := rapid.IntRange(0, 3*n).Draw(t, "edges")
	kinds := []EdgeKind{Calls, References, Inherits, Imports}
	methods := []Method{Exact, ImportResolved, UniqueName, AmbiguousName}
	for range m {
		g.Edges = append(g.Edges, Edge{
			From:   rapid.IntRange(0, n-1).Draw(t, "from"),
			To:     rapid.IntRange(0, n-1).Draw(t, "to"),
			Kind:   rapid.SampledFrom(kinds).Draw(t, "kind"),
			Method: rapid.SampledFrom(methods).Draw(t, "method"),
			Path:   "a.go", Line: 1, Column: 1,
		})
	}
	g.index()
	return g
}

// distances is the oracle: shortest distances backwards (from users to
// used) from the targets, by repeated relaxation.
func distances(g *Graph, targets []int) map[int]int {
	d := map[int]int{}
	for _, t := range targets {
		d[t] = 0
	}
	for changed := true; changed; {
		changed = false
		for _, e := range g.Edges {
			if dt, ok := d[e.To]; ok {
				if df, ok := d[e.From]; !ok || dt+1 < df {
					d[e.From] = dt + 1
					changed = true
				}
			}
		}
	}
	return d
}

// TestImpactBounds: the walk never goes past its depth or its node bound,
// terminates on cycles, reports each node once at its shortest distance
// through a real edge to a node one step nearer, and when it is not
// truncated reports every node within the depth.
func TestImpactBounds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := randomGraph(t)
		target := rapid.IntRange(0, len(g.Nodes)-1).Draw(t, "target")
		depth := rapid.IntRange(1, 5).Draw(t, "depth")
		maxNodes := rapid.IntRange(1, 50).Draw(t, "maxNodes")
		im := g.Impact(Query{Targets: []Target{{Symbol: g.Nodes[target].Name}}, Depth: depth, MaxNodes: maxNodes})
		if got := len(im.Affected) + len(im.Callers); got > maxNodes {
			t.Fatalf("%d nodes reported, bound %d", got, maxNodes)
		}
		oracle := distances(g, []int{target})
		at := map[string]int{g.Nodes[target].Key(): 0}
		for _, h := range im.Callers {
			if h.Depth < 1 || h.Depth > depth {
				t.Fatalf("%s at depth %d, bound %d", h.Symbol, h.Depth, depth)
			}
			if _, dup := at[h.Symbol]; dup {
				t.Fatalf("%s reported twice", h.Symbol)
			}
			at[h.Symbol] = h.Depth
		}
		for _, h := range im.Callers {
			var n int
			fmt.Sscanf(h.Name, "f%d", &n)
			if oracle[n] != h.Depth {
				t.Fatalf("%s at depth %d, shortest is %d", h.Symbol, h.Depth, oracle[n])
			}
			if d, ok := at[h.Via.To]; !ok || d != h.Depth-1 {
				t.Fatalf("%s reached via %s, which is not one step nearer", h.Symbol, h.Via.To)
			}
			found := false
			for _, ei := range g.out[n] {
				if e := &g.Edges[ei]; g.Nodes[e.To].Key() == h.Via.To && e.Kind == h.Via.Kind {
					found = true
				}
			}
			if !found {
				t.Fatalf("%s: no %s edge to %s", h.Symbol, h.Via.Kind, h.Via.To)
			}
		}
		if !im.Truncated {
			for n, d := range oracle {
				if d >= 1 && d <= depth {
					if _, ok := at[g.Nodes[n].Key()]; !ok {
						t.Fatalf("%s at distance %d not reported", g.Nodes[n].Key(), d)
					}
				}
			}
		}
		mix := im.Mix.Exact + im.Mix.InferredHigh + im.Mix.Inferred
		if mix != len(im.Callers) {
			t.Fatalf("mix counts %d edges for %d callers", mix, len(im.Callers))
		}
		if im.Risk < 0 || im.Risk > 1 {
			t.Fatalf("risk %v", im.Risk)
		}
	})
}

// TestSCCOracle compares Tarjan's components with mutual reachability
// computed by a transitive closure.
func TestSCCOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 30).Draw(t, "n")
		adj := make([][]int, n)
		reach := make([][]bool, n)
		for i := range n {
			reach[i] = make([]bool, n)
			reach[i][i] = true
		}
		if n > 0 {
			for range rapid.IntRange(0, 4*n).Draw(t, "m") {
				a, b := rapid.IntRange(0, n-1).Draw(t, "a"), rapid.IntRange(0, n-1).Draw(t, "b")
				adj[a] = append(adj[a], b)
				reach[a][b] = true
			}
		}
		for k := range n {
			for i := range n {
				for j := range n {
					if reach[i][k] && reach[k][j] {
						reach[i][j] = true
					}
				}
			}
		}
		var want [][]int
		done := make([]bool, n)
		for i := range n {
			if done[i] {
				continue
			}
			var c []int
			for j := range n {
				if reach[i][j] && reach[j][i] {
					c = append(c, j)
					done[j] = true
				}
			}
			want = append(want, c)
		}
		got := SCC(n, func(v int) []int { return adj[v] })
		sort.Slice(want, func(i, j int) bool { return want[i][0] < want[j][0] })
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("SCC = %v, want %v", got, want)
		}
	})
}

// TestSCCDeepChain: a chain longer than any recursion would survive.
func TestSCCDeepChain(t *testing.T) {
	const n = 1_000_000
	comps := SCC(n, func(v int) []int {
		if v == n-1 {
			return []int{0} // one cycle through every node
		}
		return []int{v + 1}
	})
	if len(comps) != 1 || len(comps[0]) != n {
		t.Fatalf("%d components", len(comps))
	}
}

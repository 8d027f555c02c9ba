package graph

import "sort"

// SCC returns the strongly connected components of the directed graph of
// n nodes whose successors next gives, each sorted, components with the
// smallest member first. It runs Tarjan's algorithm with an explicit
// stack, so a long chain cannot exhaust the goroutine's stack.
func SCC(n int, next func(v int) []int) [][]int {
	const unvisited = -1
	idx := make([]int, n)
	low := make([]int, n)
	on := make([]bool, n)
	for i := range idx {
		idx[i] = unvisited
	}
	var stack []int
	type frame struct {
		v    int
		succ []int
		i    int
	}
	var out [][]int
	counter := 0
	for root := range n {
		if idx[root] != unvisited {
			continue
		}
		call := []frame{{v: root, succ: next(root)}}
		idx[root], low[root] = counter, counter
		counter++
		stack = append(stack, root)
		on[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.i < len(f.succ) {
				w := f.succ[f.i]
				f.i++
				switch {
				case idx[w] == unvisited:
					idx[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					on[w] = true
					call = append(call, frame{v: w, succ: next(w)})
				case on[w]:
					low[f.v] = min(low[f.v], idx[w])
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] == idx[v] {
				var comp []int
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					on[w] = false
					comp = append(comp, w)
					if w == v {
						break
					}
				}
				sort.Ints(comp)
				out = append(out, comp)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// A Cycle is a strongly connected component of two or more nodes: each
// reaches every other through edges of the kinds asked for.
type Cycle struct {
	// Nodes are the members, as node keys, sorted.
	Nodes []string `json:"nodes"`
	// Files is how many files the members span.
	Files int `json:"files"`
}

// defaultCycleKinds are the edge kinds a dependency cycle is made of.
var defaultCycleKinds = []EdgeKind{Calls, References, Inherits, Implements, Imports}

// Cycles returns the graph's cycles through edges of the given kinds
// (when none: calls, references, inherits, implements and imports, every
// kind but tests), largest first, at most limit of them
// (all when limit ≤ 0).
func (g *Graph) Cycles(limit int, kinds ...EdgeKind) []Cycle {
	if len(kinds) == 0 {
		kinds = defaultCycleKinds
	}
	want := map[EdgeKind]bool{}
	for _, k := range kinds {
		want[k] = true
	}
	var buf []int
	comps := SCC(len(g.Nodes), func(v int) []int {
		buf = buf[:0:0] // a fresh slice: the walk keeps it
		for _, e := range g.out[v] {
			if ed := &g.Edges[e]; want[ed.Kind] {
				buf = append(buf, ed.To)
			}
		}
		return buf
	})
	var out []Cycle
	for _, c := range comps {
		if len(c) < 2 {
			continue
		}
		out = append(out, g.cycleOf(c))
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].Nodes) > len(out[j].Nodes) })
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}

// cycleOf returns the cycle made of the nodes ids, their keys sorted.
func (g *Graph) cycleOf(ids []int) Cycle {
	cy := Cycle{}
	files := map[string]bool{}
	for _, id := range ids {
		n := &g.Nodes[id]
		cy.Nodes = append(cy.Nodes, n.Key())
		files[n.Path] = true
	}
	sort.Strings(cy.Nodes)
	cy.Files = len(files)
	return cy
}

package graph

import (
	"path"
	"slices"
	"strings"

	"github.com/codecortex/codecortex/symbols"
)

// A Go method and the interface methods it implements are one operation
// to the code that calls them: a call through the interface may run the
// method, and gopls answers the references of either with the uses of
// both. So a walk from a Go method starts as well from the methods of
// that name of the interfaces its type implements (the implements edges
// method-set matching found), and a walk from an interface's method from
// those of the types that implement the interface. A use reached through
// one of them names it as what it uses (Via, TargetSymbol), so the
// answer says the call went through the interface.

// withShared returns nodes and, after them, the Go methods that share
// uses with one of them (see the comment at the top), each once.
func (g *Graph) withShared(nodes []int) []int {
	out := nodes
	for _, n := range nodes {
		for _, m := range g.sharedWith(n) {
			if !slices.Contains(out, m) {
				if len(out) == len(nodes) {
					out = append([]int(nil), nodes...)
				}
				out = append(out, m)
			}
		}
	}
	return out
}

// sharedWith returns the Go methods that share uses with node n: for a
// type's method, the same-named methods of the interfaces the type
// implements; for an interface's method, those of the types implementing
// the interface.
func (g *Graph) sharedWith(n int) []int {
	nd := &g.Nodes[n]
	if !goMember(nd) {
		return nil
	}
	var out []int
	add := func(t int) {
		tn := &g.Nodes[t]
		for _, m := range g.goMethods(goType{tn.Name, path.Dir(tn.Path)}, nd.Name) {
			out = append(out, int(m))
		}
	}
	for _, owner := range g.byName[normContainer(nd.Container)] {
		on := &g.Nodes[owner]
		if !goOwner(nd, on) {
			continue
		}
		if on.Kind == string(symbols.Interface) {
			for _, ei := range g.in[owner] {
				if e := &g.Edges[ei]; e.Kind == Implements {
					add(e.From)
				}
			}
			continue
		}
		for _, ei := range g.out[owner] {
			if e := &g.Edges[ei]; e.Kind == Implements && g.Nodes[e.To].Kind == string(symbols.Interface) {
				add(e.To)
			}
		}
	}
	return out
}

// goMember reports whether n is a member of a Go type.
func goMember(n *Node) bool {
	return n.Kind != NodeKindFile && n.Container != "" && strings.HasSuffix(n.Path, ".go")
}

// goOwner reports whether t is the Go type member m is declared on: a type
// of m's package named as m's receiver.
func goOwner(m, t *Node) bool {
	return goTopType(t) && t.Name == normContainer(m.Container) && path.Dir(t.Path) == path.Dir(m.Path) &&
		strings.HasSuffix(t.Path, ".go")
}

// implementsKind is the edge kind method-set matching adds.
var implementsKind = map[EdgeKind]bool{Implements: true}

// addShared puts in the part what Graph.withShared looks at for the roots
// (the types the Go methods among them are declared on, those types'
// implements edges, the methods of their names) and returns the roots
// followed by the methods that share their uses, in the whole graph's
// numbering.
func (v *snapView) addShared(roots []int32) ([]int32, error) {
	any := false
	for _, r := range roots {
		nd, err := v.node(r)
		if err != nil {
			return nil, err
		}
		if !goMember(&nd) {
			continue
		}
		any = true
		if err := v.addNamed(nd.Name); err != nil {
			return nil, err
		}
		owners, err := v.named(normContainer(nd.Container))
		if err != nil {
			return nil, err
		}
		for _, o := range owners {
			on, err := v.node(o)
			if err != nil {
				return nil, err
			}
			if !goOwner(&nd, &on) {
				continue
			}
			if err := v.addNode(o); err != nil {
				return nil, err
			}
			in, err := v.in(o, implementsKind)
			if err != nil {
				return nil, err
			}
			out, err := v.out(o, implementsKind)
			if err != nil {
				return nil, err
			}
			for _, ei := range append(in, out...) {
				if _, err := v.addEdge(ei); err != nil {
					return nil, err
				}
			}
		}
	}
	if !any {
		return roots, nil
	}
	g, ids := v.graph()
	g.index()
	pos := make([]int, 0, len(roots))
	for _, r := range roots {
		if k, ok := slices.BinarySearch(ids, r); ok {
			pos = append(pos, k)
		}
	}
	out := roots
	for _, k := range g.withShared(pos)[len(pos):] {
		out = append(out, ids[k])
	}
	return out, nil
}

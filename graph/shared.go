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
	if nd.Kind == NodeKindFile || nd.Container == "" || !strings.HasSuffix(nd.Path, ".go") {
		return nil
	}
	var out []int
	for _, owner := range g.ownerTypes(nd) {
		if g.Nodes[owner].Kind == string(symbols.Interface) {
			for _, ei := range g.in[owner] {
				if e := &g.Edges[ei]; e.Kind == Implements {
					out = append(out, g.methodsOf(e.From, nd.Name)...)
				}
			}
			continue
		}
		for _, ei := range g.out[owner] {
			if e := &g.Edges[ei]; e.Kind == Implements && g.Nodes[e.To].Kind == string(symbols.Interface) {
				out = append(out, g.methodsOf(e.To, nd.Name)...)
			}
		}
	}
	return out
}

// ownerTypes returns the type nodes a Go method node is declared on: the
// package-level definitions named its receiver's type in its directory.
func (g *Graph) ownerTypes(nd *Node) []int {
	owner, dir := strings.TrimLeft(nd.Container, "*&"), path.Dir(nd.Path)
	var out []int
	for _, t := range g.byName[owner] {
		if tn := &g.Nodes[t]; tn.Container == "" && path.Dir(tn.Path) == dir && strings.HasSuffix(tn.Path, ".go") && goTypeKind(tn.Kind) {
			out = append(out, int(t))
		}
	}
	return out
}

// methodsOf returns the methods called name declared on type node t.
func (g *Graph) methodsOf(t int, name string) []int {
	tn := &g.Nodes[t]
	dir := path.Dir(tn.Path)
	var out []int
	for _, m := range g.byName[name] {
		if mn := &g.Nodes[m]; strings.TrimLeft(mn.Container, "*&") == tn.Name && path.Dir(mn.Path) == dir && strings.HasSuffix(mn.Path, ".go") {
			out = append(out, int(m))
		}
	}
	return out
}

// goTypeKind reports whether a node of kind k is a Go type a method may be
// declared on or an interface.
func goTypeKind(k string) bool {
	switch symbols.Kind(k) {
	case symbols.Struct, symbols.Interface, symbols.Type:
		return true
	}
	return false
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
		if nd.Kind == NodeKindFile || nd.Container == "" || !strings.HasSuffix(nd.Path, ".go") {
			continue
		}
		any = true
		if err := v.addNamed(nd.Name); err != nil {
			return nil, err
		}
		owners, err := v.named(strings.TrimLeft(nd.Container, "*&"))
		if err != nil {
			return nil, err
		}
		for _, o := range owners {
			on, err := v.node(o)
			if err != nil {
				return nil, err
			}
			if on.Container != "" || path.Dir(on.Path) != path.Dir(nd.Path) || !goTypeKind(on.Kind) {
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

// addNamed puts the definitions called name in the part.
func (v *snapView) addNamed(name string) error {
	ns, err := v.named(name)
	if err != nil {
		return err
	}
	for _, n := range ns {
		if err := v.addNode(n); err != nil {
			return err
		}
	}
	return nil
}

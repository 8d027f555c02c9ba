package graph

import (
	"github.com/codecortex/codecortex/trust"
)

// A Related is a type that extends or implements another, or one that
// another extends or implements (see [Graph.Subtypes] and
// [Graph.Supertypes]), with where to show it.
type Related struct {
	// Node is the related type's node; for a Rust impl of a type the
	// project does not define (impl Bound for u8), the impl's file.
	Node int `json:"node"`
	// Name is the related type's qualified name (the impl's type for a
	// Rust impl).
	Name string `json:"name"`
	// Super is the node Node relates to on the last step: the supertype
	// it extends or implements (one of the roots, for a direct subtype);
	// for a supertype, the root it is a supertype of.
	Super int `json:"super"`
	// Via is the edge of the last step: into Node's direct supertype, or
	// out of Of to Node for a supertype.
	Via int32 `json:"via"`
	// Depth is how many edges away from the roots Node is: 1 for a
	// direct subtype or supertype.
	Depth int `json:"depth"`
	// Tier is the weakest tier of the edges on the way.
	Tier trust.Tier `json:"tier"`
	// Path, Line and Column are where to show it: the subtype's name at
	// its definition, or for a relation declared apart from the type (a
	// Rust impl block), where it is declared.
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	// Span is the width of the name shown, in code points.
	Span int `json:"span"`
}

// MaxSubtypeDepth bounds how many steps [Graph.Subtypes] walks down.
const MaxSubtypeDepth = 8

// relationKinds are the edges a subtype walk follows.
var relationKinds = map[EdgeKind]bool{Inherits: true, Implements: true}

// Subtypes returns the types that extend or implement the roots (type
// nodes; others are ignored), each once, at its shortest depth, by its
// strongest edge, at most maxNodes; a root is never its own subtype.
//
// It walks breadth first, to at most MaxSubtypeDepth steps: the direct
// subtypes of any kind, then the indirect ones that are not interfaces.
// Of a class, every class a value of it may be: its subclasses, theirs,
// and so on. Of an interface (a trait, a protocol), every type that
// implements it, through the interfaces that extend it and the classes
// that implement those (what a type checker accepts where the interface
// is expected). Each says its depth and the supertype of its last step,
// so that an indirect subclass reads as one.
func (g *Graph) Subtypes(roots []int, maxNodes int) []Related {
	seen := map[int]bool{}
	type step struct {
		node int
		tier trust.Tier
	}
	var frontier []step
	for _, r := range roots {
		if r >= 0 && r < len(g.Nodes) && isType(&g.Nodes[r]) && !seen[r] {
			seen[r] = true
			frontier = append(frontier, step{r, trust.Exact})
		}
	}
	var out []Related
	for d := 1; d <= MaxSubtypeDepth && len(frontier) > 0 && len(out) < maxNodes; d++ {
		var next []step
		best := map[int]int{} // a node reached at this depth: its index in out
		for _, s := range frontier {
			for _, ei := range g.in[s.node] {
				e := &g.Edges[ei]
				if !relationKinds[e.Kind] {
					continue
				}
				from := &g.Nodes[e.From]
				tier := min(s.tier, e.Tier())
				if from.Kind == NodeKindFile && e.Of == "" || seen[e.From] && from.Kind != NodeKindFile {
					continue
				}
				if i, ok := best[e.From]; ok && from.Kind != NodeKindFile {
					if tier > out[i].Tier {
						out[i].Tier, out[i].Via, out[i].Super = tier, ei, s.node
					}
					continue
				}
				if from.Kind != NodeKindFile {
					seen[e.From] = true
					next = append(next, step{e.From, tier})
				}
				if d > 1 && from.Kind == "interface" || len(out) >= maxNodes {
					continue
				}
				best[e.From] = len(out)
				out = append(out, g.related(e.From, s.node, ei, d, tier))
			}
		}
		frontier = next
	}
	return out
}

// Supertypes returns what the roots (type nodes) extend or implement
// directly, each once, by its strongest edge, at most maxNodes.
func (g *Graph) Supertypes(roots []int, maxNodes int) []Related {
	seen := map[int]int{}
	var out []Related
	for _, r := range roots {
		if r < 0 || r >= len(g.Nodes) || !isType(&g.Nodes[r]) {
			continue
		}
		for _, ei := range g.out[r] {
			e := &g.Edges[ei]
			if !relationKinds[e.Kind] {
				continue
			}
			if i, ok := seen[e.To]; ok {
				if e.Tier() > out[i].Tier {
					out[i].Tier, out[i].Via = e.Tier(), ei
				}
				continue
			}
			if len(out) >= maxNodes {
				return out
			}
			to := &g.Nodes[e.To]
			seen[e.To] = len(out)
			out = append(out, Related{Node: e.To, Name: to.Qualified(), Super: r, Via: ei, Depth: 1, Tier: e.Tier(),
				Path: to.Path, Line: to.NameLine, Column: to.NameColumn, Span: len([]rune(to.Name))})
		}
	}
	return out
}

// related is the Related of node n reached by edge ei into super.
func (g *Graph) related(n, super int, ei int32, depth int, t trust.Tier) Related {
	e := &g.Edges[ei]
	nd := &g.Nodes[n]
	r := Related{Node: n, Name: nd.Qualified(), Super: super, Via: ei, Depth: depth, Tier: t,
		Path: nd.Path, Line: nd.NameLine, Column: nd.NameColumn, Span: len([]rune(nd.Name))}
	if e.Of != "" {
		// Declared apart (a Rust impl, in a file of its own or the
		// type's): shown where it is declared.
		r.Path, r.Line, r.Column, r.Span = e.Path, e.Line, e.Column, e.Span
		if nd.Kind == NodeKindFile {
			r.Name = e.Of
		}
	}
	if r.Line < 1 {
		r.Line, r.Column = max(nd.Line, 1), 1
	}
	return r
}

package graph

import (
	"iter"
	"path"
	"strings"

	"github.com/codecortex/codecortex/evidence"
)

// fuse adds the exact edges: a reference record links the definition
// holding the use to the definition its symbol names, an implementation
// record the implementer to what it implements. An inferred edge between
// the same nodes becomes exact (its kind kept); a record whose ends the
// graph cannot place is counted in ExactUnplaced.
func (b *builder) fuse(recs iter.Seq[evidence.Record]) {
	g := b.g
	cache := map[string]int{}
	target := func(sym string) int {
		if n, ok := cache[sym]; ok {
			return n
		}
		n := g.scipNode(sym)
		cache[sym] = n
		return n
	}
	for r := range recs {
		if r.Path == "" {
			continue
		}
		var from, to int
		kind := References
		switch r.Kind {
		case evidence.Reference:
			from = g.enclosingLine(r.Path, r.StartLine)
			to = target(r.TargetSymbol)
		case evidence.Implementation:
			from = g.enclosingLine(r.Path, r.StartLine)
			to = target(r.TargetSymbol)
			kind = Implements
		default:
			continue
		}
		if from < 0 || to < 0 {
			g.ExactUnplaced++
			continue
		}
		if from == to && r.StartLine == g.Nodes[from].Line {
			continue // a definition's own occurrence
		}
		e := Edge{From: from, To: to, Kind: kind, Method: Exact, Path: r.Path, Line: r.StartLine, Column: r.StartColumn,
			Span: max(0, r.EndColumn-r.StartColumn), Stale: r.Stale}
		// An inferred edge between the same nodes at the same line, of any
		// kind, is the same use: confirm it.
		confirmed := false
		for _, k := range []EdgeKind{Calls, References, Inherits, Implements} {
			if i, ok := b.seen[edgeKey{from: int32(from), to: int32(to), line: int32(r.StartLine), kind: kindCode(k)}]; ok {
				old := b.edge(i)
				if e.Tier() > old.Tier() {
					old.Method, old.Stale = Exact, r.Stale
				}
				confirmed = true
			}
		}
		if !confirmed {
			b.addEdge(e)
		}
	}
}

// scipNode returns the definition a SCIP symbol names, or -1: by the
// last descriptor's name, its enclosing type's, and the package path's
// last elements against the definition's directory.
func (g *Graph) scipNode(sym string) int {
	name, container, pkg := parseSCIP(sym)
	if name == "" {
		return -1
	}
	var cands []int
	for _, n := range g.byName[name] {
		nd := &g.Nodes[n]
		if normContainer(nd.Container) == container || container == "" && nd.Container == "" {
			cands = append(cands, int(n))
		}
	}
	if len(cands) > 1 && pkg != "" {
		var in []int
		for _, n := range cands {
			dir := path.Dir(g.Nodes[n].Path)
			if dir == "." || pkg == dir || strings.HasSuffix(pkg, "/"+dir) {
				in = append(in, n)
			}
		}
		cands = in
	}
	if len(cands) != 1 {
		return -1
	}
	return cands[0]
}

// parseSCIP reads a SCIP symbol ("scip-go gomod example.com/m v1
// `example.com/m/pkg`/Type#Method().") into the last descriptor's name,
// the type holding it and the package path.
func parseSCIP(sym string) (name, container, pkg string) {
	if i := strings.IndexByte(sym, '`'); i >= 0 {
		if j := strings.IndexByte(sym[i+1:], '`'); j >= 0 {
			pkg = sym[i+1 : i+1+j]
		}
	}
	d := sym
	if i := strings.LastIndexAny(d, " `"); i >= 0 {
		d = d[i+1:]
	}
	d = strings.TrimRight(d, ".:!")
	if i := strings.LastIndexByte(d, '('); i >= 0 && strings.HasSuffix(d, ")") {
		d = d[:i]
	}
	name, rest := trailingIdent(d)
	if strings.HasSuffix(rest, "#") {
		container, _ = trailingIdent(strings.TrimSuffix(rest, "#"))
	}
	return name, container, pkg
}

// trailingIdent splits s into its trailing identifier and what precedes it.
func trailingIdent(s string) (ident, rest string) {
	i := len(s)
	for i > 0 {
		c := s[i-1]
		if c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 {
			i--
			continue
		}
		break
	}
	return s[i:], s[:i]
}

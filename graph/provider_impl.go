package graph

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/symbols"
	"github.com/codecortex/codecortex/trust"
)

// MaxImplementations bounds the records of one implementations answer.
const MaxImplementations = 200

// The relation attribute of implementation records, as the precision
// layer writes it: Symbol implements or extends TargetSymbol, or (for a
// type that nothing extends) TargetSymbol implements Symbol.
const (
	relationAttribute     = "relation"
	relationImplements    = "implements"
	relationImplementedBy = "implemented_by"
)

// interfaceWeight scales the confidence of a subtype that is itself an
// interface: it extends the type asked about but implements nothing, so
// the types that do come first, the direct ones and those reached through
// it alike (an implementation's confidence falls by a tenth a step, to
// half at most).
const interfaceWeight = 0.45

// asksImplementations reports whether q asks for implementations alone.
func asksImplementations(q evidence.Query) bool {
	return len(q.Kinds) > 0 && !slices.ContainsFunc(q.Kinds, func(k evidence.Kind) bool { return k != evidence.Implementation })
}

// implementations answers a question for implementations alone: one
// record per subtype of the types the query names, at the subtype's
// definition (or, for a Rust impl, at the impl), the direct ones first;
// for a type nothing extends, what it extends or implements. ok is false
// when the query names no type, so that the caller answers as for any
// other kind.
func (p *Provider) implementations(ctx context.Context, q evidence.Query) (evidence.Response, bool, error) {
	t := Target{Symbol: q.Symbol}
	if q.Symbol == "" {
		t = Target{Path: q.Path, StartLine: q.Line}
	}
	part := func(v *snapView) (*Graph, error) { return v.implementationsPart(t) }
	g, err := p.graphFor(ctx, part)
	if err != nil {
		return evidence.Response{}, false, err
	}
	if names := p.unreadMethods(g, t); len(names) > 0 {
		// At first contact the index holds the files that name the
		// interface; a type that implements it need not: index those
		// that name its methods too, and build the graph again.
		if g, err = p.graphFor(index.WithNames(ctx, names...), part); err != nil {
			return evidence.Response{}, false, err
		}
	}
	roots, _ := g.resolve(t)
	roots = slices.DeleteFunc(roots, func(n int) bool { return !isType(&g.Nodes[n]) })
	if slices.ContainsFunc(roots, func(n int) bool { return goInterfaceNode(&g.Nodes[n]) }) {
		// A Go name of an interface and of other types (logrus's Hook
		// and its hooks' Hook structs): what implements the interface is
		// asked; a Go struct has no implementations, and those structs
		// may be some.
		roots = slices.DeleteFunc(roots, func(n int) bool {
			nd := &g.Nodes[n]
			return strings.HasSuffix(nd.Path, ".go") && !goInterfaceNode(nd)
		})
	}
	if len(roots) == 0 {
		if iface, ok := knownKey(q.Symbol, g.known); ok && q.Symbol != "" {
			resp := g.knownImplementations(iface)
			if sf := g.StaleFiles(); sf != nil {
				resp.Report.Reason = joinReason(resp.Report.Reason, staleNote(sf))
			}
			return resp, true, nil
		}
		if _, ok := goKnownInterfaces[q.Symbol]; ok {
			resp := evidence.Response{Report: evidence.Report{Provider: ProviderName, State: evidence.Available,
				Reason: fmt.Sprintf("nothing in the project implements %s, the standard library's interface", q.Symbol)}}
			return resp, true, nil
		}
		return evidence.Response{}, false, nil
	}
	rel := g.Subtypes(roots, MaxImplementations)
	relation := relationImplements
	if len(rel) == 0 {
		rel, relation = g.Supertypes(roots, MaxImplementations), relationImplementedBy
	}
	resp := evidence.Response{Report: evidence.Report{Provider: ProviderName, State: evidence.Available}}
	for _, r := range rel {
		resp.Records = append(resp.Records, g.relatedRecord(r, relation))
	}
	if len(rel) == 0 {
		resp.Report.Reason = fmt.Sprintf("nothing in the project graph extends or implements %s, and it extends nothing", g.Nodes[roots[0]].Qualified())
	}
	if sf := g.StaleFiles(); sf != nil {
		resp.Report.Reason = joinReason(resp.Report.Reason, staleNote(sf))
	}
	return resp, true, nil
}

// unreadMethods returns, while the index is partial (a first contact,
// focused on the names asked), the names of the methods of the Go
// interfaces t names, which the files of the types implementing them
// define without naming the interface; none when the index is whole.
func (p *Provider) unreadMethods(g *Graph, t Target) []string {
	p.mu.Lock()
	partial := p.fresh.State == index.Partial
	p.mu.Unlock()
	if !partial {
		return nil
	}
	roots, _ := g.resolve(t)
	var names []string
	for _, r := range roots {
		iface := &g.Nodes[r]
		if !goInterfaceNode(iface) {
			continue
		}
		for _, s := range g.fileSyms[iface.Path] {
			if n := &g.Nodes[s]; n.Container == iface.Name && n.Kind == string(symbols.Method) && !slices.Contains(names, n.Name) {
				names = append(names, n.Name)
			}
		}
	}
	return names
}

// goInterfaceNode reports whether n is a Go interface.
func goInterfaceNode(n *Node) bool {
	return n.Kind == string(symbols.Interface) && strings.HasSuffix(n.Path, ".go")
}

// relatedRecord is the implementation record of r.
func (g *Graph) relatedRecord(r Related, relation string) evidence.Record {
	e := &g.Edges[r.Via]
	super := g.Nodes[r.Super].Qualified()
	sym, target := r.Name, super // for a supertype, super is the root asked about
	tier := r.Tier
	conf := map[trust.Tier]float64{trust.Exact: 1, trust.InferredHigh: 0.8, trust.Inferred: 0.5}[tier]
	if relation == relationImplements && g.Nodes[r.Node].Kind == "interface" {
		conf *= interfaceWeight / float64(r.Depth)
	} else {
		conf *= max(0.5, 1-0.1*float64(r.Depth-1))
	}
	prov := trust.Heuristic
	switch tier {
	case trust.Exact:
		prov = trust.PrecisionIndex
	case trust.InferredHigh:
		prov = trust.GraphRelation
	}
	rec := evidence.Record{Kind: evidence.Implementation, Provider: ProviderName, Provenance: prov, Trust: tier,
		Path: r.Path, StartLine: r.Line, StartColumn: max(r.Column, 1), EndLine: r.Line, EndColumn: max(r.Column, 1) + max(r.Span, 0),
		Symbol: sym, TargetSymbol: target, Confidence: conf, Exact: tier == trust.Exact,
		Metadata: evidence.Metadata{
			Excerpt: fmt.Sprintf("%s %s %s (depth %d, %s)", r.Name, e.Kind, super, r.Depth, e.Method),
			Attributes: map[string]string{"depth": strconv.Itoa(r.Depth), "method": string(e.Method), "edge": string(e.Kind),
				relationAttribute: relation},
		}}
	if relation == relationImplementedBy {
		rec.Metadata.Excerpt = fmt.Sprintf("%s %s %s (%s)", super, e.Kind, r.Name, e.Method)
	}
	if e.Stale || g.Nodes[r.Node].Stale {
		rec = evidence.MarkStale(rec)
	}
	return rec
}

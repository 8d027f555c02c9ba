package graph

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/symbols"
	"github.com/codecortex/codecortex/trust"
)

// MaxCallees bounds the records of one callees answer.
const MaxCallees = 500

// calleeKinds are the edges a call site may resolve by: a call, or the
// reference an exact index records at it.
var calleeKinds = map[EdgeKind]bool{Calls: true, References: true}

// callees answers an outgoing question (see [evidence.Query.Outgoing]):
// for each function or method the query names, one record per call
// written in its body (calls in a nested named function are that
// function's), at the call. A call the graph resolved names what it
// calls, at the edge's tier, one record per candidate; one it did not
// (a definition outside the project, or a call the syntax cannot place)
// names the callee as written, at the structural tier of the parse that
// found the call, with the attribute resolved=false.
func (p *Provider) callees(ctx context.Context, q evidence.Query) (evidence.Response, error) {
	t := Target{Symbol: q.Symbol}
	if q.Symbol == "" {
		t = Target{Path: q.Path, StartLine: q.Line}
	}
	g, err := p.graphFor(ctx, func(v *snapView) (*Graph, error) { return v.calleesPart(t) })
	if err != nil {
		return evidence.Response{}, graphUnavailable(err)
	}
	resp := evidence.Response{Report: evidence.Report{Provider: ProviderName, State: evidence.Available}}
	roots, _ := g.resolve(t)
	roots = slices.DeleteFunc(roots, func(n int) bool { return !callable(&g.Nodes[n]) })
	if len(roots) == 0 {
		resp.Report.Reason = fmt.Sprintf("%s names no function or method in the project graph", t)
		return resp, nil
	}
	var paths []string
	for _, n := range roots {
		if p := g.Nodes[n].Path; !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	p.mu.Lock()
	ix, err := p.index()
	p.mu.Unlock()
	if err != nil {
		return evidence.Response{}, graphUnavailable(err)
	}
	facts, err := ix.FactsOf(ctx, paths)
	if err != nil {
		return evidence.Response{}, graphUnavailable(err)
	}
	var resolved, outside int
	var unread []string
	for _, n := range roots {
		node := &g.Nodes[n]
		i := slices.IndexFunc(facts.Files, func(f index.FileFacts) bool { return f.Path == node.Path })
		if i < 0 {
			unread = append(unread, node.Path)
			continue
		}
		recs, in, out := g.calleeRecords(n, &facts.Files[i])
		resp.Records = append(resp.Records, recs...)
		resolved, outside = resolved+in, outside+out
	}
	if len(resp.Records) > MaxCallees {
		resp.Records = resp.Records[:MaxCallees]
		resp.Report.Reason = fmt.Sprintf("the first %d calls of %d", MaxCallees, resolved+outside)
	}
	switch {
	case len(unread) > 0:
		resp.Report.Reason = joinReason(resp.Report.Reason, "the index no longer holds "+strings.Join(unread, ", ")+": run `cortex index`")
	case resolved+outside == 0:
		resp.Report.Reason = fmt.Sprintf("the body of %s calls nothing", t)
	case outside > 0:
		resp.Report.Reason = joinReason(resp.Report.Reason, fmt.Sprintf("%d of the %d calls in %s are not resolved in the project graph: their definitions are outside the project, or the syntax does not show which they are",
			outside, resolved+outside, t))
	}
	if sf := g.StaleFiles(); sf != nil {
		resp.Report.Reason = joinReason(resp.Report.Reason, staleNote(sf))
	}
	if fr := facts.Freshness; fr.State == index.Partial && outside > 0 {
		resp.Report.Reason = joinReason(resp.Report.Reason, fmt.Sprintf("the local index is partial (%d files not indexed as they are now): "+
			"a call of a definition in one of them is not resolved; `cortex index` builds it whole", fr.PendingCount))
	}
	return resp, nil
}

// calleeRecords returns the records of the calls in the body of node n,
// whose file's facts are f, and how many of those calls the graph
// resolved and did not.
func (g *Graph) calleeRecords(n int, f *index.FileFacts) (recs []evidence.Record, resolved, outside int) {
	node := &g.Nodes[n]
	bySite := g.siteEdges(n)
	for _, site := range callSites(f, node) {
		es := bySite[[2]int{site.Line, site.Column}]
		if f.Language == "go" && g.goConversion(site, es) {
			continue
		}
		if len(es) == 0 || (site.Selected || site.Qualifier != "") && byNameOnly(es) {
			// A member called on a value whose type the graph does not
			// know (x.Load(), x.f.Load()), matched by its name alone, is
			// a guess: as often a method of the same name outside the
			// project, or an interface's.
			outside++
			rec := unresolvedCallee(node, f, site)
			if len(es) > 0 {
				var guesses []string
				for _, e := range es {
					guesses = append(guesses, g.Nodes[e.To].Key())
				}
				rec.Metadata.Attributes["guess"] = strings.Join(guesses, " ")
			}
			recs = append(recs, rec)
			continue
		}
		resolved++
		for _, e := range es {
			recs = append(recs, g.calleeRecord(node, e))
		}
	}
	return recs, resolved, outside
}

// callable reports whether n is a function or method.
func callable(n *Node) bool {
	return n.Kind == string(symbols.Function) || n.Kind == string(symbols.Method)
}

// callSites returns the calls of file f written in the body of the
// definition node names, in source order: those whose innermost
// enclosing function or method is that definition.
func callSites(f *index.FileFacts, node *Node) []symbols.Ref {
	def := slices.IndexFunc(f.Symbols, func(s symbols.Symbol) bool {
		return s.Name == node.Name && s.NameRange.StartLine == node.NameLine && s.NameRange.StartColumn == node.NameColumn
	})
	if def < 0 {
		return nil
	}
	body := f.Symbols[def].Range
	// The functions nested in the body, as disjoint spans in order: the
	// symbols are in order of their start, an outer one before what it
	// holds, so a span that starts inside the last one is part of it.
	var nested [][2]int
	for k := def + 1; k < len(f.Symbols) && f.Symbols[k].Range.StartByte < body.EndByte; k++ {
		s := &f.Symbols[k]
		if s.Kind != symbols.Function && s.Kind != symbols.Method || s.Range.EndByte > body.EndByte {
			continue
		}
		if n := len(nested); n > 0 && s.Range.StartByte < nested[n-1][1] {
			nested[n-1][1] = max(nested[n-1][1], s.Range.EndByte)
			continue
		}
		nested = append(nested, [2]int{s.Range.StartByte, s.Range.EndByte})
	}
	var out []symbols.Ref
	for _, r := range f.Refs {
		if r.Kind != symbols.Call || r.Byte < body.StartByte || r.Byte >= body.EndByte {
			continue
		}
		// The first nested span ending after the call holds it, if any.
		i, _ := slices.BinarySearchFunc(nested, r.Byte, func(sp [2]int, b int) int { return cmp.Compare(sp[1], b+1) })
		if i == len(nested) || r.Byte < nested[i][0] {
			out = append(out, r)
		}
	}
	return out
}

// siteEdges returns the call and reference edges out of node n by their
// site (line and column), at each site the exact ones alone when there are
// any. A call through an interface of the standard library calls that
// interface's method, outside the project, whatever methods of the
// package it may run (see addKnownUses).
func (g *Graph) siteEdges(n int) map[[2]int][]*Edge {
	out := map[[2]int][]*Edge{}
	for _, ei := range g.Outgoing(n) {
		e := &g.Edges[ei]
		if !calleeKinds[e.Kind] || e.Method == MethodSet {
			continue
		}
		k := [2]int{e.Line, e.Column}
		es := out[k]
		exact := len(es) > 0 && es[0].Method == Exact
		switch {
		case e.Method == Exact && !exact:
			out[k] = []*Edge{e}
		case e.Method == Exact || !exact:
			out[k] = append(es, e)
		}
	}
	return out
}

// goBuiltins are Go's predeclared functions: a call of one is no call of
// a definition.
var goBuiltins = map[string]bool{
	"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true, "delete": true,
	"imag": true, "len": true, "make": true, "max": true, "min": true, "new": true, "panic": true,
	"print": true, "println": true, "real": true, "recover": true,
}

// goConversion reports whether Go call site r, resolved by es, calls no
// function: a builtin, or a conversion to a predeclared type or to a type
// of the project.
func (g *Graph) goConversion(r symbols.Ref, es []*Edge) bool {
	if r.Qualifier == "" && !r.Selected && len(es) == 0 && (goBuiltins[r.Name] || goPredeclared[r.Name]) {
		return true
	}
	return len(es) > 0 && !slices.ContainsFunc(es, func(e *Edge) bool { return callable(&g.Nodes[e.To]) })
}

// byNameOnly reports whether every edge of es matched by name alone.
func byNameOnly(es []*Edge) bool {
	return !slices.ContainsFunc(es, func(e *Edge) bool { return e.Method != UniqueName && e.Method != AmbiguousName })
}

// calleeRecord is the record of call edge e out of node: located at the
// call, naming node as the caller and e's end as what it calls.
func (g *Graph) calleeRecord(node *Node, e *Edge) evidence.Record {
	to := &g.Nodes[e.To]
	rec, _ := callerRecord(Hit{Symbol: node.Key(), Test: node.Test},
		Via{Kind: Calls, Method: e.Method, To: to.Key(), Path: e.Path, Line: e.Line, Column: e.Column, Span: e.Span, Stale: e.Stale || to.Stale}, 1)
	rec.Kind = evidence.Call
	rec.Metadata.Excerpt = fmt.Sprintf("%s calls %s (%s)", node.Qualified(), to.Qualified(), e.Method)
	rec.Metadata.Attributes["resolved"] = "true"
	delete(rec.Metadata.Attributes, "edge")
	return rec
}

// unresolvedCallee is the record of call r in node's body that the graph
// did not resolve: the callee as written.
func unresolvedCallee(node *Node, f *index.FileFacts, r symbols.Ref) evidence.Record {
	callee := r.Name
	switch {
	case r.Qualifier != "" && r.Selected:
		callee = r.Qualifier + ".…." + r.Name // os.path.join, a.b().c()
	case r.Qualifier != "":
		callee = r.Qualifier + "." + r.Name
	}
	rec := evidence.Record{Kind: evidence.Call, Provider: ProviderName, Provenance: trust.SymbolIndex, Trust: trust.Structural,
		Path: f.Path, StartLine: r.Line, StartColumn: r.Column, EndLine: r.Line, EndColumn: r.Column + utf8.RuneCountInString(r.Name),
		Symbol: node.Key(), TargetSymbol: callee, Confidence: 0.5,
		Metadata: evidence.Metadata{
			Excerpt:    fmt.Sprintf("%s calls %s (not resolved in the project graph)", node.Qualified(), callee),
			Attributes: map[string]string{"depth": strconv.Itoa(1), "resolved": "false"},
		}}
	if node.Test {
		rec.Metadata.Attributes["test"] = "true"
	}
	if f.Stale {
		rec = evidence.MarkStale(rec)
	}
	return rec
}

// calleesPart reads the part of the snapshot a callees answer needs: the
// nodes t may name, and the call and reference edges out of each, with
// the nodes they end at.
func (v *snapView) calleesPart(t Target) (*Graph, error) {
	roots, err := v.roots([]Target{t})
	if err != nil {
		return nil, err
	}
	for _, r := range roots {
		es, err := v.out(r, calleeKinds)
		if err != nil {
			return nil, err
		}
		for _, ei := range es {
			if err := v.addOfKinds(ei, calleeKinds); err != nil {
				return nil, err
			}
		}
	}
	g, _ := v.graph()
	return g, nil
}

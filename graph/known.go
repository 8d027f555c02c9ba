package graph

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/trust"
)

// A Go interface of the standard library (fmt.Stringer, io.Reader,
// error) has no node in the project graph, yet "what implements
// fmt.Stringer?" is among the commonest questions about a Go project. The
// build matches every Go type's method set against the interfaces of
// goKnownInterfaces (matchKnown) and keeps the types that implement each
// (Graph.known, a section of the snapshot).

// knownInterface returns the standard library interface sym names, as
// goKnownInterfaces keys it: by that key, or by its last name when one
// key alone ends in it (Stringer for fmt.Stringer).
func knownInterface(sym string) (string, bool) {
	if _, ok := goKnownInterfaces[sym]; ok {
		return sym, true
	}
	if strings.ContainsAny(sym, ".:#") {
		return "", false
	}
	found := ""
	for k := range goKnownInterfaces {
		if _, last, ok := strings.Cut(k, "."); ok && last == sym {
			if found != "" {
				return "", false // io.Reader or another Reader: not known which
			}
			found = k
		}
	}
	return found, found != ""
}

// knownImplementations answers "what implements iface?" for a standard
// library interface: one record per project type whose method set (its
// own methods and those promoted by embedding) has every method iface
// asks for, by name and number of parameters and results (see
// matchKnown), at the type's name, inferred_high as a method-set edge of
// the graph is; the report says how they were found.
func (g *Graph) knownImplementations(iface string) evidence.Response {
	resp := evidence.Response{Report: evidence.Report{Provider: ProviderName, State: evidence.Available}}
	for _, n := range g.known[iface] {
		if len(resp.Records) >= MaxImplementations {
			break
		}
		nd := &g.Nodes[n]
		sym := nd.Qualified()
		r := evidence.Record{Kind: evidence.Implementation, Provider: ProviderName, Provenance: trust.GraphRelation,
			Trust: trust.InferredHigh, Path: nd.Path, StartLine: max(nd.NameLine, 1), StartColumn: max(nd.NameColumn, 1),
			EndLine: max(nd.NameLine, 1), EndColumn: max(nd.NameColumn, 1) + len([]rune(nd.Name)),
			Symbol: sym, TargetSymbol: iface, Confidence: 0.8,
			Metadata: evidence.Metadata{
				Excerpt: fmt.Sprintf("%s %s %s (depth 1, %s)", sym, Implements, iface, MethodSet),
				Attributes: map[string]string{"depth": "1", "method": string(MethodSet), "edge": string(Implements),
					relationAttribute: relationImplements},
			}}
		if nd.Stale {
			r = evidence.MarkStale(r)
		}
		resp.Records = append(resp.Records, r)
	}
	resp.Report.Reason = fmt.Sprintf("%s is the standard library's: its implementations are the project's types whose methods, "+
		"their own and those promoted by embedding, include each of its (%s) by name and number of parameters and results",
		iface, strings.Join(slices.Sorted(maps.Keys(goKnownInterfaces[iface])), ", "))
	if len(g.known[iface]) > len(resp.Records) {
		resp.Report.Reason += fmt.Sprintf("; the first %d of %d", len(resp.Records), len(g.known[iface]))
	}
	return resp
}

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

// knownKey returns the key of known that sym names: sym itself, or, for
// a name without qualifier, the one key whose last name it is (Stringer
// for fmt.Stringer, Component for React.Component).
func knownKey[V any](sym string, known map[string]V) (string, bool) {
	if _, ok := known[sym]; ok {
		return sym, true
	}
	if strings.ContainsAny(sym, ".:#") {
		return "", false
	}
	found := ""
	for k := range known {
		if i := strings.LastIndexAny(k, ".:"); i >= 0 && k[i+1:] == sym {
			if found != "" {
				return "", false // io.Reader or bufio.Reader: not known which
			}
			found = k
		}
	}
	return found, found != ""
}

// knownImplementations answers "what implements iface?" for a supertype
// the project does not define: a standard library interface of Go, one
// record per project type whose method set (its own methods and those
// promoted by embedding) has every method iface asks for, by name and
// number of parameters and results (see matchKnown); any other, one per
// project type that names it as a base (see noteExternalBase). Each is at
// the type's name, inferred_high as a relation edge of the graph is; the
// report says how they were found.
func (g *Graph) knownImplementations(iface string) evidence.Response {
	resp := evidence.Response{Report: evidence.Report{Provider: ProviderName, State: evidence.Available}}
	method := ScopeResolved // the type's declaration names the base
	if _, ok := goKnownInterfaces[iface]; ok {
		method = MethodSet
	}
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
				Excerpt: fmt.Sprintf("%s %s %s (depth 1, %s)", sym, Implements, iface, method),
				Attributes: map[string]string{"depth": "1", "method": string(method), "edge": string(Implements),
					relationAttribute: relationImplements},
			}}
		if nd.Stale {
			r = evidence.MarkStale(r)
		}
		resp.Records = append(resp.Records, r)
	}
	if methods, ok := goKnownInterfaces[iface]; ok {
		resp.Report.Reason = fmt.Sprintf("%s is the standard library's: its implementations are the project's types whose methods, "+
			"their own and those promoted by embedding, include each of its (%s) by name and number of parameters and results",
			iface, strings.Join(slices.Sorted(maps.Keys(methods)), ", "))
	} else {
		resp.Report.Reason = fmt.Sprintf("the project does not define %s: these are its types that name it as a base", iface)
	}
	if len(g.known[iface]) > len(resp.Records) {
		resp.Report.Reason += fmt.Sprintf("; the first %d of %d", len(resp.Records), len(g.known[iface]))
	}
	return resp
}

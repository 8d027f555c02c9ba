package graph

import (
	"context"
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/symbols"
	"github.com/codecortex/codecortex/trust"
)

// A Go interface of the standard library (fmt.Stringer, io.Reader,
// error) has no node in the project graph, yet "what implements
// fmt.Stringer?" is among the commonest questions about a Go project. Its
// implementations are the project's named types whose declared methods
// cover the interface's (goKnownInterfaces), by name and arity, found
// from the index's definitions of each method name.

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

// A knownType names a Go type of the project: its directory, package and
// name.
type knownType struct{ dir, pkg, name string }

// knownImplementations answers "what implements iface?" for a standard
// library interface: one record per project type that declares every
// method iface asks for (methods promoted by embedding are not seen), at
// the type's definition, inferred_high as a method-set edge of the graph
// is. The report says how they were found, and that the answer may miss
// some when a method name has more definitions than a lookup returns.
func knownImplementations(ctx context.Context, ix *index.Index, iface string) (evidence.Response, error) {
	want := goKnownInterfaces[iface]
	resp := evidence.Response{Report: evidence.Report{Provider: ProviderName, State: evidence.Available}}
	has := map[knownType]int{} // how many of want's methods each type declares
	capped := false
	for _, m := range slices.Sorted(maps.Keys(want)) {
		res, err := ix.Lookup(ctx, m)
		if err != nil {
			return evidence.Response{}, err
		}
		capped = capped || len(res.Definitions) >= index.MaxDefinitions
		seen := map[knownType]bool{}
		for _, d := range res.Definitions {
			if d.Language != "go" || d.Kind != symbols.Method || d.Name != m || d.Container == "" {
				continue
			}
			if a := goArity(d.Signature, d.Name); a != anyArity && want[m] != anyArity && a != want[m] {
				continue
			}
			t := knownType{path.Dir(d.Path), d.Package, normContainer(d.Container)}
			if !seen[t] {
				seen[t] = true
				has[t]++
			}
		}
	}
	var types []knownType
	for t, n := range has {
		if n == len(want) {
			types = append(types, t)
		}
	}
	slices.SortFunc(types, func(a, b knownType) int { return strings.Compare(a.dir+"/"+a.name, b.dir+"/"+b.name) })
	for _, t := range types {
		if len(resp.Records) >= MaxImplementations {
			break
		}
		if r, ok := knownRecord(ctx, ix, t, iface); ok {
			resp.Records = append(resp.Records, r)
		}
	}
	resp.Report.Reason = fmt.Sprintf("%s is the standard library's: its implementations are the project's types that declare each of its methods (%s), by name and number of parameters and results; methods promoted by embedding are not counted",
		iface, strings.Join(slices.Sorted(maps.Keys(want)), ", "))
	if capped {
		resp.Report.Reason += fmt.Sprintf("; a method name has more than %d definitions, of which only those read were matched", index.MaxDefinitions)
	}
	return resp, nil
}

// knownRecord is the implementation record of type t for iface, at the
// type's definition; false when the index holds none (an interface's
// methods, or a type it cannot place).
func knownRecord(ctx context.Context, ix *index.Index, t knownType, iface string) (evidence.Record, bool) {
	res, err := ix.Lookup(ctx, t.name)
	if err != nil {
		return evidence.Record{}, false
	}
	for _, d := range res.Definitions {
		if d.Name != t.name || d.Container != "" || path.Dir(d.Path) != t.dir || d.Package != t.pkg ||
			d.Kind != symbols.Struct && d.Kind != symbols.Type {
			continue
		}
		n := d.NameRange
		sym := d.QualifiedName()
		return evidence.Record{Kind: evidence.Implementation, Provider: ProviderName, Provenance: trust.GraphRelation,
			Trust: trust.InferredHigh, Path: d.Path, StartLine: n.StartLine, StartColumn: n.StartColumn,
			EndLine: n.EndLine, EndColumn: n.EndColumn, Symbol: sym, TargetSymbol: iface, Confidence: 0.8,
			Metadata: evidence.Metadata{
				Excerpt: fmt.Sprintf("%s %s %s (depth 1, %s)", sym, Implements, iface, MethodSet),
				Attributes: map[string]string{"depth": strconv.Itoa(1), "method": string(MethodSet), "edge": string(Implements),
					relationAttribute: relationImplements},
			}}, true
	}
	return evidence.Record{}, false
}

package graph

import (
	"path"
	"strings"

	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/symbols"
)

// Go's implementations by method set: a named type implements an
// interface of the project when it has every method the interface asks
// for (see the package documentation, # Edges).

// anyParams is the parameter count of a method whose signature could not
// be read: it matches any count.
const anyParams = -1

// maxPromotionDepth bounds how deep embedded types promote methods.
const maxPromotionDepth = 4

// externalPrefix marks, in a method set, an embedded type of another
// module (http.ResponseWriter): its methods are unknown, so an interface
// that embeds it is satisfied only by a type that embeds it too.
const externalPrefix = "embed:"

// goKnownInterfaces are the predeclared interface and common interfaces
// of the standard library, by the name a file writes (the package's own
// name as qualifier), with their methods and parameter counts: embedding
// one asks for (or, in a struct, promotes) these methods.
var goKnownInterfaces = map[string]methodSet{
	"error":        {"Error": 0},
	"fmt.Stringer": {"String": 0}, "fmt.Formatter": {"Format": 2},
	"io.Reader": {"Read": 1}, "io.Writer": {"Write": 1}, "io.Closer": {"Close": 0}, "io.Seeker": {"Seek": 2},
	"io.ReadWriter": {"Read": 1, "Write": 1}, "io.ReadCloser": {"Read": 1, "Close": 0},
	"io.WriteCloser": {"Write": 1, "Close": 0}, "io.ReadWriteCloser": {"Read": 1, "Write": 1, "Close": 0},
	"io.ReaderAt": {"ReadAt": 2}, "io.WriterTo": {"WriteTo": 1}, "io.ReaderFrom": {"ReadFrom": 1},
	"io.ByteReader": {"ReadByte": 0}, "io.ByteWriter": {"WriteByte": 1}, "io.StringWriter": {"WriteString": 1},
	"flag.Value": {"String": 0, "Set": 1}, "flag.Getter": {"String": 0, "Set": 1, "Get": 0},
	"http.Handler": {"ServeHTTP": 2}, "http.ResponseWriter": {"Header": 0, "Write": 1, "WriteHeader": 1},
	"http.Flusher": {"Flush": 0}, "http.Hijacker": {"Hijack": 0}, "http.Pusher": {"Push": 2},
	"http.RoundTripper": {"RoundTrip": 1}, "http.CloseNotifier": {"CloseNotify": 0},
	"sort.Interface":  {"Len": 0, "Less": 2, "Swap": 2},
	"heap.Interface":  {"Len": 0, "Less": 2, "Swap": 2, "Push": 1, "Pop": 0},
	"context.Context": {"Deadline": 0, "Done": 0, "Err": 0, "Value": 1},
	"json.Marshaler":  {"MarshalJSON": 0}, "json.Unmarshaler": {"UnmarshalJSON": 1},
	"encoding.TextMarshaler": {"MarshalText": 0}, "encoding.TextUnmarshaler": {"UnmarshalText": 1},
	"encoding.BinaryMarshaler": {"MarshalBinary": 0}, "encoding.BinaryUnmarshaler": {"UnmarshalBinary": 1},
	"driver.Valuer": {"Value": 0}, "sql.Scanner": {"Scan": 1},
}

// A methodSet maps method names to their parameter counts (anyParams
// when unknown or when two disagree).
type methodSet map[string]int

func (m methodSet) add(name string, params int) {
	if old, ok := m[name]; ok && old != params {
		params = anyParams
	}
	m[name] = params
}

// has reports whether m has a method name with a parameter count that
// may be params.
func (m methodSet) has(name string, params int) bool {
	got, ok := m[name]
	return ok && (got == params || got == anyParams || params == anyParams)
}

// goTypeKey names a Go type within its package: directory, package, name.
type goTypeKey struct{ dir, pkg, name string }

// methodSets holds what the matching needs while the graph is built.
type methodSets struct {
	b        *builder
	declared map[goTypeKey]methodSet // methods declared on each type or interface
	external map[int][]string        // embedded types of other modules, by node
	open     map[int]bool            // interfaces embedding what cannot be known
	memo     map[int]methodSet
}

// importedPackage returns the last element of the path a Go file imports
// under the name local (goflag for import goflag "flag" gives flag), or
// local itself.
func importedPackage(f *index.FileFacts, local string) string {
	for _, im := range f.Imports {
		last := im.Path[strings.LastIndexByte(im.Path, '/')+1:]
		if im.Alias == local || im.Alias == "" && last == local {
			return last
		}
	}
	return local
}

// noteExternalEmbed records that Go type node n (of file fi) embeds a type the project
// does not define: q.name when qualified (another package) or a known
// interface (error), else something unknown (the interface is then open).
func (b *builder) noteExternalEmbed(fi, n int, r symbols.Ref) {
	if b.ms == nil {
		b.ms = &methodSets{external: map[int][]string{}, open: map[int]bool{}}
	}
	name := r.Name
	if r.Qualifier != "" {
		name = importedPackage(&b.facts[fi], r.Qualifier) + "." + r.Name
	}
	if r.Qualifier != "" || goKnownInterfaces[name] != nil {
		b.ms.external[n] = append(b.ms.external[n], name)
	} else {
		b.ms.open[n] = true
	}
}

// matchMethodSets adds an Implements edge (method MethodSet) from each Go
// named type that is not an interface to each Go interface of the project
// whose methods it has, by name and parameter count. Interfaces are
// indexed by their rarest method, so that a type is checked only against
// the interfaces that ask for a method it has.
func (b *builder) matchMethodSets() {
	ms := b.ms
	if ms == nil {
		ms = &methodSets{external: map[int][]string{}, open: map[int]bool{}}
	}
	ms.b, ms.declared, ms.memo = b, map[goTypeKey]methodSet{}, map[int]methodSet{}
	var types, ifaces []int
	for i := range b.g.Nodes {
		n := &b.g.Nodes[i]
		if !strings.HasSuffix(n.Path, ".go") || n.Kind == NodeKindFile {
			continue
		}
		switch {
		case n.Kind == string(symbols.Method) && n.Container != "":
			k := goTypeKey{path.Dir(n.Path), n.Package, normContainer(n.Container)}
			if ms.declared[k] == nil {
				ms.declared[k] = methodSet{}
			}
			ms.declared[k].add(n.Name, b.paramCount(i))
		case n.Kind == string(symbols.Interface) && n.Container == "":
			ifaces = append(ifaces, i)
		case (n.Kind == string(symbols.Struct) || n.Kind == string(symbols.Type)) && n.Container == "":
			types = append(types, i)
		}
	}
	// The methods of every type, and how many types have each name.
	sets := make([]methodSet, len(types))
	freq := map[string]int{}
	for j, t := range types {
		sets[j] = ms.of(t, 0)
		for name := range sets[j] {
			freq[name]++
		}
	}
	// Each interface under its rarest method.
	byRare := map[string][]int{}
	reqs := map[int]methodSet{}
	for _, i := range ifaces {
		req := ms.of(i, 0)
		if len(req) == 0 || ms.openIface(i, 0) {
			continue // any type implements it, or what it asks is unknown
		}
		reqs[i] = req
		rare, best := "", -1
		for name := range req {
			if f := freq[name]; best < 0 || f < best || f == best && name < rare {
				rare, best = name, f
			}
		}
		if best > 0 {
			byRare[rare] = append(byRare[rare], i)
		}
	}
	for j, t := range types {
		for name := range sets[j] {
			for _, i := range byRare[name] {
				if implementsAll(sets[j], reqs[i]) {
					b.addMethodSetEdge(t, i)
				}
			}
		}
	}
}

// implementsAll reports whether have has every method of want.
func implementsAll(have, want methodSet) bool {
	for name, params := range want {
		if !have.has(name, params) {
			return false
		}
	}
	return true
}

// addMethodSetEdge adds the edge of type t implementing interface i, at
// the type's name.
func (b *builder) addMethodSetEdge(t, i int) {
	n := &b.g.Nodes[t]
	b.addEdge(Edge{From: t, To: i, Kind: Implements, Method: MethodSet, Path: n.Path, Line: n.NameLine, Column: n.NameColumn,
		Span: len([]rune(n.Name)), Stale: n.Stale || b.g.Nodes[i].Stale})
}

// of returns the method set of Go type or interface node n: the methods
// declared on it (with a value or pointer receiver), those of the types
// and interfaces it embeds (to maxPromotionDepth), and its embedded types
// of other modules as externalPrefix entries.
func (ms *methodSets) of(n, depth int) methodSet {
	if m, ok := ms.memo[n]; ok {
		return m
	}
	nd := &ms.b.g.Nodes[n]
	m := methodSet{}
	ms.memo[n] = m // a cycle of embeddings sees what is known so far
	for name, p := range ms.declared[goTypeKey{path.Dir(nd.Path), nd.Package, nd.Name}] {
		m.add(name, p)
	}
	for _, ext := range ms.external[n] {
		if known, ok := goKnownInterfaces[ext]; ok {
			for name, p := range known {
				m.add(name, p)
			}
			continue
		}
		m[externalPrefix+ext] = 0
	}
	if depth < maxPromotionDepth {
		for _, ei := range ms.b.outEdges(n) {
			e := &ms.b.g.Edges[ei]
			if e.Method == MethodSet || e.Kind != Inherits && e.Kind != Implements || !isType(&ms.b.g.Nodes[e.To]) {
				continue
			}
			for name, p := range ms.of(e.To, depth+1) {
				if _, own := m[name]; !own { // a declared method hides a promoted one
					m[name] = p
				}
			}
		}
	}
	return m
}

// openIface reports whether interface i, or one it embeds, embeds what
// cannot be known.
func (ms *methodSets) openIface(i, depth int) bool {
	if ms.open[i] {
		return true
	}
	if depth >= maxPromotionDepth {
		return false
	}
	for _, ei := range ms.b.outEdges(i) {
		if e := &ms.b.g.Edges[ei]; e.Method != MethodSet && (e.Kind == Inherits || e.Kind == Implements) && ms.openIface(e.To, depth+1) {
			return true
		}
	}
	return false
}

// outEdges returns the edges out of node n while the graph is built (the
// adjacency lists are filled after), found through the builder's index
// of the relation edges.
func (b *builder) outEdges(n int) []int32 {
	if b.relOut == nil {
		b.relOut = map[int][]int32{}
		for i := range b.g.Edges {
			if e := &b.g.Edges[i]; e.Kind == Inherits || e.Kind == Implements {
				b.relOut[e.From] = append(b.relOut[e.From], int32(i))
			}
		}
	}
	return b.relOut[n]
}

// paramCount returns how many parameters the Go function or method of
// node n takes, read from its signature, or anyParams.
func (b *builder) paramCount(n int) int {
	fi := b.symFile[n]
	if fi < 0 {
		return anyParams
	}
	f := &b.facts[fi]
	si := n - int(b.g.fileNode[f.Path]) - 1
	if si < 0 || si >= len(f.Symbols) {
		return anyParams
	}
	return goParamCount(f.Symbols[si].Signature, f.Symbols[si].Name)
}

// goParamCount counts the parameters in a Go signature of the function
// called name ("func (r *T) Name[K any](a, b int, f func(x int)) error",
// or "Name(string) error" in an interface): the entries of its parameter
// list, or anyParams when the signature does not show it whole.
func goParamCount(sig, name string) int {
	i := strings.Index(sig, name+"(")
	if j := strings.Index(sig, name+"["); j >= 0 && (i < 0 || j < i) {
		i = j
	}
	if i < 0 {
		return anyParams
	}
	s := sig[i+len(name):]
	if s[0] == '[' {
		end := closing(s, '[', ']')
		if end < 0 {
			return anyParams
		}
		s = s[end+1:]
	}
	if s == "" || s[0] != '(' {
		return anyParams
	}
	end := closing(s, '(', ')')
	if end < 0 {
		return anyParams
	}
	params := strings.TrimSpace(s[1:end])
	if params == "" {
		return 0
	}
	count, depth := 1, 0
	for _, c := range params {
		switch c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				count++
			}
		}
	}
	if strings.HasSuffix(params, ",") {
		count--
	}
	return count
}

// closing returns the index of the bracket closing s[0], or -1.
func closing(s string, open, close byte) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

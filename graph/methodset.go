package graph

import (
	"path"
	"slices"
	"strings"

	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/symbols"
)

// Go's implementations by method set: a named type implements an
// interface of the project when it has every method the interface asks
// for (see the package documentation, # Type relations).

// An arity is how many parameters and results a method has
// (params<<8 | results), or anyArity when its signature could not be
// read whole.
type arity int

// anyArity is the arity of a method whose signature could not be read:
// it matches any.
const anyArity arity = -1

// ar returns the arity of params parameters and results results.
func ar(params, results int) arity { return arity(params<<8 | results) }

// maxPromotionDepth bounds how deep embedded types promote methods.
const maxPromotionDepth = 4

// externalPrefix marks, in a method set, an embedded type of another
// module (http.ResponseWriter): its methods are unknown, so an interface
// that embeds it is satisfied only by a type that embeds it too.
const externalPrefix = "embed:"

// goKnownInterfaces are the predeclared interface and common interfaces
// of the standard library, by the name a file writes (the package's own
// name as qualifier), with their methods' arities: embedding one asks for
// (or, in a struct, promotes) these methods.
var goKnownInterfaces = map[string]map[string]arity{
	"error":        {"Error": ar(0, 1)},
	"fmt.Stringer": {"String": ar(0, 1)}, "fmt.Formatter": {"Format": ar(2, 0)},
	"io.Reader": {"Read": ar(1, 2)}, "io.Writer": {"Write": ar(1, 2)}, "io.Closer": {"Close": ar(0, 1)},
	"io.Seeker": {"Seek": ar(2, 2)}, "io.ReadWriter": {"Read": ar(1, 2), "Write": ar(1, 2)},
	"io.ReadCloser": {"Read": ar(1, 2), "Close": ar(0, 1)}, "io.WriteCloser": {"Write": ar(1, 2), "Close": ar(0, 1)},
	"io.ReadWriteCloser": {"Read": ar(1, 2), "Write": ar(1, 2), "Close": ar(0, 1)},
	"io.ReaderAt":        {"ReadAt": ar(2, 2)}, "io.WriterTo": {"WriteTo": ar(1, 2)}, "io.ReaderFrom": {"ReadFrom": ar(1, 2)},
	"io.ByteReader": {"ReadByte": ar(0, 2)}, "io.ByteWriter": {"WriteByte": ar(1, 1)},
	"io.StringWriter":     {"WriteString": ar(1, 2)},
	"flag.Value":          {"String": ar(0, 1), "Set": ar(1, 1)},
	"flag.Getter":         {"String": ar(0, 1), "Set": ar(1, 1), "Get": ar(0, 1)},
	"http.Handler":        {"ServeHTTP": ar(2, 0)},
	"http.ResponseWriter": {"Header": ar(0, 1), "Write": ar(1, 2), "WriteHeader": ar(1, 0)},
	"http.Flusher":        {"Flush": ar(0, 0)}, "http.Hijacker": {"Hijack": ar(0, 3)}, "http.Pusher": {"Push": ar(2, 1)},
	"http.RoundTripper": {"RoundTrip": ar(1, 2)}, "http.CloseNotifier": {"CloseNotify": ar(0, 1)},
	"sort.Interface":  {"Len": ar(0, 1), "Less": ar(2, 1), "Swap": ar(2, 0)},
	"heap.Interface":  {"Len": ar(0, 1), "Less": ar(2, 1), "Swap": ar(2, 0), "Push": ar(1, 0), "Pop": ar(0, 1)},
	"context.Context": {"Deadline": ar(0, 2), "Done": ar(0, 1), "Err": ar(0, 1), "Value": ar(1, 1)},
	"json.Marshaler":  {"MarshalJSON": ar(0, 2)}, "json.Unmarshaler": {"UnmarshalJSON": ar(1, 1)},
	"encoding.TextMarshaler": {"MarshalText": ar(0, 2)}, "encoding.TextUnmarshaler": {"UnmarshalText": ar(1, 1)},
	"encoding.BinaryMarshaler": {"MarshalBinary": ar(0, 2)}, "encoding.BinaryUnmarshaler": {"UnmarshalBinary": ar(1, 1)},
	"driver.Valuer": {"Value": ar(0, 2)}, "sql.Scanner": {"Scan": ar(1, 1)},
}

// A shape is what a method set knows of a method: its arity, and its
// result types with package qualifiers left out ("*T,error"; empty when
// unknown: named results, a function type, a generic interface or type).
type shape struct {
	a   arity
	res string
}

// A methodSet maps method names to their shapes (anyArity and no result
// types when two disagree).
type methodSet map[string]shape

func (m methodSet) add(name string, s shape) {
	if old, ok := m[name]; ok && old != s {
		s = shape{a: anyArity}
	}
	m[name] = s
}

// has reports whether m has a method name that may have shape s: the same
// arity (or an unknown one), and the same result types when both are
// known.
func (m methodSet) has(name string, s shape) bool {
	got, ok := m[name]
	if !ok || got.a != s.a && got.a != anyArity && s.a != anyArity {
		return false
	}
	return got.res == "" || s.res == "" || got.res == s.res
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
// whose methods it has, by name and shape (see shape). Interfaces are
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
			ms.declared[k].add(n.Name, b.shapeOf(i))
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
	var impl []int
	for j, t := range types {
		impl = impl[:0]
		for name := range sets[j] {
			for _, i := range byRare[name] {
				if implementsAll(sets[j], reqs[i]) {
					impl = append(impl, i)
				}
			}
		}
		// In the interfaces' order, not the set's: the same graph
		// from the same facts.
		slices.Sort(impl)
		for _, i := range impl {
			b.addMethodSetEdge(t, i)
		}
	}
	b.matchKnown(types, sets)
}

// matchKnown fills g.known with the types, among types (whose method sets
// are sets), that implement each standard library interface of
// goKnownInterfaces: the graph has no node for those.
func (b *builder) matchKnown(types []int, sets []methodSet) {
	for iface, methods := range goKnownInterfaces {
		req := methodSet{}
		for name, a := range methods {
			req[name] = shape{a: a}
		}
		for j, t := range types {
			if implementsAll(sets[j], req) {
				if b.g.known == nil {
					b.g.known = map[string][]int32{}
				}
				b.g.known[iface] = append(b.g.known[iface], int32(t))
			}
		}
	}
}

// implementsAll reports whether have has every method of want.
func implementsAll(have, want methodSet) bool {
	for name, sh := range want {
		if !have.has(name, sh) {
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
			for name, a := range known {
				m.add(name, shape{a: a})
			}
			continue
		}
		m[externalPrefix+ext] = shape{}
	}
	if depth < maxPromotionDepth {
		for _, ei := range ms.b.outEdges(n) {
			e := ms.b.edge(ei)
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
		if e := ms.b.edge(ei); e.Method != MethodSet && (e.Kind == Inherits || e.Kind == Implements) && ms.openIface(e.To, depth+1) {
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
		for i := range int32(len(b.g.Edges) + b.added.n) {
			if e := b.edge(i); e.Kind == Inherits || e.Kind == Implements {
				b.relOut[e.From] = append(b.relOut[e.From], i)
			}
		}
	}
	return b.relOut[n]
}

// shapeOf returns the shape of the Go function or method of node n, read
// from its signature: its arity (anyArity when unread) and its result
// types, unless the type or interface it belongs to is generic.
func (b *builder) shapeOf(n int) shape {
	fi := b.symFile[n]
	if fi < 0 {
		return shape{a: anyArity}
	}
	f := &b.facts[fi]
	si := n - int(b.g.fileNode[f.Path]) - 1
	if si < 0 || si >= len(f.Symbols) {
		return shape{a: anyArity}
	}
	sym := &f.Symbols[si]
	sh := shape{a: goArity(sym.Signature, sym.Name)}
	if !strings.Contains(sym.Container, "[") && !b.genericType(f, sym.Container) {
		sh.res = goResults(sym.Signature, sym.Name)
	}
	return sh
}

// genericType reports whether the type called name in file f has type
// parameters ("type Set[T any] interface").
func (b *builder) genericType(f *index.FileFacts, name string) bool {
	for i := range f.Symbols {
		if s := &f.Symbols[i]; s.Name == name && s.Container == "" {
			return strings.HasPrefix(s.Signature, "type "+name+"[")
		}
	}
	return false
}

// goArity reads the arity of the function called name from its Go
// signature ("func (r *T) Name[K any](a, b int, f func(x int)) (int,
// error)", or "Name(string) error" in an interface): the entries of its
// parameter list and of its results; anyArity when the signature does not
// show them whole.
func goArity(sig, name string) arity {
	i := strings.Index(sig, name+"(")
	if j := strings.Index(sig, name+"["); j >= 0 && (i < 0 || j < i) {
		i = j
	}
	if i < 0 {
		return anyArity
	}
	s := sig[i+len(name):]
	if s[0] == '[' {
		end := closing(s, '[', ']')
		if end < 0 {
			return anyArity
		}
		s = s[end+1:]
	}
	if s == "" || s[0] != '(' {
		return anyArity
	}
	end := closing(s, '(', ')')
	if end < 0 {
		return anyArity
	}
	params := entries(s[1:end])
	rest := strings.TrimSpace(s[end+1:])
	switch {
	case rest == "":
		return ar(params, 0)
	case rest[0] == '(':
		end := closing(rest, '(', ')')
		if end < 0 || strings.TrimSpace(rest[end+1:]) != "" {
			return anyArity
		}
		return ar(params, entries(rest[1:end]))
	}
	return ar(params, 1) // one result, of any type (interface{} too)
}

// goResults returns the result types of the function called name in its
// Go signature, with spaces and package qualifiers left out and joined by
// commas ("*T,error"); empty when they are named, hold a function type, or
// the signature does not show them whole.
func goResults(sig, name string) string {
	i := strings.Index(sig, name+"(")
	if i < 0 {
		return ""
	}
	s := sig[i+len(name):]
	end := closing(s, '(', ')')
	if end < 0 {
		return ""
	}
	rest := strings.TrimSpace(s[end+1:])
	if strings.HasPrefix(rest, "(") {
		e := closing(rest, '(', ')')
		if e < 0 {
			return ""
		}
		rest = rest[1:e]
	}
	if rest == "" || strings.Contains(rest, "func") {
		return ""
	}
	var parts []string
	depth, from := 0, 0
	for i := 0; i <= len(rest); i++ {
		if i < len(rest) {
			switch rest[i] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			}
			if depth > 0 || rest[i] != ',' {
				continue
			}
		}
		part := strings.TrimSpace(rest[from:i])
		if strings.ContainsAny(strings.TrimLeft(part, "*[]"), " \t") && !strings.HasPrefix(part, "map[") && !strings.HasPrefix(part, "chan") {
			return "" // a named result
		}
		parts = append(parts, unqualified(part))
		from = i + 1
	}
	return strings.Join(parts, ",")
}

// unqualified returns a Go type written without spaces and without the
// package qualifiers of its names (*http.Request gives *Request).
func unqualified(t string) string {
	out := make([]byte, 0, len(t))
	start := 0 // where the identifier being written starts in out
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c == ' ' || c == '\t':
			start = len(out)
		case c == '.':
			out = out[:start] // the identifier before the dot names a package
		case c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80:
			out = append(out, c)
		default:
			out = append(out, c)
			start = len(out)
		}
	}
	return string(out)
}

// entries counts the comma-separated entries of a parameter or result
// list, commas nested in brackets left out.
func entries(list string) int {
	list = strings.TrimSuffix(strings.TrimSpace(list), ",")
	if list == "" {
		return 0
	}
	count, depth := 1, 0
	for _, c := range list {
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

// A knownUse is a Go use of a method through a value of an interface of
// the standard library (rw.WriteHeader(…) of an http.ResponseWriter rw),
// as resolution met it: the file, the definition holding it and the
// file's node, whether the file is a test, the interface and the ref.
type knownUse struct {
	fi, src, from int32
	test          bool
	iface         string
	ref           symbols.Ref
}

// addKnownUses links each use through an interface of the standard
// library to the methods of that name of the types of its package that
// implement the interface (matchKnown found them): such a call may run
// any of them, and gopls counts it among their references. A type of
// another package is left out, as gopls leaves it: any type of the
// program may implement a standard interface, and only the package's own
// types are known to meet the value there.
func (b *builder) addKnownUses() {
	// The candidates of each interface, package and method, found once:
	// every err.Error() of a package asks the same.
	type key struct{ iface, dir, pkg, name string }
	found := map[key][]int32{}
	for _, u := range b.knownUses {
		f := &b.facts[u.fi]
		dir := path.Dir(f.Path)
		k := key{u.iface, dir, f.Package, u.ref.Name}
		cands, ok := found[k]
		if !ok {
			for _, t := range b.g.known[u.iface] {
				if n := &b.g.Nodes[t]; path.Dir(n.Path) == dir && n.Package == f.Package {
					cands = append(cands, b.g.goMethods(goType{n.Name, dir}, u.ref.Name)...)
				}
			}
			found[k] = cands
		}
		if len(cands) == 0 {
			b.g.stats.Unresolved++
			continue
		}
		b.addRefEdges(f, u.ref, int(u.src), int(u.from), u.test, cands, MethodSet)
	}
	b.knownUses = nil
}

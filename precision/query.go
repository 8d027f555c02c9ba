package precision

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/scip-code/scip/bindings/go/scip"
)

// A Location is an occurrence as CodeCortex reports it: a root-relative path
// and a one-based, half-open range in code points.
type Location struct {
	Path        string `json:"path"`
	StartLine   int    `json:"start_line"`
	StartColumn int    `json:"start_column"`
	EndLine     int    `json:"end_line"`
	EndColumn   int    `json:"end_column"`
	// Symbol is the occurrence's SCIP symbol ("local N" for a local, which
	// is scoped to Path).
	Symbol string `json:"symbol"`
	// Roles are the occurrence's SCIP symbol roles.
	Roles int32 `json:"roles,omitempty"`
	// Encoding is the code unit the index counted columns in, and
	// EncodingSource how that was determined.
	Encoding       Encoding       `json:"-"`
	EncodingSource EncodingSource `json:"encoding_source"`
	// Exact is false when the columns could not be converted for certain:
	// the encoding was assumed, or the source text could not be read.
	Exact bool `json:"exact"`
}

// A Symbol is a resolved symbol of an index. Locals carry their document.
type Symbol struct {
	id   uint32
	Name string `json:"symbol"`
	// Document is the declaring document of a local symbol, "" for a
	// global one.
	Document string      `json:"document,omitempty"`
	Info     *SymbolInfo `json:"info,omitempty"`
}

// Errors matched with errors.Is.
var (
	// ErrNoDocument: the index has no document at the path.
	ErrNoDocument = errors.New("precision: the index has no such document")
	// ErrNoSymbol: no occurrence covers the position.
	ErrNoSymbol = errors.New("precision: no symbol at this position")
	// ErrUnknownSymbol: the index does not know the symbol.
	ErrUnknownSymbol = errors.New("precision: unknown symbol")
)

func (ix *Index) symbol(id uint32) Symbol {
	e := ix.syms[id]
	s := Symbol{id: id, Name: e.name, Info: e.info}
	if e.doc >= 0 {
		s.Document = ix.docs[e.doc].path
	}
	return s
}

// Lookup returns the symbol with the given SCIP symbol string. A local
// symbol needs the document that declares it.
func (ix *Index) Lookup(sym, document string) (Symbol, error) {
	k := symKey{-1, sym}
	if isLocal(sym) {
		k.doc = -2
		if document != "" {
			di, ok := ix.byPath[document]
			if !ok {
				return Symbol{}, fmt.Errorf("%w: %q", ErrUnknownSymbol, sym)
			}
			k.doc = di
		}
	}
	id, ok := ix.symbolID(k)
	if !ok {
		return Symbol{}, fmt.Errorf("%w: %q", ErrUnknownSymbol, sym)
	}
	return ix.symbol(id), nil
}

// SymbolAt returns the symbol at a one-based code-point position. The
// innermost occurrence whose half-open range holds the position wins, so a
// caret at a range's end column belongs to the next token. When two
// occurrences share that range (an embedded Go field is the field's
// definition and a use of its type), the definition wins.
func (ix *Index) SymbolAt(p string, line, col int) (Symbol, Location, error) {
	di, occs, err := ix.occurrencesAt(p, line, col)
	if err != nil {
		return Symbol{}, Location{}, err
	}
	best := occs[0]
	for _, oi := range occs {
		if ix.docs[di].occs[oi].roles&int32(scip.SymbolRole_Definition) != 0 {
			best = oi
			break
		}
	}
	return ix.symbol(ix.docs[di].occs[best].sym), ix.location(uint32(di), uint32(best)), nil
}

// useAt returns the symbol a position uses: like SymbolAt, but when two
// occurrences share the innermost range, one that is not a definition wins.
// At an embedded Go field that is the type, which gopls's definition and
// implementation answers are about (its references answer is about the
// field).
func (ix *Index) useAt(p string, line, col int) (Symbol, error) {
	di, occs, err := ix.occurrencesAt(p, line, col)
	if err != nil {
		return Symbol{}, err
	}
	best := occs[0]
	for _, oi := range occs {
		if ix.docs[di].occs[oi].roles&int32(scip.SymbolRole_Definition) == 0 {
			best = oi
			break
		}
	}
	return ix.symbol(ix.docs[di].occs[best].sym), nil
}

// occurrencesAt returns the document of p and its occurrences at a
// one-based code-point position that share the innermost range holding
// it, in index order.
func (ix *Index) occurrencesAt(p string, line, col int) (int32, []int, error) {
	di, ok := ix.byPath[p]
	if !ok {
		return 0, nil, fmt.Errorf("%w: %s", ErrNoDocument, p)
	}
	if line < 1 || col < 1 {
		return 0, nil, fmt.Errorf("%w: %s:%d:%d is not a one-based position", ErrNoSymbol, p, line, col)
	}
	d := &ix.docs[di]
	l := int32(line - 1)
	c := int32(col - 1)
	if d.enc != CodePoints {
		if ft := ix.text(di); ft.err == nil && !ft.ascii {
			c = int32(FromCodePoints(ft.line(l), int(c), d.enc))
		}
	}
	var best []int
	// Occurrences are sorted by start; every candidate starts at or before
	// the position.
	end := sort.Search(len(d.occs), func(i int) bool {
		o := &d.occs[i]
		return o.sl > l || (o.sl == l && o.sc > c)
	})
	for i := end - 1; i >= 0; i-- {
		o := &d.occs[i]
		if !contains(o, l, c) {
			if o.sl < l-64 { // no occurrence spans that far in practice
				break
			}
			continue
		}
		switch {
		case best == nil || smaller(o, &d.occs[best[0]]):
			best = append(best[:0], i)
		case sameRange(o, &d.occs[best[0]]):
			best = append(best, i)
		}
	}
	if best == nil {
		return 0, nil, fmt.Errorf("%w: %s:%d:%d", ErrNoSymbol, p, line, col)
	}
	slices.Sort(best)
	return di, best, nil
}

func sameRange(a, b *occurrence) bool {
	return a.sl == b.sl && a.sc == b.sc && a.el == b.el && a.ec == b.ec
}

// contains reports whether the half-open range of o holds (l, c).
func contains(o *occurrence, l, c int32) bool {
	if l < o.sl || l > o.el {
		return false
	}
	if l == o.sl && c < o.sc {
		return false
	}
	if l == o.el && c >= o.ec {
		return false
	}
	return true
}

// smaller reports whether a's range is strictly inside b's (or shorter).
func smaller(a, b *occurrence) bool {
	if a.el-a.sl != b.el-b.sl {
		return a.el-a.sl < b.el-b.sl
	}
	if a.sl == a.el {
		return a.ec-a.sc < b.ec-b.sc
	}
	return a.sl > b.sl || (a.sl == b.sl && a.sc > b.sc)
}

// location converts an occurrence to a reported location.
func (ix *Index) location(di, oi uint32) Location {
	d := &ix.docs[di]
	o := &d.occs[oi]
	loc := Location{
		Path:      d.path,
		StartLine: int(o.sl) + 1, StartColumn: int(o.sc) + 1,
		EndLine: int(o.el) + 1, EndColumn: int(o.ec) + 1,
		Symbol: ix.syms[o.sym].name, Roles: o.roles,
		Encoding: d.enc, EncodingSource: d.encSrc,
		Exact: d.encSrc != Assumed,
	}
	if d.enc == CodePoints {
		return loc
	}
	ft := ix.text(int32(di))
	switch {
	case ft.err != nil:
		loc.Exact = false
	case !ft.ascii:
		loc.StartColumn = ToCodePoints(ft.line(o.sl), int(o.sc), d.enc) + 1
		loc.EndColumn = ToCodePoints(ft.line(o.el), int(o.ec), d.enc) + 1
	}
	return loc
}

func (ix *Index) locations(refs []occRef) []Location {
	out := make([]Location, 0, len(refs))
	for _, r := range refs {
		out = append(out, ix.location(r.doc, r.occ))
	}
	return out
}

// defines reports whether the index holds a definition of symbol id.
func (ix *Index) defines(id uint32) bool { return ix.defOff[id] < ix.defOff[id+1] }

// Definitions returns the definition occurrences of s, in index order.
func (ix *Index) Definitions(s Symbol) []Location {
	return ix.locations(ix.defs[ix.defOff[s.id]:ix.defOff[s.id+1]])
}

// References returns every occurrence of s that is not a definition, in
// index order. scip-typescript marks references with role 0 and scip-go
// with ReadAccess: anything that is not a Definition is a reference.
func (ix *Index) References(s Symbol) []Location {
	return ix.locations(ix.refs[ix.refOff[s.id]:ix.refOff[s.id+1]])
}

// Implementations returns the symbols that implement s (a SCIP relationship
// with is_implementation sits on the implementing symbol), sorted by name.
func (ix *Index) Implementations(s Symbol) []Symbol {
	return ix.symbolsOf(ix.implBy[s.id])
}

// Implements returns the symbols s implements, sorted by name.
func (ix *Index) Implements(s Symbol) []Symbol {
	return ix.symbolsOf(ix.implOf[s.id])
}

func (ix *Index) symbolsOf(ids []uint32) []Symbol {
	out := make([]Symbol, 0, len(ids))
	for _, id := range ids {
		out = append(out, ix.symbol(id))
	}
	slices.SortFunc(out, func(a, b Symbol) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// A Candidate is one symbol a name may mean, with its package identity.
type Candidate struct {
	Symbol Symbol `json:"symbol"`
	// Package is the symbol's package as the index names it:
	// manager, name and version, such as "gomod example.com/a v1.0.0".
	Package string `json:"package"`
	// QualifiedName is the symbol's namespace (its Go import path, its
	// TypeScript module file, its Python module) and its descriptors, such
	// as "github.com/spf13/cobra.Command.Find".
	QualifiedName string `json:"qualified_name"`
	// Definitions are where it is defined in the repository.
	Definitions []Location `json:"definitions"`
}

// LookupName returns every global symbol a name may mean, each with its
// package identity, sorted by symbol. Two packages exporting the same name
// are two candidates, never one.
//
// A name is the end of a symbol's chain of descriptors, dot-separated:
// "ExecuteC" and "Command.ExecuteC" both mean the method ExecuteC of type
// Command. A package qualifier before the whole chain narrows it: the last
// element of the namespace ("cobra.Command"; for a module file, its name
// without extension) or the whole namespace
// ("github.com/spf13/cobra.Command"). A one-word name also matches a
// symbol's display name. Parameters and type parameters are never
// candidates.
func (ix *Index) LookupName(name string) []Candidate {
	if name == "" {
		return nil
	}
	last := name[strings.LastIndexByte(name, '.')+1:]
	if last == "" {
		return nil
	}
	var out []Candidate
	for id := range ix.syms {
		e := &ix.syms[id]
		if e.doc != -1 || !strings.Contains(e.name, last) && (e.info == nil || e.info.DisplayName != name) {
			continue
		}
		g, ok := parseGlobal(e.name)
		if !ok || !g.matches(name, e.info) {
			continue
		}
		s := ix.symbol(uint32(id))
		out = append(out, Candidate{Symbol: s, Package: g.pkg, QualifiedName: g.qualified(),
			Definitions: ix.Definitions(s)})
	}
	slices.SortFunc(out, func(a, b Candidate) int { return strings.Compare(a.Symbol.Name, b.Symbol.Name) })
	return out
}

// A global is what name lookup needs of a global symbol.
type global struct {
	manager   string
	pkg       string   // manager, name and version
	namespace string   // namespace descriptors joined with "/"
	chain     []string // the other descriptors' names, outermost first
}

// parseGlobal splits a global symbol into its package identity, namespace
// and chain of descriptor names. Parameters, type parameters and symbols
// without a name are refused.
func parseGlobal(sym string) (global, bool) {
	s, err := parseSymbol(sym)
	if err != nil || s.Package == nil || len(s.Descriptors) == 0 {
		return global{}, false
	}
	parts := []string{s.Package.Manager, s.Package.Name, s.Package.Version}
	parts = slices.DeleteFunc(parts, func(p string) bool { return p == "" || p == "." })
	g := global{manager: s.Package.Manager, pkg: strings.Join(parts, " ")}
	var ns []string
	for _, d := range s.Descriptors {
		switch d.Suffix {
		case scip.Descriptor_Namespace:
			if len(g.chain) == 0 {
				ns = append(ns, d.Name)
				continue
			}
		case scip.Descriptor_Parameter, scip.Descriptor_TypeParameter, scip.Descriptor_Local:
			return global{}, false
		}
		g.chain = append(g.chain, d.Name)
	}
	g.namespace = strings.Join(ns, "/")
	return g, len(g.chain) > 0 && g.chain[len(g.chain)-1] != ""
}

func (g global) qualified() string {
	c := strings.Join(g.chain, ".")
	if g.namespace == "" {
		return c
	}
	return g.namespace + "." + c
}

// matches reports whether name means g (see [Index.LookupName]).
func (g global) matches(name string, info *SymbolInfo) bool {
	last := g.chain[len(g.chain)-1]
	if name == last || info != nil && info.DisplayName == name && !strings.Contains(name, ".") {
		return true
	}
	chain := strings.Join(g.chain, ".")
	if strings.HasSuffix(name, "."+chain) {
		qual := strings.TrimSuffix(name, "."+chain)
		return g.namespace != "" && slices.Contains(g.namespaceForms(), qual)
	}
	return chain == name || strings.HasSuffix(chain, "."+name)
}

// namespaceForms are the ways a name may qualify g's namespace: whole, and
// by the name code uses for it: its last path element; for a Go major
// version ("yaml.v3", ".../cobra/v2") the element before the version; for
// a module file, its name without the extension; for a Python module
// ("pkg.shapes"), its last dotted element.
func (g global) namespaceForms() []string {
	ns := g.namespace
	base := path.Base(ns)
	forms := []string{ns, base}
	switch {
	case g.manager == "gomod" && isMajorVersion(base):
		if dir := path.Dir(ns); dir != "." {
			forms = append(forms, path.Base(dir))
		}
	case g.manager == "gomod":
		if i := strings.LastIndexByte(base, '.'); i > 0 && isMajorVersion(base[i+1:]) {
			forms = append(forms, base[:i])
		}
	case g.manager == "python":
		forms = append(forms, base[strings.LastIndexByte(base, '.')+1:])
	default:
		if ext := path.Ext(base); ext != "" && ext != base {
			forms = append(forms, strings.TrimSuffix(base, ext))
		}
	}
	return forms
}

// isMajorVersion reports whether s is a Go major version element: v2, v3...
func isMajorVersion(s string) bool {
	if len(s) < 2 || s[0] != 'v' || s[1] == '0' {
		return false
	}
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// DynamicReferences returns, for a method, the references of the methods
// it corresponds to through interface satisfaction, one step each way: the
// abstract methods it implements (a call through the interface may reach
// it) and the methods that implement it (a call on the concrete type is a
// call of the interface method's implementation). gopls counts both among a
// method's references, and so does the reference answer of the
// [Provider]. The step is never repeated: a concrete method does not reach
// its sibling implementations through their interface. Types get none: a
// use of an interface type is not a use of its implementations.
//
// In a Go index, a method declared only in _test.go files is compiled only
// into its own package's tests, so no call in another directory can reach
// it: its dynamic references are those in its own directory. The calls
// through an interface method of another module (the standard library's
// io.Closer) count in the directory declaring the method alone, as gopls
// counts them.
func (ix *Index) DynamicReferences(s Symbol) []Location {
	var out []Location
	for _, c := range ix.correspondingMethods(s) {
		out = append(out, ix.dynamicReferences(s, c)...)
	}
	return out
}

// AliasedReferences returns, for a function or method s, the references
// of the names a module binds to it: a local or a property the indexer
// defines at one of s's references, whose uses it then names by that
// symbol (scip-typescript's const { f } = require('./m') and
// module.exports = { f }). One step: an alias of an alias is not followed.
func (ix *Index) AliasedReferences(s Symbol) []Location {
	var out []Location
	for _, a := range ix.aliases(s) {
		out = append(out, ix.aliasRefs(a)...)
	}
	return out
}

// aliasRefs returns the references of alias a.
func (ix *Index) aliasRefs(a uint32) []Location {
	return ix.locations(ix.refs[ix.refOff[a]:ix.refOff[a+1]])
}

// aliases returns the symbols AliasedReferences follows, in index order.
func (ix *Index) aliases(s Symbol) []uint32 {
	if !strings.HasSuffix(s.Name, ").") || isLocal(s.Name) {
		return nil // a function or method: a type's same-range field (Go's embedding) is no alias
	}
	var out []uint32
	for _, r := range ix.refs[ix.refOff[s.id]:ix.refOff[s.id+1]] {
		occs := ix.docs[r.doc].occs
		o := &occs[r.occ]
		for _, step := range []int{-1, 1} {
			for i := int(r.occ) + step; i >= 0 && i < len(occs) && occs[i].sl == o.sl && occs[i].sc == o.sc; i += step {
				a := &occs[i]
				if a.sym != s.id && a.roles&int32(scip.SymbolRole_Definition) != 0 && sameRange(a, o) &&
					aliasSymbol(ix.syms[a.sym].name) && !slices.Contains(out, a.sym) {
					out = append(out, a.sym)
				}
			}
		}
	}
	return out
}

// aliasSymbol reports whether sym may name a binding of another symbol: a
// local, or a term or meta descriptor (a property), not a type, namespace
// or method.
func aliasSymbol(sym string) bool {
	return isLocal(sym) || strings.HasSuffix(sym, ":") || strings.HasSuffix(sym, ".") && !strings.HasSuffix(sym, ").")
}

// dynamicReferences returns the references of c that may reach s.
func (ix *Index) dynamicReferences(s Symbol, c correspondence) []Location {
	locs := ix.locations(ix.refs[ix.refOff[c.id]:ix.refOff[c.id+1]])
	dirs := ix.testOnlyDirs(s)
	if dirs == nil && c.abstract && !ix.defines(c.id) && ix.meta.Tool == "scip-go" {
		// An interface method of another module (io.Closer's Close): gopls
		// counts the calls through it in the package declaring s alone,
		// where the package's types relate them; elsewhere a call through
		// it is one of every type of the program that has the method.
		dirs = ix.definitionDirs(s)
	}
	if dirs == nil {
		return locs
	}
	return slices.DeleteFunc(locs, func(l Location) bool { return !slices.Contains(dirs, path.Dir(l.Path)) })
}

// definitionDirs returns the directories of s's definitions.
func (ix *Index) definitionDirs(s Symbol) []string {
	var dirs []string
	for _, r := range ix.defs[ix.defOff[s.id]:ix.defOff[s.id+1]] {
		if d := path.Dir(ix.docs[r.doc].path); !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// testOnlyDirs returns the directories of s's definitions when s comes
// from a Go index and is defined only in _test.go files; nil otherwise.
func (ix *Index) testOnlyDirs(s Symbol) []string {
	if ix.meta.Tool != "scip-go" {
		return nil
	}
	for _, r := range ix.defs[ix.defOff[s.id]:ix.defOff[s.id+1]] {
		if !strings.HasSuffix(ix.docs[r.doc].path, "_test.go") {
			return nil
		}
	}
	return ix.definitionDirs(s)
}

// A correspondence is a method related to another through interface
// satisfaction; abstract is set when it is the interface method the other
// implements.
type correspondence struct {
	id       uint32
	abstract bool
}

// correspondingMethods returns the methods s implements and the methods
// implementing s, when s is a method.
func (ix *Index) correspondingMethods(s Symbol) []correspondence {
	if !isMethodLike(s.Name) {
		return nil
	}
	var out []correspondence
	for _, target := range ix.implOf[s.id] {
		if isMethodLike(ix.syms[target].name) {
			out = append(out, correspondence{target, true})
		}
	}
	for _, impl := range ix.implBy[s.id] {
		if isMethodLike(ix.syms[impl].name) {
			out = append(out, correspondence{impl, false})
		}
	}
	return out
}

// isMethodLike reports whether a global symbol's last descriptor is a
// method ("m()." ) or a term ("m." as scip-go names interface methods)
// rather than a type ("T#") or namespace ("p/").
func isMethodLike(sym string) bool {
	return !isLocal(sym) && strings.HasSuffix(sym, ".") && strings.Contains(sym, "#")
}

// parseSymbol is [scip.ParseSymbol] for symbols read from an index file,
// which may come with the repository: the bindings' parser panics on some
// malformed input (an index out of range on " ʸ", for one), and such a
// symbol is refused like any other that does not parse.
func parseSymbol(sym string) (s *scip.Symbol, err error) {
	defer func() {
		if p := recover(); p != nil {
			s, err = nil, errors.New("malformed symbol")
		}
	}()
	return scip.ParseSymbol(sym)
}

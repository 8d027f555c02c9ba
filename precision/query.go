package precision

import (
	"errors"
	"fmt"
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
	key := sym
	if isLocal(sym) {
		key = localKey(document, sym)
	}
	id, ok := ix.symID[key]
	if !ok {
		return Symbol{}, fmt.Errorf("%w: %q", ErrUnknownSymbol, sym)
	}
	return ix.symbol(id), nil
}

// SymbolAt returns the symbol at a one-based code-point position. The
// innermost occurrence whose half-open range holds the position wins, so a
// caret at a range's end column belongs to the next token.
func (ix *Index) SymbolAt(p string, line, col int) (Symbol, Location, error) {
	di, ok := ix.byPath[p]
	if !ok {
		return Symbol{}, Location{}, fmt.Errorf("%w: %s", ErrNoDocument, p)
	}
	if line < 1 || col < 1 {
		return Symbol{}, Location{}, fmt.Errorf("%w: %s:%d:%d is not a one-based position", ErrNoSymbol, p, line, col)
	}
	d := &ix.docs[di]
	l := int32(line - 1)
	c := int32(col - 1)
	if d.enc != CodePoints {
		if ft := ix.text(di); ft.err == nil && !ft.ascii {
			c = int32(FromCodePoints(ft.line(l), int(c), d.enc))
		}
	}
	best := -1
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
		if best < 0 || smaller(o, &d.occs[best]) {
			best = i
		}
	}
	if best < 0 {
		return Symbol{}, Location{}, fmt.Errorf("%w: %s:%d:%d", ErrNoSymbol, p, line, col)
	}
	return ix.symbol(d.occs[best].sym), ix.location(uint32(di), uint32(best)), nil
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
	// Definitions are where it is defined in the repository.
	Definitions []Location `json:"definitions"`
}

// LookupName returns every global symbol whose name (its last descriptor,
// or its display name) is name, each with its package identity, sorted by
// symbol. Two packages exporting the same name are two candidates, never one.
func (ix *Index) LookupName(name string) []Candidate {
	if name == "" {
		return nil
	}
	var out []Candidate
	for id := range ix.syms {
		e := &ix.syms[id]
		if e.doc != -1 || !strings.Contains(e.name, name) {
			continue
		}
		last, pkg, ok := parseGlobal(e.name)
		if !ok {
			continue
		}
		if last != name && (e.info == nil || e.info.DisplayName != name) {
			continue
		}
		s := ix.symbol(uint32(id))
		out = append(out, Candidate{Symbol: s, Package: pkg, Definitions: ix.Definitions(s)})
	}
	slices.SortFunc(out, func(a, b Candidate) int { return strings.Compare(a.Symbol.Name, b.Symbol.Name) })
	return out
}

// parseGlobal returns a global symbol's last descriptor name and its
// package identity.
func parseGlobal(sym string) (last, pkg string, ok bool) {
	s, err := scip.ParseSymbol(sym)
	if err != nil || s.Package == nil || len(s.Descriptors) == 0 {
		return "", "", false
	}
	parts := []string{s.Package.Manager, s.Package.Name, s.Package.Version}
	parts = slices.DeleteFunc(parts, func(p string) bool { return p == "" || p == "." })
	return s.Descriptors[len(s.Descriptors)-1].Name, strings.Join(parts, " "), true
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
func (ix *Index) DynamicReferences(s Symbol) []Location {
	var out []Location
	for _, c := range ix.correspondingMethods(s) {
		out = append(out, ix.locations(ix.refs[ix.refOff[c.id]:ix.refOff[c.id+1]])...)
	}
	return out
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

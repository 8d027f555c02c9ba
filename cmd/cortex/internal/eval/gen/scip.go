package gen

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"unicode"

	"github.com/scip-code/scip/bindings/go/scip"
	"google.golang.org/protobuf/proto"
)

// MaxSourceSize bounds a corpus file the truth readers look into.
const MaxSourceSize = 4 << 20

// MaxIndexSize bounds a SCIP index ReadSCIP reads.
const MaxIndexSize = 512 << 20

// ReadSCIP reads the truth of a corpus from its SCIP index: every
// definition of a function, method or type with its kind, every reference
// to one (a call when the source shows an argument list after the name),
// and every implementation relation between types. Source files are read
// from src to tell calls from other references and kinds of type apart;
// documents whose paths are not valid root-relative paths are skipped.
func ReadSCIP(r io.Reader, src fs.FS) (*Truth, error) {
	idx, err := decodeSCIP(r)
	if err != nil {
		return nil, err
	}
	sr := &scipReader{t: &Truth{}, src: src, lines: map[string][][]byte{}, methods: map[string]bool{}, aliases: map[string]string{}}
	if ti := idx.GetMetadata().GetToolInfo(); ti != nil {
		sr.t.Source = strings.TrimSpace(ti.GetName() + " " + ti.GetVersion())
	}
	sr.members(idx)
	sr.shorthands(idx)
	for _, d := range idx.GetDocuments() {
		sr.document(d)
	}
	if len(sr.t.Defs) == 0 {
		return nil, errors.New("gen: the SCIP index defines nothing in the corpus")
	}
	return sr.t, nil
}

// decodeSCIP reads an index whole and decodes it in one step: the
// streaming visitor allocates what a length prefix says before reading it,
// so a corrupt index could ask for any amount of memory.
func decodeSCIP(r io.Reader) (*scip.Index, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxIndexSize+1))
	if err != nil {
		return nil, fmt.Errorf("gen: reading the SCIP index: %w", err)
	}
	if len(data) > MaxIndexSize {
		return nil, fmt.Errorf("gen: the SCIP index is larger than %d bytes", MaxIndexSize)
	}
	var idx scip.Index
	if err := proto.Unmarshal(data, &idx); err != nil {
		return nil, fmt.Errorf("gen: reading the SCIP index: %w", err)
	}
	return &idx, nil
}

// A scipReader gathers the truth of an index's documents.
type scipReader struct {
	t     *Truth
	src   fs.FS
	lines map[string][][]byte // each source file's lines, read once
	// methods are the members written as terms that are methods: scip-go
	// names an interface's methods as it names a struct's fields.
	methods map[string]bool
	// aliases maps a property or local written as the function it holds
	// ({f} in JavaScript) to that function (see shorthands), by aliasKey.
	aliases map[string]string
}

// shorthands finds the names bound to a function where its name is
// written: a property an object literal writes as the function's name
// ({findKey}) and a local a destructuring binds by it (const {f} = await
// import('./m')). scip-typescript defines the property or the local at
// the very range that refers to the function, and a use of either
// (utils.findKey(…) with utils that object, f(…)) calls the function, so
// the truth counts it as the function's.
func (sr *scipReader) shorthands(idx *scip.Index) {
	type span struct{ line, start, end int32 }
	for _, d := range idx.GetDocuments() {
		defs, refs := map[span]string{}, map[span]string{}
		for _, o := range d.GetOccurrences() {
			rng, sym := o.GetRange(), o.GetSymbol()
			if len(rng) != 3 || sym == "" {
				continue
			}
			at := span{rng[0], rng[1], rng[2]}
			switch {
			case o.GetSymbolRoles()&int32(scip.SymbolRole_Definition) != 0:
				defs[at] = sym
			case !scip.IsLocalSymbol(sym):
				refs[at] = sym
			}
		}
		for at, p := range defs {
			f, ok := refs[at]
			if !ok || f == p {
				continue
			}
			if _, _, kind, ok := describe(f); ok && (kind == "function" || kind == "method") {
				sr.aliases[aliasKey(d.GetRelativePath(), p)] = f
			}
		}
	}
}

// aliasKey is the key of symbol sym of document p in scipReader.aliases:
// a local symbol is the document's own.
func aliasKey(p, sym string) string {
	if scip.IsLocalSymbol(sym) {
		return p + "\x00" + sym
	}
	return sym
}

// members finds, before any occurrence is read, the interface methods
// among the members written as terms (their hover shows a method's
// signature, "func (Reader).Read…", where a field's shows "struct field"),
// and, for scip-go, which methods implement them: gopls reports the
// references of a method and of the interface methods it implements as
// one set, so the truth shares them (Truth.Shared), and those of an
// interface method of another module in the method's package
// (Truth.SharedHere).
func (sr *scipReader) members(idx *scip.Index) {
	gopls := strings.HasPrefix(sr.t.Source, "scip-go")
	for _, d := range idx.GetDocuments() {
		for _, si := range d.GetSymbols() {
			if _, _, kind, ok := describe(si.GetSymbol()); ok && kind == "member" && methodDoc(si) {
				sr.methods[si.GetSymbol()] = true
			}
		}
	}
	if !gopls {
		return
	}
	defined := map[string]bool{}
	for _, d := range idx.GetDocuments() {
		for _, si := range d.GetSymbols() {
			defined[si.GetSymbol()] = true
		}
	}
	for _, d := range idx.GetDocuments() {
		for _, si := range d.GetSymbols() {
			for _, rel := range si.GetRelationships() {
				if !rel.GetIsImplementation() || !sr.isMethod(si.GetSymbol()) {
					continue
				}
				switch super := rel.GetSymbol(); {
				case defined[super] && sr.isMethod(super):
					sr.t.Shared = append(sr.t.Shared, Impl{Sub: si.GetSymbol(), Super: super})
				case !defined[super]:
					// An interface method of another module (io.Closer's
					// Close): gopls counts the calls through it in the
					// method's own package alone.
					if _, _, kind, ok := describe(super); ok && (kind == "member" || kind == "method") {
						sr.methods[super] = true
						sr.t.SharedHere = append(sr.t.SharedHere, Impl{Sub: si.GetSymbol(), Super: super})
					}
				}
			}
		}
	}
}

// methodDoc reports whether a symbol's hover documentation opens with a
// Go method's signature.
func methodDoc(si *scip.SymbolInformation) bool {
	for _, doc := range si.GetDocumentation() {
		code, ok := strings.CutPrefix(strings.TrimSpace(doc), "```go")
		if ok && strings.HasPrefix(strings.TrimSpace(code), "func (") {
			return true
		}
	}
	return false
}

// isMethod reports whether sym names a method, an interface's included.
func (sr *scipReader) isMethod(sym string) bool {
	_, _, kind, ok := describe(sym)
	return ok && (kind == "method" || kind == "member" && sr.methods[sym])
}

// source returns the lines of the file at p, or none when it cannot be
// read or is too large.
func (sr *scipReader) source(p string) [][]byte {
	if l, ok := sr.lines[p]; ok {
		return l
	}
	var l [][]byte
	if b, err := fs.ReadFile(sr.src, p); err == nil && len(b) <= MaxSourceSize {
		l = bytes.Split(b, []byte("\n"))
	}
	sr.lines[p] = l
	return l
}

// document adds one document's implementation relations, definitions and
// references.
func (sr *scipReader) document(d *scip.Document) {
	p := d.GetRelativePath()
	if !validPath(p) {
		return
	}
	src := sr.source(p)
	test := IsTestPath(p)
	infos := map[string]*scip.SymbolInformation{}
	for _, si := range d.GetSymbols() {
		infos[si.GetSymbol()] = si
		for _, rel := range si.GetRelationships() {
			if rel.GetIsImplementation() && isTypeSymbol(si.GetSymbol()) && isTypeSymbol(rel.GetSymbol()) {
				sr.t.Impls = append(sr.t.Impls, Impl{Sub: si.GetSymbol(), Super: rel.GetSymbol()})
			}
		}
	}
	for _, o := range d.GetOccurrences() {
		sym := o.GetSymbol()
		rng := o.GetRange()
		if sym == "" || len(rng) < 3 || rng[0] < 0 {
			continue
		}
		def := o.GetSymbolRoles()&int32(scip.SymbolRole_Definition) != 0
		if f, ok := sr.aliases[aliasKey(p, sym)]; ok {
			if def {
				continue
			}
			sym = f
		}
		if c, ok := strings.CutSuffix(sym, constructor); ok && !def && strings.HasSuffix(c, "#") {
			// new C(…): scip-typescript refers to C's constructor, which
			// no question asks about; TypeScript's own references of C
			// list it, as a use of the class.
			sym = c
		}
		if scip.IsLocalSymbol(sym) {
			continue
		}
		name, container, kind, ok := describe(sym)
		if !ok || kind == "member" && !sr.methods[sym] {
			continue
		}
		if kind == "member" {
			kind = "method"
		}
		line := int(rng[0])
		var text []byte
		if line < len(src) {
			text = src[line]
		}
		site := Site{Path: p, Line: line + 1}
		if def {
			if kind == "type" {
				kind = typeKind(infos[sym], text)
			}
			sr.t.Defs = append(sr.t.Defs, Def{ID: sym, Name: name, Container: container, Kind: kind, Site: site})
			continue
		}
		sr.t.Refs = append(sr.t.Refs, Ref{To: sym, Call: isCall(text, name, int(rng[1])), Test: test, Site: site})
	}
}

// constructor ends the symbol of a class's constructor in scip-typescript
// ("…/Tuple#`<constructor>`().").
const constructor = "`<constructor>`()."

// describe reads a global symbol: its name, the type it is a member of,
// and its kind ("function", "method" or "type", or "member" for a term
// in a type: a field, or an interface's method in scip-go); ok is false
// for anything else (variables, parameters, packages).
func describe(sym string) (name, container, kind string, ok bool) {
	s, err := parseSymbol(sym)
	if err != nil || len(s.GetDescriptors()) == 0 {
		return "", "", "", false
	}
	ds := s.GetDescriptors()
	last := ds[len(ds)-1]
	name = last.GetName()
	if name == "" || !isIdent(name) {
		return "", "", "", false
	}
	var parent *scip.Descriptor
	if len(ds) > 1 {
		parent = ds[len(ds)-2]
	}
	switch last.GetSuffix() {
	case scip.Descriptor_Method:
		if parent != nil && parent.GetSuffix() == scip.Descriptor_Type {
			return name, parent.GetName(), "method", true
		}
		return name, "", "function", true
	case scip.Descriptor_Term:
		if parent != nil && parent.GetSuffix() == scip.Descriptor_Type {
			return name, parent.GetName(), "member", true
		}
	case scip.Descriptor_Type:
		if parent != nil && parent.GetSuffix() == scip.Descriptor_Type {
			// A type nested in a type: asked about by its own name.
			return name, parent.GetName(), "type", true
		}
		return name, "", "type", true
	}
	return "", "", "", false
}

func isTypeSymbol(sym string) bool {
	_, _, kind, ok := describe(sym)
	return ok && kind == "type"
}

// typeKind tells a type's kind from the indexer's symbol information or,
// when the indexer leaves it unspecified, from the keyword on its line.
func typeKind(si *scip.SymbolInformation, line []byte) string {
	switch si.GetKind() {
	case scip.SymbolInformation_Interface:
		return "interface"
	case scip.SymbolInformation_Class:
		return "class"
	case scip.SymbolInformation_Struct:
		return "struct"
	case scip.SymbolInformation_Enum:
		return "enum"
	case scip.SymbolInformation_Trait:
		return "trait"
	}
	words := strings.FieldsFunc(string(line), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' })
	for _, w := range words {
		switch w {
		case "interface", "class", "struct", "enum", "trait":
			return w
		}
	}
	return "type"
}

// isCall reports whether the name written near column col of line is
// followed by an argument list (type arguments between are allowed).
// Columns are in the indexer's unit, so the name is looked for near them.
func isCall(line []byte, name string, col int) bool {
	best := -1
	for i := 0; ; {
		j := bytes.Index(line[i:], []byte(name))
		if j < 0 {
			break
		}
		at := i + j
		if best < 0 || abs(at-col) < abs(best-col) {
			best = at
		}
		i = at + 1
		if i >= len(line) {
			break
		}
	}
	if best < 0 {
		return false
	}
	rest := bytes.TrimLeft(line[best+len(name):], " \t")
	if len(rest) > 0 && rest[0] == '[' { // Go type arguments
		if k := bytes.IndexByte(rest, ']'); k > 0 {
			rest = bytes.TrimLeft(rest[k+1:], " \t")
		}
	}
	if len(rest) > 0 && rest[0] == '<' { // TypeScript type arguments
		if k := bytes.IndexByte(rest, '>'); k > 0 {
			rest = bytes.TrimLeft(rest[k+1:], " \t")
		}
	}
	return len(rest) > 0 && rest[0] == '('
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// isIdent reports whether s is an identifier a question can name.
func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || r == '$' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r))) {
			return false
		}
	}
	return s != ""
}

// parseSymbol is [scip.ParseSymbol], which panics on some malformed
// symbols (" ʸ", for one): those are refused like any that do not parse.
func parseSymbol(sym string) (s *scip.Symbol, err error) {
	defer func() {
		if recover() != nil {
			s, err = nil, errors.New("malformed symbol")
		}
	}()
	return scip.ParseSymbol(sym)
}

package graph

import (
	"strings"

	"github.com/codecortex/codecortex/symbols"
)

// Go's selector rule: in x.M(), M is a member of x's static type, and a
// Go function's head declares the type of each of its parameters and of
// its receiver, and a struct's declaration the type of each field. When
// the head shows that type, a use qualified by such a name (p.M, or one
// field further, p.f.M) is a member of that type: of a project type, its
// member (ofType); of a type of the standard library (sync.Mutex,
// *http.Request) or a predeclared one (error), none of the project's
// definitions, whatever their names. A type of another module the graph
// does not resolve may be the project's own (a module whose go.mod is
// not read yet): it says nothing.

// A goOperand is what goOperandType found for a qualified Go use.
type goOperand int

const (
	goUnknown goOperand = iota // the syntax does not show the type
	goProject                  // a type of the project, by its name
	goOutside                  // a type declared outside the project
)

// goOperandType returns the type of the operand ref ri of Go file fi is
// selected from, when the head of its enclosing function declares it: a
// parameter or receiver named by the ref's qualifier, or, for a member
// selected once more (p.f.M), the declared type of field f of that
// parameter's project struct. binds are the file's imports; fields caches
// the imports of the files declaring fields.
func (b *builder) goOperandType(fi, ri int, binds map[string]binding, fields map[int]map[string]binding) (string, goOperand) {
	f := &b.facts[fi]
	r := &f.Refs[ri]
	if r.Qualifier == "" || r.Kind == symbols.Inherit {
		return "", goUnknown
	}
	j := b.enclosingSym(fi, r.Byte)
	if j < 0 {
		return "", goUnknown
	}
	s := &f.Symbols[j]
	if s.Kind != symbols.Function && s.Kind != symbols.Method {
		return "", goUnknown
	}
	declared := goParamType(s.Signature, r.Qualifier)
	if declared == "" {
		return "", goUnknown
	}
	t, op := b.goTypeIn(fi, declared, binds)
	if !r.Selected {
		return t, op
	}
	// p.f.M: the ref before is f, selected from p, written just before.
	if ri == 0 || op != goProject {
		return "", goUnknown
	}
	prev := &f.Refs[ri-1]
	if prev.Selected || prev.Qualifier != r.Qualifier || prev.Byte+len(prev.Name)+1 != r.Byte {
		return "", goUnknown
	}
	return b.goFieldType(t, prev.Name, fields)
}

// goFieldType returns the declared type of the field called name of the
// project's struct t, when every such field declares the same kind of
// type (see goTypeIn).
func (b *builder) goFieldType(t, name string, fields map[int]map[string]binding) (string, goOperand) {
	typ, op := "", goUnknown
	found := false
	for _, s := range b.g.byName[name] {
		n := &b.g.Nodes[s]
		if n.Kind != string(symbols.Field) || lastName(normContainer(n.Container)) != t {
			continue
		}
		fi := int(b.nodeFile[s])
		sym := b.symbolOf(fi, s)
		if sym == nil {
			return "", goUnknown
		}
		declared := goParamType("("+stripTag(sym.Signature)+")", name)
		if declared == "" {
			return "", goUnknown
		}
		bd, ok := fields[fi]
		if !ok {
			bd = b.goBinds(fi)
			fields[fi] = bd
		}
		ft, fop := b.goTypeIn(fi, declared, bd)
		if found && (ft != typ || fop != op) {
			return "", goUnknown
		}
		typ, op, found = ft, fop, true
	}
	return typ, op
}

// symbolOf returns the symbol of file fi that node s is, or nil.
func (b *builder) symbolOf(fi int, s int32) *symbols.Symbol {
	f := &b.facts[fi]
	for k, n := range b.g.fileSyms[f.Path] {
		if n == s && k < len(f.Symbols) {
			return &f.Symbols[k]
		}
	}
	return nil
}

// goBinds returns the local names the imports of Go file fi bind.
func (b *builder) goBinds(fi int) map[string]binding {
	out := map[string]binding{}
	for _, im := range b.facts[fi].Imports {
		if local, bd := b.goImport(im); local != "" {
			out[local] = bd
		}
	}
	return out
}

// stripTag drops a struct field's tag (`json:"x"`) from its declaration.
func stripTag(sig string) string {
	if i := strings.IndexByte(sig, '`'); i > 0 {
		return strings.TrimSpace(sig[:i])
	}
	return sig
}

// goPredeclared are Go's predeclared types: declared outside any project.
var goPredeclared = map[string]bool{
	"bool": true, "byte": true, "complex64": true, "complex128": true, "error": true, "float32": true,
	"float64": true, "int": true, "int8": true, "int16": true, "int32": true, "int64": true, "rune": true,
	"string": true, "uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true,
	"uintptr": true, "any": true, "comparable": true,
}

// goTypeIn reads a declared type of Go file fi (binds are its imports):
// a named type, through pointers, without type arguments; pkg.T of a
// package of the project, or T of the file's package, is the project's
// type T; pkg.T of a package outside it, or a predeclared type, is
// outside. Anything else (a slice, map, func or channel type, a type
// parameter, an import the graph does not know) is unknown.
func (b *builder) goTypeIn(fi int, typ string, binds map[string]binding) (string, goOperand) {
	typ = strings.TrimLeft(typ, "*")
	if i := strings.IndexByte(typ, '['); i > 0 {
		typ = typ[:i] // T[K, V]
	}
	if typ == "" || !goIdentPath(typ) {
		return "", goUnknown
	}
	pkg, name, qualified := strings.Cut(typ, ".")
	if !qualified {
		name = pkg
		b.enterPackage(fi)
		if b.goTypeNamed(name, b.pkgFiles) {
			return name, goProject
		}
		if goPredeclared[name] {
			return "", goOutside
		}
		return "", goUnknown
	}
	bd, ok := binds[pkg]
	switch {
	case !ok || strings.Contains(name, "."):
		return "", goUnknown
	case len(bd.files) == 0:
		if b.goStdImport(fi, pkg) {
			return "", goOutside
		}
		return "", goUnknown // a module the graph may not know (at first contact, its go.mod unread)
	case b.goTypeNamed(name, bd.files):
		return name, goProject
	}
	return "", goUnknown
}

// goStdImport reports whether Go file fi imports the package it names
// local from the standard library (an import path without a dot in its
// first element: sync, net/http), while the project is not the standard
// library itself.
func (b *builder) goStdImport(fi int, local string) bool {
	for _, m := range b.goMods {
		if m.Path == "std" {
			return false
		}
	}
	for _, im := range b.facts[fi].Imports {
		if l, _ := b.goImport(im); l == local {
			return stdImport(im.Path)
		}
	}
	return false
}

// goTypeNamed reports whether a top-level type called name is declared
// in files (file nodes).
func (b *builder) goTypeNamed(name string, files []int32) bool {
	return len(b.named(name, files, func(n *Node) bool {
		if n.Container != "" {
			return false
		}
		switch symbols.Kind(n.Kind) {
		case symbols.Struct, symbols.Interface, symbols.Type:
			return true
		}
		return false
	})) > 0
}

// goIdentPath reports whether s is an identifier or two joined by a dot.
func goIdentPath(s string) bool {
	for i, c := range s {
		switch {
		case c == '_' || c == '.' && i > 0 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80:
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return !strings.HasSuffix(s, ".")
}

// goParamType returns the type a Go function head (a Signature: "func (c
// *Command) Run(args []string, n int) error") declares for its receiver
// or parameter called name, as written; "" when it declares none of that
// name or the head is cut before its type. A head that is a bare
// parameter list ("(mu sync.Mutex)") is read as one.
func goParamType(sig, name string) string {
	rest := sig
	if r, ok := strings.CutPrefix(sig, "func"); ok {
		rest = strings.TrimLeft(r, " ")
		if strings.HasPrefix(rest, "(") {
			list, after, ok := cutGroup(rest)
			if !ok {
				return ""
			}
			if t := paramIn(list, name); t != "" {
				return t
			}
			rest = strings.TrimLeft(after, " ")
		}
		// The function's name and type parameters.
		i := strings.IndexAny(rest, "([")
		if i < 0 {
			return ""
		}
		rest = rest[i:]
		if rest[0] == '[' {
			_, after, ok := cutGroup(rest)
			if !ok {
				return ""
			}
			rest = strings.TrimLeft(after, " ")
		}
	}
	if !strings.HasPrefix(rest, "(") {
		return ""
	}
	list, _, ok := cutGroup(rest)
	if !ok {
		return ""
	}
	return paramIn(list, name)
}

// cutGroup splits s, which starts with an opening bracket, into what the
// bracket holds and what follows its closing bracket; ok is false when it
// is not closed.
func cutGroup(s string) (inner, after string, ok bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return s[1:i], s[i+1:], true
			}
		}
	}
	return "", "", false
}

// paramIn returns the type a parameter list ("a, b int, c *T") declares
// for name, or "".
func paramIn(list, name string) string {
	var items []string
	depth, start := 0, 0
	for i := 0; i < len(list); i++ {
		switch list[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				items = append(items, strings.TrimSpace(list[start:i]))
				start = i + 1
			}
		}
	}
	items = append(items, strings.TrimSpace(list[start:]))
	// Names grouped before a type share it: "a, b int".
	pending := false
	for _, it := range items {
		n, t, typed := strings.Cut(it, " ")
		switch {
		case !typed:
			if it == name {
				pending = true
			}
		case n == name || pending:
			t = strings.TrimSpace(t)
			if strings.HasPrefix(t, "...") {
				return "" // a variadic parameter is a slice
			}
			return t
		}
	}
	return ""
}

// goTypeNeeds returns the names whose definitions goOperandType reads for
// ref ri of Go file fi, besides the definitions of the ref's own name: the
// type its operand is declared with and that type's bases, and for p.f.M
// the field f and the type it is declared with (see namedNeeds).
func (b *builder) goTypeNeeds(fi, ri int, fields map[int]map[string]binding) []string {
	f := &b.facts[fi]
	r := &f.Refs[ri]
	if r.Qualifier == "" || r.Kind == symbols.Inherit {
		return nil
	}
	j := b.enclosingSym(fi, r.Byte)
	if j < 0 || f.Symbols[j].Kind != symbols.Function && f.Symbols[j].Kind != symbols.Method {
		return nil
	}
	declared := goBareType(goParamType(f.Symbols[j].Signature, r.Qualifier))
	if declared == "" {
		return nil
	}
	out := []string{declared}
	if r.Selected && ri > 0 {
		prev := &f.Refs[ri-1]
		if !prev.Selected && prev.Qualifier == r.Qualifier && prev.Byte+len(prev.Name)+1 == r.Byte {
			out = append(out, prev.Name)
			for _, s := range b.g.byName[prev.Name] {
				n := &b.g.Nodes[s]
				if n.Kind != string(symbols.Field) || lastName(normContainer(n.Container)) != declared {
					continue
				}
				if sym := b.symbolOf(int(b.nodeFile[s]), s); sym != nil {
					if t := goBareType(goParamType("("+stripTag(sym.Signature)+")", prev.Name)); t != "" {
						out = append(out, t)
					}
				}
			}
		}
	}
	if t, op := b.goOperandType(fi, ri, b.goBinds(fi), fields); op == goProject {
		out = append(out, b.baseChain(t)...)
	}
	return out
}

// goBareType returns the name of a declared Go type without pointers,
// package or type arguments ("*pkg.T[K]" gives "T"), or "".
func goBareType(typ string) string {
	typ = strings.TrimLeft(typ, "*")
	if i := strings.IndexByte(typ, '['); i > 0 {
		typ = typ[:i]
	}
	if !goIdentPath(typ) {
		return ""
	}
	return typ[strings.LastIndexByte(typ, '.')+1:]
}

package graph

import (
	"path"
	"slices"
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

// A goType is a type of the project: its name, and the directory of the
// package declaring it (two packages may declare types of one name). Of a
// type outside the project (goOutside), it holds the name of a predeclared
// type or of one of the standard library as goKnownInterfaces keys them
// (error, http.ResponseWriter), when the code writes one.
type goType struct{ name, dir string }

// goOperandType returns the type of the operand ref ri of Go file fi is
// selected from, when the code shows it: a parameter or receiver named by
// the ref's qualifier, as the head of its enclosing function declares it,
// or a local variable, as its declaration shows it (see goLocalType); for
// a member selected once more (p.f.M, p.f.g.M), the declared type of the
// field it is selected from, of the type that field is a member of. binds
// are the file's imports; fields caches the imports of the files
// declaring fields and functions.
func (b *builder) goOperandType(fi, ri int, binds map[string]binding, fields map[int]map[string]binding) (goType, goOperand) {
	return b.goOperandAt(fi, ri, binds, fields, 0)
}

// maxGoChain is how many fields goOperandType follows back along a chain
// of selections (p.f.g.h.M).
const maxGoChain = 8

// goOperandAt is goOperandType for a ref depth fields along a chain.
func (b *builder) goOperandAt(fi, ri int, binds map[string]binding, fields map[int]map[string]binding, depth int) (goType, goOperand) {
	f := &b.facts[fi]
	r := &f.Refs[ri]
	if r.Kind == symbols.Inherit {
		return goType{}, goUnknown
	}
	if r.Selected && r.Type != "" {
		// Selected from a call or a literal: what the extractor read of it.
		return b.goLocalType(fi, r.Type, binds, fields)
	}
	if r.Qualifier == "" {
		return goType{}, goUnknown
	}
	if !r.Selected {
		j := b.enclosingSym(fi, r.Byte)
		if j < 0 {
			return goType{}, goUnknown
		}
		if s := &f.Symbols[j]; s.Kind == symbols.Function || s.Kind == symbols.Method {
			if declared := goParamType(s.Signature, r.Qualifier); declared != "" {
				return b.goTypeIn(fi, declared, binds)
			}
		}
		// A local, of a function or of a func literal a variable holds.
		if r.Type != "" {
			return b.goLocalType(fi, r.Type, binds, fields)
		}
		return goType{}, goUnknown
	}
	// p.f.M: the ref before is f, written just before, and selected from
	// what the ref before it names.
	if ri == 0 || depth >= maxGoChain {
		return goType{}, goUnknown
	}
	prev := &f.Refs[ri-1]
	if prev.Qualifier != r.Qualifier || prev.Byte+len(prev.Name)+1 != r.Byte {
		return goType{}, goUnknown
	}
	switch t, op := b.goOperandAt(fi, ri-1, binds, fields, depth+1); op {
	case goOutside:
		// A field of a type declared outside the project: its methods are
		// declared outside too (req.Header.Get of an *http.Request).
		return goType{}, goOutside
	case goProject:
		return b.goFieldType(t, prev.Name, fields)
	}
	return goType{}, goUnknown
}

// A goLocal is a local variable's type as goLocalType found it.
type goLocal struct {
	typ goType
	op  goOperand
}

// goLocalType returns the type of what a use of Go file fi is selected
// from, when the code shows typ (a symbols.Ref's Type): a type as written,
// read as a parameter's (goTypeIn); the first result of a call of F or
// pkg.F, the one function of that name in the file's package or the
// imported one; or of (X).M(), the one method M of X's type; a result as
// the function's head declares it, in its own file. The answers are kept
// for the file's other uses.
func (b *builder) goLocalType(fi int, typ string, binds map[string]binding, fields map[int]map[string]binding) (goType, goOperand) {
	if b.localOf != fi+1 {
		b.localTypes, b.localOf = map[string]goLocal{}, fi+1
	}
	if l, ok := b.localTypes[typ]; ok {
		return l.typ, l.op
	}
	t, op := b.goLocalTypeOf(fi, typ, binds, fields)
	b.localTypes[typ] = goLocal{t, op}
	return t, op
}

// goLocalTypeOf is goLocalType, not kept.
func (b *builder) goLocalTypeOf(fi int, typ string, binds map[string]binding, fields map[int]map[string]binding) (goType, goOperand) {
	if name, ok := strings.CutPrefix(typ, "var "); ok {
		if pkg, _, qualified := strings.Cut(name, "."); qualified {
			// A variable of another package: of the standard library or
			// another module, none of the project's types.
			if bd, ok := binds[pkg]; ok && len(bd.files) == 0 && b.goOutsideImport(fi, pkg) {
				return goType{}, goOutside
			}
			return goType{}, goUnknown
		}
		return b.goPackageVarType(fi, name, fields)
	}
	if of, ok := strings.CutPrefix(typ, "elem "); ok {
		return b.goElemType(fi, of, binds, fields)
	}
	called, isCall := strings.CutSuffix(typ, "()")
	if !isCall && strings.HasPrefix(typ, "(") {
		// (X).f: field f of X's type.
		recv, f, op := b.goFieldOwner(fi, typ, binds, fields)
		if op != goProject {
			return goType{}, op
		}
		return b.goFieldType(recv, f, fields)
	}
	if !isCall {
		return b.goTypeIn(fi, typ, binds)
	}
	fns, op := b.goCalled(fi, called, binds, fields)
	if op != goProject {
		return goType{}, op
	}
	return b.goResultOf(fns, fields, false)
}

// goCalled returns the project's functions or methods a Go call of
// called may run (F, pkg.F, (X).M; see symbols' goExprType), when it
// knows them; goOutside when they are another package's whose results
// hold none of the project's types (see madeOutside, goStdResult).
func (b *builder) goCalled(fi int, called string, binds map[string]binding, fields map[int]map[string]binding) ([]int32, goOperand) {
	if strings.HasPrefix(called, "(") {
		// (X).M(): method M of X's type.
		inner, rest, ok := cutGroup(called)
		m, ok2 := strings.CutPrefix(rest, ".")
		if !ok || !ok2 {
			return nil, goUnknown
		}
		recv, op := b.goLocalType(fi, inner, binds, fields)
		if op == goOutside && b.madeOutside(inner, binds) {
			return nil, goOutside
		}
		if op != goProject {
			return nil, goUnknown
		}
		return b.g.goMethods(recv, m), goProject
	}
	if pkg, name, qualified := strings.Cut(called, "."); qualified {
		bd, ok := binds[pkg]
		if ok && len(bd.files) == 0 && !strings.Contains(name, ".") && b.goStdResult(fi, pkg) {
			return nil, goOutside // httptest.NewServer(…), http.Get(…)
		}
		if !ok || len(bd.files) == 0 || strings.Contains(name, ".") {
			return nil, goUnknown
		}
		return b.named(name, bd.files, goFunc), goProject
	}
	fns := b.namedInPackage(called, fi, goFunc)
	if len(fns) == 0 {
		fns = b.dotImported(called, binds, goFunc)
	}
	return fns, goProject
}

// madeOutside reports whether a Type of goOutside is a value another
// package made: its variable (var http.DefaultClient), what its function
// returns (httptest.NewServer(), of the standard library and not generic,
// see goStdResult), a value of its type written without type arguments
// (*http.Client), or what a method of such a value returns. Its type
// is instantiated with none of the project's types, so its methods
// return none of them either; a type written with its type arguments
// (atomic.Pointer[T]), or one a function of the project returns, may be:
// its methods may return a T.
func (b *builder) madeOutside(typ string, binds map[string]binding) bool {
	if name, ok := strings.CutPrefix(typ, "var "); ok {
		return strings.Contains(name, ".")
	}
	called, ok := strings.CutSuffix(typ, "()")
	if !ok {
		// A type as written: another package's, with no type arguments
		// (*http.Client).
		called = strings.TrimLeft(typ, "*")
		if strings.ContainsAny(called, "[(") {
			return false
		}
	} else if strings.HasPrefix(called, "(") {
		inner, _, ok := cutGroup(called)
		return ok && b.madeOutside(inner, binds)
	}
	pkg, _, qualified := strings.Cut(called, ".")
	bd, ok := binds[pkg]
	return qualified && ok && len(bd.files) == 0
}

// goPackageVarType returns the type of the variable called name of Go
// file fi's package, when there is one and its declaration shows the
// type (see goVarType), read in the declaration's file.
func (b *builder) goPackageVarType(fi int, name string, fields map[int]map[string]binding) (goType, goOperand) {
	dfi, typ := b.goPackageVar(fi, name)
	if typ == "" {
		return goType{}, goUnknown
	}
	return b.goLocalTypeOf(dfi, typ, b.goBindsIn(dfi, fields), fields)
}

// goPackageVar returns a file declaring the variable called name of Go
// file fi's package, and what its declaration shows of its type
// (goVarType), or "": one declaration, or several that show the same
// (files for other build tags: binding.go and binding_nomsgpack.go).
func (b *builder) goPackageVar(fi int, name string) (int, string) {
	vars := b.namedInPackage(name, fi, func(n *Node) bool { return n.Kind == string(symbols.Variable) && n.Container == "" })
	if len(vars) == 0 || len(vars) > maxVarDecls {
		return 0, ""
	}
	typ := ""
	for i, v := range vars {
		dfi := int(b.nodeFile[v])
		sym := b.symbolOf(dfi, v)
		if sym == nil {
			return 0, ""
		}
		t := goVarType(sym.Signature, name)
		if i > 0 && t != typ {
			return 0, ""
		}
		typ = t
	}
	return int(b.nodeFile[vars[0]]), typ
}

// maxVarDecls bounds the declarations of a package variable goPackageVar
// compares: one a file for each system its package builds for.
const maxVarDecls = 16

// goVarType returns what the head of a Go variable's declaration ("var v
// T", "var v = New()", "var v = &T{…}") shows of v's type, as a Ref's Type
// would say it: the type written, a function's call (F(), pkg.F()) or a
// literal's type (T, *T of &T{…} and new(T)); "" for another expression
// or a declaration of several names.
func goVarType(sig, name string) string {
	rest, ok := strings.CutPrefix(sig, "var "+name+" ")
	if !ok {
		return ""
	}
	if expr, ok := strings.CutPrefix(rest, "= "); ok {
		ptr := ""
		if e, ok := strings.CutPrefix(expr, "&"); ok {
			ptr, expr = "*", e
		} else if e, ok := strings.CutPrefix(expr, "new("); ok {
			t, _, _ := strings.Cut(e, ")")
			if !goIdentPath(t) {
				return ""
			}
			return "*" + t
		}
		i := strings.IndexAny(expr, "({")
		if i <= 0 || !goIdentPath(expr[:i]) || strings.Count(expr[:i], ".") > 1 {
			return ""
		}
		switch {
		case expr[i] == '{':
			return ptr + expr[:i]
		case ptr == "":
			return expr[:i] + "()"
		}
		return ""
	}
	typ, _, _ := strings.Cut(rest, " =")
	return typ
}

// goResultOf returns the type of the first result of fns, when it is one
// function or method, as its head declares it in its own file; with
// elem, the type of that result's elements (a slice's, an array's, a
// map's values).
func (b *builder) goResultOf(fns []int32, fields map[int]map[string]binding, elem bool) (goType, goOperand) {
	if len(fns) != 1 {
		return goType{}, goUnknown
	}
	dfi := int(b.nodeFile[fns[0]])
	sym := b.symbolOf(dfi, fns[0])
	if sym == nil {
		return goType{}, goUnknown
	}
	res := goResultType(sym.Signature)
	if elem {
		res = goElemDecl(res)
	}
	if res == "" {
		return goType{}, goUnknown
	}
	return b.goTypeIn(dfi, res, b.goBindsIn(dfi, fields))
}

// goMethods returns the methods called m of the project's Go type recv,
// an interface's included.
func (g *Graph) goMethods(recv goType, m string) []int32 {
	var out []int32
	for _, s := range g.byName[m] {
		if n := &g.Nodes[s]; n.Kind == string(symbols.Method) && normContainer(n.Container) == recv.name && path.Dir(n.Path) == recv.dir {
			out = append(out, s)
		}
	}
	return out
}

// goTopType keeps the types declared at a package's top level.
func goTopType(n *Node) bool { return n.Container == "" && goTypeKinds[symbols.Kind(n.Kind)] }

// goFunc keeps the functions that are no method.
func goFunc(n *Node) bool { return n.Kind == string(symbols.Function) && n.Container == "" }

// goResultType returns the type of the first result a Go function head
// ("func F(…) *T", "func (r *R) M(…) (t T, err error)") or an interface's
// method ("M(…) *T") declares, or "" for none, or for one of the
// function's type parameters.
func goResultType(sig string) string {
	rest, ok := strings.CutPrefix(sig, "func")
	if ok {
		rest = strings.TrimLeft(rest, " ")
		if strings.HasPrefix(rest, "(") { // the receiver
			if _, rest, ok = cutGroup(rest); !ok {
				return ""
			}
		}
	} else if i := strings.IndexByte(sig, '('); i > 0 && goIdentPath(sig[:i]) && !strings.Contains(sig[:i], ".") {
		rest = sig
	} else {
		return ""
	}
	i := strings.IndexAny(rest, "([")
	if i < 0 {
		return ""
	}
	rest = rest[i:]
	var typeParams string
	if rest[0] == '[' {
		if typeParams, rest, ok = cutGroup(rest); !ok {
			return ""
		}
	}
	if !strings.HasPrefix(rest, "(") {
		return ""
	}
	if _, rest, ok = cutGroup(rest); !ok { // the parameters
		return ""
	}
	res := strings.TrimSpace(rest)
	if strings.HasPrefix(res, "(") {
		list, _, ok := cutGroup(res)
		if !ok {
			return ""
		}
		first, _, _ := strings.Cut(list, ",")
		first = strings.TrimSpace(first)
		if _, t, named := strings.Cut(first, " "); named {
			first = strings.TrimSpace(t) // a named result: "t *T"
		}
		res = first
	}
	if res == "" || strings.ContainsAny(res, " ({") {
		return ""
	}
	for _, tp := range strings.Split(typeParams, ",") {
		if name, _, _ := strings.Cut(strings.TrimSpace(tp), " "); name != "" && goBareType(res) == name {
			return "" // a type parameter: what it is depends on the call
		}
	}
	return res
}

// goFieldOwner reads a Type written "(X).f": the type of X, when the
// project declares it, and f. A field of a value another package made is
// outside (see madeOutside).
func (b *builder) goFieldOwner(fi int, typ string, binds map[string]binding, fields map[int]map[string]binding) (goType, string, goOperand) {
	inner, rest, ok := cutGroup(typ)
	f, ok2 := strings.CutPrefix(rest, ".")
	if !ok || !ok2 || f == "" {
		return goType{}, "", goUnknown
	}
	recv, op := b.goLocalType(fi, inner, binds, fields)
	if op == goOutside && b.madeOutside(inner, binds) {
		return goType{}, "", goOutside
	}
	if op != goProject {
		return goType{}, "", goUnknown
	}
	return recv, f, goProject
}

// goElemType returns the type of the elements of what a loop ranges
// over, whose Type is of (see symbols' goElemType): the element type its
// declaration writes ([]T, [n]T, map[K]T) for a field of the project's
// type ((X).f), a variable of the package (var v) or the result of a
// call (F(), pkg.F(), (X).M()), read in the declaring file; none of the
// project's for a call of another package's function (goCalled);
// unknown otherwise.
func (b *builder) goElemType(fi int, of string, binds map[string]binding, fields map[int]map[string]binding) (goType, goOperand) {
	if called, ok := strings.CutSuffix(of, "()"); ok {
		fns, op := b.goCalled(fi, called, binds, fields)
		if op != goProject {
			return goType{}, op
		}
		return b.goResultOf(fns, fields, true)
	}
	if v, ok := strings.CutPrefix(of, "var "); ok {
		if strings.Contains(v, ".") {
			return goType{}, goUnknown
		}
		dfi, vt := b.goPackageVar(fi, v)
		if e := goElemDecl(vt); e != "" {
			return b.goTypeIn(dfi, e, b.goBindsIn(dfi, fields))
		}
		return goType{}, goUnknown
	}
	if !strings.HasPrefix(of, "(") {
		return goType{}, goUnknown
	}
	recv, f, op := b.goFieldOwner(fi, of, binds, fields)
	if op != goProject {
		return goType{}, goUnknown
	}
	typ, top := goType{}, goUnknown
	for k, s := range b.goFields(recv, f) {
		dfi, declared := b.goFieldDecl(s, f)
		e := goElemDecl(declared)
		if e == "" {
			return goType{}, goUnknown
		}
		et, eop := b.goTypeIn(dfi, e, b.goBindsIn(dfi, fields))
		if k > 0 && (et != typ || eop != top) {
			return goType{}, goUnknown
		}
		typ, top = et, eop
	}
	return typ, top
}

// goElemDecl returns the element type a declared slice, array or map type
// writes ("[]T", "[4]*T", "map[string]T" give T, *T and T), or "".
func goElemDecl(typ string) string {
	typ = strings.TrimSpace(typ)
	switch {
	case strings.HasPrefix(typ, "map["):
		_, rest, ok := cutGroup(typ[len("map"):])
		if !ok {
			return ""
		}
		return strings.TrimSpace(rest)
	case strings.HasPrefix(typ, "["):
		_, rest, ok := cutGroup(typ)
		if !ok {
			return ""
		}
		return strings.TrimSpace(rest)
	}
	return ""
}

// goFields returns the fields called name of the project's struct t, or
// when it declares none, of the nearest struct of its package it embeds
// that does (Go promotes their fields), as far as baseChain looks.
func (b *builder) goFields(t goType, name string) []int32 {
	owned := func(owner string) []int32 {
		var out []int32
		for _, s := range b.g.byName[name] {
			n := &b.g.Nodes[s]
			if n.Kind == string(symbols.Field) && path.Dir(n.Path) == t.dir && b.ownerOf(s) == owner {
				out = append(out, s)
			}
		}
		return out
	}
	if out := owned(t.name); len(out) > 0 {
		return out // the struct's own: no chain to walk
	}
	for _, base := range b.baseChain(t.name)[1:] {
		if out := owned(base); len(out) > 0 {
			return out
		}
	}
	return nil
}

// goFieldType returns the declared type of the field called name of the
// project's struct t (or one it embeds, see goFields), when every such
// field declares the same kind of type (see goTypeIn).
func (b *builder) goFieldType(t goType, name string, fields map[int]map[string]binding) (goType, goOperand) {
	typ, op := goType{}, goUnknown
	found := false
	for _, s := range b.goFields(t, name) {
		fi, declared := b.goFieldDecl(s, name)
		if declared == "" {
			return goType{}, goUnknown
		}
		ft, fop := b.goTypeIn(fi, declared, b.goBindsIn(fi, fields))
		if found && (ft != typ || fop != op) {
			return goType{}, goUnknown
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

// goBindsIn returns goBinds(fi), kept in cache for the next call.
func (b *builder) goBindsIn(fi int, cache map[int]map[string]binding) map[string]binding {
	bd, ok := cache[fi]
	if !ok {
		bd = b.goBinds(fi)
		cache[fi] = bd
	}
	return bd
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
func (b *builder) goTypeIn(fi int, typ string, binds map[string]binding) (goType, goOperand) {
	typ = strings.TrimLeft(typ, "*")
	if i := strings.IndexByte(typ, '['); i > 0 {
		typ = typ[:i] // T[K, V]
	}
	if typ == "" || !goIdentPath(typ) {
		return goType{}, goUnknown
	}
	pkg, name, qualified := strings.Cut(typ, ".")
	if !qualified {
		name = pkg
		if b.goTypeInPackage(name, fi) {
			return goType{name, path.Dir(b.facts[fi].Path)}, goProject
		}
		if ts := b.dotImported(name, binds, goTopType); len(ts) > 0 {
			return goType{name, path.Dir(b.g.Nodes[ts[0]].Path)}, goProject
		}
		if goPredeclared[name] {
			return goType{name: name}, goOutside
		}
		return goType{}, goUnknown
	}
	bd, ok := binds[pkg]
	switch {
	case !ok || strings.Contains(name, "."):
		return goType{}, goUnknown
	case len(bd.files) == 0:
		if b.goStdImport(fi, pkg) {
			return goType{name: importedPackage(&b.facts[fi], pkg) + "." + name}, goOutside
		}
		if b.goForeignImport(fi, pkg) {
			return goType{}, goOutside
		}
		return goType{}, goUnknown // a module the graph may not know (at first contact, its go.mod unread)
	}
	if dir := b.goTypeDir(name, bd.files); dir != "" {
		return goType{name, dir}, goProject
	}
	return goType{}, goUnknown
}

// goTypeInPackage reports whether the package of Go file fi declares a
// top-level type called name: goTypeDir over samePackage(fi), without
// marking the package's files (the type of a function's result is read in
// the function's package, between uses of another).
func (b *builder) goTypeInPackage(name string, fi int) bool {
	f := &b.facts[fi]
	dir := path.Dir(f.Path)
	for _, s := range b.g.byName[name] {
		n := &b.g.Nodes[s]
		if n.Container != "" || !goTypeKinds[symbols.Kind(n.Kind)] {
			continue
		}
		if d := &b.facts[b.nodeFile[s]]; d.Package == f.Package && strings.HasSuffix(d.Path, ".go") && path.Dir(d.Path) == dir {
			return true
		}
	}
	return false
}

// goTypeKinds are the kinds of Go's type declarations.
var goTypeKinds = map[symbols.Kind]bool{symbols.Struct: true, symbols.Interface: true, symbols.Type: true}

// goImportPath returns the path of the package Go file fi imports as
// local.
func (b *builder) goImportPath(fi int, local string) (string, bool) {
	for _, im := range b.facts[fi].Imports {
		if l, _ := b.goImport(im); l == local {
			return im.Path, true
		}
	}
	return "", false
}

// goStdProject reports whether the project is the standard library.
func (b *builder) goStdProject() bool {
	return slices.ContainsFunc(b.goMods, func(m goModule) bool { return m.Path == "std" })
}

// goStdImport reports whether Go file fi imports the package it names
// local from the standard library (an import path without a dot in its
// first element: sync, net/http), while the project is not the standard
// library itself.
func (b *builder) goStdImport(fi int, local string) bool {
	p, ok := b.goImportPath(fi, local)
	return ok && stdImport(p) && !b.goStdProject()
}

// goOutsideImport reports whether Go file fi imports the package it names
// local from outside the project: the standard library or another module.
func (b *builder) goOutsideImport(fi int, local string) bool {
	return b.goStdImport(fi, local) || b.goForeignImport(fi, local)
}

// goStdResult reports whether what a function of the package Go file fi
// imports as local returns is of no type of the project: a package of the
// standard library (the project not being it) whose functions are not
// generic over their arguments' types, as those of goGenericStd are
// (slices.Max(ts) is a T of the project).
func (b *builder) goStdResult(fi int, local string) bool {
	p, ok := b.goImportPath(fi, local)
	return ok && stdImport(p) && !goGenericStd[p] && !b.goStdProject()
}

// goGenericStd are the packages of the standard library with generic
// functions that may return a value of their caller's types.
var goGenericStd = map[string]bool{
	"slices": true, "maps": true, "cmp": true, "iter": true, "sync": true, "sync/atomic": true,
	"unique": true, "errors": true, "math/rand/v2": true, "weak": true, "structs": true,
}

// goForeignImport reports whether Go file fi imports the package it names
// local from a module that is none of the project's: the graph has read
// the project's go.mod files and the import path is under none of their
// module paths (a dependency, such as github.com/spf13/pflag for cobra).
func (b *builder) goForeignImport(fi int, local string) bool {
	p, ok := b.goImportPath(fi, local)
	if !ok || len(b.goMods) == 0 {
		return false
	}
	return !slices.ContainsFunc(b.goMods, func(m goModule) bool {
		return m.Path == "std" || p == m.Path || strings.HasPrefix(p, m.Path+"/")
	})
}

// goTypeDir returns the directory of the package declaring a top-level
// type called name in files (file nodes), or "" when none does.
func (b *builder) goTypeDir(name string, files []int32) string {
	ts := b.named(name, files, goTopType)
	if len(ts) == 0 {
		return ""
	}
	return path.Dir(b.g.Nodes[ts[0]].Path)
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
// (p.f.g.M) each field of the chain and the type it is declared with (see
// namedNeeds).
func (b *builder) goTypeNeeds(fi, ri int, fields map[int]map[string]binding) []string {
	f := &b.facts[fi]
	r := &f.Refs[ri]
	if r.Kind == symbols.Inherit {
		return nil
	}
	if r.Selected && r.Type != "" {
		return b.goLocalNeeds(fi, ri, fields)
	}
	if r.Qualifier == "" {
		return nil
	}
	j := b.enclosingSym(fi, r.Byte)
	if j < 0 {
		return nil
	}
	sig := "" // the head that declares the parameters, if j is a function
	if k := f.Symbols[j].Kind; k == symbols.Function || k == symbols.Method {
		sig = f.Symbols[j].Signature
	}
	binds := b.goBindsIn(fi, fields)
	var out []string
	// Back along the chain r is selected from, to its first ref (p).
	head := ri
	for head > 0 && ri-head < maxGoChain && f.Refs[head].Selected {
		prev := &f.Refs[head-1]
		if prev.Qualifier != r.Qualifier || prev.Byte+len(prev.Name)+1 != f.Refs[head].Byte {
			break
		}
		head--
		out = append(out, prev.Name)
		if t, op := b.goOperandType(fi, head, binds, fields); op == goProject {
			out = append(out, b.goFieldTypeNames(t, prev.Name)...)
		}
	}
	h := &f.Refs[head]
	if declared := goBareType(goParamType(sig, h.Qualifier)); declared != "" && !h.Selected {
		out = append(out, declared)
	} else if h.Type != "" {
		out = b.goTypeNames(fi, h.Type, binds, fields, out)
	}
	if t, op := b.goOperandType(fi, ri, binds, fields); op == goProject {
		out = append(out, b.baseChain(t.name)...)
	}
	return out
}

// goFieldTypeNames returns the names of the types the fields called name
// of the project's type t are declared with (their elements' for a
// slice, array or map), and of the types t embeds, whose fields it
// promotes (see goFields).
func (b *builder) goFieldTypeNames(t goType, name string) []string {
	owners := b.baseChain(t.name)
	out := slices.Clone(owners[1:])
	for _, s := range b.g.byName[name] {
		if b.g.Nodes[s].Kind != string(symbols.Field) || !slices.Contains(owners, b.ownerOf(s)) {
			continue
		}
		_, declared := b.goFieldDecl(s, name)
		if e := goElemDecl(declared); e != "" {
			declared = e
		}
		if ft := goBareType(declared); ft != "" {
			out = append(out, ft)
		}
	}
	return out
}

// goFieldDecl returns the file of field node s, called name, and the
// type its declaration writes ("" when it cannot be read): an embedded
// field's is the type it names (http.ResponseWriter, *T).
func (b *builder) goFieldDecl(s int32, name string) (int, string) {
	fi := int(b.nodeFile[s])
	sym := b.symbolOf(fi, s)
	if sym == nil {
		return fi, ""
	}
	decl := strings.TrimSpace(stripTag(sym.Signature))
	if embedded := strings.TrimLeft(decl, "*"); embedded == name || strings.HasSuffix(embedded, "."+name) && goIdentPath(embedded) {
		return fi, decl
	}
	return fi, goParamType("("+decl+")", name)
}

// goLocalNeeds is goTypeNeeds for a ref whose Type the extractor read (a
// local, a package variable, a call or a literal selected from): the
// names its Type reads (see goTypeNames), and the bases of the type.
func (b *builder) goLocalNeeds(fi, ri int, fields map[int]map[string]binding) []string {
	r := &b.facts[fi].Refs[ri]
	if r.Type == "" {
		return nil
	}
	binds := b.goBindsIn(fi, fields)
	out := b.goTypeNames(fi, r.Type, binds, fields, nil)
	if t, op := b.goOperandType(fi, ri, binds, fields); op == goProject {
		out = append(out, b.baseChain(t.name)...)
	}
	return out
}

// goTypeNames appends to out the names goLocalType reads for typ: the
// types, functions and methods it names, and the type of each step it
// can resolve so far (the next round reads that type's definition).
func (b *builder) goTypeNames(fi int, typ string, binds map[string]binding, fields map[int]map[string]binding, out []string) []string {
	if name, ok := strings.CutPrefix(typ, "var "); ok {
		if strings.Contains(name, ".") {
			return out // another package's variable: none of the project's types
		}
		out = append(out, name)
		if dfi, vt := b.goPackageVar(fi, name); vt != "" {
			out = b.goTypeNames(dfi, vt, b.goBindsIn(dfi, fields), fields, out)
		}
		return out
	}
	if of, ok := strings.CutPrefix(typ, "elem "); ok {
		out = b.goTypeNames(fi, of, binds, fields, out)
		if t, op := b.goElemType(fi, of, binds, fields); op == goProject {
			out = append(out, t.name)
		}
		return out
	}
	called, isCall := strings.CutSuffix(typ, "()")
	if !isCall && strings.HasPrefix(typ, "(") {
		// (X).f: what X reads, f, and the fields' types once X's is known.
		if inner, rest, ok := cutGroup(typ); ok {
			out = b.goTypeNames(fi, inner, binds, fields, out)
			out = append(out, strings.TrimPrefix(rest, "."))
		}
		if recv, f, op := b.goFieldOwner(fi, typ, binds, fields); op == goProject {
			out = append(out, b.goFieldTypeNames(recv, f)...)
		}
		return out
	}
	if !isCall {
		if t := goBareType(typ); t != "" {
			out = append(out, t)
		}
		return out
	}
	if inner, rest, ok := cutGroup(called); ok && strings.HasPrefix(called, "(") {
		out = b.goTypeNames(fi, inner, binds, fields, out)
		out = append(out, strings.TrimPrefix(rest, "."))
	} else {
		out = append(out, called[strings.LastIndexByte(called, '.')+1:])
	}
	if t, op := b.goLocalType(fi, typ, binds, fields); op == goProject {
		out = append(out, t.name)
	} else if fns, op := b.goCalled(fi, called, binds, fields); op == goProject && len(fns) == 1 {
		// The type the function declares it returns, not read yet: once
		// it is, the value's type is known.
		if sym := b.symbolOf(int(b.nodeFile[fns[0]]), fns[0]); sym != nil {
			if t := goBareType(goResultType(sym.Signature)); t != "" {
				out = append(out, t)
			}
		}
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

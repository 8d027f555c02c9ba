package symbols

import (
	"slices"
	"strings"

	"github.com/codecortex/codecortex/syntax"
)

// goFile reads a Go file: the package clause, imports, and the top-level
// functions, methods (Container: the receiver's type), types (struct,
// interface, or any other), constants and variables, with the fields of
// struct types and the methods of interface types. Exported: the name
// starts with an upper-case letter.
func (x *extractor) goFile() {
	for _, c := range x.kids(x.t.Root()) {
		switch x.kind(c) {
		case "package_clause":
			if id, ok := x.childOfKind(c, "package_identifier"); ok && x.f.Package == "" {
				x.f.Package = x.text(id)
			}
		case "import_declaration":
			x.goImports(c)
		case "function_declaration":
			x.goFunc(c, Function, "")
		case "method_declaration":
			recv := ""
			if r, ok := x.field(c, "receiver"); ok {
				if id, ok := x.descendant(r, "type_identifier"); ok {
					recv = x.text(id)
				}
			}
			x.goFunc(c, Method, recv)
		case "type_declaration":
			specs := x.goSpecs(c, "type_spec", "type_alias")
			for _, s := range specs {
				x.goType(c, s, len(specs) > 1 || x.hasChild(c, "("))
			}
		case "const_declaration", "var_declaration":
			kind, kw := Constant, "const"
			if x.kind(c) == "var_declaration" {
				kind, kw = Variable, "var"
			}
			specs := x.goSpecs(c, "const_spec", "var_spec")
			grouped := len(specs) > 1 || x.hasChild(c, "(") || x.hasChild(c, "var_spec_list")
			for _, s := range specs {
				node, prefix := c, ""
				if grouped {
					node, prefix = s, kw+" "
				}
				for n, ok := x.t.FirstChild(s); ok; n, ok = x.t.NextSibling(n) {
					if x.t.Field(n) != "name" || !x.t.Named(n) || x.text(n) == "_" {
						continue
					}
					name := x.text(n)
					hs, he := x.t.StartByte(node), x.t.EndByte(node)
					x.add(def{kind: kind, name: name, nameNode: n, node: node, exported: upperFirst(name),
						prefix: prefix, headStart: hs, headEnd: he})
				}
			}
		}
	}
}

// goSpecs returns the specs of a declaration, in a parenthesised group or
// not.
func (x *extractor) goSpecs(decl syntax.NodeID, kinds ...string) []syntax.NodeID {
	var out []syntax.NodeID
	for _, c := range x.kids(decl) {
		k := x.kind(c)
		if k == "var_spec_list" {
			out = append(out, x.goSpecs(c, kinds...)...)
			continue
		}
		for _, want := range kinds {
			if k == want {
				out = append(out, c)
			}
		}
	}
	return out
}

func (x *extractor) goImports(decl syntax.NodeID) {
	for _, s := range x.goSpecs(decl, "import_spec", "import_spec_list") {
		if x.kind(s) == "import_spec_list" {
			x.goImports(s)
			continue
		}
		x.addImport(unquote(x.fieldText(s, "path")), "", x.fieldText(s, "name"), s)
	}
}

func (x *extractor) goFunc(n syntax.NodeID, kind Kind, recv string) {
	name, ok := x.field(n, "name")
	if !ok {
		return
	}
	hs, he := x.bodyHead(n, n)
	x.add(def{kind: kind, name: x.text(name), nameNode: name, node: n, container: recv,
		exported: upperFirst(x.text(name)), headStart: hs, headEnd: he})
}

// goType adds a type spec: the whole declaration when it is alone, the
// spec in a group. The signature stops at the brace of a struct or
// interface.
func (x *extractor) goType(decl, spec syntax.NodeID, grouped bool) {
	name, ok := x.field(spec, "name")
	if !ok {
		return
	}
	node, prefix := decl, ""
	if grouped {
		node, prefix = spec, "type "
	}
	kind := Type
	typ, hasType := x.field(spec, "type")
	var body syntax.NodeID
	hasBody := false
	if hasType && x.kind(spec) == "type_spec" {
		switch x.kind(typ) {
		case "struct_type":
			kind = Struct
			body, hasBody = x.childOfKind(typ, "field_declaration_list")
		case "interface_type":
			kind = Interface
			body, hasBody = x.childOfKind(typ, "{")
		}
	}
	hs, he := x.head(node, node, body, hasBody)
	tname := x.text(name)
	x.add(def{kind: kind, name: tname, nameNode: name, node: node, exported: upperFirst(tname),
		prefix: prefix, headStart: hs, headEnd: he})
	switch kind {
	case Struct:
		for _, f := range x.kids(body) {
			if x.kind(f) == "field_declaration" {
				x.goField(f, tname)
			}
		}
	case Interface:
		for _, m := range x.kids(typ) {
			if x.kind(m) != "method_elem" {
				continue
			}
			if mn, ok := x.field(m, "name"); ok {
				x.add(def{kind: Method, name: x.text(mn), nameNode: mn, node: m, container: tname,
					exported: upperFirst(x.text(mn))})
			}
		}
	}
}

// goField adds the fields one field declaration names; an embedded field
// is named by its type.
func (x *extractor) goField(f syntax.NodeID, container string) {
	hs, he := x.t.StartByte(f), x.t.EndByte(f)
	if tag, ok := x.field(f, "tag"); ok {
		he = x.t.StartByte(tag)
	}
	named := false
	for n, ok := x.t.FirstChild(f); ok; n, ok = x.t.NextSibling(n) {
		if x.t.Field(n) != "name" || !x.t.Named(n) {
			continue
		}
		named = true
		if x.text(n) == "_" {
			continue
		}
		x.add(def{kind: Field, name: x.text(n), nameNode: n, node: f, container: container,
			exported: upperFirst(x.text(n)), headStart: hs, headEnd: he})
	}
	if named {
		return
	}
	typ, ok := x.field(f, "type")
	if !ok {
		return
	}
	// The embedded type's name: the last type identifier (pkg.T gives T).
	id, found := syntax.NodeID(0), false
	for i := typ; i < x.t.End(typ); i++ {
		if x.kind(i) == "type_identifier" {
			id, found = i, true
			if x.t.Field(i) == "name" {
				break
			}
		}
		if x.kind(i) == "type_arguments" {
			break
		}
	}
	if found {
		x.add(def{kind: Field, name: x.text(id), nameNode: id, node: f, container: container,
			exported: upperFirst(x.text(id)), headStart: hs, headEnd: he})
	}
}

// goLocals follows, through one pass over a Go file's names, the locals
// each function declares, and reads what a local's declaration shows of
// its type when a use asks for it (most locals qualify no use).
type goLocals struct {
	vars map[localName]*goVar
	// scoped are the locals declared in a func literal (its parameters,
	// its body's names): seen only inside it, they leave a local of the
	// same name outside it as it was.
	scoped  map[localName][]goScoped
	imports map[string]bool // the names the file's imports bind, as far as their paths tell
}

// A goScoped is a local of a func literal, and the literal's bytes.
type goScoped struct {
	start, end int
	v          *goVar
}

// A goVar is a local: the leaf of its declaration and, once read, what
// the declaration shows of its type.
type goVar struct {
	decl  syntax.NodeID
	typ   string
	state uint8 // varPending, varReading or varRead
	mixed bool  // declared again with another type: read as none
}

const (
	varPending = iota
	varReading
	varRead
)

// declare notes the declaration at leaf id of local ln. A local declared
// again (as a parameter or a local before) with a type other than its
// earlier declaration's is read as neither. A nil g notes nothing.
func (g *goLocals) declare(x *extractor, parent []syntax.NodeID, id syntax.NodeID, ln localName) {
	if g == nil {
		return
	}
	v := g.vars[ln]
	if lit, ok := goLiteral(x.t, parent, id); ok {
		start := x.t.StartByte(lit)
		v = nil
		for _, s := range g.scoped[ln] {
			if s.start == start {
				v = s.v
			}
		}
		if v == nil {
			g.scoped[ln] = append(g.scoped[ln], goScoped{start, x.t.EndByte(lit), &goVar{decl: id}})
			return
		}
	}
	if v == nil {
		g.vars[ln] = &goVar{decl: id}
		return
	}
	if before := g.valueType(x, parent, v, ln.within); before != "" && before != x.goLocalType(parent, id, g, ln.within) {
		v.typ, v.mixed = "", true
	}
}

// valueType returns what v's declaration shows of its type where an
// expression uses its value (b := v, v.M()): what read returns, or for a
// parameter of the definition itself, whose uses leave its type to the
// graph (which reads the definition's head), the type its declaration
// writes.
func (g *goLocals) valueType(x *extractor, parent []syntax.NodeID, v *goVar, within int) string {
	if typ := g.read(x, parent, v, within); typ != "" || v.mixed {
		return typ
	}
	if p := parent[v.decl]; x.t.Kind(p) == "parameter_declaration" {
		if typ, ok := x.t.ChildByField(p, "type"); ok {
			return goTypeText(x.t, typ)
		}
	}
	return ""
}

// at returns the local ln a use at byte b sees: the one of the innermost
// func literal holding b that declares it, else the definition's; nil
// for none.
func (g *goLocals) at(ln localName, b int) *goVar {
	best := -1
	var v *goVar
	for _, s := range g.scoped[ln] {
		if s.start <= b && b < s.end && s.start > best {
			best, v = s.start, s.v
		}
	}
	if v != nil {
		return v
	}
	return g.vars[ln]
}

// goLiteral returns the scope narrower than its definition that the
// declaration at leaf id is seen in, if any: the loop a range clause's
// variable belongs to (for _, m := range ms), else the innermost func
// literal holding it.
func goLiteral(t *syntax.Tree, parent []syntax.NodeID, id syntax.NodeID) (syntax.NodeID, bool) {
	if p := parent[id]; t.Kind(p) == "expression_list" && t.Field(p) == "left" && t.Kind(parent[p]) == "range_clause" {
		if loop := parent[parent[p]]; t.Kind(loop) == "for_statement" {
			return loop, true
		}
	}
	for p := parent[id]; p != 0; p = parent[p] {
		switch t.Kind(p) {
		case "func_literal":
			return p, true
		case "function_declaration", "method_declaration", "source_file":
			return 0, false
		}
	}
	return 0, false
}

// read returns what v's declaration shows of its type, read once; ""
// for a declaration that reads itself (a := b.F() after b := a.G()).
func (g *goLocals) read(x *extractor, parent []syntax.NodeID, v *goVar, within int) string {
	switch v.state {
	case varRead:
		return v.typ
	case varReading:
		return ""
	}
	v.state = varReading
	v.typ = x.goLocalType(parent, v.decl, g, within)
	v.state = varRead
	return v.typ
}

// typeOf returns the Type of the use at leaf id, qualified by qual, within
// definition within: the type qual's declarations showed, if qual is a
// local; "var qual" if qual is neither a local nor an import, and may be
// a variable of the package (whose declaration the graph reads); for a
// member selected from a call or a literal (new(T).M(), r.NewRoute().M()),
// what that expression shows.
func (g *goLocals) typeOf(x *extractor, parent []syntax.NodeID, id syntax.NodeID, within int, qual string, selected bool, kind RefKind) string {
	if g == nil || kind == Inherit || within < 0 {
		return ""
	}
	if !selected {
		if qual == "" {
			return ""
		}
		if v := g.at(localName{within, qual}, x.t.StartByte(id)); v != nil {
			return g.read(x, parent, v, within)
		}
		if g.imports[qual] {
			return ""
		}
		return "var " + qual
	}
	p := parent[id]
	if x.t.Kind(p) != "selector_expression" || x.t.Field(id) != "field" {
		return ""
	}
	if from, ok := x.t.ChildByField(p, "operand"); ok && x.t.Kind(from) != "identifier" {
		return x.goExprType(parent, from, g, within)
	}
	return ""
}

// goLocalType returns what the declaration of the Go local variable at
// leaf id shows of its type (see [Ref.Type]), or "": in r := &T{}, x, y
// := F(), G() or var r = pkg.New(), the expression at the name's place
// (a lone call on the right gives its first result to the first name, a
// lone assertion its type); in var r T, the type.
func (x *extractor) goLocalType(parent []syntax.NodeID, id syntax.NodeID, g *goLocals, within int) string {
	t := x.t
	p := parent[id]
	var names []syntax.NodeID // the names declared together, in order
	var values syntax.NodeID  // the expressions assigned to them, if any
	hasValues := false
	switch pk := t.Kind(p); {
	case pk == "parameter_declaration" && t.Kind(parent[parent[p]]) == "func_literal":
		// A func literal's parameter (the graph reads a definition's own
		// from its head).
		if typ, ok := t.ChildByField(p, "type"); ok {
			return goTypeText(t, typ)
		}
		return ""
	case pk == "expression_list" && t.Field(p) == "left" && t.Kind(parent[p]) == "short_var_declaration":
		names = x.namedKids(p)
		values, hasValues = t.ChildByField(parent[p], "right")
	case pk == "expression_list" && t.Field(p) == "left" && t.Kind(parent[p]) == "range_clause":
		if names := x.namedKids(p); len(names) == 2 && names[1] == id {
			if xs, ok := t.ChildByField(parent[p], "right"); ok {
				return x.goElemType(parent, xs, g, within)
			}
		}
		return ""
	case pk == "var_spec" && t.Field(id) == "name":
		if typ, ok := t.ChildByField(p, "type"); ok {
			return goTypeText(t, typ)
		}
		for c, ok := t.FirstChild(p); ok; c, ok = t.NextSibling(c) {
			if t.Field(c) == "name" {
				names = append(names, c)
			}
		}
		values, hasValues = t.ChildByField(p, "value")
	default:
		return ""
	}
	if !hasValues {
		return ""
	}
	at := slices.Index(names, id)
	exprs := x.namedKids(values)
	switch {
	case at < 0:
		return ""
	case len(exprs) == len(names):
		return x.goExprType(parent, exprs[at], g, within)
	case len(exprs) == 1 && at == 0 && (t.Kind(exprs[0]) == "call_expression" || t.Kind(exprs[0]) == "type_assertion_expression"):
		// r, err := F(): r holds F's first result; v, ok := x.(T): a T.
		return x.goExprType(parent, exprs[0], g, within)
	}
	return ""
}

// goElemType returns what the Go expression xs a loop ranges over shows
// of the type of its elements (for _, v := range xs: v's): the element
// type a local's or parameter's declaration writes ([]T, [n]T, map[K]T),
// else "elem " and what xs shows of its own type ("elem (X).f" for the
// field f of a local x of type X, "elem var v" for a package variable,
// "elem F()" or "elem (X).M()" for a call's result), whose declaration
// the graph reads; "" otherwise.
func (x *extractor) goElemType(parent []syntax.NodeID, xs syntax.NodeID, g *goLocals, within int) string {
	t := x.t
	var of string
	switch t.Kind(xs) {
	case "identifier":
		if v := g.at(localName{within, t.Text(xs)}, t.StartByte(xs)); v != nil {
			if d := parent[v.decl]; t.Kind(d) == "parameter_declaration" || t.Kind(d) == "var_spec" {
				if typ, ok := t.ChildByField(d, "type"); ok {
					return goElemText(t, typ)
				}
			}
		}
	case "selector_expression":
		// range x.f over a local x: the field f of x's type.
		from, ok1 := t.ChildByField(xs, "operand")
		f, ok2 := t.ChildByField(xs, "field")
		if ok1 && ok2 && t.Kind(from) == "identifier" {
			if v := g.at(localName{within, t.Text(from)}, t.StartByte(from)); v != nil {
				if typ := g.valueType(x, parent, v, within); typ != "" {
					of = goFieldOf(typ, t.Text(f))
				}
			}
		}
	}
	if of == "" {
		of = x.goExprType(parent, xs, g, within)
	}
	if of == "" || strings.HasPrefix(of, "elem ") || len(of) > maxGoType {
		return ""
	}
	return "elem " + of
}

// goElemText returns the text of the element type of a slice, array or
// map type node (its value type), when it names a type; "".
func goElemText(t *syntax.Tree, typ syntax.NodeID) string {
	switch t.Kind(typ) {
	case "slice_type", "array_type", "map_type":
		field := "element"
		if t.Kind(typ) == "map_type" {
			field = "value"
		}
		if e, ok := t.ChildByField(typ, field); ok {
			return goTypeText(t, e)
		}
	}
	return ""
}

// goExprType returns what Go expression e, in definition within, shows
// of its value's type (see [Ref.Type]): a local's type, or "var a" for
// a name a that may be a package variable ("var pkg.a" for one of an
// imported package); T of T{…}, &T{…}, new(T) and
// x.(T); F() or pkg.F() of a call of a function named plainly (no
// builtin) or through what may be a package (the graph knows which names
// the file's imports bind: a package's name need not be its path's last
// element);
// (X).M() of a call of method M on X, an expression whose type shows (a
// local g knows, a call, a literal); "" otherwise.
func (x *extractor) goExprType(parent []syntax.NodeID, e syntax.NodeID, g *goLocals, within int) string {
	t := x.t
	switch t.Kind(e) {
	case "identifier":
		// b := a: a local's type, else a package variable's, if a is one.
		name := t.Text(e)
		if v := g.at(localName{within, name}, t.StartByte(e)); v != nil {
			return g.valueType(x, parent, v, within)
		}
		if g.imports[name] || name == "nil" || name == "true" || name == "false" || name == "iota" {
			return ""
		}
		return "var " + name
	case "composite_literal":
		if typ, ok := t.ChildByField(e, "type"); ok {
			return goTypeText(t, typ)
		}
	case "parenthesized_expression":
		if in := x.namedKids(e); len(in) == 1 {
			return x.goExprType(parent, in[0], g, within)
		}
	case "selector_expression":
		// pkg.V: a variable of an imported package (http.DefaultClient).
		from, ok1 := t.ChildByField(e, "operand")
		name, ok2 := t.ChildByField(e, "field")
		if ok1 && ok2 && t.Kind(from) == "identifier" && g.imports[t.Text(from)] &&
			g.at(localName{within, t.Text(from)}, t.StartByte(from)) == nil {
			return "var " + t.Text(from) + "." + t.Text(name)
		}
	case "type_assertion_expression":
		if typ, ok := t.ChildByField(e, "type"); ok {
			return goTypeText(t, typ)
		}
	case "unary_expression":
		if op, ok := t.ChildByField(e, "operator"); ok && t.Text(op) == "&" {
			if v, ok := t.ChildByField(e, "operand"); ok && t.Kind(v) == "composite_literal" {
				if typ := x.goExprType(parent, v, g, within); typ != "" {
					return "*" + typ
				}
			}
		}
	case "call_expression":
		return x.goCallType(parent, e, g, within)
	}
	return ""
}

// goCallType is goExprType of call e: F() or pkg.F() of a function named
// plainly (no builtin) or through what may be a package, *T of new(T), T
// of make(T, …), (X).M() of a method M called on X whose type shows.
func (x *extractor) goCallType(parent []syntax.NodeID, e syntax.NodeID, g *goLocals, within int) string {
	t := x.t
	fn, ok := t.ChildByField(e, "function")
	if !ok {
		return ""
	}
	switch t.Kind(fn) {
	case "identifier":
		name := t.Text(fn)
		if name != "new" && name != "make" {
			if goBuiltins[name] {
				return ""
			}
			return name + "()"
		}
		// new(T) is a *T; make(T, n) a T (a slice, map or channel type
		// the project names).
		if args, ok := t.ChildByField(e, "arguments"); ok {
			if a := x.namedKids(args); len(a) == 1 || name == "make" && len(a) > 1 {
				switch typ := goTypeText(t, a[0]); {
				case typ == "":
				case name == "new":
					return "*" + typ
				default:
					return typ
				}
			}
		}
	case "selector_expression":
		from, ok1 := t.ChildByField(fn, "operand")
		name, ok2 := t.ChildByField(fn, "field")
		if !ok1 || !ok2 {
			return ""
		}
		if t.Kind(from) == "identifier" {
			v := g.at(localName{within, t.Text(from)}, t.StartByte(from))
			if v == nil {
				return t.Text(from) + "." + t.Text(name) + "()" // a package's function, or nothing
			}
			if typ := g.valueType(x, parent, v, within); typ != "" {
				return goMethodOf(typ, t.Text(name))
			}
			return ""
		}
		if typ := x.goExprType(parent, from, g, within); typ != "" {
			return goMethodOf(typ, t.Text(name))
		}
	}
	return ""
}

// goMethodOf is the Type of a call of method m on a value of Type typ,
// or "" past maxGoType.
func goMethodOf(typ, m string) string {
	if len(typ)+len(m) > maxGoType {
		return ""
	}
	return "(" + typ + ")." + m + "()"
}

// goFieldOf is the Type of field f of a value of Type typ, "(typ).f".
func goFieldOf(typ, f string) string {
	if len(typ)+len(f) > maxGoType {
		return ""
	}
	return "(" + typ + ")." + f
}

// maxGoType bounds a Ref's Type: a chain of calls longer than this says
// nothing.
const maxGoType = 200

// goBuiltins are Go's predeclared functions other than new.
var goBuiltins = map[string]bool{
	"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true,
	"delete": true, "imag": true, "len": true, "make": true, "max": true, "min": true,
	"panic": true, "print": true, "println": true, "real": true, "recover": true,
}

// goTypeText returns the text of a Go type node that names a type (T,
// pkg.T, T[K] as T), or "".
func goTypeText(t *syntax.Tree, typ syntax.NodeID) string {
	switch t.Kind(typ) {
	case "generic_type":
		if base, ok := t.ChildByField(typ, "type"); ok {
			return goTypeText(t, base)
		}
	case "type_identifier", "qualified_type", "identifier":
		return strings.Join(strings.Fields(t.Text(typ)), "")
	case "pointer_type":
		if c, ok := t.FirstChild(typ); ok {
			for ; ok; c, ok = t.NextSibling(c) {
				if t.Named(c) {
					if s := goTypeText(t, c); s != "" {
						return "*" + s
					}
					return ""
				}
			}
		}
	}
	return ""
}

// namedKids returns n's named children.
func (x *extractor) namedKids(n syntax.NodeID) []syntax.NodeID {
	var out []syntax.NodeID
	for c, ok := x.t.FirstChild(n); ok; c, ok = x.t.NextSibling(c) {
		if x.t.Named(c) {
			out = append(out, c)
		}
	}
	return out
}

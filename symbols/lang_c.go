package symbols

import (
	"path"
	"strings"

	"github.com/codecortex/codecortex/syntax"
)

// cFile reads C and C++: #include (Path as written, without quotes or
// angle brackets), C++ using declarations and directives (imports of the
// named path); function definitions (an out-of-line C::f is a Method of
// C); structs, unions, classes and enums with a body, with their fields
// and member functions (Method) and enumerators (Constant); typedefs and
// alias declarations (Type; an anonymous struct takes its typedef's name
// instead); variables defined at file or namespace scope (Constant when
// const or constexpr); object-like #defines (Constant) and function-like
// ones (Macro). Templates, extern "C" blocks and #if branches are read
// through. Prototypes and extern declarations are declarations, not
// definitions, and are left out, but for member functions declared in a
// class. Package is the enclosing C++ namespace (a::b). Exported:
// functions and variables unless static or in an anonymous namespace;
// types, macros and enumerators when the file is a header (.h, .hh, .hpp,
// .hxx, .h++); class members when their class is exported and their
// access is public (class members are private by default, struct and
// union ones public).
func (x *extractor) cFile() {
	switch path.Ext(x.f.Path) {
	case ".h", ".hh", ".hpp", ".hxx", ".h++":
		x.cHeader = true
	}
	x.cDecls(x.t.Root(), cScope{visible: true})
}

// A cScope is where C declarations are read: the namespace, the class
// (empty outside one) and whether names there can be exported.
type cScope struct {
	ns        string
	class     string
	visible   bool
	public    bool // the current access in a class
	classExp  bool // the class is exported
	anonymous bool // inside an anonymous namespace
}

func (x *extractor) cDecls(n syntax.NodeID, sc cScope) {
	for _, c := range x.kids(n) {
		x.cDecl(c, c, sc)
	}
}

// cExported reports whether a function or variable is exported.
func (x *extractor) cExported(n syntax.NodeID, sc cScope) bool {
	if sc.class != "" {
		return sc.classExp && sc.public
	}
	return !sc.anonymous && !x.cHas(n, "storage_class_specifier", "static")
}

// cHas reports whether n has a child of kind k whose text is text.
func (x *extractor) cHas(n syntax.NodeID, k, text string) bool {
	for c, ok := x.t.FirstChild(n); ok; c, ok = x.t.NextSibling(c) {
		if x.kind(c) == k && x.text(c) == text {
			return true
		}
	}
	return false
}

// cDecl reads one declaration n; outer is the template or other wrapper
// that holds it.
func (x *extractor) cDecl(outer, n syntax.NodeID, sc cScope) {
	typeExported := x.cHeader && !sc.anonymous
	if sc.class != "" {
		typeExported = sc.classExp && sc.public
	}
	switch x.kind(n) {
	case "preproc_include":
		if p, ok := x.field(n, "path"); ok {
			x.addImport(unquote(x.text(p)), "", "", n)
		}
	case "using_declaration":
		if id, ok := x.childOfKind(n, "identifier", "qualified_identifier"); ok && sc.class == "" {
			x.addImport(x.text(id), "", "", n)
		}
	case "preproc_def", "preproc_function_def":
		x.cMacro(n, sc)
	case "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef":
		x.cDecls(n, sc)
	case "linkage_specification":
		if body, ok := x.field(n, "body"); ok {
			if x.kind(body) == "declaration_list" {
				x.cDecls(body, sc)
			} else {
				x.cDecl(n, body, sc)
			}
		}
	case "template_declaration":
		for _, c := range x.kids(n) {
			if x.t.Field(c) != "parameters" && x.t.Named(c) {
				x.cDecl(outer, c, sc)
			}
		}
	case "namespace_definition":
		inner := sc
		if id, ok := x.field(n, "name"); ok {
			inner.ns = joinScope(sc.ns, x.text(id))
		} else {
			inner.anonymous = true
		}
		if body, ok := x.field(n, "body"); ok {
			x.cDecls(body, inner)
		}
	case "function_definition":
		x.cFunction(outer, n, sc)
	case "declaration", "field_declaration":
		x.cVarDecl(outer, n, sc, typeExported)
	case "type_definition":
		x.cTypedef(outer, n, sc, typeExported)
	case "alias_declaration", "type_alias_declaration":
		if id, ok := x.field(n, "name"); ok {
			x.add(def{kind: Type, name: x.text(id), nameNode: id, node: outer, container: dotted(sc.class),
				pkg: sc.ns, exported: typeExported})
		}
	case "struct_specifier", "union_specifier", "class_specifier", "enum_specifier":
		if x.cHasBody(n) {
			x.cType(outer, n, 0, sc, typeExported)
		}
	case "access_specifier":
		// handled by cClassBody
	}
}

// cMacro adds a #define: a constant, or a macro when it takes parameters.
func (x *extractor) cMacro(n syntax.NodeID, sc cScope) {
	id, ok := x.field(n, "name")
	if !ok {
		return
	}
	kind := Constant
	he := x.t.EndByte(n) // an object-like macro's value is its signature's
	if x.kind(n) == "preproc_function_def" {
		kind = Macro
		if p, ok := x.field(n, "parameters"); ok {
			he = x.t.EndByte(p)
		}
	}
	x.add(def{kind: kind, name: x.text(id), nameNode: id, node: n, pkg: sc.ns,
		exported: x.cHeader, headStart: x.t.StartByte(n), headEnd: he})
}

// cFunction adds a function definition: a method inside a class or
// when its name is qualified (A::f).
func (x *extractor) cFunction(outer, n syntax.NodeID, sc cScope) {
	decl, ok := x.field(n, "declarator")
	if !ok {
		return
	}
	name, scope, _, ok := x.cDeclName(decl)
	if !ok {
		return
	}
	kind, container := Function, sc.class
	if sc.class != "" {
		kind = Method
	}
	exp := x.cExported(n, sc)
	if scope != "" {
		kind, container = Method, joinScope(sc.class, scope)
	}
	hs, he := x.bodyHead(outer, n)
	x.add(def{kind: kind, name: x.text(name), nameNode: name, node: outer, container: dotted(container),
		pkg: sc.ns, exported: exp, headStart: hs, headEnd: he})
}

// cTypedef adds the names a typedef declares, and the struct, union or
// enum it defines; an anonymous one takes the typedef's first name.
func (x *extractor) cTypedef(outer, n syntax.NodeID, sc cScope, typeExported bool) {
	typ, hasType := x.field(n, "type")
	taken := ""
	if hasType && x.cHasBody(typ) {
		if _, named := x.field(typ, "name"); !named {
			// typedef struct { ... } name: the struct takes the name.
			for _, d := range x.cDeclarators(n) {
				if id, _, _, ok := x.cDeclName(d); ok {
					taken = x.text(id)
					x.cType(n, typ, id, sc, typeExported)
					break
				}
			}
		} else {
			x.cType(typ, typ, 0, sc, typeExported)
		}
	}
	for _, d := range x.cDeclarators(n) {
		if id, _, _, ok := x.cDeclName(d); ok && x.text(id) != taken {
			x.add(def{kind: Type, name: x.text(id), nameNode: id, node: outer, container: dotted(sc.class),
				pkg: sc.ns, exported: typeExported})
		}
	}
}

// cHasBody reports whether a struct, union, class or enum specifier has
// a body (defines the type rather than naming it).
func (x *extractor) cHasBody(n syntax.NodeID) bool {
	switch x.kind(n) {
	case "struct_specifier", "union_specifier", "class_specifier", "enum_specifier":
		_, ok := x.field(n, "body")
		return ok
	}
	return false
}

// cType adds a struct, union, class or enum with its members; name is
// the typedef name that names an anonymous one (0 when it has its own).
func (x *extractor) cType(outer, n, name syntax.NodeID, sc cScope, exported bool) {
	if name == 0 {
		id, ok := x.field(n, "name")
		if !ok {
			return
		}
		name = id
		if x.kind(id) == "qualified_identifier" {
			if last, ok := x.field(id, "name"); ok {
				name = last
			}
		}
	}
	kind := Struct
	switch x.kind(n) {
	case "class_specifier":
		kind = Class
	case "enum_specifier":
		kind = Enum
	}
	tname := x.text(name)
	hs, he := x.bodyHead(outer, n)
	x.add(def{kind: kind, name: tname, nameNode: name, node: outer, container: dotted(sc.class),
		pkg: sc.ns, exported: exported, headStart: hs, headEnd: he})
	body, ok := x.field(n, "body")
	if !ok {
		return
	}
	inner := cScope{ns: sc.ns, class: joinScope(sc.class, tname), visible: exported, classExp: exported,
		public: kind != Class, anonymous: sc.anonymous}
	if kind == Enum {
		for _, e := range x.kids(body) {
			if id, ok := x.field(e, "name"); ok && x.kind(e) == "enumerator" {
				x.add(def{kind: Constant, name: x.text(id), nameNode: id, node: e, container: dotted(inner.class),
					pkg: sc.ns, exported: exported})
			}
		}
		return
	}
	for _, m := range x.kids(body) {
		if x.kind(m) == "access_specifier" {
			inner.public = strings.HasPrefix(strings.TrimSpace(x.text(m)), "public")
			continue
		}
		x.cDecl(m, m, inner)
	}
}

// cDeclarators returns the declarators of a declaration.
func (x *extractor) cDeclarators(n syntax.NodeID) []syntax.NodeID {
	var out []syntax.NodeID
	for c, ok := x.t.FirstChild(n); ok; c, ok = x.t.NextSibling(c) {
		if x.t.Field(c) == "declarator" {
			out = append(out, c)
		}
	}
	return out
}

// cVarDecl reads a declaration or field declaration: the type it
// defines, if any, then the variables, fields or member functions it
// declares.
func (x *extractor) cVarDecl(outer, n syntax.NodeID, sc cScope, typeExported bool) {
	if typ, ok := x.field(n, "type"); ok && x.cHasBody(typ) {
		x.cType(typ, typ, 0, sc, typeExported)
	}
	inClass := sc.class != ""
	if !inClass && x.cHas(n, "storage_class_specifier", "extern") {
		return // declared here, defined elsewhere
	}
	constant := x.cHas(n, "type_qualifier", "const") || x.cHas(n, "type_qualifier", "constexpr") ||
		x.cHas(n, "storage_class_specifier", "constexpr")
	for _, d := range x.cDeclarators(n) {
		id, scope, isFunc, ok := x.cDeclName(d)
		if !ok || scope != "" {
			continue
		}
		kind := Variable
		switch {
		case isFunc && !inClass:
			continue // a prototype
		case isFunc:
			kind = Method
		case inClass && constant && x.cHas(n, "storage_class_specifier", "static"):
			kind = Constant
		case inClass:
			kind = Field
		case constant:
			kind = Constant
		}
		hs, he := x.t.StartByte(outer), x.t.EndByte(d)
		if v, ok := x.field(d, "value"); ok && x.kind(d) == "init_declarator" {
			he = x.t.StartByte(v)
		}
		if v, ok := x.field(n, "default_value"); ok {
			he = x.t.StartByte(v)
		}
		x.add(def{kind: kind, name: x.text(id), nameNode: id, node: outer, container: dotted(sc.class),
			pkg: sc.ns, exported: x.cExported(n, sc), headStart: hs, headEnd: he})
	}
}

// cDeclName follows a declarator to the name it declares; scope is the
// qualifier of a qualified name (C in C::f, without template arguments),
// isFunc whether it declares a function (not a pointer to one).
func (x *extractor) cDeclName(d syntax.NodeID) (name syntax.NodeID, scope string, isFunc, ok bool) {
	for range 64 {
		switch x.kind(d) {
		case "identifier", "field_identifier", "type_identifier", "destructor_name", "operator_name":
			return d, scope, isFunc, true
		case "qualified_identifier":
			if s, ok := x.field(d, "scope"); ok {
				part := x.text(s)
				if x.kind(s) == "template_type" {
					part = x.fieldText(s, "name")
				}
				scope = joinScope(scope, part)
			}
			next, ok := x.field(d, "name")
			if !ok {
				return 0, "", false, false
			}
			d = next
		case "template_function", "template_type", "template_method":
			next, ok := x.field(d, "name")
			if !ok {
				return 0, "", false, false
			}
			d = next
		case "function_declarator":
			isFunc = true
			next, ok := x.field(d, "declarator")
			if !ok {
				return 0, "", false, false
			}
			d = next
		case "pointer_declarator", "reference_declarator", "array_declarator", "init_declarator",
			"attributed_declarator", "parenthesized_declarator":
			if x.kind(d) == "pointer_declarator" {
				isFunc = false // a pointer to a function is a variable
			}
			next, ok := x.field(d, "declarator")
			if !ok {
				var found bool
				for c, more := x.t.FirstChild(d); more; c, more = x.t.NextSibling(c) {
					if x.t.Named(c) && !strings.Contains(x.kind(c), "comment") && x.kind(c) != "type_qualifier" {
						next, found = c, true
						break
					}
				}
				if !found {
					return 0, "", false, false
				}
			}
			d = next
		default:
			return 0, "", false, false
		}
	}
	return 0, "", false, false
}

// joinScope joins C++ scopes with ::.
func joinScope(a, b string) string {
	if a == "" {
		return b
	}
	return a + "::" + b
}

// dotted writes a C++ class path a::b as a container, a.b.
func dotted(s string) string { return strings.ReplaceAll(s, "::", ".") }

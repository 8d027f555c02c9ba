package symbols

import "github.com/codecortex/codecortex/syntax"

// ktFile reads a Kotlin file: the package header, imports (Alias for
// import a.b as c, .* for a wildcard), classes (Class; Interface for an
// interface, Enum for an enum class with its entries as Constant),
// objects and companion objects (Class; a companion's members belong to
// the enclosing class), functions (Method inside a class or object),
// properties (top level: Constant for const val, Variable otherwise; in a
// class: Field, and so are the val and var parameters of a primary
// constructor), type aliases (Type). Exported: Kotlin's default is public,
// so a declaration is exported unless private, protected or internal, and
// a member needs its class exported too.
func (x *extractor) ktFile() {
	for _, c := range x.kids(x.t.Root()) {
		switch x.kind(c) {
		case "package_header":
			if id, ok := x.childOfKind(c, "qualified_identifier", "identifier"); ok && x.f.Package == "" {
				x.f.Package = x.text(id)
			}
		case "import", "import_header":
			id, ok := x.childOfKind(c, "qualified_identifier", "identifier")
			if !ok {
				continue
			}
			path := x.text(id)
			if x.hasChild(c, "*") || x.hasChild(c, ".*") {
				path += ".*"
			}
			alias := ""
			for a, more := x.t.NextSibling(id); more; a, more = x.t.NextSibling(a) {
				if x.kind(a) == "identifier" {
					alias = x.text(a)
				} else if al, ok := x.childOfKind(a, "identifier", "simple_identifier"); ok && x.kind(a) == "import_alias" {
					alias = x.text(al)
				}
			}
			x.addImport(path, "", alias, c)
		}
	}
	x.ktDecls(x.t.Root(), "", true, false)
}

// ktVisible reports whether a declaration's modifiers leave it public.
func (x *extractor) ktVisible(n syntax.NodeID) bool {
	m, ok := x.childOfKind(n, "modifiers")
	if !ok {
		return true
	}
	for c, ok := x.t.FirstChild(m); ok; c, ok = x.t.NextSibling(c) {
		if x.kind(c) == "visibility_modifier" {
			switch x.text(c) {
			case "private", "protected", "internal":
				return false
			}
		}
	}
	return true
}

// ktModifier reports whether n has the modifier word among its modifiers.
func (x *extractor) ktModifier(n syntax.NodeID, word string) bool {
	m, ok := x.childOfKind(n, "modifiers")
	if !ok {
		return false
	}
	for c, ok := x.t.FirstChild(m); ok; c, ok = x.t.NextSibling(c) {
		if x.text(c) == word {
			return true
		}
	}
	return false
}

// ktName returns a declaration's name node: its name field, or its first
// identifier child.
func (x *extractor) ktName(n syntax.NodeID) (syntax.NodeID, bool) {
	if id, ok := x.field(n, "name"); ok {
		return id, true
	}
	return x.childOfKind(n, "identifier", "simple_identifier", "type_identifier")
}

func (x *extractor) ktDecls(n syntax.NodeID, container string, visible, inClass bool) {
	for _, c := range x.kids(n) {
		switch x.kind(c) {
		case "class_declaration", "object_declaration":
			x.ktClass(c, container, visible)
		case "companion_object":
			if body, ok := x.childOfKind(c, "class_body"); ok {
				x.ktDecls(body, container, visible && x.ktVisible(c), true)
			}
		case "enum_entry":
			if id, ok := x.ktName(c); ok {
				x.add(def{kind: Constant, name: x.text(id), nameNode: id, node: c, container: container, exported: visible})
			}
		case "function_declaration":
			id, ok := x.ktName(c)
			if !ok {
				continue
			}
			kind := Function
			if inClass {
				kind = Method
			}
			body, hasBody := x.childOfKind(c, "function_body")
			hs, he := x.head(c, c, body, hasBody)
			x.add(def{kind: kind, name: x.text(id), nameNode: id, node: c, container: container,
				exported: visible && x.ktVisible(c), headStart: hs, headEnd: he})
		case "property_declaration":
			vd, ok := x.childOfKind(c, "variable_declaration", "multi_variable_declaration")
			if !ok {
				continue
			}
			kind := Variable
			switch {
			case inClass:
				kind = Field
			case x.ktModifier(c, "const"):
				kind = Constant
			}
			he := x.t.EndByte(vd)
			for i := vd; i < x.t.End(vd); i++ {
				if x.kind(i) != "identifier" && x.kind(i) != "simple_identifier" {
					continue
				}
				if p := x.kind(i); p == "identifier" && i > vd && x.kind(i-1) == "user_type" {
					continue // a type's name
				}
				if !x.ktBinds(vd, i) {
					continue
				}
				x.add(def{kind: kind, name: x.text(i), nameNode: i, node: c, container: container,
					exported: visible && x.ktVisible(c), headStart: x.t.StartByte(c), headEnd: he})
			}
		case "type_alias":
			id, ok := x.field(c, "type")
			if !ok {
				if id, ok = x.ktName(c); !ok {
					continue
				}
			}
			x.add(def{kind: Type, name: x.text(id), nameNode: id, node: c, container: container,
				exported: visible && x.ktVisible(c)})
		}
	}
}

// ktClass adds a class, interface, enum or object, the fields its
// primary constructor declares, and the declarations of its body.
func (x *extractor) ktClass(c syntax.NodeID, container string, visible bool) {
	id, ok := x.ktName(c)
	if !ok {
		return
	}
	kind := Class
	switch {
	case x.hasChild(c, "interface"):
		kind = Interface
	case x.ktModifier(c, "enum"):
		kind = Enum
	}
	name := x.text(id)
	exp := visible && x.ktVisible(c)
	body, hasBody := x.childOfKind(c, "class_body", "enum_class_body")
	hs, he := x.head(c, c, body, hasBody)
	x.add(def{kind: kind, name: name, nameNode: id, node: c, container: container,
		exported: exp, headStart: hs, headEnd: he})
	cname := joinName(container, name)
	if pc, ok := x.childOfKind(c, "primary_constructor"); ok {
		x.ktConstructorFields(pc, cname, exp)
	}
	if hasBody {
		x.ktDecls(body, cname, exp, true)
	}
}

// ktBinds reports whether identifier i is a name the variable declaration
// vd binds (its own identifier, or one of a destructuring's), not part of
// a type.
func (x *extractor) ktBinds(vd, i syntax.NodeID) bool {
	// Walk up from i through the declaration: a bound name's parent is vd
	// or a variable_declaration inside it.
	for c, ok := x.t.FirstChild(vd); ok; c, ok = x.t.NextSibling(c) {
		if c == i {
			return true
		}
		if x.kind(c) == "variable_declaration" {
			if id, ok := x.childOfKind(c, "identifier", "simple_identifier"); ok && id == i {
				return true
			}
		}
	}
	return false
}

// ktConstructorFields adds the val and var parameters of a primary
// constructor.
func (x *extractor) ktConstructorFields(pc syntax.NodeID, container string, visible bool) {
	params, ok := x.childOfKind(pc, "class_parameters")
	if !ok {
		return
	}
	for _, p := range x.kids(params) {
		if x.kind(p) != "class_parameter" || !(x.hasChild(p, "val") || x.hasChild(p, "var")) {
			continue
		}
		if id, ok := x.ktName(p); ok {
			x.add(def{kind: Field, name: x.text(id), nameNode: id, node: p, container: container,
				exported: visible && x.ktVisible(p)})
		}
	}
}

package symbols

import "github.com/codecortex/codecortex/syntax"

// javaFile reads a Java file: the package declaration, imports (the path
// as written, with .* for an on-demand import, without static), and the
// classes, records (Class), interfaces and annotation types (Interface)
// and enums, nested ones included (Container: the enclosing types,
// dotted), with their methods and constructors (Method), fields (Field;
// Constant when static final, and every interface field), enum constants
// (Constant) and record components (Field). Exported: declared public, or
// implicitly public as a member of an interface or annotation type (unless
// private) or as an enum constant or record component; a member needs
// its enclosing type exported too. Protected and package-private
// declarations are not exported.
func (x *extractor) javaFile() {
	for _, c := range x.kids(x.t.Root()) {
		switch x.kind(c) {
		case "package_declaration":
			if id, ok := x.childOfKind(c, "scoped_identifier", "identifier"); ok && x.f.Package == "" {
				x.f.Package = x.text(id)
			}
		case "import_declaration":
			id, ok := x.childOfKind(c, "scoped_identifier", "identifier")
			if !ok {
				continue
			}
			path := x.text(id)
			if x.hasChild(c, "asterisk") {
				path += ".*"
			}
			x.addImport(path, "", "", c)
		default:
			x.javaType(c, "", true, false)
		}
	}
}

// javaModifiers returns the modifier keywords of a declaration.
func (x *extractor) javaModifiers(n syntax.NodeID) map[string]bool {
	mods := map[string]bool{}
	m, ok := x.childOfKind(n, "modifiers")
	if !ok {
		return mods
	}
	for c, ok := x.t.FirstChild(m); ok; c, ok = x.t.NextSibling(c) {
		if !x.t.Named(c) {
			mods[x.text(c)] = true
		}
	}
	return mods
}

// javaType adds a type declaration and its members; visible says whether
// the enclosing type is exported, inInterface whether it is an interface
// or annotation type (whose members are public by default).
func (x *extractor) javaType(n syntax.NodeID, container string, visible, inInterface bool) {
	var kind Kind
	switch x.kind(n) {
	case "class_declaration", "record_declaration":
		kind = Class
	case "interface_declaration", "annotation_type_declaration":
		kind = Interface
	case "enum_declaration":
		kind = Enum
	default:
		return
	}
	id, ok := x.field(n, "name")
	if !ok {
		return
	}
	mods := x.javaModifiers(n)
	name := x.text(id)
	exp := visible && (mods["public"] || inInterface && !mods["private"])
	hs, he := x.bodyHead(n, n)
	x.add(def{kind: kind, name: name, nameNode: id, node: n, container: container,
		exported: exp, headStart: hs, headEnd: he})
	cname := joinName(container, name)
	if params, ok := x.field(n, "parameters"); ok && x.kind(n) == "record_declaration" {
		for _, p := range x.kids(params) {
			if pid, ok := x.field(p, "name"); ok {
				x.add(def{kind: Field, name: x.text(pid), nameNode: pid, node: p, container: cname, exported: exp})
			}
		}
	}
	body, ok := x.field(n, "body")
	if !ok {
		return
	}
	x.javaMembers(body, cname, exp, kind == Interface)
}

func (x *extractor) javaMembers(body syntax.NodeID, cname string, exp, iface bool) {
	for _, m := range x.kids(body) {
		mods := x.javaModifiers(m)
		public := mods["public"] || iface && !mods["private"]
		switch x.kind(m) {
		case "enum_body_declarations":
			x.javaMembers(m, cname, exp, iface)
		case "enum_constant":
			if id, ok := x.field(m, "name"); ok {
				x.add(def{kind: Constant, name: x.text(id), nameNode: id, node: m, container: cname, exported: exp})
				if args, ok := x.field(m, "arguments"); ok {
					x.javaLocal(args, joinName(cname, x.text(id)))
				}
				if b, ok := x.field(m, "body"); ok {
					// The constant's class: its methods override the
					// enum's, members of the enum as its own are.
					x.javaMembers(b, cname, false, false)
				}
			}
		case "static_initializer", "block":
			x.javaLocal(m, cname)
		case "method_declaration", "constructor_declaration", "compact_constructor_declaration",
			"annotation_type_element_declaration":
			id, ok := x.field(m, "name")
			if !ok {
				continue
			}
			hs, he := x.bodyHead(m, m)
			if d, ok := x.childOfKind(m, "default"); ok {
				he = x.t.StartByte(d)
			}
			x.add(def{kind: Method, name: x.text(id), nameNode: id, node: m, container: cname,
				exported: exp && public, headStart: hs, headEnd: he})
			if b, ok := x.field(m, "body"); ok {
				x.javaLocal(b, joinName(cname, x.text(id)))
			}
		case "field_declaration", "constant_declaration":
			kind := Field
			if iface || mods["static"] && mods["final"] {
				kind = Constant
			}
			for _, d := range x.kids(m) {
				if x.kind(d) != "variable_declarator" {
					continue
				}
				if id, ok := x.field(d, "name"); ok {
					hs, he := x.t.StartByte(m), x.t.EndByte(d)
					if v, ok := x.field(d, "value"); ok {
						he = x.t.StartByte(v)
					}
					x.add(def{kind: kind, name: x.text(id), nameNode: id, node: m, container: cname,
						exported: exp && public, headStart: hs, headEnd: he})
					if v, ok := x.field(d, "value"); ok {
						x.javaLocal(v, joinName(cname, x.text(id)))
					}
				}
			}
		default:
			x.javaType(m, cname, exp, iface)
		}
	}
}

// javaLocal adds the classes declared anywhere in n (a method's body, a
// field's initializer, an enum constant), which container names: local
// types (with container joined with their names) and the members of
// anonymous classes (in container itself, for they have no name). None is
// exported: no name outside reaches them.
func (x *extractor) javaLocal(n syntax.NodeID, container string) {
	if x.javaDepth > maxNesting {
		return
	}
	x.javaDepth++
	defer func() { x.javaDepth-- }()
	for c, end := n+1, x.t.End(n); c < end; c++ {
		switch x.kind(c) {
		case "class_declaration", "record_declaration", "interface_declaration", "annotation_type_declaration", "enum_declaration":
			x.javaType(c, container, false, false)
		case "class_body":
			// An anonymous class: new T() { ... }, or an enum
			// constant's body.
			x.javaMembers(c, container, false, false)
		default:
			continue
		}
		c = x.t.End(c) - 1
	}
}

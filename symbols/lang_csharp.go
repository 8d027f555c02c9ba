package symbols

import "github.com/codecortex/codecortex/syntax"

// csFile reads a C# file: using directives (Path the namespace or type as
// written, Alias for using A = B; static and global usings alike), the
// namespaces (block or file-scoped: Package of what they hold, nested ones
// dotted; File.Package is the first), classes and records (Class; a record
// struct is a Struct), structs, interfaces, enums with their members
// (Constant) and delegates (Type), nested ones included (Container: the
// enclosing types, dotted), with their methods, constructors, destructors
// and operators (Method), properties, indexers, events and fields (Field;
// Constant for const fields). Exported: declared public, or a member of an
// interface without an access modifier, or an enum member; a member needs
// its type exported too. Types without a modifier are internal and members
// private, so neither is exported; protected is not exported either.
func (x *extractor) csFile() {
	x.csDecls(x.t.Root(), "", "", true, false)
}

// csModifiers returns the modifier keywords of a declaration.
func (x *extractor) csModifiers(n syntax.NodeID) map[string]bool {
	mods := map[string]bool{}
	for c, ok := x.t.FirstChild(n); ok; c, ok = x.t.NextSibling(c) {
		if x.kind(c) == "modifier" {
			mods[x.text(c)] = true
		}
	}
	return mods
}

func (x *extractor) csDecls(n syntax.NodeID, ns, container string, visible, iface bool) {
	for _, c := range x.kids(n) {
		switch x.kind(c) {
		case "using_directive":
			if container != "" {
				continue
			}
			alias := x.fieldText(c, "name")
			for t, ok := x.t.FirstChild(c); ok; t, ok = x.t.NextSibling(t) {
				if x.t.Named(t) && x.t.Field(t) != "name" && x.kind(t) != "comment" {
					x.addImport(x.text(t), "", alias, c)
					break
				}
			}
		case "namespace_declaration":
			name := joinName(ns, x.fieldText(c, "name"))
			if x.f.Package == "" {
				x.f.Package = name
			}
			if body, ok := x.field(c, "body"); ok {
				x.csDecls(body, name, container, visible, iface)
			}
		case "file_scoped_namespace_declaration":
			name := joinName(ns, x.fieldText(c, "name"))
			if x.f.Package == "" {
				x.f.Package = name
			}
			// What follows in the file belongs to it, as siblings or as
			// its children, by grammar version.
			x.csDecls(c, name, container, visible, iface)
			ns = name
		case "class_declaration", "struct_declaration", "interface_declaration", "record_declaration",
			"record_struct_declaration", "enum_declaration", "delegate_declaration":
			x.csType(c, ns, container, visible, iface)
		case "method_declaration", "constructor_declaration", "destructor_declaration", "operator_declaration",
			"conversion_operator_declaration", "local_function_statement":
			x.csMethod(c, ns, container, visible, iface)
		case "property_declaration", "indexer_declaration", "event_declaration":
			x.csProperty(c, ns, container, visible, iface)
		case "field_declaration", "event_field_declaration":
			if container == "" {
				continue
			}
			kind := Field
			if x.csModifiers(c)["const"] {
				kind = Constant
			}
			vd, ok := x.childOfKind(c, "variable_declaration")
			if !ok {
				continue
			}
			for _, d := range x.kids(vd) {
				if x.kind(d) != "variable_declarator" {
					continue
				}
				id, ok := x.field(d, "name")
				if !ok {
					continue
				}
				he := x.t.EndByte(id)
				x.add(def{kind: kind, name: x.text(id), nameNode: id, node: c, container: container, pkg: ns,
					exported: x.csMemberExported(c, visible, iface), headStart: x.t.StartByte(c), headEnd: he})
			}
		}
	}
}

// csMethod adds a method, constructor, destructor, operator or local
// function of a type; an operator is named by its symbol.
func (x *extractor) csMethod(c syntax.NodeID, ns, container string, visible, iface bool) {
	if container == "" {
		return
	}
	id, ok := x.field(c, "name")
	if !ok {
		if x.kind(c) != "operator_declaration" {
			return
		}
		id = c
	}
	name := x.text(id)
	if id == c {
		name = "operator"
		if op, ok := x.field(c, "operator"); ok {
			name, id = "operator "+x.text(op), op
		}
	}
	hs, he := x.bodyHead(c, c)
	x.add(def{kind: Method, name: name, nameNode: id, node: c, container: container, pkg: ns,
		exported: x.csMemberExported(c, visible, iface), headStart: hs, headEnd: he})
}

// csProperty adds a property, indexer (named this) or event of a type,
// its head ending before its accessors or value.
func (x *extractor) csProperty(c syntax.NodeID, ns, container string, visible, iface bool) {
	if container == "" {
		return
	}
	id, ok := x.field(c, "name")
	name := "this"
	if ok {
		name = x.text(id)
	} else if x.kind(c) == "indexer_declaration" {
		id = c
	} else {
		return
	}
	hs, he := x.t.StartByte(c), x.t.EndByte(c)
	if acc, ok := x.field(c, "accessors"); ok {
		he = x.t.StartByte(acc)
	} else if v, ok := x.field(c, "value"); ok {
		he = x.t.StartByte(v)
	}
	x.add(def{kind: Field, name: name, nameNode: id, node: c, container: container, pkg: ns,
		exported: x.csMemberExported(c, visible, iface), headStart: hs, headEnd: he})
}

// csMemberExported reports whether a member is exported: public, or in an
// interface without an access modifier, in an exported type.
func (x *extractor) csMemberExported(n syntax.NodeID, visible, iface bool) bool {
	mods := x.csModifiers(n)
	if !visible {
		return false
	}
	if mods["public"] {
		return true
	}
	return iface && !mods["private"] && !mods["protected"] && !mods["internal"]
}

func (x *extractor) csType(n syntax.NodeID, ns, container string, visible, inIface bool) {
	id, ok := x.field(n, "name")
	if !ok {
		return
	}
	kind := Class
	switch x.kind(n) {
	case "struct_declaration", "record_struct_declaration":
		kind = Struct
	case "interface_declaration":
		kind = Interface
	case "enum_declaration":
		kind = Enum
	case "delegate_declaration":
		kind = Type
	case "record_declaration":
		if x.hasChild(n, "struct") {
			kind = Struct
		}
	}
	name := x.text(id)
	exp := x.csMemberExported(n, visible, inIface)
	hs, he := x.bodyHead(n, n)
	x.add(def{kind: kind, name: name, nameNode: id, node: n, container: container, pkg: ns,
		exported: exp, headStart: hs, headEnd: he})
	body, ok := x.field(n, "body")
	if !ok {
		return
	}
	cname := joinName(container, name)
	if kind == Enum {
		for _, m := range x.kids(body) {
			if mid, ok := x.field(m, "name"); ok && x.kind(m) == "enum_member_declaration" {
				x.add(def{kind: Constant, name: x.text(mid), nameNode: mid, node: m, container: cname, pkg: ns, exported: exp})
			}
		}
		return
	}
	x.csDecls(body, ns, cname, exp, kind == Interface)
}

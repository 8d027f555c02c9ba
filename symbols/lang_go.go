package symbols

import "github.com/codecortex/codecortex/syntax"

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

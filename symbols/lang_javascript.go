package symbols

import "github.com/codecortex/codecortex/syntax"

// jsFile reads JavaScript, TypeScript and TSX: imports (import, export
// ... from, require), top-level functions, classes with their methods
// and fields, variables (Function when the value is a function or arrow
// function, Constant for other const, Variable for let and var),
// TypeScript interfaces with their members, type aliases, enums with
// their members (Constant), namespaces (Module, with what they hold), and
// CommonJS exports.X = ... assignments, and the nested and assigned
// functions jsNested reads. Exported: an export keyword, a
// name listed by export { } or export default, module.exports, or a
// declare (ambient) declaration; members need their class, interface or
// enum exported and are not private (TypeScript private or protected, or
// a #name).
func (x *extractor) jsFile() {
	root := x.t.Root()
	x.jsStatements(root, "", x.jsExportedNames(root), true)
	x.jsNested()
}

// jsExportedNames returns the local names the module exports by name:
// export { a, b as c }, export default a, module.exports = a or { a, b }.
func (x *extractor) jsExportedNames(root syntax.NodeID) map[string]bool {
	names := map[string]bool{}
	for _, c := range x.kids(root) {
		switch x.kind(c) {
		case "export_statement":
			if _, ok := x.field(c, "source"); ok {
				continue
			}
			if v, ok := x.field(c, "value"); ok && x.kind(v) == "identifier" {
				names[x.text(v)] = true
			}
			if cl, ok := x.childOfKind(c, "export_clause"); ok {
				for _, s := range x.kids(cl) {
					if x.kind(s) == "export_specifier" {
						names[x.fieldText(s, "name")] = true
					}
				}
			}
		case "expression_statement":
			a, ok := x.childOfKind(c, "assignment_expression")
			if !ok || x.fieldText(a, "left") != "module.exports" {
				continue
			}
			right, ok := x.field(a, "right")
			if !ok {
				continue
			}
			switch x.kind(right) {
			case "identifier":
				names[x.text(right)] = true
			case "object":
				for _, p := range x.kids(right) {
					switch x.kind(p) {
					case "shorthand_property_identifier":
						names[x.text(p)] = true
					case "pair":
						if v, ok := x.field(p, "value"); ok && x.kind(v) == "identifier" {
							names[x.text(v)] = true
						}
					}
				}
			}
		}
	}
	return names
}

// jsStatements reads the statements of a program, namespace or module
// body; names are the module's exported names (nil inside a namespace),
// visible whether the enclosing namespace is exported.
func (x *extractor) jsStatements(n syntax.NodeID, container string, names map[string]bool, visible bool) {
	for _, c := range x.kids(n) {
		x.jsStatement(c, c, container, names, false, visible)
	}
}

// jsStatement reads one statement n; outer is the statement that holds it
// (an export or declare statement), exp whether that exports it.
func (x *extractor) jsStatement(outer, n syntax.NodeID, container string, names map[string]bool, exp, visible bool) {
	isExp := func(name string) bool { return visible && (exp || names[name]) }
	switch x.kind(n) {
	case "export_statement":
		x.jsExport(n, container, names, visible)
	case "ambient_declaration":
		for _, d := range x.kids(n) {
			if x.t.Named(d) {
				x.jsStatement(outer, d, container, names, true, visible)
			}
		}
	case "import_statement":
		x.jsImport(n)
	case "function_declaration", "generator_function_declaration", "function_signature":
		if id, ok := x.field(n, "name"); ok {
			hs, he := x.bodyHead(outer, n)
			x.add(def{kind: Function, name: x.text(id), nameNode: id, node: outer, container: container,
				exported: isExp(x.text(id)), headStart: hs, headEnd: he})
		}
	case "class_declaration", "abstract_class_declaration", "class":
		if id, ok := x.field(n, "name"); ok {
			x.jsClass(outer, n, container, isExp(x.text(id)))
		}
	case "lexical_declaration", "variable_declaration":
		x.jsVars(outer, n, container, isExp)
	case "interface_declaration":
		x.jsInterface(outer, n, container, isExp)
	case "type_alias_declaration":
		if id, ok := x.field(n, "name"); ok {
			x.add(def{kind: Type, name: x.text(id), nameNode: id, node: outer, container: container,
				exported: isExp(x.text(id))})
			if v, ok := x.field(n, "value"); ok {
				x.jsTypeMembers(v, joinName(container, x.text(id)), isExp(x.text(id)), 0)
			}
		}
	case "enum_declaration":
		x.jsEnum(outer, n, container, isExp)
	case "internal_module", "module":
		id, ok := x.field(n, "name")
		if !ok {
			return
		}
		name := unquote(x.text(id))
		e := isExp(name) || x.kind(n) == "module" && x.kind(id) == "string"
		hs, he := x.bodyHead(outer, n)
		x.add(def{kind: Module, name: name, nameNode: id, node: outer, container: container,
			exported: e, headStart: hs, headEnd: he})
		if body, ok := x.field(n, "body"); ok {
			x.jsStatements(body, joinName(container, name), nil, e)
		}
	case "expression_statement":
		for _, e := range x.kids(n) {
			switch x.kind(e) {
			case "internal_module", "module":
				x.jsStatement(outer, e, container, names, exp, visible)
			case "assignment_expression":
				if container == "" {
					x.jsCommonJSExport(n, e)
				}
			case "call_expression":
				if p, ok := x.jsRequire(e); ok {
					x.addImport(p, "", "", n)
				}
			}
		}
	}
}

// jsExport reads an export statement: a re-export, an exported
// declaration, or a default export of a function or class.
func (x *extractor) jsExport(n syntax.NodeID, container string, names map[string]bool, visible bool) {
	if src, ok := x.field(n, "source"); ok {
		x.jsReexport(n, unquote(x.text(src)))
		return
	}
	if d, ok := x.field(n, "declaration"); ok {
		x.jsStatement(n, d, container, names, true, visible)
		return
	}
	if v, ok := x.field(n, "value"); ok {
		switch x.kind(v) {
		case "function_expression", "function", "generator_function", "arrow_function":
			name, nameNode := "default", v
			if id, ok := x.field(v, "name"); ok {
				name, nameNode = x.text(id), id
			}
			hs, he := x.bodyHead(n, v)
			x.add(def{kind: Function, name: name, nameNode: nameNode, node: n, container: container,
				exported: visible, headStart: hs, headEnd: he})
		case "class":
			x.jsClass(n, v, container, visible)
		}
	}
}

// jsCommonJSExport adds exports.X = ... and module.exports.X = ...
func (x *extractor) jsCommonJSExport(stmt, a syntax.NodeID) {
	left, ok := x.field(a, "left")
	if !ok || x.kind(left) != "member_expression" {
		return
	}
	obj := x.fieldText(left, "object")
	if obj != "exports" && obj != "module.exports" {
		return
	}
	prop, ok := x.field(left, "property")
	if !ok {
		return
	}
	kind := Variable
	right, hasRight := x.field(a, "right")
	hs, he := x.t.StartByte(stmt), x.t.EndByte(stmt)
	if hasRight && isJSFunction(x.kind(right)) {
		kind = Function
		hs, he = x.bodyHead(stmt, right)
	}
	x.add(def{kind: kind, name: x.text(prop), nameNode: prop, node: stmt, exported: true, headStart: hs, headEnd: he})
}

func isJSFunction(kind string) bool {
	switch kind {
	case "function_expression", "function", "arrow_function", "generator_function":
		return true
	}
	return false
}

// jsRequire returns the path of require("path").
func (x *extractor) jsRequire(call syntax.NodeID) (string, bool) {
	if x.kind(call) != "call_expression" || x.fieldText(call, "function") != "require" {
		return "", false
	}
	args, ok := x.field(call, "arguments")
	if !ok {
		return "", false
	}
	s, ok := x.childOfKind(args, "string", "template_string")
	if !ok {
		return "", false
	}
	return unquote(x.text(s)), true
}

func (x *extractor) jsImport(n syntax.NodeID) {
	src, ok := x.field(n, "source")
	if req, isReq := x.childOfKind(n, "import_require_clause"); isReq {
		if s, ok := x.field(req, "source"); ok {
			alias := ""
			if id, ok := x.childOfKind(req, "identifier"); ok {
				alias = x.text(id)
			}
			x.addImport(unquote(x.text(s)), "", alias, n)
		}
		return
	}
	if !ok {
		return
	}
	path := unquote(x.text(src))
	clause, ok := x.childOfKind(n, "import_clause")
	if !ok {
		x.addImport(path, "", "", n)
		return
	}
	for _, c := range x.kids(clause) {
		switch x.kind(c) {
		case "identifier":
			x.addImport(path, "default", x.text(c), c)
		case "namespace_import":
			if id, ok := x.childOfKind(c, "identifier"); ok {
				x.addImport(path, "*", x.text(id), c)
			}
		case "named_imports":
			for _, s := range x.kids(c) {
				if x.kind(s) == "import_specifier" {
					x.addImport(path, x.fieldText(s, "name"), x.fieldText(s, "alias"), s)
				}
			}
		}
	}
}

// jsReexport adds export ... from "path" as imports.
func (x *extractor) jsReexport(n syntax.NodeID, path string) {
	found := false
	for _, c := range x.kids(n) {
		switch x.kind(c) {
		case "export_clause":
			for _, s := range x.kids(c) {
				if x.kind(s) == "export_specifier" {
					x.addImport(path, x.fieldText(s, "name"), x.fieldText(s, "alias"), s)
					found = true
				}
			}
		case "namespace_export":
			alias := ""
			if id, ok := x.childOfKind(c, "identifier", "string"); ok {
				alias = unquote(x.text(id))
			}
			x.addImport(path, "*", alias, c)
			found = true
		}
	}
	if !found {
		x.addImport(path, "*", "", n)
	}
}

// jsClass adds a class and its members.
func (x *extractor) jsClass(outer, n syntax.NodeID, container string, exported bool) {
	id, ok := x.field(n, "name")
	name := "default"
	nameNode := n
	if ok {
		name, nameNode = x.text(id), id
	}
	hs, he := x.bodyHead(outer, n)
	x.add(def{kind: Class, name: name, nameNode: nameNode, node: outer, container: container,
		exported: exported, headStart: hs, headEnd: he})
	body, ok := x.field(n, "body")
	if !ok {
		return
	}
	cname := joinName(container, name)
	for _, m := range x.kids(body) {
		var kind Kind
		nameField := "name"
		switch x.kind(m) {
		case "method_definition", "method_signature", "abstract_method_signature":
			kind = Method
		case "field_definition":
			kind, nameField = Field, "property"
		case "public_field_definition":
			kind = Field
		default:
			continue
		}
		mid, ok := x.field(m, nameField)
		if !ok {
			continue
		}
		hidden := x.kind(mid) == "private_property_identifier"
		if acc, ok := x.childOfKind(m, "accessibility_modifier"); ok && x.text(acc) != "public" {
			hidden = true
		}
		hs, he := x.t.StartByte(m), x.t.EndByte(m)
		if kind == Method {
			hs, he = x.bodyHead(m, m)
		}
		x.add(def{kind: kind, name: x.text(mid), nameNode: mid, node: m, container: cname,
			exported: exported && !hidden, headStart: hs, headEnd: he})
	}
}

// jsVars adds the names a variable declaration binds; a require call's
// are imports.
func (x *extractor) jsVars(outer, n syntax.NodeID, container string, isExp func(string) bool) {
	keyword := ""
	if k, ok := x.t.FirstChild(n); ok && !x.t.Named(k) {
		keyword = x.text(k)
	}
	var decls []syntax.NodeID
	for _, d := range x.kids(n) {
		if x.kind(d) == "variable_declarator" {
			decls = append(decls, d)
		}
	}
	for _, d := range decls {
		nameNode, ok := x.field(d, "name")
		if !ok {
			continue
		}
		value, hasValue := x.field(d, "value")
		if hasValue {
			if path, ok := x.jsRequire(value); ok {
				x.jsRequireBinding(path, nameNode)
				continue
			}
		}
		node, prefix := outer, ""
		hs, he := x.t.StartByte(outer), x.t.EndByte(d)
		if len(decls) > 1 {
			node, prefix, hs = d, keyword+" ", x.t.StartByte(d)
		}
		kind := Variable
		switch {
		case hasValue && isJSFunction(x.kind(value)):
			kind = Function
			if b, ok := x.field(value, "body"); ok {
				he = x.t.StartByte(b)
			}
		case keyword == "const":
			kind = Constant
		}
		for _, id := range x.jsBoundNames(nameNode) {
			x.add(def{kind: kind, name: x.text(id), nameNode: id, node: node, container: container,
				exported: isExp(x.text(id)), prefix: prefix, headStart: hs, headEnd: he})
		}
		if typ, ok := x.field(d, "type"); ok && x.kind(nameNode) == "identifier" {
			x.jsTypeMembers(typ, joinName(container, x.text(nameNode)), isExp(x.text(nameNode)), 0)
		}
	}
}

// jsBoundNames returns the identifiers a binding pattern binds.
func (x *extractor) jsBoundNames(p syntax.NodeID) []syntax.NodeID {
	switch x.kind(p) {
	case "identifier":
		return []syntax.NodeID{p}
	case "object_pattern", "array_pattern":
	default:
		return nil
	}
	var out []syntax.NodeID
	for i := p; i < x.t.End(p); i++ {
		switch x.kind(i) {
		case "shorthand_property_identifier_pattern":
			out = append(out, i)
		case "identifier":
			// A pair's value or an array element binds; a default's
			// value or a computed key does not.
			if f := x.t.Field(i); f == "value" || f == "" || f == "left" {
				out = append(out, i)
			}
		}
	}
	return out
}

// jsRequireBinding adds const x = require("p") and const { a, b: c } =
// require("p").
func (x *extractor) jsRequireBinding(path string, name syntax.NodeID) {
	switch x.kind(name) {
	case "identifier":
		x.addImport(path, "", x.text(name), name)
	case "object_pattern":
		for _, c := range x.kids(name) {
			switch x.kind(c) {
			case "shorthand_property_identifier_pattern":
				x.addImport(path, x.text(c), "", c)
			case "pair_pattern":
				x.addImport(path, x.fieldText(c, "key"), x.fieldText(c, "value"), c)
			}
		}
	default:
		x.addImport(path, "", "", name)
	}
}

func (x *extractor) jsInterface(outer, n syntax.NodeID, container string, isExp func(string) bool) {
	id, ok := x.field(n, "name")
	if !ok {
		return
	}
	name := x.text(id)
	exp := isExp(name)
	hs, he := x.bodyHead(outer, n)
	x.add(def{kind: Interface, name: name, nameNode: id, node: outer, container: container,
		exported: exp, headStart: hs, headEnd: he})
	if body, ok := x.field(n, "body"); ok {
		x.jsTypeMembers(body, joinName(container, name), exp, 0)
	}
}

// jsTypeMembers adds the members of the object types (an interface's
// body, a type literal) that the type n spells, or holds in a union, an
// intersection, an array or a type argument: property signatures (Field)
// and method signatures (Method), in container; a property whose type is
// itself an object type gives the members of that type, in the container
// joined with the property's name. The types of parameters and results
// are not read.
func (x *extractor) jsTypeMembers(n syntax.NodeID, container string, exp bool, depth int) {
	if depth > maxNesting {
		return
	}
	switch x.kind(n) {
	case "object_type", "interface_body":
	case "function_type", "constructor_type", "type_query", "literal_type", "predefined_type", "type_identifier", "string":
		return
	default:
		for c, ok := x.t.FirstChild(n); ok; c, ok = x.t.NextSibling(c) {
			if x.t.Named(c) {
				x.jsTypeMembers(c, container, exp, depth+1)
			}
		}
		return
	}
	for _, m := range x.kids(n) {
		kind := Field
		switch x.kind(m) {
		case "property_signature":
		case "method_signature":
			kind = Method
		default:
			continue
		}
		mid, ok := x.field(m, "name")
		if !ok {
			continue
		}
		name := unquote(x.text(mid))
		hs, he := x.t.StartByte(m), x.t.EndByte(m)
		x.add(def{kind: kind, name: name, nameNode: mid, node: m, container: container, exported: exp, headStart: hs, headEnd: he})
		if t, ok := x.field(m, "type"); ok && kind == Field {
			x.jsTypeMembers(t, joinName(container, name), exp, depth+1)
		}
	}
}

func (x *extractor) jsEnum(outer, n syntax.NodeID, container string, isExp func(string) bool) {
	id, ok := x.field(n, "name")
	if !ok {
		return
	}
	name := x.text(id)
	exp := isExp(name)
	hs, he := x.bodyHead(outer, n)
	x.add(def{kind: Enum, name: name, nameNode: id, node: outer, container: container,
		exported: exp, headStart: hs, headEnd: he})
	body, ok := x.field(n, "body")
	if !ok {
		return
	}
	for _, m := range x.kids(body) {
		member := m
		if x.kind(m) == "enum_assignment" {
			if mid, ok := x.field(m, "name"); ok {
				member = mid
			}
		} else if x.t.Field(m) != "name" {
			continue
		}
		x.add(def{kind: Constant, name: unquote(x.text(member)), nameNode: member, node: m,
			container: joinName(container, name), exported: exp})
	}
}

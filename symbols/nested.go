package symbols

import "github.com/codecortex/codecortex/syntax"

// maxNesting bounds how deep the walks for nested definitions go.
const maxNesting = 256

// jsNested adds the JavaScript and TypeScript functions the statement
// walk leaves out: those declared inside functions (Container: the
// enclosing definitions, dotted), inside a module wrapper (an immediately
// invoked function, a UMD factory: Container empty), and those assigned
// to exports.X, module.exports.X (exported), X.prototype.m and X.m
// (Method of X) or listed in module.exports = { ... } (exported). None
// but the exports are exported.
func (x *extractor) jsNested() {
	x.jsNestedIn(x.t.Root(), "", x.byNameStart(), 0)
}

// byNameStart returns the index of each symbol extracted so far by its
// name's start byte: what a walk for nested definitions skips as found.
func (x *extractor) byNameStart() map[int]int {
	known := make(map[int]int, len(x.f.Symbols))
	for i, s := range x.f.Symbols {
		known[s.NameRange.StartByte] = i
	}
	return known
}

// jsNestedIn walks the children of n, in the definition named container.
func (x *extractor) jsNestedIn(n syntax.NodeID, container string, known map[int]int, depth int) {
	if depth > maxNesting {
		return
	}
	for c, ok := x.t.FirstChild(n); ok; c, ok = x.t.NextSibling(c) {
		inner := container
		if x.kind(c) == "assignment_expression" && x.fieldText(c, "left") == "module.exports" {
			x.jsExportsObject(c, known)
		}
		if d, ok := x.jsNestedDef(n, c, container); ok {
			if i, seen := known[x.t.StartByte(d.nameNode)]; seen {
				inner = joinName(x.f.Symbols[i].Container, x.f.Symbols[i].Name)
			} else {
				known[x.t.StartByte(d.nameNode)] = len(x.f.Symbols)
				x.add(d)
				inner = joinName(d.container, d.name)
			}
		}
		x.jsNestedIn(c, inner, known, depth+1)
	}
}

// jsNestedDef returns the definition node n (a child of parent) makes,
// if it is a function or class declaration, a function assigned to a
// variable, to an export or to a member of a named object, or a method of
// a class.
func (x *extractor) jsNestedDef(parent, n syntax.NodeID, container string) (def, bool) {
	switch x.kind(n) {
	case "function_declaration", "generator_function_declaration", "class_declaration", "method_definition":
		id, ok := x.field(n, "name")
		if !ok || x.kind(n) == "method_definition" && x.kind(parent) != "class_body" {
			return def{}, false
		}
		kind := Function
		switch x.kind(n) {
		case "class_declaration":
			kind = Class
		case "method_definition":
			kind = Method
		}
		hs, he := x.bodyHead(n, n)
		return def{kind: kind, name: x.text(id), nameNode: id, node: n, container: container, headStart: hs, headEnd: he}, true
	case "variable_declarator":
		id, ok := x.field(n, "name")
		v, okv := x.field(n, "value")
		if !ok || !okv || x.kind(id) != "identifier" || !isJSFunction(x.kind(v)) {
			return def{}, false
		}
		hs, he := x.bodyHead(n, v)
		return def{kind: Function, name: x.text(id), nameNode: id, node: n, container: container, headStart: hs, headEnd: he}, true
	case "assignment_expression":
		return x.jsAssignedFunction(n, container)
	}
	return def{}, false
}

// jsAssignedFunction returns the definition of a function assigned to
// exports.X or module.exports.X (exported), or to X.prototype.m or X.m
// (Method of X).
func (x *extractor) jsAssignedFunction(a syntax.NodeID, container string) (def, bool) {
	left, ok := x.field(a, "left")
	right, okr := x.field(a, "right")
	if !ok || !okr || x.kind(left) != "member_expression" || !isJSFunction(x.kind(right)) {
		return def{}, false
	}
	prop, ok := x.field(left, "property")
	obj, oko := x.field(left, "object")
	if !ok || !oko {
		return def{}, false
	}
	d := def{kind: Function, name: x.text(prop), nameNode: prop, node: a, container: container}
	d.headStart, d.headEnd = x.bodyHead(a, right)
	switch o := x.text(obj); {
	case o == "exports" || o == "module.exports":
		d.exported = true
	case x.kind(obj) == "identifier" && o != "this" && o != "self":
		d.kind, d.container = Method, o
	case x.kind(obj) == "member_expression" && x.fieldText(obj, "property") == "prototype":
		o, _ := x.field(obj, "object")
		if x.kind(o) != "identifier" {
			return def{}, false
		}
		d.kind, d.container = Method, x.text(o)
	default:
		return def{}, false
	}
	return d, true
}

// jsExportsObject adds the functions listed in module.exports = { ... }
// (assignment a): exported, at the top level.
func (x *extractor) jsExportsObject(a syntax.NodeID, known map[int]int) {
	obj, ok := x.field(a, "right")
	if !ok || x.kind(obj) != "object" {
		return
	}
	for p, ok := x.t.FirstChild(obj); ok; p, ok = x.t.NextSibling(p) {
		var k, v syntax.NodeID
		switch x.kind(p) {
		case "pair":
			var okk, okv bool
			k, okk = x.field(p, "key")
			v, okv = x.field(p, "value")
			if !okk || !okv || !isJSFunction(x.kind(v)) {
				continue
			}
		case "method_definition":
			var okk bool
			if k, okk = x.field(p, "name"); !okk {
				continue
			}
			v = p
		default:
			continue
		}
		if _, seen := known[x.t.StartByte(k)]; seen {
			continue
		}
		known[x.t.StartByte(k)] = len(x.f.Symbols)
		hs, he := x.bodyHead(p, v)
		x.add(def{kind: Function, name: unquote(x.text(k)), nameNode: k, node: p, exported: true, headStart: hs, headEnd: he})
	}
}

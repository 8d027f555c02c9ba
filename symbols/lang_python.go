package symbols

import (
	"strings"

	"github.com/codecortex/codecortex/syntax"
)

// pyFile reads a Python module: imports (anywhere outside functions), the
// functions, classes and their methods (Container: the class, dotted for
// nested classes), nested classes, and the names assigned at the top
// level (Constant when written in capitals or annotated Final, Variable
// otherwise) and in class bodies (Field). Definitions under if, try and
// with at the top level or in a class body count; inside functions, the
// nested functions and classes do (see pyNested). Exported: listed in the module's __all__ when it has one, and
// otherwise not starting with an underscore; members (and everything in a
// class) follow the underscore rule, dunder names such as __init__ being
// exported, and need their class exported too.
func (x *extractor) pyFile() {
	all := x.pyAll()
	x.pyBlock(x.t.Root(), "", false, true, all)
}

// pyAll returns the names the module lists in __all__, or nil when it
// has none.
func (x *extractor) pyAll() map[string]bool {
	var all map[string]bool
	for _, c := range x.kids(x.t.Root()) {
		if x.kind(c) != "expression_statement" {
			continue
		}
		a, ok := x.childOfKind(c, "assignment", "augmented_assignment")
		if !ok || x.fieldText(a, "left") != "__all__" {
			continue
		}
		right, ok := x.field(a, "right")
		if !ok {
			continue
		}
		if all == nil {
			all = map[string]bool{}
		}
		for i := right; i < x.t.End(right); i++ {
			if x.kind(i) == "string_content" {
				all[x.text(i)] = true
			}
		}
	}
	return all
}

func pyPublic(name string) bool {
	return !strings.HasPrefix(name, "_") || len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}

// pyBlock reads the statements of a module or block. inClass says the
// block is a class body; visible whether its container is exported.
func (x *extractor) pyBlock(n syntax.NodeID, container string, inClass, visible bool, all map[string]bool) {
	top := container == "" && !inClass
	exported := func(name string) bool {
		if top && all != nil {
			return all[name]
		}
		return visible && pyPublic(name)
	}
	for _, c := range x.kids(n) {
		node, from := c, c
		if x.kind(c) == "decorated_definition" {
			if d, ok := x.field(c, "definition"); ok {
				node = d
			}
		}
		switch x.kind(node) {
		case "import_statement", "future_import_statement":
			x.pyImport(node, "")
		case "import_from_statement":
			x.pyImport(node, x.fieldText(node, "module_name"))
		case "function_definition":
			name, ok := x.field(node, "name")
			if !ok {
				continue
			}
			kind := Function
			if inClass {
				kind = Method
			}
			hs, he := x.bodyHead(node, node)
			x.add(def{kind: kind, name: x.text(name), nameNode: name, node: node, container: container,
				exported: exported(x.text(name)), headStart: hs, headEnd: he, docAt: x.t.StartByte(from)})
			if body, ok := x.field(node, "body"); ok {
				x.pyNested(body, joinName(container, x.text(name)), 0)
			}
		case "class_definition":
			name, ok := x.field(node, "name")
			if !ok {
				continue
			}
			hs, he := x.bodyHead(node, node)
			cname := x.text(name)
			exp := exported(cname)
			x.add(def{kind: Class, name: cname, nameNode: name, node: node, container: container,
				exported: exp, headStart: hs, headEnd: he, docAt: x.t.StartByte(from)})
			if body, ok := x.field(node, "body"); ok {
				x.pyBlock(body, joinName(container, cname), true, exp, nil)
			}
		case "expression_statement":
			for _, a := range x.kids(node) {
				if x.kind(a) == "assignment" {
					x.pyAssign(node, a, container, inClass, exported)
				}
			}
		case "if_statement", "try_statement", "with_statement", "else_clause", "elif_clause",
			"except_clause", "finally_clause", "block":
			// Conditional definitions: read the blocks below, as if they
			// were at this level.
			x.pyBlock(node, container, inClass, visible, all)
		}
	}
}

// pyAssign adds the names one assignment binds (a = b = 1 binds two; a,
// b = ... binds both).
func (x *extractor) pyAssign(stmt, a syntax.NodeID, container string, inClass bool, exported func(string) bool) {
	for {
		left, ok := x.field(a, "left")
		if !ok {
			return
		}
		final := strings.Contains(x.fieldText(a, "type"), "Final")
		for i := left; i < x.t.End(left); i++ {
			if x.kind(i) != "identifier" || x.t.Field(i) == "attribute" || x.kind(left) == "attribute" || x.kind(left) == "subscript" {
				continue
			}
			name := x.text(i)
			if name == "__all__" {
				continue
			}
			kind := Variable
			switch {
			case inClass:
				kind = Field
			case final || isConstantName(name):
				kind = Constant
			}
			x.add(def{kind: kind, name: name, nameNode: i, node: stmt, container: container, exported: exported(name)})
		}
		right, ok := x.field(a, "right")
		if !ok || x.kind(right) != "assignment" {
			return
		}
		a = right
	}
}

// isConstantName reports whether name is written in capitals (digits and
// underscores allowed, one letter at least).
func isConstantName(name string) bool {
	letter := false
	for _, r := range name {
		switch {
		case r >= 'A' && r <= 'Z':
			letter = true
		case r == '_' || r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return letter
}

// pyImport adds the imports of an import statement; module is the
// from-module, "" for a plain import.
func (x *extractor) pyImport(n syntax.NodeID, module string) {
	for c, ok := x.t.FirstChild(n); ok; c, ok = x.t.NextSibling(c) {
		switch {
		case x.kind(c) == "wildcard_import":
			x.addImport(module, "*", "", n)
		case x.t.Field(c) != "name":
		case x.kind(c) == "aliased_import":
			name := x.fieldText(c, "name")
			if module == "" {
				x.addImport(name, "", x.fieldText(c, "alias"), c)
			} else {
				x.addImport(module, name, x.fieldText(c, "alias"), c)
			}
		case module == "":
			x.addImport(x.text(c), "", "", c)
		default:
			x.addImport(module, x.text(c), "", c)
		}
	}
}

// pyNested adds the functions and classes defined in a function's body
// (n), looking through its compound statements: Function or Class, with
// the enclosing definitions as Container, none exported; a nested class's
// members are read as any class's.
func (x *extractor) pyNested(n syntax.NodeID, container string, depth int) {
	if depth > maxNesting {
		return
	}
	for c, ok := x.t.FirstChild(n); ok; c, ok = x.t.NextSibling(c) {
		node, from := c, c
		if x.kind(c) == "decorated_definition" {
			if d, ok := x.field(c, "definition"); ok {
				node = d
			}
		}
		switch x.kind(node) {
		case "function_definition", "class_definition":
			name, ok := x.field(node, "name")
			if !ok {
				continue
			}
			kind := Function
			if x.kind(node) == "class_definition" {
				kind = Class
			}
			hs, he := x.bodyHead(node, node)
			x.add(def{kind: kind, name: x.text(name), nameNode: name, node: node, container: container,
				headStart: hs, headEnd: he, docAt: x.t.StartByte(from)})
			body, ok := x.field(node, "body")
			switch {
			case !ok:
			case kind == Class:
				x.pyBlock(body, joinName(container, x.text(name)), true, false, nil)
			default:
				x.pyNested(body, joinName(container, x.text(name)), depth+1)
			}
		case "if_statement", "for_statement", "while_statement", "try_statement", "with_statement",
			"else_clause", "elif_clause", "except_clause", "finally_clause", "block":
			x.pyNested(node, container, depth+1)
		}
	}
}

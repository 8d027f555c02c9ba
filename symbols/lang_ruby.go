package symbols

import (
	"strings"

	"github.com/codecortex/codecortex/syntax"
)

// rubyFile reads a Ruby file: require, require_relative and load calls
// with a literal path (imports); modules (Module) and classes (Class; a
// scoped name A::B is named B, inside A), with what they hold (Container:
// the enclosing modules and classes, dotted; a scoped name's own scope,
// as written, instead); methods (Method in a class
// or module, Function at the top level; def self.m and the methods of
// class << self are Methods too); constants assigned (Constant); and the
// attributes attr_reader, attr_writer and attr_accessor declare (Field).
// Exported: Ruby's method visibility: public unless a bare private or
// protected above it in the body (until a bare public) or a private /
// protected call wrapping the def, or a private :name call naming it;
// top-level methods are private to Object and so not exported. Modules,
// classes, constants and attributes are exported.
func (x *extractor) rubyFile() {
	x.rubyBody(x.t.Root(), "", true)
	x.rubyNested(x.t.Root(), "", x.byNameStart(), 0)
}

// rubyNested adds the classes, modules and methods the statement walk
// leaves out, those inside expressions and blocks: a class assigned to a
// constant under a condition, a def in a block (Rails' included do, a
// spec's describe do), a def in a def. Container: the enclosing classes
// and modules, as for the others.
func (x *extractor) rubyNested(n syntax.NodeID, container string, known map[int]int, depth int) {
	if depth > maxNesting {
		return
	}
	for c, ok := x.t.FirstChild(n); ok; c, ok = x.t.NextSibling(c) {
		inner := container
		switch x.kind(c) {
		case "class", "module":
			id, ok := x.field(c, "name")
			if !ok {
				break
			}
			if x.kind(id) == "scope_resolution" {
				if last, ok := x.field(id, "name"); ok {
					id = last
				}
			}
			i, seen := known[x.t.StartByte(id)]
			if !seen {
				from := len(x.f.Symbols)
				x.rubyClass(c, container)
				for j := from; j < len(x.f.Symbols); j++ {
					known[x.f.Symbols[j].NameRange.StartByte] = j
				}
				i, seen = known[x.t.StartByte(id)]
			}
			if seen {
				inner = joinName(x.f.Symbols[i].Container, x.f.Symbols[i].Name)
			}
		case "method", "singleton_method":
			if id, ok := x.field(c, "name"); ok {
				if _, seen := known[x.t.StartByte(id)]; !seen {
					known[x.t.StartByte(id)] = len(x.f.Symbols)
					x.rubyMethod(c, c, container, true, container == "")
				}
			}
		}
		x.rubyNested(c, inner, known, depth+1)
	}
}

// rubyBody reads the statements of a program or a class or module body.
func (x *extractor) rubyBody(n syntax.NodeID, container string, top bool) {
	public := !top
	hidden := map[string]bool{}
	// private :a, :b named after their defs hide them too.
	for _, c := range x.kids(n) {
		if x.kind(c) != "call" {
			continue
		}
		m := x.fieldText(c, "method")
		if m != "private" && m != "protected" {
			continue
		}
		if args, ok := x.field(c, "arguments"); ok {
			for _, a := range x.kids(args) {
				if x.kind(a) == "simple_symbol" {
					hidden[strings.TrimPrefix(x.text(a), ":")] = true
				}
			}
		}
	}
	for _, c := range x.kids(n) {
		switch x.kind(c) {
		case "identifier":
			switch x.text(c) {
			case "private", "protected":
				public = false
			case "public":
				public = !top
			}
		case "call":
			x.rubyCall(c, container, public, hidden, top)
		case "method", "singleton_method":
			x.rubyMethod(c, c, container, public && !hidden[x.fieldText(c, "name")], top)
		case "class", "module":
			x.rubyClass(c, container)
		case "singleton_class":
			if body, ok := x.field(c, "body"); ok {
				for _, m := range x.kids(body) {
					if x.kind(m) == "method" {
						x.rubyMethod(m, m, container, true, false)
					}
				}
			}
		case "assignment":
			if left, ok := x.field(c, "left"); ok && x.kind(left) == "constant" {
				x.add(def{kind: Constant, name: x.text(left), nameNode: left, node: c, container: container, exported: true})
			}
		case "begin", "if", "unless", "body_statement", "then", "else":
			x.rubyBody(c, container, top)
		}
	}
}

// rubyCall reads a call in a body: an import, an attribute, or a
// visibility call wrapping a def.
func (x *extractor) rubyCall(c syntax.NodeID, container string, public bool, hidden map[string]bool, top bool) {
	method := x.fieldText(c, "method")
	args, hasArgs := x.field(c, "arguments")
	if _, ok := x.field(c, "receiver"); ok {
		return
	}
	switch method {
	case "require", "require_relative", "load":
		if !hasArgs {
			return
		}
		if s, ok := x.childOfKind(args, "string"); ok && x.t.ChildCount(s) <= 3 {
			x.addImport(unquote(x.text(s)), "", "", c)
		}
	case "attr_reader", "attr_writer", "attr_accessor":
		if !hasArgs || container == "" {
			return
		}
		for _, a := range x.kids(args) {
			if x.kind(a) == "simple_symbol" {
				x.add(def{kind: Field, name: strings.TrimPrefix(x.text(a), ":"), nameNode: a, node: c,
					container: container, exported: true})
			}
		}
	case "private", "protected", "public", "private_class_method", "module_function":
		if !hasArgs {
			return
		}
		for _, a := range x.kids(args) {
			if k := x.kind(a); k == "method" || k == "singleton_method" {
				x.rubyMethod(c, a, container, method == "public" || method == "module_function", top)
			}
		}
	}
}

func (x *extractor) rubyMethod(outer, m syntax.NodeID, container string, public, top bool) {
	id, ok := x.field(m, "name")
	if !ok {
		return
	}
	kind := Method
	if top && x.kind(m) == "method" {
		kind = Function
	}
	he := x.t.EndByte(id)
	if p, ok := x.field(m, "parameters"); ok {
		he = x.t.EndByte(p)
	}
	x.add(def{kind: kind, name: x.text(id), nameNode: id, node: outer, container: container,
		exported: public && !top, headStart: x.t.StartByte(outer), headEnd: he})
}

func (x *extractor) rubyClass(c syntax.NodeID, container string) {
	id, ok := x.field(c, "name")
	if !ok {
		return
	}
	scope := container
	if x.kind(id) == "scope_resolution" {
		if s, ok := x.field(id, "scope"); ok {
			// A scoped name is taken as written (Ruby resolves its first
			// part lexically, which a file alone does not settle).
			scope = strings.ReplaceAll(strings.TrimPrefix(x.text(s), "::"), "::", ".")
		}
		if last, ok := x.field(id, "name"); ok {
			id = last
		}
	}
	kind := Class
	if x.kind(c) == "module" {
		kind = Module
	}
	name := x.text(id)
	he := x.t.EndByte(id)
	if sc, ok := x.field(c, "superclass"); ok {
		he = x.t.EndByte(sc)
	}
	x.add(def{kind: kind, name: name, nameNode: id, node: c, container: scope, exported: true,
		headStart: x.t.StartByte(c), headEnd: he})
	if body, ok := x.field(c, "body"); ok {
		x.rubyBody(body, joinName(scope, name), false)
	}
}

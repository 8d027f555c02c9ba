package symbols

import (
	"strings"

	"github.com/codecortex/codecortex/syntax"
)

// phpFile reads a PHP file: the namespace (Package of what follows it, or
// of what its block holds; File.Package is the first), use declarations
// (Path the full name, group uses expanded, Alias for as), require and
// include expressions (Path the literal, or the argument as written when
// it is not one literal); functions, classes, interfaces, traits
// (Interface) and enums with their cases (Constant), methods (Method),
// properties (Field) and class constants (Constant); top-level const and
// define() constants. Exported: PHP has no file-private declarations, so
// top-level ones are exported; members are unless private or protected
// (PHP's default is public).
func (x *extractor) phpFile() {
	x.phpStatements(x.t.Root(), "")
}

func (x *extractor) phpStatements(n syntax.NodeID, ns string) {
	for _, c := range x.kids(n) {
		switch x.kind(c) {
		case "namespace_definition":
			name := x.fieldText(c, "name")
			if x.f.Package == "" {
				x.f.Package = name
			}
			if body, ok := x.field(c, "body"); ok {
				x.phpStatements(body, name)
			} else {
				ns = name
			}
		case "namespace_use_declaration":
			prefix := ""
			if p, ok := x.childOfKind(c, "namespace_name"); ok {
				prefix = x.text(p)
			}
			clauses := c
			if g, ok := x.field(c, "body"); ok {
				clauses = g
			}
			for _, u := range x.kids(clauses) {
				if x.kind(u) != "namespace_use_clause" {
					continue
				}
				alias := x.fieldText(u, "alias")
				var path string
				for t, ok := x.t.FirstChild(u); ok; t, ok = x.t.NextSibling(t) {
					if x.t.Named(t) && x.t.Field(t) != "alias" {
						path = x.text(t)
						break
					}
				}
				if prefix != "" {
					path = prefix + `\` + path
				}
				x.addImport(strings.TrimPrefix(path, `\`), "", alias, u)
			}
		case "expression_statement":
			for _, e := range x.kids(c) {
				switch x.kind(e) {
				case "require_expression", "require_once_expression", "include_expression", "include_once_expression":
					for a, ok := x.t.FirstChild(e); ok; a, ok = x.t.NextSibling(a) {
						if !x.t.Named(a) {
							continue
						}
						p := x.text(a)
						if x.kind(a) == "string" || x.kind(a) == "encapsed_string" {
							p = unquote(p)
						}
						x.addImport(p, "", "", c)
						break
					}
				case "function_call_expression":
					x.phpDefine(c, e, ns)
				}
			}
		case "const_declaration":
			x.phpConsts(c, ns, "", true)
		case "function_definition":
			if id, ok := x.field(c, "name"); ok {
				hs, he := x.bodyHead(c, c)
				x.add(def{kind: Function, name: x.text(id), nameNode: id, node: c, pkg: ns,
					exported: true, headStart: hs, headEnd: he})
			}
		case "class_declaration", "interface_declaration", "trait_declaration", "enum_declaration":
			x.phpType(c, ns)
		case "compound_statement", "if_statement", "declare_statement":
			x.phpStatements(c, ns)
		}
	}
}

// phpDefine adds define("NAME", value).
func (x *extractor) phpDefine(stmt, call syntax.NodeID, ns string) {
	if x.fieldText(call, "function") != "define" {
		return
	}
	args, ok := x.field(call, "arguments")
	if !ok {
		return
	}
	arg, ok := x.childOfKind(args, "argument")
	if !ok {
		return
	}
	s, ok := x.childOfKind(arg, "string")
	if !ok {
		return
	}
	content, ok := x.childOfKind(s, "string_content")
	if !ok {
		return
	}
	x.add(def{kind: Constant, name: x.text(content), nameNode: content, node: stmt, pkg: ns, exported: true})
}

// phpPublic reports whether a member's visibility leaves it public.
func (x *extractor) phpPublic(n syntax.NodeID) bool {
	if v, ok := x.childOfKind(n, "visibility_modifier"); ok {
		return x.text(v) == "public"
	}
	return true
}

func (x *extractor) phpConsts(c syntax.NodeID, ns, container string, exported bool) {
	for _, e := range x.kids(c) {
		if x.kind(e) != "const_element" {
			continue
		}
		if id, ok := x.childOfKind(e, "name"); ok {
			x.add(def{kind: Constant, name: x.text(id), nameNode: id, node: c, container: container, pkg: ns,
				exported: exported, headStart: x.t.StartByte(c), headEnd: x.t.EndByte(id)})
		}
	}
}

func (x *extractor) phpType(c syntax.NodeID, ns string) {
	id, ok := x.field(c, "name")
	if !ok {
		return
	}
	kind := Class
	switch x.kind(c) {
	case "interface_declaration", "trait_declaration":
		kind = Interface
	case "enum_declaration":
		kind = Enum
	}
	name := x.text(id)
	hs, he := x.bodyHead(c, c)
	x.add(def{kind: kind, name: name, nameNode: id, node: c, pkg: ns, exported: true, headStart: hs, headEnd: he})
	body, ok := x.field(c, "body")
	if !ok {
		return
	}
	for _, m := range x.kids(body) {
		switch x.kind(m) {
		case "method_declaration":
			if mid, ok := x.field(m, "name"); ok {
				hs, he := x.bodyHead(m, m)
				x.add(def{kind: Method, name: x.text(mid), nameNode: mid, node: m, container: name, pkg: ns,
					exported: x.phpPublic(m), headStart: hs, headEnd: he})
			}
		case "property_declaration":
			for _, p := range x.kids(m) {
				if x.kind(p) != "property_element" {
					continue
				}
				v, ok := x.field(p, "name")
				if !ok {
					continue
				}
				pid := v
				if inner, ok := x.childOfKind(v, "name"); ok {
					pid = inner
				}
				x.add(def{kind: Field, name: x.text(pid), nameNode: pid, node: m, container: name, pkg: ns,
					exported: x.phpPublic(m), headStart: x.t.StartByte(m), headEnd: x.t.EndByte(v)})
			}
		case "const_declaration":
			x.phpConsts(m, ns, name, x.phpPublic(m))
		case "enum_case":
			if cid, ok := x.field(m, "name"); ok {
				x.add(def{kind: Constant, name: x.text(cid), nameNode: cid, node: m, container: name, pkg: ns, exported: true})
			}
		}
	}
}

package symbols

import (
	"strings"

	"github.com/codecortex/codecortex/syntax"
)

// rustFile reads a Rust file: use declarations (one import per leaf of a
// use tree, its full path as written, "self" giving the parent path) and
// extern crates; functions; methods of impl and trait blocks (Container:
// the implemented type, or the trait); structs and unions with their
// named fields; enums with their variants (Constant); traits (Interface);
// type aliases; consts (Constant) and statics (Variable); modules, inline
// ones with what they hold (Container: the module); macro_rules! macros.
// Exported: a bare pub (pub(crate), pub(super) and pub(in ...) are
// restricted and do not count); the items of a trait, and the methods of a
// trait impl, are as exported as the trait's interface (always, for an
// impl); variants are exported with their enum. The file's module path is
// not known from the file, so Package is empty.
func (x *extractor) rustFile() {
	x.rustItems(x.t.Root(), "", rustFree)
}

type rustScope uint8

const (
	rustFree      rustScope = iota // the file, a module
	rustImpl                       // an inherent impl
	rustTraitImpl                  // impl Trait for T
	rustTrait                      // a trait's body
)

func (x *extractor) rustPub(n syntax.NodeID) bool {
	v, ok := x.childOfKind(n, "visibility_modifier")
	return ok && x.text(v) == "pub"
}

// rustItems adds the items of n, a file, module or block body, whose
// scope decides what they are and whether they are exported.
func (x *extractor) rustItems(n syntax.NodeID, container string, scope rustScope) {
	exported := func(item syntax.NodeID) bool {
		if x.rustLocal > 0 {
			return false
		}
		switch scope {
		case rustTraitImpl:
			return true
		case rustTrait:
			return x.rustTraitPub
		}
		return x.rustPub(item)
	}
	for _, c := range x.kids(n) {
		x.rustItem(c, container, scope, exported)
	}
}

// rustItem adds item c of a file, module, block or impl body.
func (x *extractor) rustItem(c syntax.NodeID, container string, scope rustScope, exported func(syntax.NodeID) bool) {
	switch x.kind(c) {
	case "use_declaration":
		if arg, ok := x.field(c, "argument"); ok {
			x.rustUse(arg, "")
		}
	case "extern_crate_declaration":
		name := x.fieldText(c, "name")
		x.addImport(name, "", x.fieldText(c, "alias"), c)
	case "function_item", "function_signature_item":
		id, ok := x.field(c, "name")
		if !ok {
			return
		}
		kind := Function
		if scope != rustFree {
			kind = Method
		}
		hs, he := x.bodyHead(c, c)
		x.add(def{kind: kind, name: x.text(id), nameNode: id, node: c, container: container,
			exported: exported(c), headStart: hs, headEnd: he})
		if body, ok := x.field(c, "body"); ok {
			x.rustLocalItems(body, joinName(container, x.text(id)))
		}
	case "struct_item", "union_item":
		x.rustStruct(c, container, exported(c))
	case "enum_item":
		x.rustEnum(c, container, exported(c))
	case "trait_item":
		x.rustTraitItem(c, container, exported(c))
	case "impl_item":
		x.rustImplBlock(c, container)
	case "type_item", "associated_type":
		if id, ok := x.field(c, "name"); ok {
			x.add(def{kind: Type, name: x.text(id), nameNode: id, node: c, container: container,
				exported: exported(c)})
		}
	case "const_item", "static_item":
		x.rustConst(c, container, exported(c))
	case "mod_item":
		id, ok := x.field(c, "name")
		if !ok {
			return
		}
		name := x.text(id)
		hs, he := x.bodyHead(c, c)
		x.add(def{kind: Module, name: name, nameNode: id, node: c, container: container,
			exported: exported(c), headStart: hs, headEnd: he})
		if body, ok := x.field(c, "body"); ok {
			x.rustItems(body, joinName(container, name), rustFree)
		}
	case "foreign_mod_item":
		if body, ok := x.field(c, "body"); ok {
			x.rustItems(body, container, rustFree)
		}
	case "macro_definition":
		if id, ok := x.field(c, "name"); ok {
			x.add(def{kind: Macro, name: x.text(id), nameNode: id, node: c, container: container,
				exported: x.rustMacroExported(c), headStart: x.t.StartByte(c), headEnd: x.t.EndByte(id)})
		}
	}
}

// rustItemKinds are the kinds of the items a block may declare.
var rustItemKinds = map[string]bool{
	"use_declaration": true, "extern_crate_declaration": true, "function_item": true,
	"function_signature_item": true, "struct_item": true, "union_item": true, "enum_item": true,
	"trait_item": true, "impl_item": true, "type_item": true, "const_item": true, "static_item": true,
	"mod_item": true, "foreign_mod_item": true, "macro_definition": true,
}

// rustLocalItems adds the items declared anywhere in n, the body of the
// function named container (in its blocks, closures and nested
// expressions): a function there is a Function, an impl's are Methods of
// container joined with the type; none is exported, for no path outside
// the body names them.
func (x *extractor) rustLocalItems(n syntax.NodeID, container string) {
	if x.rustLocal > maxNesting {
		return
	}
	x.rustLocal++
	defer func() { x.rustLocal-- }()
	for c, end := n+1, x.t.End(n); c < end; c++ {
		if rustItemKinds[x.kind(c)] {
			x.rustItem(c, container, rustFree, func(syntax.NodeID) bool { return false })
			c = x.t.End(c) - 1
		}
	}
}

// rustConst adds a const (a constant) or a static (a variable), its head
// ending before its value.
func (x *extractor) rustConst(c syntax.NodeID, container string, exp bool) {
	id, ok := x.field(c, "name")
	if !ok {
		return
	}
	kind := Constant
	if x.kind(c) == "static_item" {
		kind = Variable
	}
	hs, he := x.t.StartByte(c), x.t.EndByte(c)
	if eq, ok := x.childOfKind(c, "="); ok {
		he = x.t.StartByte(eq)
	}
	x.add(def{kind: kind, name: x.text(id), nameNode: id, node: c, container: container,
		exported: exp, headStart: hs, headEnd: he})
}

// rustStruct adds a struct or union and its named fields.
func (x *extractor) rustStruct(c syntax.NodeID, container string, exp bool) {
	id, ok := x.field(c, "name")
	if !ok {
		return
	}
	name := x.text(id)
	hs, he := x.bodyHead(c, c)
	x.add(def{kind: Struct, name: name, nameNode: id, node: c, container: container,
		exported: exp, headStart: hs, headEnd: he})
	if body, ok := x.field(c, "body"); ok && x.kind(body) == "field_declaration_list" {
		for _, f := range x.kids(body) {
			if fid, ok := x.field(f, "name"); ok && x.kind(f) == "field_declaration" {
				x.add(def{kind: Field, name: x.text(fid), nameNode: fid, node: f,
					container: joinName(container, name), exported: exp && x.rustPub(f)})
			}
		}
	}
}

// rustEnum adds an enum and its variants.
func (x *extractor) rustEnum(c syntax.NodeID, container string, exp bool) {
	id, ok := x.field(c, "name")
	if !ok {
		return
	}
	name := x.text(id)
	hs, he := x.bodyHead(c, c)
	x.add(def{kind: Enum, name: name, nameNode: id, node: c, container: container,
		exported: exp, headStart: hs, headEnd: he})
	if body, ok := x.field(c, "body"); ok {
		for _, v := range x.kids(body) {
			if vid, ok := x.field(v, "name"); ok && x.kind(v) == "enum_variant" {
				x.add(def{kind: Constant, name: x.text(vid), nameNode: vid, node: v,
					container: joinName(container, name), exported: exp})
			}
		}
	}
}

// rustTraitItem adds a trait and the items of its body, which are exported
// as the trait is.
func (x *extractor) rustTraitItem(c syntax.NodeID, container string, exp bool) {
	id, ok := x.field(c, "name")
	if !ok {
		return
	}
	name := x.text(id)
	hs, he := x.bodyHead(c, c)
	x.add(def{kind: Interface, name: name, nameNode: id, node: c, container: container,
		exported: exp, headStart: hs, headEnd: he})
	if body, ok := x.field(c, "body"); ok {
		saved := x.rustTraitPub
		x.rustTraitPub = exp
		x.rustItems(body, joinName(container, name), rustTrait)
		x.rustTraitPub = saved
	}
}

// rustImplBlock adds the items of an impl block, as methods of its type.
func (x *extractor) rustImplBlock(c syntax.NodeID, container string) {
	typ, ok := x.field(c, "type")
	if !ok {
		return
	}
	name := x.rustTypeName(typ)
	sc := rustImpl
	if _, ok := x.field(c, "trait"); ok {
		sc = rustTraitImpl
	}
	if body, ok := x.field(c, "body"); ok && name != "" {
		x.rustItems(body, joinName(container, name), sc)
	}
}

// rustMacroExported reports whether a macro_rules! definition carries
// #[macro_export] among the attributes directly before it.
func (x *extractor) rustMacroExported(n syntax.NodeID) bool {
	line := x.t.Range(n).StartLine
	for l := line - 1; l >= 1 && x.doc[l]; l-- {
		text := strings.TrimSpace(string(x.src[x.lines.LineStart(l):x.lines.LineEnd(l)]))
		if strings.HasPrefix(text, "#[macro_export") {
			return true
		}
	}
	return false
}

// rustTypeName returns the name of an impl's type: Cart for Cart<T>,
// &Cart, or path::Cart.
func (x *extractor) rustTypeName(typ syntax.NodeID) string {
	for {
		switch x.kind(typ) {
		case "type_identifier", "primitive_type":
			return x.text(typ)
		case "generic_type", "reference_type", "pointer_type":
			t, ok := x.field(typ, "type")
			if !ok {
				return ""
			}
			typ = t
		case "scoped_type_identifier":
			t, ok := x.field(typ, "name")
			if !ok {
				return ""
			}
			typ = t
		default:
			return x.text(typ)
		}
	}
}

// rustUse adds the leaves of a use tree under prefix.
func (x *extractor) rustUse(n syntax.NodeID, prefix string) {
	join := func(p, s string) string {
		switch {
		case p == "":
			return s
		case s == "self":
			return p
		}
		return p + "::" + s
	}
	switch x.kind(n) {
	case "scoped_use_list":
		p := prefix
		if path, ok := x.field(n, "path"); ok {
			p = join(prefix, x.text(path))
		}
		if list, ok := x.field(n, "list"); ok {
			x.rustUse(list, p)
		}
	case "use_list":
		for _, c := range x.kids(n) {
			if x.t.Named(c) && !strings.Contains(x.kind(c), "comment") {
				x.rustUse(c, prefix)
			}
		}
	case "use_as_clause":
		x.addImport(join(prefix, x.fieldText(n, "path")), "", x.fieldText(n, "alias"), n)
	default: // identifier, scoped_identifier, use_wildcard, self, crate...
		x.addImport(join(prefix, x.text(n)), "", "", n)
	}
}

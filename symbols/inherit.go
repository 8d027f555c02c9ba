package symbols

import (
	"strings"

	"github.com/codecortex/codecortex/syntax"
)

// A base is what the syntax says of one name a definition extends: the
// type it is declared for when that is not the definition enclosing it
// (Rust's impl Trait for Type), and the qualifier written before it where
// the generic reading of a use finds none (a Rust path, a Ruby scope).
type base struct {
	of, qual string
}

// baseClauses are the clauses that list a definition's bases, across
// grammars: each named child is a base, or a list of them.
var baseClauses = map[string]bool{
	"class_heritage": true, "extends_clause": true, "implements_clause": true, // JavaScript, TypeScript
	"extends_type_clause": true,                                                       // a TypeScript interface's
	"superclass":          true, "super_interfaces": true, "extends_interfaces": true, // Java; Ruby's superclass
	"base_list":            true,                                 // C#
	"delegation_specifier": true,                                 // Kotlin
	"base_clause":          true, "class_interface_clause": true, // PHP
	"base_class_clause": true, // C++
}

// baseSites are the kinds bases reads a definition's bases from: the
// cases of its switch, which no other kind reaches.
var baseSites = &kindSet{has: func(l syntax.Language, k string) bool {
	switch {
	case baseClauses[k], k == "impl_item":
		return true
	case l == syntax.Python:
		return k == "class_definition"
	case l == syntax.Go:
		return k == "field_declaration" || k == "type_elem" // see goBases
	case l == syntax.Ruby:
		return k == "call"
	}
	return false
}}

// baseLists are the lists inside a clause whose children are bases.
var baseLists = map[string]bool{"type_list": true, "interface_type_list": true, "delegation_specifiers": true}

// rubyMixins are the Ruby calls that mix a module into the class or module
// whose body they are written in.
var rubyMixins = map[string]bool{"include": true, "extend": true, "prepend": true}

// maxBaseDepth bounds the walk from a base expression down to its name.
const maxBaseDepth = 8

// bases returns the base names the file's definitions declare, by the
// byte offset of the name leaf: the last name of each base expression
// (Base in pkg.Base<T>), never a type argument, a call's argument or a
// part of the qualifier. A base that is a call (a mixin function, Ruby's
// Struct.new) names no type and is left out.
func (x *extractor) bases(parent []syntax.NodeID) map[int]base {
	t := x.t
	out := map[int]base{}
	add := func(e syntax.NodeID, of string) {
		if h, ok := x.baseHead(e); ok {
			out[t.StartByte(h)] = base{of: of, qual: x.baseQualifier(parent, h)}
		}
	}
	sites := baseSites.of(t.Grammar())
	for i := 1; i < t.Len(); i++ {
		n := syntax.NodeID(i)
		if !sites.has(t.KindID(n)) {
			continue
		}
		k := t.Kind(n)
		switch {
		case baseClauses[k]:
			for _, c := range x.kids(n) {
				switch {
				case !t.Named(c) || baseClauses[t.Kind(c)] || isArguments(t, c):
				case baseLists[t.Kind(c)]:
					for _, cc := range x.kids(c) {
						if t.Named(cc) && !isArguments(t, cc) && !baseClauses[t.Kind(cc)] {
							add(cc, "")
						}
					}
				default:
					add(c, "")
				}
			}
		case k == "class_definition" && x.lang == syntax.Python:
			if l, ok := t.ChildByField(n, "superclasses"); ok {
				for _, c := range x.kids(l) {
					if t.Named(c) && t.Kind(c) != "keyword_argument" && !strings.HasSuffix(t.Kind(c), "splat") {
						add(c, "")
					}
				}
			}
		case k == "impl_item":
			if tr, ok := t.ChildByField(n, "trait"); ok {
				of := ""
				if ty, ok := t.ChildByField(n, "type"); ok {
					if h, ok := x.baseHead(ty); ok {
						of = t.Text(h)
					} else if t.ChildCount(ty) == 0 {
						of = t.Text(ty) // a primitive type
					}
				}
				add(tr, of)
			}
		case x.lang == syntax.Go:
			x.goBases(parent, n, add)
		case k == "call" && x.lang == syntax.Ruby:
			if args, ok := x.rubyMixin(parent, n); ok {
				for _, c := range x.kids(args) {
					if t.Named(c) {
						add(c, "")
					}
				}
			}
		}
	}
	return out
}

// goBases adds a Go struct's embedded fields and an interface's embedded
// interfaces (a type element of one type, not a union or a ~T; not a type
// argument, which the grammar also spells as a type element).
func (x *extractor) goBases(parent []syntax.NodeID, n syntax.NodeID, add func(syntax.NodeID, string)) {
	t := x.t
	switch t.Kind(n) {
	case "field_declaration":
		if _, named := t.ChildByField(n, "name"); !named {
			if ty, ok := t.ChildByField(n, "type"); ok {
				add(ty, "")
			}
		}
	case "type_elem":
		if t.Kind(parent[n]) != "interface_type" {
			return
		}
		var only syntax.NodeID
		count := 0
		for _, c := range x.kids(n) {
			if t.Named(c) {
				only, count = c, count+1
			}
		}
		if k := t.Kind(only); count == 1 && (k == "type_identifier" || k == "qualified_type" || k == "generic_type") {
			add(only, "")
		}
	}
}

// rubyMixin returns the arguments of a receiverless include, extend or
// prepend written directly in a class's or module's body.
func (x *extractor) rubyMixin(parent []syntax.NodeID, call syntax.NodeID) (syntax.NodeID, bool) {
	t := x.t
	m, ok := t.ChildByField(call, "method")
	if !ok || !rubyMixins[t.Text(m)] {
		return 0, false
	}
	if _, ok := t.ChildByField(call, "receiver"); ok {
		return 0, false
	}
	args, ok := t.ChildByField(call, "arguments")
	if !ok {
		return 0, false
	}
	body := parent[call]
	if k := t.Kind(body); k != "body_statement" && k != "class" && k != "module" {
		return 0, false
	}
	if k := t.Kind(body); k == "body_statement" {
		body = parent[body]
	}
	if k := t.Kind(body); k != "class" && k != "module" {
		return 0, false
	}
	return args, true
}

// isArguments reports whether n holds the arguments of a type or call
// (type arguments, a call's arguments, a Python subscript's index).
func isArguments(t *syntax.Tree, n syntax.NodeID) bool {
	f := t.Field(n)
	return strings.Contains(t.Kind(n), "argument") || f == "subscript" || f == "arguments" || f == "type_arguments"
}

// baseHead returns the name leaf of a base expression: the expression
// itself when it is a name, else the head of its last named child that is
// no argument list. A call, or an expression without a name, has none.
func (x *extractor) baseHead(e syntax.NodeID) (syntax.NodeID, bool) {
	t := x.t
	for range maxBaseDepth {
		if t.ChildCount(e) == 0 {
			return e, nameKinds[t.Kind(e)]
		}
		if callKinds[t.Kind(e)] {
			return 0, false
		}
		last, found := syntax.NodeID(0), false
		for _, c := range x.kids(e) {
			if t.Named(c) && !isArguments(t, c) && !strings.Contains(t.Kind(c), "comment") && t.Kind(c) != "lifetime" {
				last, found = c, true
			}
		}
		if !found {
			return 0, false
		}
		e = last
	}
	return 0, false
}

// baseQualifier returns the qualifier of a base's name where the generic
// reading of uses finds none: the segment before it in a Rust path
// (error in std::error::Error; none for crate, self and super, which
// name the crate's own modules) or a Ruby scope (Foo in Foo::Bar).
func (x *extractor) baseQualifier(parent []syntax.NodeID, h syntax.NodeID) string {
	t := x.t
	p := parent[h]
	switch t.Kind(p) {
	case "scoped_type_identifier", "scope_resolution":
	default:
		return ""
	}
	q, ok := t.ChildByField(p, "path")
	if !ok {
		q, ok = t.ChildByField(p, "scope")
	}
	if !ok {
		return ""
	}
	if t.ChildCount(q) > 0 {
		if nm, ok := t.ChildByField(q, "name"); ok {
			q = nm
		} else {
			return ""
		}
	}
	if s := t.Text(q); s != "crate" && s != "self" && s != "super" && len(s) <= maxRefName {
		return s
	}
	return ""
}

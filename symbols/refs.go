package symbols

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/codecortex/codecortex/syntax"
)

// RefKind is how a file uses a name.
type RefKind string

// The kinds of uses.
const (
	// Call: the name is called (a function or method call, a
	// constructor, a macro).
	Call RefKind = "call"
	// Use: any other use of the name, such as a type in a signature or a
	// value read.
	Use RefKind = "use"
	// Inherit: the name is a base the definition extends, implements or
	// embeds (a superclass, an implemented interface, a Go embedded type).
	Inherit RefKind = "inherit"
)

// Valid reports whether k is one of the kinds above.
func (k RefKind) Valid() bool { return k == Call || k == Use || k == Inherit }

// A Ref is a name a file uses. The syntax says only what is written, not
// what the name resolves to: the graph layer resolves it. Every use is its
// own Ref, at its own position, so that a name used twice in one
// definition gives two sites. A Python annotation written as a string (a
// forward reference, o: "Environment") uses the names it writes, at their
// places in the string.
type Ref struct {
	Name string `json:"name"`
	// Qualifier is the plain name written before it in a selector or
	// member expression: a package alias (Go's fmt in fmt.Println), a
	// receiver or module (c in c.Execute()), or the current object (self,
	// this, cls: the graph reads it as the enclosing class; super, written
	// super or super(), as its bases); empty when there is none or it is
	// not a plain name.
	Qualifier string `json:"qualifier,omitempty"`
	// Selected reports a member selected from an expression that is not a
	// plain name (Find in c.Root().Find(), pong in this.sender.pong()):
	// a member of something whose type the syntax does not show; its
	// Qualifier is then the plain name that expression starts from (c,
	// this), if any. A name with neither a Qualifier nor Selected is a
	// plain name of the scope.
	Selected bool    `json:"selected,omitempty"`
	Kind     RefKind `json:"kind"`
	// Of is, for an Inherit ref declared apart from the type it is about
	// (Rust's impl Trait for Type), that type's name as written, without
	// its path or type arguments; empty otherwise, when the type is the
	// definition enclosing the ref.
	Of string `json:"of,omitempty"`
	// Type is, for a Go use qualified by a local variable (r in r.Host()),
	// what the statement declaring the variable shows of its type, and for
	// a Go member selected from a call or a literal (Host in
	// NewRouter().Host()), what that expression shows: a type as written
	// (T, *T, pkg.T: var r T, r := &T{}, new(T)), a call of a function whose
	// first result it is (F(), pkg.F(): r := NewRouter()), or of a method on
	// a value of such a Type ((NewRouter()).NewRoute()), whose declared
	// results the graph reads; or "var q" for a qualifier q that is neither
	// a local nor an import, and may be a variable of the package, whose
	// declaration the graph reads, "var pkg.v" for a variable v of an
	// imported package (resp := http.DefaultClient.Do(req) gives "(var
	// http.DefaultClient).Do()"); for the variable of a Go loop over an
	// expression whose elements no declaration in sight writes, "elem X"
	// with X what the expression shows ((X).f, var v, F(), (X).M()). In
	// TypeScript, JavaScript, Python and Java, for a use qualified by a
	// local variable, the type its declaration writes (const x: T, T x,
	// x: T = …), the class it constructs (new T(…), T x = new T(…)),
	// "f()" for a local assigned a call of f (a Python class's
	// constructor, if f is one; else the result the function's head
	// declares), T for one assigned a call of a parameter or local
	// declared (…) => T, "elem X" for the variable
	// of a loop over a collection whose type X shows (see iterated),
	// "this" for an alias of the current object (const self = this),
	// "self.f" for a Python local assigned the object's field f, or "var
	// q" for a qualifier q that is no local but a variable of the module
	// or a member an import binds, whose declaration the graph reads;
	// "arg m i" for a parameter, declared with no type, of a function
	// written as the value of an object literal's member m, whose type
	// the project's declarations of m give (see contextual). In
	// TypeScript and JavaScript, a name an object pattern takes from a
	// value ({ getState }: Api) and each use of the local it binds are
	// Selected, with the Type of the value. A
	// local of a function expression (a test's callback) is seen only
	// inside it; a nested function sees its outer functions' locals. For
	// Python's self.f assigned a value (self.f = T(…), self.f: T = …,
	// self.f = p), the type the statement shows, written alike: the graph
	// reads a field's type from them. Empty when the code does not show
	// it, or once the function has declared the variable again with
	// another type.
	Type string `json:"type,omitempty"`
	// Line and Column are the use's one-based line and code-point column;
	// Byte its byte offset, by which the definition holding it is found.
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

// MaxRefs bounds the refs read from one file.
const MaxRefs = 20000

// nameKinds are the leaf kinds that spell a name, across grammars
// (JavaScript's { a } uses the variable a as well as naming the key).
var nameKinds = map[string]bool{
	"identifier": true, "type_identifier": true, "field_identifier": true,
	"property_identifier": true, "simple_identifier": true, "constant": true,
	"name": true, "shorthand_property_identifier": true, "private_property_identifier": true, // #f in JavaScript
}

// nameKindIDs is nameKinds by kind id.
var nameKindIDs = kindsIn(nameKinds)

// shorthandPatternIDs are the leaves of an object pattern that bind a
// local to the member of the same name ({ getState } in JavaScript and
// TypeScript).
var shorthandPatternIDs = kindsIn(map[string]bool{"shorthand_property_identifier_pattern": true})

// qualifierKinds are the leaf kinds a qualifier may be.
var qualifierKinds = map[string]bool{
	"identifier": true, "type_identifier": true, "package_identifier": true,
	"simple_identifier": true, "constant": true, "name": true,
	"namespace_identifier": true, "this": true, "self": true,
}

// memberKinds are the expressions that select a member of something:
// the member is the last named child, the thing selected from the first.
var memberKinds = map[string]bool{
	"selector_expression": true, "attribute": true, "member_expression": true,
	"field_expression": true, "scoped_identifier": true, "qualified_identifier": true,
	"member_access_expression": true, "navigation_expression": true,
	"scoped_type_identifier": true, "qualified_type": true, "nested_type_identifier": true,
	"field_access": true, "scope_resolution": true,
}

// keyKinds are the expressions that name a field or property of something
// (Rust's S { field: v }, JavaScript's { key: v }, Python's f(key=v)).
var keyKinds = map[string]bool{"field_initializer": true, "pair": true, "keyword_argument": true}

// pathKinds are the paths of modules and types (a::b::C), whose last
// segment qualifies what is selected from them.
var pathKinds = map[string]bool{
	"scoped_identifier": true, "scoped_type_identifier": true, "qualified_identifier": true,
	"scope_resolution": true, "nested_type_identifier": true, "qualified_type": true,
}

// callKinds are the expressions that call the thing they name.
var callKinds = map[string]bool{
	"call_expression": true, "call": true, "method_invocation": true,
	"invocation_expression": true, "function_call_expression": true,
	"member_call_expression": true, "scoped_call_expression": true,
	"macro_invocation": true, "new_expression": true, "object_creation_expression": true,
}

// calleeFields are the fields of a call that hold what is called.
var calleeFields = map[string]bool{
	"function": true, "method": true, "name": true, "macro": true,
	"constructor": true, "type": true,
}

// receiverFields are the fields of a call that hold what a method is
// called on.
var receiverFields = []string{"object", "receiver", "scope"}

// selfNames are receivers that name the current object, not a definition.
var selfNames = map[string]bool{"self": true, "this": true, "cls": true, "super": true, "_": true}

// selfQualifiers are the receivers naming the current object that a ref
// keeps as its qualifier: the graph reads them as the enclosing class (its
// bases for super).
var selfQualifiers = map[string]bool{"self": true, "this": true, "cls": true, "super": true}

// refs reads the names the file uses, after its definitions and imports
// are known (and sorted by finish). It is long because it is one pass over
// the file's name leaves, each classified in turn (in an import, declaring
// a local, a use, a base) with what the pass keeps as it goes (the
// enclosing definition, the locals and, in Go, their types).
func (x *extractor) refs() {
	t := x.t
	n := t.Len()
	if n == 0 {
		return
	}
	parent := parents(t)
	defNames := make(map[int]bool, len(x.f.Symbols))
	for _, s := range x.f.Symbols {
		defNames[s.NameRange.StartByte] = true
	}
	importNames := x.importNames(false)
	modules := x.importNames(true)
	bases := x.bases(parent)
	imp := 0 // the next import whose range may hold a node (imports are sorted)
	var in enclosing
	locals := map[localName]bool{} // names declared in a definition's body, bounded by the file's leaves
	var goVars *goLocals           // Go: what each local's declaration shows of its type (see Ref.Type)
	if x.lang == syntax.Go {
		goVars = &goLocals{vars: map[localName]*goVar{}, scoped: map[localName][]goScoped{}, imports: importNames}
	}
	var declared map[scopedName]string // other languages: what each local's declaration writes of its type
	var moduleVars map[string]bool     // other languages: the module's variables, and the members imports bind
	if localTyped[x.lang] {
		declared = map[scopedName]string{}
		x.outer = outerDefinitions(x.f.Symbols)
		moduleVars = x.moduleVars()
	}
	isName := nameKindIDs.of(t.Grammar())
	nameLeaf := func(id syntax.NodeID) bool { return t.ChildCount(id) == 0 && isName.has(t.KindID(id)) }
	isShorthand := shorthandPatternIDs.of(t.Grammar())
	leaves := 0 // the names, of which the refs are some: room for them all
	for i := 1; i < n; i++ {
		if nameLeaf(syntax.NodeID(i)) {
			leaves++
		}
	}
	x.f.Refs = slices.Grow(x.f.Refs, min(leaves, MaxRefs))
	for i := 1; i < n; i++ {
		id := syntax.NodeID(i)
		if declared != nil && isShorthand.has(t.KindID(id)) {
			if r, ok := x.destructured(parent, id, declared, in.at(x.f.Symbols, t.StartByte(id))); ok {
				x.f.Refs = append(x.f.Refs, r)
				if len(x.f.Refs) == MaxRefs {
					return
				}
			}
			continue
		}
		if x.lang == syntax.Python && t.Kind(id) == "string_content" && pyAnnotation(t, parent, id) {
			if x.annotationRefs(id); len(x.f.Refs) >= MaxRefs {
				x.f.Refs = x.f.Refs[:MaxRefs]
				return
			}
			continue
		}
		if !nameLeaf(id) {
			continue
		}
		start := t.StartByte(id)
		for imp < len(x.f.Imports) && x.f.Imports[imp].Range.EndByte <= start {
			imp++
		}
		if imp < len(x.f.Imports) && x.f.Imports[imp].Range.StartByte <= start {
			continue // inside an import
		}
		name := t.Text(id)
		// A name too short to look up is no ref, but a local of one letter
		// still qualifies uses (r in r.Host()), as does JavaScript's self
		// (const self = this).
		noRef := len(name) < 2 || len(name) > maxRefName || selfNames[name]
		typedLocal := (goVars != nil || declared != nil) && len(name) == 1 || declared != nil && name == "self" && x.lang != syntax.Python
		if noRef && !typedLocal {
			continue
		}
		within := in.at(x.f.Symbols, start)
		if x.declaresLocal(parent, id) {
			if declared != nil && !defNames[start] {
				// Outside a definition too: a test's callback (it("…",
				// () => { const o = new Observer(…) })) is none.
				sn := scopedName{within, fnScope(t, parent, id), name}
				typ := x.localType(parent, id)
				if called, ok := strings.CutSuffix(typ, "()"); ok {
					// x = f() of a parameter or local f: (…) => T: the T f returns.
					if r := arrowResult(x.declaredType(declared, parent, id, within, called)); r != "" {
						typ = r
					}
				}
				if typ == "" {
					typ = x.iterated(parent, id, declared, within)
				}
				if was, again := declared[sn]; !again {
					declared[sn] = typ
				} else if was != typ {
					declared[sn] = "" // declared again with another type
				}
			}
			if within >= 0 && !defNames[start] {
				ln := localName{within, name}
				goVars.declare(x, parent, id, ln)
				locals[ln] = true
			}
			continue
		}
		if noRef {
			continue
		}
		kind, qual, selected, ok := x.useOf(parent, modules, id, name)
		bs, isBase := bases[start]
		switch {
		case !ok:
			continue
		case isBase && kind == Use:
			kind = Inherit
			if qual == "" || selected {
				// A base selected through a longer path (pkg.sub.Base) is
				// qualified as the base clause reads it, not by the path's
				// root.
				qual, selected = "", false
				if !selfNames[bs.qual] {
					qual = bs.qual
				}
			}
		case defNames[start]:
			continue // a definition's own name (a Go embedded field is both)
		}
		if within >= 0 && locals[localName{within, name}] && !isMember(t, parent, id) &&
			!(kind == Call && (x.lang == syntax.Java || x.lang == syntax.CSharp)) {
			continue // a local variable or parameter of the definition (Java and C# never call one)
		}
		line, col := x.lines.Position(start)
		typ := goVars.typeOf(x, parent, id, within, qual, selected, kind)
		if declared != nil && qual == "" && !selected && kind != Inherit {
			// A local an object pattern bound to a member: a use of it.
			if form, ok := x.boundMember(declared, parent, id, within, name); ok {
				selected, typ = true, form
			}
		}
		if declared != nil && qual != "" && !selected && kind != Inherit {
			var local bool
			typ, local = x.declaredTypeOf(declared, parent, id, within, qual)
			if x.lang == syntax.Python && qual == "self" {
				typ = x.selfAssigned(parent, id, declared, within)
			} else if typ == "" && x.lang == syntax.Python {
				typ = x.comprehended(parent, id, qual, declared, within)
			}
			if typ == "" && !local && moduleVars[qual] {
				typ = "var " + qual // a variable of the module, or one an import binds
			}
		}
		x.f.Refs = append(x.f.Refs, Ref{Name: name, Qualifier: qual, Selected: selected, Kind: kind, Of: bs.of,
			Type: typ, Line: line, Column: col, Byte: start})
		if len(x.f.Refs) == MaxRefs {
			return
		}
	}
}

// A scopedName is a local of a language of localTyped: declared in the
// definition at index within (-1 for none) and, inside it, in the
// innermost function expression scope (0 for none, see fnScope).
type scopedName struct {
	within int
	scope  syntax.NodeID
	name   string
}

// fnScopes are the function expressions whose parameters and locals are
// seen only inside them.
var fnScopes = map[string]bool{
	"arrow_function": true, "function_expression": true, "function": true, "generator_function": true,
	"method_definition": true, "lambda": true, "lambda_expression": true,
}

// fnScope returns the innermost function expression holding leaf id, or 0.
func fnScope(t *syntax.Tree, parent []syntax.NodeID, id syntax.NodeID) syntax.NodeID {
	for p := parent[id]; p != 0; p = parent[p] {
		if fnScopes[t.Kind(p)] {
			return p
		}
	}
	return 0
}

// declaredType returns what the declaration a use at leaf id of name q,
// in definition within, sees writes of its type: the one in the
// innermost function expression holding the use that declares q, else
// the definition's; else, the same in the definitions enclosing it (a
// nested function sees its outer functions' locals), then outside any.
func (x *extractor) declaredType(declared map[scopedName]string, parent []syntax.NodeID, id syntax.NodeID, within int, q string) string {
	typ, _ := x.declaredTypeOf(declared, parent, id, within, q)
	return typ
}

// declaredTypeOf is declaredType, and whether q is a local at all.
func (x *extractor) declaredTypeOf(declared map[scopedName]string, parent []syntax.NodeID, id syntax.NodeID, within int, q string) (string, bool) {
	typ, ok := x.scoped(declared, parent, id, within, q)
	if strings.HasPrefix(typ, boundMark) {
		return "", ok // a member's value, whose type the pattern does not show
	}
	return typ, ok
}

// boundMember returns, for a use at leaf id of q, a local an object
// pattern bound to the member q of a value (see destructured), what the
// code shows of that value's type.
func (x *extractor) boundMember(declared map[scopedName]string, parent []syntax.NodeID, id syntax.NodeID, within int, q string) (string, bool) {
	typ, ok := x.scoped(declared, parent, id, within, q)
	form, bound := strings.CutPrefix(typ, boundMark)
	return form, ok && bound
}

// scoped returns what declared holds of the declaration of q that a use
// at leaf id sees (see declaredType).
func (x *extractor) scoped(declared map[scopedName]string, parent []syntax.NodeID, id syntax.NodeID, within int, q string) (string, bool) {
	t := x.t
	for w := within; ; w = x.outer[w] {
		for p := parent[id]; p != 0; p = parent[p] {
			if fnScopes[t.Kind(p)] {
				if typ, ok := declared[scopedName{w, p, q}]; ok {
					return typ, true
				}
			}
		}
		if typ, ok := declared[scopedName{w, 0, q}]; ok || w < 0 {
			return typ, ok
		}
	}
}

// moduleVars returns the names of the file's variables and constants
// outside any definition, and the names its imports bind to members of
// modules (from m import v, import { v } from "m"), some of which are
// variables: a use qualified by one, and by no local, has Type "var q".
func (x *extractor) moduleVars() map[string]bool {
	names := map[string]bool{}
	for _, s := range x.f.Symbols {
		if (s.Kind == Variable || s.Kind == Constant) && s.Container == "" {
			names[s.Name] = true
		}
	}
	for _, im := range x.f.Imports {
		if name, module := bound(im); !module {
			names[name] = true
		}
	}
	return names
}

// outerDefinitions returns, for each of syms (sorted by start, outer
// before inner), the index of the innermost other that encloses it, or
// -1.
func outerDefinitions(syms []Symbol) []int {
	outer := make([]int, len(syms))
	var stack []int
	for k := range syms {
		for len(stack) > 0 && syms[stack[len(stack)-1]].Range.EndByte <= syms[k].Range.StartByte {
			stack = stack[:len(stack)-1]
		}
		outer[k] = -1
		if len(stack) > 0 {
			outer[k] = stack[len(stack)-1]
		}
		stack = append(stack, k)
	}
	return outer
}

// localTyped are the languages, besides Go, whose locals' declarations
// give their uses a Type (see Ref.Type and localType).
var localTyped = map[syntax.Language]bool{
	syntax.TypeScript: true, syntax.TSX: true, syntax.JavaScript: true, syntax.Python: true, syntax.Java: true,
}

// localType returns what the declaration of the local at leaf id writes
// of its type (see Ref.Type), or "": the annotation of const x: T = …,
// x: T = … and T x = …; the class of new T(…); f() of x = f(…); "this"
// for const self = this; self.f for Python's x = self.f.
func (x *extractor) localType(parent []syntax.NodeID, id syntax.NodeID) string {
	t := x.t
	d := parent[id]
	switch dk, f := t.Kind(d), t.Field(id); {
	case dk == "variable_declarator" && t.Kind(parent[d]) == "local_variable_declaration":
		// Java: T x = …, var x = new T(…).
		if typ, ok := t.ChildByField(parent[d], "type"); ok && t.Text(typ) != "var" {
			return typeText(t, typ)
		}
	case dk == "variable_declarator" && f == "name", dk == "assignment" && f == "left":
		if typ, ok := t.ChildByField(d, "type"); ok {
			return typeText(t, typ) // TypeScript's const x: T, Python's x: T = …
		}
	case (dk == "required_parameter" || dk == "optional_parameter") && f == "pattern":
		if typ, ok := t.ChildByField(d, "type"); ok {
			return typeText(t, typ) // a function expression's (o: T) => …
		}
		return x.contextual(parent, d)
	case dk == "formal_parameters":
		return x.contextual(parent, id) // JavaScript's
	case dk == "enhanced_for_statement" && f == "name":
		if typ, ok := t.ChildByField(d, "type"); ok && t.Text(typ) != "var" {
			return typeText(t, typ) // Java's for (T x : xs)
		}
		return ""
	case dk == "typed_parameter", dk == "typed_default_parameter" && f == "name":
		if typ, ok := t.ChildByField(d, "type"); ok {
			return typeText(t, typ) // Python's def f(self, o: T)
		}
		return ""
	default:
		return ""
	}
	v, ok := t.ChildByField(d, "value")
	if !ok {
		if v, ok = t.ChildByField(d, "right"); !ok {
			return ""
		}
	}
	switch t.Kind(v) {
	case "this":
		return "this"
	case "new_expression", "object_creation_expression":
		for _, f := range []string{"constructor", "type"} {
			if c, ok := t.ChildByField(v, f); ok {
				return typeText(t, c)
			}
		}
	case "call", "call_expression":
		// x = f(…): T() for a Python class T, or the result f declares.
		if fn, ok := t.ChildByField(v, "function"); ok && t.Kind(fn) == "identifier" {
			return t.Text(fn) + "()"
		}
	case "attribute":
		// Python's x = self.f: the type of the object's field f.
		if obj, ok := t.ChildByField(v, "object"); ok && t.Text(obj) == "self" {
			if f, ok := t.ChildByField(v, "attribute"); ok {
				return "self." + t.Text(f)
			}
		}
	}
	return ""
}

// boundMark starts what declared holds of a local an object pattern
// bound to a member ({ getState } = api): the mark, then what the code
// shows of the value's type (see destructured).
const boundMark = "\x00member of "

// destructured returns, for leaf id of an object pattern that binds the
// member of its name ({ getState }), a use of that member, selected from
// the value the pattern takes apart, whose type the code shows: a
// parameter's declared type, or the one its context gives (see
// contextual), or what the declaration of const { getState } = v shows
// of v's. It records the local bound, so that its uses are the member's
// too (see boundMember). ok is false when the type is not shown.
func (x *extractor) destructured(parent []syntax.NodeID, id syntax.NodeID, declared map[scopedName]string, within int) (Ref, bool) {
	t := x.t
	name := t.Text(id)
	pat := parent[id]
	if len(name) < 2 || len(name) > maxRefName || t.Kind(pat) != "object_pattern" {
		return Ref{}, false
	}
	var form string
	switch holder := parent[pat]; t.Kind(holder) {
	case "required_parameter", "optional_parameter":
		if typ, ok := t.ChildByField(holder, "type"); ok {
			form = typeText(t, typ)
		} else {
			form = x.contextual(parent, holder)
		}
	case "formal_parameters":
		form = x.contextual(parent, pat)
	case "variable_declarator":
		// const { f } = require('m') binds what a module exports (see
		// the imports), no member of a typed value.
		if form = x.localType(parent, pat); form == "require()" {
			return Ref{}, false
		} else if form == "" {
			if v, ok := t.ChildByField(holder, "value"); ok && t.Kind(v) == "identifier" {
				form = x.declaredType(declared, parent, v, within, t.Text(v))
			}
		}
	}
	if form == "" || len(form) > maxRefName {
		return Ref{}, false
	}
	sn := scopedName{within, fnScope(t, parent, id), name}
	if was, again := declared[sn]; !again {
		declared[sn] = boundMark + form
	} else if was != boundMark+form {
		declared[sn] = ""
	}
	start := t.StartByte(id)
	line, col := x.lines.Position(start)
	return Ref{Name: name, Selected: true, Kind: Use, Type: form, Line: line, Column: col, Byte: start}, true
}

// contextual returns, for parameter p (its node in the parameter list)
// of a function written as the value of an object literal's member m
// ({ m(a, b) {…} }, { m: (a, b) => … }), which declares no type, "arg m
// i": the type the project's declarations of members called m give their
// parameter i, which the compiler gives it too when the literal is of
// such a type (see Ref.Type); "" otherwise.
func (x *extractor) contextual(parent []syntax.NodeID, p syntax.NodeID) string {
	t := x.t
	params := parent[p]
	if t.Kind(params) != "formal_parameters" {
		return ""
	}
	i := 0
	for c, ok := t.FirstChild(params); ok && c != p; c, ok = t.NextSibling(c) {
		if t.Named(c) && t.Kind(c) != "comment" {
			i++
		}
	}
	var key syntax.NodeID
	var ok bool
	switch fn := parent[params]; t.Kind(fn) {
	case "method_definition":
		if t.Kind(parent[fn]) == "object" {
			key, ok = t.ChildByField(fn, "name")
		}
	case "arrow_function", "function_expression", "function":
		if pair := parent[fn]; t.Kind(pair) == "pair" && t.Field(fn) == "value" {
			key, ok = t.ChildByField(pair, "key")
		}
	}
	if !ok || t.Kind(key) != "property_identifier" {
		return ""
	}
	m := t.Text(key)
	if len(m) > maxRefName {
		return ""
	}
	return "arg " + m + " " + strconv.Itoa(i)
}

// arrowResult returns the result type of a function type written
// "(…) => T": T; "" for another type.
func arrowResult(ft string) string {
	if !strings.HasPrefix(ft, "(") {
		return ""
	}
	depth := 0
	for i := 0; i < len(ft); i++ {
		switch ft[i] {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}':
			depth--
		case '>':
			if ft[i-1] != '=' {
				depth--
			}
		}
		if depth == 0 {
			r, ok := strings.CutPrefix(strings.TrimSpace(ft[i+1:]), "=>")
			if !ok {
				return ""
			}
			return strings.TrimSpace(r)
		}
	}
	return ""
}

// iterated returns, for the variable at leaf id of a loop over a
// collection (Python's for x in xs and [… for x in xs], TypeScript's and
// JavaScript's for (const x of xs)), "elem " and what the code shows of
// the collection's type, whose elements the graph reads (see Ref.Type):
// the declared type of a local or parameter xs, self.f or this.f for a
// field of the object, f() for a call; "" otherwise.
func (x *extractor) iterated(parent []syntax.NodeID, id syntax.NodeID, declared map[scopedName]string, within int) string {
	t := x.t
	d := parent[id]
	switch dk := t.Kind(d); {
	case t.Field(id) != "left":
		return ""
	case dk == "for_in_statement":
		if op, ok := t.ChildByField(d, "operator"); !ok || t.Text(op) != "of" {
			return "" // for (k in o): the keys
		}
	case dk != "for_statement" && dk != "for_in_clause":
		return ""
	}
	v, ok := t.ChildByField(d, "right")
	if !ok {
		return ""
	}
	var of string
	switch t.Kind(v) {
	case "identifier":
		of = x.declaredType(declared, parent, v, within, t.Text(v))
	case "attribute", "member_expression":
		obj, ok1 := t.ChildByField(v, "object")
		f, ok2 := t.ChildByField(v, "attribute")
		if !ok2 {
			f, ok2 = t.ChildByField(v, "property")
		}
		if ok1 && ok2 && (t.Text(obj) == "self" || t.Text(obj) == "this") {
			of = t.Text(obj) + "." + t.Text(f)
		}
	case "call", "call_expression":
		if fn, ok := t.ChildByField(v, "function"); ok && t.Kind(fn) == "identifier" {
			of = t.Text(fn) + "()"
		}
	}
	if of == "" || strings.HasPrefix(of, "elem ") || len(of) > maxRefName {
		return ""
	}
	return "elem " + of
}

// comprehensions are Python's expressions whose for clauses, written
// after the expression, declare its variables.
var comprehensions = map[string]bool{
	"generator_expression": true, "list_comprehension": true, "set_comprehension": true, "dictionary_comprehension": true,
}

// comprehended returns, for a use at leaf id qualified by the variable q
// of a comprehension holding it ([x.f() for x in xs]), what iterated says
// of q's type; "" otherwise. The use comes before the clause declaring q.
func (x *extractor) comprehended(parent []syntax.NodeID, id syntax.NodeID, q string, declared map[scopedName]string, within int) string {
	t := x.t
	for p := parent[id]; p != 0; p = parent[p] {
		if !comprehensions[t.Kind(p)] {
			continue
		}
		for c, ok := t.FirstChild(p); ok; c, ok = t.NextSibling(c) {
			if t.Kind(c) != "for_in_clause" {
				continue
			}
			if left, ok := t.ChildByField(c, "left"); ok && t.Kind(left) == "identifier" && t.Text(left) == q {
				return x.iterated(parent, left, declared, within)
			}
		}
	}
	return ""
}

// selfAssigned returns, for the name at leaf id of Python's self.f,
// what a statement assigning self.f shows of the value's type (see
// Ref.Type): the annotation of self.f: T = …, T() for self.f = T(…), or
// the declared type of the parameter or local of self.f = p; "" for any
// other use of self.f.
func (x *extractor) selfAssigned(parent []syntax.NodeID, id syntax.NodeID, declared map[scopedName]string, within int) string {
	t := x.t
	attr := parent[id]
	as := parent[attr]
	if t.Kind(attr) != "attribute" || t.Field(id) != "attribute" || t.Kind(as) != "assignment" || t.Field(attr) != "left" {
		return ""
	}
	if typ, ok := t.ChildByField(as, "type"); ok {
		return typeText(t, typ)
	}
	v, ok := t.ChildByField(as, "right")
	if !ok {
		return ""
	}
	switch t.Kind(v) {
	case "call":
		if fn, ok := t.ChildByField(v, "function"); ok && t.Kind(fn) == "identifier" {
			return t.Text(fn) + "()"
		}
	case "identifier":
		if typ := x.declaredType(declared, parent, v, within, t.Text(v)); !strings.HasPrefix(typ, "self.") {
			return typ
		}
	}
	return ""
}

// typeText returns a type node's text without an annotation's colon and
// with its spaces folded, or "" when it is longer than a name may be.
func typeText(t *syntax.Tree, typ syntax.NodeID) string {
	s := strings.Join(strings.Fields(strings.TrimPrefix(strings.TrimSpace(t.Text(typ)), ":")), " ")
	if len(s) > maxRefName {
		return ""
	}
	return s
}

// pyAnnotation reports whether the text of the Python string at leaf id
// is a type annotation's, a forward reference the checker reads as
// code: the whole annotation ("Environment"), or a type argument within
// one (t.Optional["Environment"]); but not an argument of a call in it
// (Field("a description")), nor a value Literal["read"] or
// Annotated[T, "metadata"] takes.
func pyAnnotation(t *syntax.Tree, parent []syntax.NodeID, id syntax.NodeID) bool {
	annotation := false
	p := parent[id]
	for range maxAnnotationDepth {
		p = parent[p]
		var form syntax.NodeID // what a subscript or generic type applies
		switch t.Kind(p) {
		case "type":
			annotation = true
		case "subscript":
			form, _ = t.ChildByField(p, "value")
		case "generic_type":
			form, _ = t.FirstChild(p)
		case "attribute", "binary_operator", "tuple", "list", "expression_list", "type_parameter":
		default:
			return annotation
		}
		if form != 0 {
			if name := t.Text(form); pyValueForms[name[strings.LastIndexByte(name, '.')+1:]] {
				return false
			}
		}
	}
	return annotation
}

// pyValueForms are the typing forms whose arguments are values, not
// types: their strings name nothing.
var pyValueForms = map[string]bool{"Literal": true, "Annotated": true}

// maxAnnotationDepth bounds how far pyAnnotation looks up from a string
// for its annotation.
const maxAnnotationDepth = 8

// annotationRefs appends the uses the Python annotation string whose
// text is leaf id writes, as the same text written as code gives them:
// each name of a dotted path (nodes.Template: nodes, then Template
// qualified by it, a third name selected), at its place in the string.
func (x *extractor) annotationRefs(id syntax.NodeID) {
	text, base := x.t.Text(id), x.t.StartByte(id)
	for i := 0; i < len(text); {
		if !pyNameStart(text[i]) {
			i++
			continue
		}
		// A dotted path: its names in turn.
		var root string
		for k := 0; ; k++ {
			j := i
			for j < len(text) && (pyNameStart(text[j]) || text[j] >= '0' && text[j] <= '9') {
				j++
			}
			name := text[i:j]
			if k == 0 {
				root = name
			}
			if len(name) >= 2 && len(name) <= maxRefName && !selfNames[name] && !pyKeywords[name] {
				r := Ref{Name: name, Kind: Use, Byte: base + i}
				switch {
				case k == 1:
					r.Qualifier = root
				case k > 1:
					r.Qualifier, r.Selected = root, true
				}
				r.Line, r.Column = x.lines.Position(r.Byte)
				x.f.Refs = append(x.f.Refs, r)
			}
			i = j
			if i+1 >= len(text) || text[i] != '.' || !pyNameStart(text[i+1]) {
				break
			}
			i++
		}
	}
}

// pyNameStart reports whether c starts a Python name (ASCII, or a byte of
// a character past it, which names may hold).
func pyNameStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= utf8.RuneSelf
}

// pyKeywords are the words an annotation string may hold that name no
// definition.
var pyKeywords = map[string]bool{"None": true, "True": true, "False": true, "not": true, "and": true, "or": true, "in": true, "is": true, "lambda": true}

// parents returns the parent of every node of t, by id.
func parents(t *syntax.Tree) []syntax.NodeID {
	n := t.Len()
	parent := make([]syntax.NodeID, n)
	for i := range n {
		id := syntax.NodeID(i)
		if c, ok := t.FirstChild(id); ok {
			for {
				parent[c] = id
				nx, ok := t.NextSibling(c)
				if !ok {
					break
				}
				c = nx
			}
		}
	}
	return parent
}

// bound returns the local name an import binds, and whether it binds a
// whole module or package (Go's packages, Python's import m,
// JavaScript's import * as m) rather than a member of one (from m import
// C, import { C } from "m").
func bound(im Import) (name string, module bool) {
	module = im.Name == "" || im.Name == "*"
	switch {
	case im.Alias != "":
		return im.Alias, module
	case !module && im.Name != "default":
		return im.Name, false
	}
	p := im.Path
	if i := strings.LastIndexAny(p, "/."); i >= 0 {
		p = p[i+1:]
	}
	return p, module
}

// importNames returns the local names the file's imports bind: all of
// them, or (modules) those bound to a whole module or package, so that
// such a name before a selector is not read as a use; a name bound to a
// member of a module is a use of that member there too (C.create()).
func (x *extractor) importNames(modules bool) map[string]bool {
	names := map[string]bool{}
	for _, im := range x.f.Imports {
		if name, module := bound(im); module || !modules {
			names[name] = true
		}
	}
	return names
}

// useOf returns how the name at leaf id is used (a call, an inheritance
// or a plain use), what qualifies it, and whether it is selected from an
// expression that is not a plain name (then the qualifier is the name the
// expression starts from, see [Ref.Selected]); ok is false for a name
// that is no use, such as a package alias selected from.
func (x *extractor) useOf(parent []syntax.NodeID, modules map[string]bool, id syntax.NodeID, name string) (kind RefKind, qual string, selected, ok bool) {
	t := x.t
	member, from := false, syntax.NodeID(0) // a member, and what it is selected from
	p := parent[id]
	pk := t.Kind(p)
	kind, e := Use, id
	if f := t.Field(id); keyKinds[pk] && (f == "name" || f == "key" || f == "field") {
		// A field or property named in a literal or a keyword argument:
		// a member of something, not a name of the scope.
		return Use, "", true, true
	}
	if pk == "navigation_suffix" { // Kotlin: a.b is (navigation_expression a (navigation_suffix b))
		e, p = p, parent[p]
		pk = t.Kind(p)
	}
	if memberKinds[pk] {
		first, ok := t.FirstChild(p)
		for ok && !t.Named(first) {
			first, ok = t.NextSibling(first)
		}
		if ok && first == e {
			// The thing selected from: a module, a class or a variable.
			if modules[name] {
				return "", "", false, false
			}
		} else {
			member, from = true, first
			if ok && pathKinds[t.Kind(first)] {
				first = lastNamed(t, first) // a path's last segment: Class in hir::Class::Bytes
			}
			qual = qualifierOf(t, first, ok)
			e = p
		}
	}
	c := parent[e]
	if ck := t.Kind(c); callKinds[ck] && e != c {
		if f := t.Field(e); calleeFields[f] || f == "" && firstNamed(t, c) == e {
			kind = Call
			if qual == "" && e == id {
				for _, rf := range receiverFields {
					if r, ok := t.ChildByField(c, rf); ok && r != id {
						member, from = true, r
						if pathKinds[t.Kind(r)] {
							r = lastNamed(t, r)
						}
						qual = qualifierOf(t, r, true)
						break
					}
				}
			}
		}
	}
	if member && qual == "" {
		// Selected from an expression: the plain name it starts from.
		selected, qual = true, chainRoot(t, from)
	}
	if selfNames[qual] && !selfQualifiers[qual] || len(qual) > maxRefName {
		qual = ""
	}
	return kind, qual, selected, true
}

// chainKinds are the expressions a chain of selections and calls is made
// of, whose first named child continues the chain.
var chainKinds = map[string]bool{
	"parenthesized_expression": true, "subscript": true, "subscript_expression": true,
	"index_expression": true, "element_reference": true, "await_expression": true,
	"non_null_expression": true, "element_access_expression": true, "array_access": true,
}

// chainRoot returns the plain name a chain of selections, calls and
// indexing starts from (sys in sys.stdout.write, c in c.Root().Find), or
// "" when it starts otherwise; it looks a bounded number of steps down.
func chainRoot(t *syntax.Tree, n syntax.NodeID) string {
	for range 16 {
		k := t.Kind(n)
		switch {
		case qualifierKinds[k] && t.ChildCount(n) == 0:
			return t.Text(n)
		case !memberKinds[k] && !callKinds[k] && !chainKinds[k]:
			return ""
		}
		next := firstNamed(t, n)
		if next == n {
			return ""
		}
		n = next
	}
	return ""
}

// A localName is a name declared in the body of the definition at index
// within (a parameter, a local variable).
type localName struct {
	within int
	name   string
}

// localFields are the fields of a declaration that hold the names it
// declares.
var localFields = map[string]bool{"name": true, "left": true, "pattern": true, "declarator": true}

// localDeclarations are the declarations whose localFields declare a
// local name.
var localDeclarations = map[string]bool{
	"variable_declarator": true, "init_declarator": true, "let_declaration": true, "var_spec": true,
	"assignment": true, "for_statement": true, "for_in_statement": true, "for_in_clause": true,
	"for_expression": true, "enhanced_for_statement": true, "catch_clause": true,
	"local_variable_declaration": true, "declaration": true,
}

// cDeclarators are the C and C++ declarators that wrap a declared name.
var cDeclarators = map[string]bool{"pointer_declarator": true, "array_declarator": true, "reference_declarator": true}

// destructures are the patterns that bind several names at once.
var destructures = map[string]bool{
	"left_assignment_list": true, "destructured_left_assignment": true, // Ruby
	"pattern_list": true, "tuple_pattern": true, // Python, Rust
	"array_pattern": true, // JavaScript, TypeScript
}

// declaresLocal reports whether the name at leaf id declares a parameter
// or a local variable: a parameter's name, the name a declaration or an
// assignment binds (Go's := and range included).
func (x *extractor) declaresLocal(parent []syntax.NodeID, id syntax.NodeID) bool {
	t := x.t
	p := parent[id]
	pk := t.Kind(p)
	f := t.Field(id)
	switch {
	case strings.Contains(pk, "parameter"):
		return f != "type" && f != "value" && f != "default_value"
	case localDeclarations[pk]:
		return localFields[f]
	case destructures[pk]:
		// A name in a pattern a declaration or an assignment binds whole
		// (a, b = f() in Python and Ruby, let (a, b) = …, const [a, b] = …).
		q := p
		for destructures[t.Kind(parent[q])] {
			q = parent[q]
		}
		return localDeclarations[t.Kind(parent[q])] && localFields[t.Field(q)]
	case pk == "function_declarator" && f == "declarator":
		return true // a C or C++ prototype declares the name, uses nothing
	case cDeclarators[pk] && f == "declarator":
		// C's *p, p[] and &p wrap the name a parameter or a declaration
		// binds.
		q := p
		for cDeclarators[t.Kind(q)] {
			q = parent[q]
		}
		qk := t.Kind(q)
		return strings.Contains(qk, "parameter") || qk == "declaration" || qk == "init_declarator"
	case pk == "expression_list" && (t.Field(p) == "left"):
		gk := t.Kind(parent[p])
		return gk == "short_var_declaration" || gk == "range_clause"
	}
	return false
}

// isMember reports whether the leaf id is the member selected in a member
// expression (b in a.b), not the thing selected from.
func isMember(t *syntax.Tree, parent []syntax.NodeID, id syntax.NodeID) bool {
	p := parent[id]
	if t.Kind(p) == "navigation_suffix" {
		return true
	}
	return memberKinds[t.Kind(p)] && firstNamed(t, p) != id
}

// enclosing follows the definitions enclosing a walk's current node, for
// offsets that only grow.
type enclosing struct {
	stack []int // indices of the enclosing definitions, outermost first
	next  int   // the next definition not yet entered
}

// at returns the index of the innermost of syms (sorted by start) that
// encloses offset start, or -1.
func (e *enclosing) at(syms []Symbol, start int) int {
	for len(e.stack) > 0 && syms[e.stack[len(e.stack)-1]].Range.EndByte <= start {
		e.stack = e.stack[:len(e.stack)-1]
	}
	for e.next < len(syms) && syms[e.next].Range.StartByte <= start {
		for len(e.stack) > 0 && syms[e.stack[len(e.stack)-1]].Range.EndByte <= syms[e.next].Range.StartByte {
			e.stack = e.stack[:len(e.stack)-1]
		}
		if start < syms[e.next].Range.EndByte {
			e.stack = append(e.stack, e.next)
		}
		e.next++
	}
	if len(e.stack) > 0 {
		return e.stack[len(e.stack)-1]
	}
	return -1
}

// maxRefName bounds a ref's name and qualifier, in bytes.
const maxRefName = 128

// firstNamed returns n's first named child, or n itself when it has none.
func firstNamed(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	c, ok := t.FirstChild(n)
	for ok && !t.Named(c) {
		c, ok = t.NextSibling(c)
	}
	if !ok {
		return n
	}
	return c
}

// qualifierOf returns the qualifier what a member is selected from (n,
// when ok) gives: a plain name, super for the parent's object, or the
// type a construction makes.
func qualifierOf(t *syntax.Tree, n syntax.NodeID, ok bool) string {
	switch {
	case !ok:
	case qualifierKinds[t.Kind(n)] && t.ChildCount(n) == 0:
		return t.Text(n)
	case isSuper(t, n):
		return "super"
	default:
		if c, ok := constructed(t, n); ok {
			return c
		}
	}
	return ""
}

// isSuper reports whether n is the parent class's object: super (Java,
// JavaScript) or super() (Python).
func isSuper(t *syntax.Tree, n syntax.NodeID) bool {
	switch t.Kind(n) {
	case "super":
		return true
	case "call":
		f, ok := t.ChildByField(n, "function")
		return ok && t.Text(f) == "super"
	}
	return false
}

// constructed returns the type name a construction n makes (W3CDom in
// new W3CDom()), when n is one and names its type plainly.
func constructed(t *syntax.Tree, n syntax.NodeID) (string, bool) {
	if k := t.Kind(n); k != "new_expression" && k != "object_creation_expression" {
		return "", false
	}
	for _, f := range []string{"constructor", "type"} {
		if c, ok := t.ChildByField(n, f); ok && qualifierKinds[t.Kind(c)] && t.ChildCount(c) == 0 {
			return t.Text(c), true
		}
	}
	return "", false
}

// lastNamed returns n's last named child, or n itself when it has none.
func lastNamed(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	last := n
	for c, ok := t.FirstChild(n); ok; c, ok = t.NextSibling(c) {
		if t.Named(c) {
			last = c
		}
	}
	return last
}

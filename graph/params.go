package graph

import (
	"slices"
	"strconv"
	"strings"

	"github.com/codecortex/codecortex/symbols"
)

// In Java, C#, TypeScript and annotated Python, a function's head declares
// the type of each parameter ("W3CDom w3c", "ctx: Context"); a member used
// through a parameter is a member of that type, as a method's is of its
// class through this or self. paramType reads that type from a head
// (a Symbol's Signature); caller then names it as the type the use is
// selected from, and the type's members come first (see candidates).

// javaModifiers are the words before a Java or C# parameter's or field's
// type.
var javaModifiers = map[string]bool{"final": true, "ref": true, "out": true, "in": true, "params": true, "this": true,
	"private": true, "public": true, "protected": true, "static": true, "transient": true, "volatile": true,
	"readonly": true, "internal": true}

// typedParams are the languages whose parameters may declare a type, and
// how: the type before the name (java, csharp), or after it and a colon.
var typedParams = map[string]bool{"java": true, "csharp": true, "typescript": true, "tsx": true, "python": true}

// paramType returns the last name of the type the head sig of lang
// declares for its parameter called name (Context for "ctx: Context",
// "ctx: Optional[click.Context]" or "final Context ctx"), or "" when it
// declares none, or one that is not a plain named type; ok reports that
// the head has a parameter of that name.
func paramType(lang, sig, name string) (t string, ok bool) {
	t, ok = paramDecl(lang, sig, name)
	return typeName(t), ok
}

// paramDecl returns the type the head sig of lang declares for its
// parameter called name, as written ("" for none); ok reports that the
// head has a parameter of that name.
func paramDecl(lang, sig, name string) (t string, ok bool) {
	i := strings.IndexByte(sig, '(')
	if i < 0 {
		return "", false
	}
	list, _, closed := cutParams(sig[i:])
	if !closed {
		return "", false
	}
	for _, it := range splitParams(list) {
		var n string
		t = ""
		if lang == "java" || lang == "csharp" {
			f := strings.Fields(it)
			for len(f) > 0 && (strings.HasPrefix(f[0], "@") || javaModifiers[f[0]]) {
				f = f[1:]
			}
			if len(f) < 2 {
				continue
			}
			t, n = strings.Join(f[:len(f)-1], " "), f[len(f)-1]
		} else {
			n, t, _ = strings.Cut(it, ":")
			n, _, _ = strings.Cut(n, "=") // x=1: no type
			f := strings.Fields(n)
			if len(f) == 0 {
				continue
			}
			n = strings.TrimSuffix(f[len(f)-1], "?") // public readonly x?: T
			if strings.HasPrefix(n, "*") || strings.HasPrefix(n, "...") {
				n, t = strings.TrimLeft(n, "*."), "" // *args, **kw, ...rest: a tuple, dict or array
			}
			if i := defaultAt(t); i >= 0 {
				t = t[:i] // a default value
			}
		}
		if n == name {
			return strings.TrimSpace(t), true
		}
	}
	return "", false
}

// elementType returns the last name of the type of an element of a
// collection declared with type raw (List[T], t.Sequence["T"],
// Iterable[T], set[T], T[], Array<T>, ReadonlyArray<T>, Set<T>, and
// those made Optional), or "" for another type: a mapping's elements
// are its keys, not named by its type's first argument alone.
func elementType(raw string) string {
	t := strings.TrimSpace(strings.Trim(strings.TrimSpace(raw), `"'`))
	for _, opt := range []string{"Optional[", "t.Optional[", "typing.Optional["} {
		if rest, ok := strings.CutPrefix(t, opt); ok && strings.HasSuffix(rest, "]") {
			t = strings.TrimSpace(strings.TrimSuffix(rest, "]"))
		}
	}
	t = strings.TrimPrefix(t, "readonly ")
	if e, ok := strings.CutSuffix(t, "[]"); ok {
		return typeName(e)
	}
	i := strings.IndexAny(t, "[<")
	if i <= 0 || !strings.HasSuffix(t, "]") && !strings.HasSuffix(t, ">") || !collectionTypes[lastName(t[:i])] {
		return ""
	}
	args := splitParams(t[i+1 : len(t)-1])
	if len(args) != 1 {
		return ""
	}
	return typeName(args[0])
}

// collectionTypes are the generic types whose one type argument is the
// type of their elements, in Python's typing and TypeScript.
var collectionTypes = map[string]bool{
	"List": true, "list": true, "Sequence": true, "MutableSequence": true, "Iterable": true, "Iterator": true,
	"Collection": true, "Set": true, "set": true, "FrozenSet": true, "frozenset": true, "AbstractSet": true,
	"MutableSet": true, "Deque": true, "deque": true, "Array": true, "ReadonlyArray": true, "ReadonlySet": true,
}

// defaultAt returns the index of the = that starts a parameter's default
// value in what follows its name's colon, or -1: not the = of an arrow
// (a function type's =>).
func defaultAt(t string) int {
	for i := 0; i < len(t); i++ {
		if t[i] == '=' && (i+1 == len(t) || t[i+1] != '>') {
			return i
		}
	}
	return -1
}

// typeName returns the last name of a declared type: without its type
// arguments, an Optional or a union with null, undefined, None, void or
// function types, or quotes; "" when it is not a named type.
func typeName(t string) string {
	t = strings.Trim(t, `"'`)
	if parts := strings.Split(t, "|"); len(parts) > 1 {
		var kept []string
		for _, p := range parts {
			// Nothing, or a function type: no member is selected from it.
			if p = strings.TrimSpace(p); p != "null" && p != "undefined" && p != "None" && p != "void" && !strings.Contains(p, "=>") {
				kept = append(kept, p)
			}
		}
		if len(kept) != 1 {
			return ""
		}
		t = kept[0]
	}
	for _, opt := range []string{"Optional[", "t.Optional[", "typing.Optional["} {
		if rest, ok := strings.CutPrefix(t, opt); ok && strings.HasSuffix(rest, "]") {
			t = strings.Trim(strings.TrimSuffix(rest, "]"), `"'`)
		}
	}
	if i := strings.IndexAny(t, "<["); i > 0 {
		t = t[:i]
	}
	if t == "" || !goIdentPath(strings.ReplaceAll(t, ".", "")) {
		return ""
	}
	return t[strings.LastIndexByte(t, '.')+1:]
}

// cutParams is cutGroup with angle brackets counted as brackets (type
// arguments: Map<K, V>), an arrow's ">" (=>) not.
func cutParams(s string) (inner, after string, ok bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '(' || c == '[' || c == '{' || c == '<':
			depth++
		case c == ')' || c == ']' || c == '}' || c == '>' && (i == 0 || s[i-1] != '='):
			depth--
			if depth == 0 {
				return s[1:i], s[i+1:], true
			}
		}
	}
	return "", "", false
}

// splitParams splits a parameter list at its top-level commas.
func splitParams(list string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(list); i++ {
		switch c := list[i]; {
		case c == '(' || c == '[' || c == '{' || c == '<':
			depth++
		case c == ')' || c == ']' || c == '}' || c == '>' && (i == 0 || list[i-1] != '='):
			depth--
		case c == ',' && depth == 0:
			out = append(out, strings.TrimSpace(list[start:i]))
			start = i + 1
		}
	}
	return append(out, strings.TrimSpace(list[start:]))
}

// argForm reads a Ref.Type written "arg m i": the type of parameter i of
// a function written as the value of an object literal's member m.
func argForm(typ string) (m string, i int, ok bool) {
	rest, ok := strings.CutPrefix(typ, "arg ")
	if !ok {
		return "", 0, false
	}
	m, n, ok := strings.Cut(rest, " ")
	i, err := strconv.Atoi(n)
	return m, i, ok && err == nil && i >= 0 && m != ""
}

// argType returns the type the project's TypeScript declarations of
// members called m (an interface's or a class's method, or a field of a
// function type: m(a: A, api: Api), m: (a: A, api: Api) => void) give
// their parameter i: a function written as the value of an object
// literal's member m has it, the literal being of such a type. When the
// declarations give different types, all of them, separated by "|": the
// member a use selects is then the one those types agree on (see
// ofType); "" when none gives a named type, or when m is too common a
// name to say.
func (b *builder) argType(m string, i int) string {
	k := argKey{m, i}
	if t, ok := b.args[k]; ok {
		return t
	}
	var out []string
	defs := b.g.byName[m]
	if len(defs) > maxVarDecls {
		defs = nil
	}
	for _, s := range defs {
		n := &b.g.Nodes[s]
		if n.Container == "" || n.Kind != string(symbols.Method) && n.Kind != string(symbols.Field) {
			continue
		}
		fi := int(b.nodeFile[s])
		if lang := b.facts[fi].Language; lang != "typescript" && lang != "tsx" {
			continue
		}
		sym := b.symbolOf(fi, s)
		if sym == nil {
			continue
		}
		sig := sym.Signature
		if n.Kind == string(symbols.Field) {
			// m: (a: A, api: Api) => void, or m?: …
			_, ft, _ := strings.Cut(sig, ":")
			if sig = strings.TrimSpace(ft); !strings.HasPrefix(sig, "(") {
				continue
			}
		}
		if t := typeName(paramAt(sig, i)); t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	t := strings.Join(out, "|")
	if b.args == nil {
		b.args = map[argKey]string{}
	}
	b.args[k] = t
	return t
}

// An argKey is a member's name and a parameter's position (see argType).
type argKey struct {
	m string
	i int
}

// paramAt returns the type a TypeScript head sig declares for its
// parameter i, as written; "" for none.
func paramAt(sig string, i int) string {
	at := strings.IndexByte(sig, '(')
	if at < 0 {
		return ""
	}
	list, _, closed := cutParams(sig[at:])
	if !closed {
		return ""
	}
	items := splitParams(list)
	if i >= len(items) {
		return ""
	}
	_, t, _ := strings.Cut(items[i], ":")
	if k := defaultAt(t); k >= 0 {
		t = t[:k]
	}
	return strings.TrimSpace(t)
}

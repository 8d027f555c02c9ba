package graph

import (
	"bufio"
	"bytes"
	"io/fs"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/symbols"
	"github.com/codecortex/codecortex/syntax"
)

// A GoModule is a Go module of the project: its module path and its
// directory relative to the project root ("." for the root).
type GoModule struct {
	Path string
	Dir  string
}

type goModule GoModule

// ReadGoModules reads the module path of each go.mod among paths (files
// relative to the root of fsys, slash-separated). A go.mod it cannot read,
// or one past maxManifest bytes, is left out.
func ReadGoModules(fsys fs.FS, paths []string) []GoModule {
	var out []GoModule
	for _, p := range paths {
		if path.Base(p) != "go.mod" {
			continue
		}
		data, err := readBounded(fsys, p, maxManifest)
		if err != nil {
			continue
		}
		if mp := modulePath(data); mp != "" {
			out = append(out, GoModule{Path: mp, Dir: path.Dir(p)})
		}
	}
	return out
}

// modulePath returns the module directive's path of a go.mod file.
func modulePath(data []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			rest = strings.TrimSpace(rest)
			if i := strings.Index(rest, "//"); i >= 0 {
				rest = strings.TrimSpace(rest[:i])
			}
			return strings.Trim(rest, `"`+"`")
		}
	}
	return ""
}

// A binding is what a local name an import binds stands for: the files of
// the module or package imported (none when it is outside the project),
// and the member of them it names ("" when the name stands for the module
// itself).
type binding struct {
	files  []int32 // file nodes
	member string
}

// maxAmbiguous is how many definitions of one name a use may link to
// before it is left unresolved.
const maxAmbiguous = 3

// maxImportFanout bounds the file edges one Go import adds.
const maxImportFanout = 64

// resolveFile resolves the imports and uses of one file.
func (b *builder) resolveFile(fi int) { b.resolveUses(fi, nil) }

// resolveUses resolves the imports of one file and its uses of the given
// names (all of them when names is nil).
func (b *builder) resolveUses(fi int, names []string) {
	f := &b.facts[fi]
	from := int(b.g.fileNode[f.Path])
	binds := b.resolveImports(f, from)
	fileTest := syntax.IsTestFile(f.Path)
	var cands []int32
	var fields map[int]map[string]binding // imports of files declaring fields (see goOperandType)
	for ri, r := range f.Refs {
		if names != nil && !slices.Contains(names, r.Name) {
			continue
		}
		src, recv := b.caller(fi, ri)
		recvDir := "" // the directory of recv's package, when known (Go)
		if recv == "" && f.Language == "go" && (r.Qualifier != "" || r.Type != "") {
			if fields == nil {
				fields = map[int]map[string]binding{}
			}
			t, op := b.goOperandType(fi, ri, binds, fields)
			if op == goOutside {
				// A member of a type declared outside the project: through
				// an interface of the standard library, one of the package's
				// types that implement it (see addKnownUses).
				if _, ok := goKnownInterfaces[t.name][r.Name]; ok && r.Kind != symbols.Inherit {
					b.knownUses = append(b.knownUses, knownUse{fi: int32(fi), src: int32(src), from: int32(from), test: fileTest, iface: t.name, ref: r})
				} else {
					b.g.stats.Unresolved++
				}
				continue
			}
			recv, recvDir = t.name, t.dir
		}
		// A use in a test file, or in a test module of another file.
		test := fileTest || b.g.Nodes[src].Test
		if r.Kind == symbols.Inherit {
			b.addBase(fi, r, binds, from, test)
			continue
		}
		c, method := b.candidates(fi, r, binds, from, recv, recvDir, test)
		if f.Language == "ruby" && r.Kind == symbols.Use && recv != "" && len(c) > 0 && b.g.Nodes[c[0]].Kind == string(symbols.Method) {
			r.Kind = symbols.Call // Ruby calls a method named bare
		}
		cands = append(cands[:0], c...)
		if len(cands) == 0 {
			b.g.stats.Unresolved++
			continue
		}
		if len(cands) > 1 && method != AmbiguousName && len(cands) > maxAmbiguous {
			cands = cands[:maxAmbiguous]
		}
		b.addRefEdges(f, r, src, from, fileTest, cands, method)
	}
}

// candidates returns the definitions ref r of file fi may name, and how
// they were found: a member of recv (the type r is selected from, when
// the syntax shows it) first, then what resolveRef finds, keeping those
// the use fits (see byUse).
func (b *builder) candidates(fi int, r symbols.Ref, binds map[string]binding, from int, recv, recvDir string, test bool) ([]int32, Method) {
	var c []int32
	method := ScopeResolved
	switch {
	case recv != "" && r.Qualifier == "super":
		c = b.ofType(r, b.bases[recv], "", test)
	case recv != "":
		c = b.ofType(r, strings.Split(recv, "|"), recvDir, test)
	}
	if len(c) == 0 && !(recv != "" && r.Qualifier != "" && b.isClass(recv)) {
		// A member a class of the project does not define, used through
		// the object itself, is its own (an attribute set at run time)
		// or an outside base's: never another class's by name.
		c, method = b.resolveRef(fi, r, binds, from, test)
		if b.facts[fi].Language == "ruby" && recv != "" && r.Qualifier == "" && b.isClass(recv) {
			// A bare name in a class reaches the methods of the class, its
			// bases and the modules it includes (ofType), never another
			// class's. (In a module it may: the classes that include it.)
			c = slices.DeleteFunc(slices.Clone(c), func(s int32) bool {
				n := &b.g.Nodes[s]
				return (n.Kind == string(symbols.Method) || n.Kind == string(symbols.Field)) && b.ownerOf(s) != recv
			})
		}
	}
	return b.byUse(b.sameFamily(c, b.facts[fi].Language), r.Kind, b.facts[fi].Language), method
}

// langFamily names the languages whose code may use each other's
// definitions by name: JavaScript and TypeScript, C and C++, Java and
// Kotlin; every other language is a family of its own.
func langFamily(lang string) string {
	switch lang {
	case "typescript", "tsx":
		return "javascript"
	case "cpp":
		return "c"
	case "kotlin":
		return "java"
	}
	return lang
}

// sameFamily keeps the definitions of c in files of lang's family (see
// langFamily): a use names no other language's definition, though one
// of the same name (a Ruby script's x.size and a C struct's field).
func (b *builder) sameFamily(c []int32, lang string) []int32 {
	fam := langFamily(lang)
	other := func(s int32) bool { return langFamily(b.facts[b.nodeFile[s]].Language) != fam }
	if !slices.ContainsFunc(c, other) {
		return c
	}
	return slices.DeleteFunc(slices.Clone(c), other)
}

// caller returns the node of the definition holding ref ri of file fi
// (the file's node outside any), and the type of what the ref is selected
// from when the syntax shows it ("" when not): the enclosing class for a
// self, this, cls or Self qualifier, a Go method's receiver type for its
// receiver, and in a language where a method's bare names reach its class
// (Ruby, Java, C#, Kotlin, C++), that class for an unqualified call, as
// for a bare name in a Python class's body; the declared type of the
// class's field f for a member of this.f.
func (b *builder) caller(fi, ri int) (int, string) {
	f := &b.facts[fi]
	r := &f.Refs[ri]
	j := b.enclosingSym(fi, r.Byte)
	if j < 0 {
		if (r.Qualifier != "" || r.Selected) && r.Type != "" && r.Type != "this" && f.Language != "go" && !selfQualifier(f.Language, r.Qualifier) {
			// A local of no definition (in a test's callback), or a
			// member an object pattern takes from a typed value.
			return int(b.g.fileNode[f.Path]), b.typedLocal(fi, j, r.Byte, r.Type)
		}
		return int(b.g.fileNode[f.Path]), ""
	}
	src := int(b.g.fileSyms[f.Path][j])
	q := r.Qualifier
	switch {
	case r.Selected && r.Type != "" && f.Language != "go":
		// A member an object pattern takes from a value whose type the
		// code shows ({ getState }: Api, const { a } = this).
		if r.Type == "this" {
			return src, enclosingClass(f, j, r.Byte)
		}
		return src, b.typedLocal(fi, j, r.Byte, r.Type)
	case r.Selected:
		// A member of a member: its type is not shown, but for this.f.m()
		// where the class declares f's type.
		if field := selfField(f, ri); field != "" {
			return src, b.selfFieldType(fi, j, r.Byte, field)
		}
		return src, ""
	case selfQualifier(f.Language, q):
	case q == "" && implicitThis[f.Language] && (r.Kind == symbols.Call || f.Language == "ruby" && r.Kind == symbols.Use):
		// Ruby calls a method without arguments by its bare name.
	case q == "" && f.Language == "python" && (f.Symbols[j].Kind == symbols.Class || f.Symbols[j].Kind == symbols.Field):
		// A bare name in a Python class's body (not in a method: in the
		// class or the value of one of its attributes) is first the
		// class's own: __next__ = next.
	case q != "" && f.Language == "go":
		if s := &f.Symbols[j]; s.Kind != symbols.Method || goReceiver(s.Signature) != q {
			return src, ""
		}
	case q != "" && typedParams[f.Language] || q != "" && r.Type != "":
		// A parameter the head declares with a type (see paramType), of
		// the innermost function holding the use that has one of that
		// name (a nested function sees its outer functions' parameters);
		// else a local whose declaration shows its type (Ref.Type).
		for k := j; typedParams[f.Language] && k >= 0 && k > j-maxOuterScan; k-- {
			s := &f.Symbols[k]
			if s.Range.StartByte > r.Byte || r.Byte >= s.Range.EndByte || s.Kind != symbols.Function && s.Kind != symbols.Method {
				continue
			}
			if t, ok := paramType(f.Language, s.Signature, q); ok {
				return src, t
			}
		}
		if r.Type != "this" {
			return src, b.typedLocal(fi, j, r.Byte, r.Type)
		}
		// An alias of the current object: its class, as for this.
	default:
		return src, ""
	}
	return src, enclosingClass(f, j, r.Byte)
}

// typedLocal returns the type a use's Ref.Type typ names, outside Go, for
// the use at byte at of file fi whose innermost definition is j (-1 for
// none): x = self.f (Python), the elements of a loop's collection, a
// variable of the module, or what localType reads.
func (b *builder) typedLocal(fi, j, at int, typ string) string {
	if field, ok := strings.CutPrefix(typ, "self."); ok && b.facts[fi].Language == "python" {
		return b.selfFieldType(fi, j, at, field)
	}
	if of, ok := strings.CutPrefix(typ, "elem "); ok {
		return b.elemType(fi, j, at, of)
	}
	if v, ok := strings.CutPrefix(typ, "var "); ok {
		return b.localType(b.moduleVarDecl(fi, v))
	}
	if m, i, ok := argForm(typ); ok {
		return b.argType(m, i)
	}
	return b.localType(typ)
}

// enclosingClass returns the class holding the use at byte at of file f,
// whose innermost definition is j: the innermost method, field or class
// holding it names the class; a top-level function names none. The
// definitions before j are looked through a bounded number of steps.
func enclosingClass(f *index.FileFacts, j, at int) string {
	for k := j; k >= 0 && k > j-maxOuterScan; k-- {
		s := &f.Symbols[k]
		if s.Range.StartByte > at || at >= s.Range.EndByte {
			continue
		}
		switch s.Kind {
		case symbols.Method, symbols.Field:
			return lastName(normContainer(s.Container))
		case symbols.Class, symbols.Struct, symbols.Interface, symbols.Enum:
			return s.Name
		case symbols.Function:
			if s.Container == "" {
				return ""
			}
		}
	}
	return ""
}

// selfField returns, for ref ri of file f selected from this.f or self.f
// (written this.f.m), the name f; "" otherwise. Go's p.f.M is read by
// goOperandType.
func selfField(f *index.FileFacts, ri int) string {
	r := &f.Refs[ri]
	if ri == 0 || f.Language == "go" || !selfQualifier(f.Language, r.Qualifier) || r.Qualifier == "super" {
		return ""
	}
	prev := &f.Refs[ri-1]
	if prev.Selected || prev.Qualifier != r.Qualifier || prev.Byte+len(prev.Name)+1 != r.Byte {
		return ""
	}
	return prev.Name
}

// selfFieldType returns the type of the field called name of the class
// holding the use at byte at of file fi, whose innermost definition is j:
// the type the class declares the field with (fieldType), or in Python,
// where a field is made by assigning it, the type the class's methods in
// that file assign self.name with, when they all agree (see selfAssigned);
// for a field the class does not assign, the type a base class of the
// same file assigns it (self.environment, set by the base's __init__).
func (b *builder) selfFieldType(fi, j, at int, name string) string {
	f := &b.facts[fi]
	class := enclosingClass(f, j, at)
	if t := b.fieldType(f.Language, class, name); t != "" || f.Language != "python" || class == "" {
		return t
	}
	assigned := b.selfAssigned(fi)
	for _, c := range b.baseChain(class) {
		if t, ok := assigned[classField{c, name}]; ok {
			return b.localType(t)
		}
	}
	return ""
}

// elemType returns the type of an element of the collection a loop's
// variable at byte at of file fi (whose innermost definition is j, -1
// for none) goes through, whose type Ref.Type wrote as of (see
// symbols' iterated): declared (a local's or parameter's type as
// written), self.f or this.f (the type the class gives its field f), or
// f() (the result the function f declares); "" when it is not a
// collection of a named type.
func (b *builder) elemType(fi, j, at int, of string) string {
	f := &b.facts[fi]
	raw := of
	switch {
	case strings.HasPrefix(of, "self.") || strings.HasPrefix(of, "this."):
		raw = ""
		if _, field, _ := strings.Cut(of, "."); j >= 0 {
			class := enclosingClass(f, j, at)
			if raw = b.fieldDecl(f.Language, class, field); raw == "" && f.Language == "python" && class != "" {
				raw = b.selfAssigned(fi)[classField{class, field}]
			}
		}
	case strings.HasSuffix(of, "()"):
		raw = b.declaredResult(strings.TrimSuffix(of, "()"))
	}
	return elementType(raw)
}

// moduleVarDecl returns what the declaration of the variable q of file
// fi's module, or of the one an import of the file binds to q, shows of
// its type, as a Ref's Type would say it (see varDecl); "" when there is
// no one such variable. It is read once a file and name (see typesOf).
func (b *builder) moduleVarDecl(fi int, q string) string {
	c := b.typesOf(fi)
	if d, ok := c.vars[q]; ok {
		return d
	}
	if c.vars == nil {
		c.vars = map[string]string{}
	}
	d := b.readModuleVar(fi, q)
	c.vars[q] = d
	return d
}

// readModuleVar is moduleVarDecl, not kept.
func (b *builder) readModuleVar(fi int, q string) string {
	f := &b.facts[fi]
	name, files := q, []int32{int32(b.g.fileNode[f.Path])}
	for _, im := range f.Imports {
		if im.Name == "" || im.Name == "*" || im.Alias != q && (im.Alias != "" || im.Name != q) {
			continue
		}
		_, bd := b.resolveImport(f, im)
		if bd.member == "" {
			return ""
		}
		name, files = bd.member, bd.files
		break
	}
	vars := b.named(name, files, func(n *Node) bool {
		return (n.Kind == string(symbols.Variable) || n.Kind == string(symbols.Constant)) && n.Container == ""
	})
	if len(vars) != 1 {
		return ""
	}
	sym := b.symbolOf(int(b.nodeFile[vars[0]]), vars[0])
	if sym == nil {
		return ""
	}
	return varDecl(sym.Signature, name)
}

// varDecl reads the head of a variable's declaration outside any
// definition: the type it writes (name: T = …, const name: T = …), the
// class of new T(…), or f() for a call of f; "" otherwise.
func varDecl(sig, name string) string {
	s := sig
	for _, kw := range []string{"export ", "declare ", "const ", "let ", "var "} {
		s = strings.TrimPrefix(s, kw)
	}
	rest, ok := strings.CutPrefix(s, name)
	if !ok {
		return ""
	}
	rest = strings.TrimSpace(rest)
	if t, ok := strings.CutPrefix(rest, ":"); ok {
		if i := defaultAt(t); i >= 0 {
			t = t[:i]
		}
		return strings.TrimSpace(t)
	}
	v, ok := strings.CutPrefix(rest, "=")
	if !ok {
		return ""
	}
	v = strings.TrimSpace(v)
	if n, ok := strings.CutPrefix(v, "new "); ok {
		if i := strings.IndexAny(n, "(<"); i > 0 {
			return strings.TrimSpace(n[:i])
		}
		return ""
	}
	if i := strings.IndexByte(v, '('); i > 0 && goIdentPath(v[:i]) && !strings.Contains(v[:i], ".") {
		return v[:i] + "()"
	}
	return ""
}

// A classField names a field of a class by their names.
type classField struct{ class, field string }

// selfAssigned returns what the Python methods of file fi assign to the
// fields of their classes (self.f = T(…), self.f: T = …, self.f = p; the
// Type of the ref f): the type written, or "" when two assignments of a
// field disagree. It is read once a file, and the file's refs are read
// until it is resolved.
func (b *builder) selfAssigned(fi int) map[classField]string {
	c := b.typesOf(fi)
	if c.self != nil {
		return c.self
	}
	f := &b.facts[fi]
	types := map[classField]string{}
	for ri := range f.Refs {
		r := &f.Refs[ri]
		if r.Qualifier != "self" || r.Selected || r.Type == "" || r.Kind != symbols.Use {
			continue
		}
		j := b.enclosingSym(fi, r.Byte)
		if j < 0 {
			continue
		}
		k := classField{enclosingClass(f, j, r.Byte), r.Name}
		if was, again := types[k]; again && was != r.Type {
			types[k] = ""
		} else {
			types[k] = r.Type
		}
	}
	c.self = types
	return types
}

// fileTypes are what selfAssigned and moduleVarDecl read for file fi-1.
type fileTypes struct {
	fi   int
	self map[classField]string
	vars map[string]string
}

// typesOf returns the cache of what is read of file fi's types, emptied
// when the file changes: the file's refs are read until it is resolved.
func (b *builder) typesOf(fi int) *fileTypes {
	if b.fileTypes == nil || b.fileTypes.fi != fi+1 {
		b.fileTypes = &fileTypes{fi: fi + 1}
	}
	return b.fileTypes
}

// fieldType returns the last name of the type class declares its field
// called name with (in lang: "name: T", "T name", "name = new T()"; see
// fieldDecl); "".
func (b *builder) fieldType(lang, class, name string) string {
	if class == "" {
		return ""
	}
	return typeName(b.fieldDecl(lang, class, name))
}

// fieldDecl returns the type class declares its field called name with,
// as its head writes it ("Cache<T>", "t.List[Expr]"; Other for "other =
// new Other()"), when every such field of a class of that name declares
// the same; "".
func (b *builder) fieldDecl(lang, class, name string) string {
	if class == "" {
		return ""
	}
	typ, found := "", false
	for _, s := range b.g.byName[name] {
		n := &b.g.Nodes[s]
		if n.Kind != string(symbols.Field) || b.ownerOf(s) != class {
			continue
		}
		sym := b.symbolOf(int(b.nodeFile[s]), s)
		if sym == nil {
			return ""
		}
		t := declaredFieldDecl(lang, sym.Signature, name)
		if found && t != typ {
			return ""
		}
		typ, found = t, true
	}
	return typ
}

// declaredFieldDecl reads a field's head: the type it declares, as
// written ("private cache: Cache<T>", "private final Cache cache"), or
// the class it is set to ("other = new Other()"); or "".
func declaredFieldDecl(lang, sig, name string) string {
	if _, v, ok := strings.Cut(sig, "= new "); ok {
		if i := strings.IndexAny(v, "(<"); i > 0 {
			return strings.TrimSpace(v[:i])
		}
		return ""
	}
	t, _ := paramDecl(lang, "("+sig+")", name) // a field's head reads as a parameter's
	return t
}

// localType returns the type a local's Ref.Type names, outside Go: the
// type written (its last name, see typeName); for f(), the class f of the
// project it constructs (Python's T()), or else the result the project's
// functions called f declare, when they agree (see resultType); ""
// otherwise.
func (b *builder) localType(typ string) string {
	called, ok := strings.CutSuffix(typ, "()")
	if !ok {
		return typeName(typ)
	}
	if b.isClass(called) {
		return called
	}
	return typeName(b.declaredResult(called))
}

// declaredResult returns the result type the project's functions called
// name declare, as written (see resultDecl), when they agree; "".
func (b *builder) declaredResult(name string) string {
	fns := b.g.byName[name]
	if len(fns) > maxVarDecls {
		return ""
	}
	t := ""
	for _, s := range fns {
		n := &b.g.Nodes[s]
		if n.Kind != string(symbols.Function) || n.Container != "" {
			continue
		}
		sym := b.symbolOf(int(b.nodeFile[s]), s)
		if sym == nil {
			return ""
		}
		r := resultDecl(sym.Signature)
		if t != "" && r != t || r == "" {
			return ""
		}
		t = r
	}
	return t
}

// resultDecl returns the result type a function's head declares, as
// written (TypeScript's "(…): T", Python's "(…) -> T:"), or "".
func resultDecl(sig string) string {
	i := strings.IndexByte(sig, '(')
	if i < 0 {
		return ""
	}
	_, after, ok := cutParams(sig[i:])
	if !ok {
		return ""
	}
	after = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(after), "=>")) // const f = (…): T =>
	if t, ok := strings.CutPrefix(after, "->"); ok {
		after = strings.TrimSuffix(strings.TrimSpace(t), ":")
	} else if after, ok = strings.CutPrefix(after, ":"); !ok {
		return ""
	}
	return strings.TrimSpace(after)
}

// maxOuterScan bounds the definitions caller looks through for the class
// holding a use.
const maxOuterScan = 256

// selfQualifier reports whether q names the current object or its class
// in lang: self in Python, Rust and Ruby (Self for Rust's type), cls in
// Python, this elsewhere; or its bases: super in Python, JavaScript,
// TypeScript, Java and Kotlin.
func selfQualifier(lang, q string) bool {
	switch q {
	case "self":
		return lang == "python" || lang == "rust" || lang == "ruby"
	case "Self":
		return lang == "rust"
	case "cls":
		return lang == "python"
	case "super":
		return lang == "python" || lang == "javascript" || lang == "typescript" || lang == "tsx" || lang == "java" || lang == "kotlin"
	case "this":
		return lang != "python" && lang != "rust" && lang != "ruby" && lang != "go"
	}
	return false
}

// implicitThis are the languages in which a method's unqualified call may
// name a method of its own class.
var implicitThis = map[string]bool{"ruby": true, "java": true, "csharp": true, "kotlin": true, "cpp": true}

// goReceiver returns the receiver's name of a Go method's signature
// ("c" in "func (c *Command) Name() string"), or "".
func goReceiver(sig string) string {
	rest, ok := strings.CutPrefix(sig, "func (")
	if !ok {
		return ""
	}
	name, _, ok := strings.Cut(rest, " ")
	if !ok || strings.ContainsAny(name, "*)[.") {
		return ""
	}
	return name
}

// ownerOf returns the last name of node s's container (see
// normContainer): the type a member belongs to; "" for none.
func (b *builder) ownerOf(s int32) string {
	if int(s) < len(b.owner) {
		return b.owner[s]
	}
	return lastName(normContainer(b.g.Nodes[s].Container)) // a builder over a snapshot's graph
}

// lastName returns the last element of a dotted container ("Outer.Inner"
// gives "Inner").
func lastName(c string) string { return c[strings.LastIndexByte(c, '.')+1:] }

// namedByCall are the languages in which a method is named only by a
// call: a member used otherwise is a field.
var namedByCall = map[string]bool{"java": true, "csharp": true, "kotlin": true, "rust": true, "go": true, "c": true, "cpp": true}

// byUse keeps, of candidates that both call and do not, those the use
// fits: for a call, the functions, methods and types; for another use in
// a language of namedByCall, the others. It returns c itself when it
// keeps all.
func (b *builder) byUse(c []int32, kind symbols.RefKind, lang string) []int32 {
	if len(c) < 2 || kind == symbols.Inherit {
		return c
	}
	callable := func(s int32) bool {
		switch symbols.Kind(b.g.Nodes[s].Kind) {
		case symbols.Function, symbols.Method, symbols.Class, symbols.Struct, symbols.Macro, symbols.Type:
			return true
		}
		return false
	}
	n := 0
	for _, s := range c {
		if callable(s) {
			n++
		}
	}
	switch {
	case n == 0 || n == len(c):
		return c
	case kind == symbols.Call:
		return slices.DeleteFunc(slices.Clone(c), func(s int32) bool { return !callable(s) })
	case namedByCall[lang]:
		return slices.DeleteFunc(slices.Clone(c), func(s int32) bool { return b.g.Nodes[s].Kind == string(symbols.Method) })
	}
	return c
}

// isClass reports whether a class or struct of the project is named t
// (by its last name).
func (b *builder) isClass(t string) bool {
	for _, n := range b.g.byName[t] {
		if k := b.g.Nodes[n].Kind; k == string(symbols.Class) || k == string(symbols.Struct) {
			return true
		}
	}
	return false
}

// Bounds of the bases ofType looks through.
const (
	maxBaseDepth = 4
	maxBaseTypes = 16
)

// ofType returns the members called r.Name of the types named (the
// graph's definitions whose container is one of them, in directory dir
// when it is set: a Go type's package), or when they have none, of the
// nearest of their bases (by name, breadth first, within bounds) that
// have some; those in test files only for a use from one.
func (b *builder) ofType(r symbols.Ref, types []string, dir string, test bool) []int32 {
	seen := map[string]bool{}
	for _, t := range types {
		seen[t] = true
	}
	for depth := 0; depth < maxBaseDepth && len(types) > 0; depth++ {
		var out []int32
		for _, s := range b.g.byName[r.Name] {
			n := &b.g.Nodes[s]
			if n.Container == "" || n.Test && !test || !slices.Contains(types, b.ownerOf(s)) ||
				depth == 0 && dir != "" && path.Dir(n.Path) != dir {
				continue
			}
			out = append(out, s)
		}
		switch {
		case len(out) > maxAmbiguous:
			return nil
		case len(out) > 0:
			return out
		}
		var next []string
		for _, t := range types {
			for _, base := range b.bases[t] {
				if !seen[base] && len(seen) < maxBaseTypes {
					seen[base] = true
					next = append(next, base)
				}
			}
		}
		types = next
	}
	return nil
}

// readBases reads, from the inheritance uses of every file, the bases
// each type extends, implements or embeds, by their last names.
func (b *builder) readBases() {
	b.bases = map[string][]string{}
	var dec index.RefDecoder
	for fi := range b.facts {
		f := &b.facts[fi]
		refs := f.Refs
		if refs == nil {
			refs = dec.RefsOf(b.refs, fi, symbols.Inherit)
		}
		for _, r := range refs {
			if r.Kind != symbols.Inherit {
				continue
			}
			j := b.enclosingSym(fi, r.Byte)
			if j < 0 {
				continue
			}
			s := &f.Symbols[j]
			t := s.Name
			if s.Kind == symbols.Field { // a Go embedded field
				t = lastName(normContainer(s.Container))
			}
			if t != "" && t != r.Name && !slices.Contains(b.bases[t], r.Name) {
				b.bases[t] = append(b.bases[t], r.Name)
			}
		}
	}
}

// resolveImports adds the file edges of f's imports (f's node is from)
// and returns what each local name they bind stands for.
func (b *builder) resolveImports(f *index.FileFacts, from int) map[string]binding {
	binds := map[string]binding{}
	for _, im := range f.Imports {
		local, bd := b.resolveImport(f, im)
		e := Edge{From: from, Kind: Imports, Method: ImportPath, Path: f.Path, Line: im.Range.StartLine,
			Column: im.Range.StartColumn, Span: max(1, im.Range.EndColumn-im.Range.StartColumn), Stale: f.Stale}
		for _, to := range bd.files {
			e.To = int(to)
			b.addEdge(e)
		}
		// An import of a member names its definition too; a default
		// one, the definition of the name it binds, as its uses find it
		// (see resolveUnqualified).
		m := bd.member
		if m == "default" {
			m = local
		}
		if m != "" && m != "*" && m != "default" {
			defs := b.named(m, bd.files, topLevel)
			if len(defs) == 0 {
				defs = b.reexports(bd.files, m)
			}
			e.Method = ImportResolved
			for _, to := range defs {
				e.To = int(to)
				b.addEdge(e)
			}
		}
		if local != "" {
			binds[local] = bd
		}
	}
	return binds
}

// resolveRef returns the definitions a use in file fi may name, and how
// they were found; none if it stays unresolved.
func (b *builder) resolveRef(fi int, r symbols.Ref, binds map[string]binding, from int, test bool) ([]int32, Method) {
	if r.Selected {
		return b.resolveSelected(fi, r, binds, test)
	}
	if r.Qualifier == "" {
		return b.resolveUnqualified(fi, r, binds, from, test)
	}
	if bd, ok := binds[r.Qualifier]; ok {
		if bd.member == "" {
			c := b.named(r.Name, bd.files, topLevel)
			if len(c) == 0 {
				c = b.reexports(bd.files, r.Name)
			}
			return c, ImportResolved
		}
		// A named import used as a qualifier: a class imported by name; a
		// default one, the class of the name it binds (see resolveImports).
		m := bd.member
		if m == "default" {
			m = r.Qualifier
		}
		if c := b.named(r.Name, bd.files, member(m)); len(c) > 0 {
			return c, ImportResolved
		}
		if bd.member == "default" && len(b.named(r.Qualifier, bd.files, topLevel)) == 0 {
			// The default export is no definition of that name: an object
			// of the module's functions (export default {forEach, …}),
			// whose members are its top-level definitions.
			if c := b.named(r.Name, bd.files, topLevel); len(c) > 0 {
				return c, ImportResolved
			}
		}
		return nil, ""
	}
	lang := b.facts[fi].Language
	c := b.members(r.Name, r.Qualifier, test, r.Kind == symbols.Call && callsNoField[lang])
	if len(c) == 0 || modulePaths[lang] && !slices.ContainsFunc(c, func(s int32) bool { return lastName(normContainer(b.g.Nodes[s].Container)) == r.Qualifier }) {
		// A module written as the qualifier (Rust's unicode::f, Ruby's
		// Mod.f): the top-level definitions of the files it names, before
		// members of that name of other types.
		if m := b.named(r.Name, b.moduleFiles(r.Qualifier), topLevel); len(m) > 0 && len(m) <= maxAmbiguous {
			return m, ScopeResolved
		}
	}
	if lang == "go" && r.Kind != symbols.Call && len(c) <= maxAmbiguous {
		// A Go method selected without a call is a method value, rare; a
		// field of that name on a type of another module (flag.Usage) is
		// the likelier reading.
		c = slices.DeleteFunc(slices.Clone(c), func(s int32) bool { return b.g.Nodes[s].Kind == string(symbols.Method) })
	}
	if builtinMethods[lang][r.Name] && !b.namesReceiver(c, r.Qualifier) {
		return nil, "" // a built-in type's method as likely (see builtinMethods)
	}
	return byName(c)
}

// byName returns definitions found by name alone: one is a unique name,
// up to maxAmbiguous an ambiguous one, more are none.
func byName(c []int32) ([]int32, Method) {
	switch {
	case len(c) == 1:
		return c, UniqueName
	case len(c) <= maxAmbiguous:
		return c, AmbiguousName
	}
	return nil, ""
}

// resolveUnqualified is resolveRef for a use without a qualifier: a name
// an import binds, then the file's own definitions, then the scope the
// language shares (a directory, a Go package), then the name anywhere.
func (b *builder) resolveUnqualified(fi int, r symbols.Ref, binds map[string]binding, from int, test bool) ([]int32, Method) {
	f := &b.facts[fi]
	lang := f.Language
	if bd, ok := binds[r.Name]; ok {
		var c []int32
		if bd.member != "" && bd.member != "default" && bd.member != "*" {
			c = b.named(bd.member, bd.files, topLevel)
			if len(c) == 0 {
				c = b.reexports(bd.files, bd.member)
			}
		} else {
			c = b.named(r.Name, bd.files, topLevel)
		}
		if len(c) > 0 {
			return c, ImportResolved
		}
		if len(bd.files) > 0 && r.Kind != symbols.Inherit {
			return bd.files[:1], ImportResolved // the module itself
		}
		return nil, ""
	}
	// A plain Go name never names a method or a field: those are reached
	// through a selector (see below).
	sameFile := anyDef
	switch lang {
	case "go":
		sameFile = topLevel
	case "python", "javascript", "typescript", "tsx", "rust":
		// A method or field is reached through self, this or a type there.
		sameFile = notMember
	}
	if c := b.named(r.Name, []int32{int32(from)}, sameFile); len(c) > 0 {
		return c, ScopeResolved
	}
	if lang != "go" && lang != "python" && lang != "javascript" && lang != "typescript" && lang != "tsx" {
		// Languages that share a scope across a directory's files (Java,
		// C#, Kotlin packages and the like): the directory.
		if c := b.named(r.Name, b.g.dirFiles[path.Dir(f.Path)], topLevelOrType); len(c) > 0 {
			return c, ScopeResolved
		}
	}
	if lang != "go" {
		return byName(b.global(r.Name, test, sameFile))
	}
	// A Go name without a qualifier is the package's: its directory's
	// files of the same package; else a package's the file imports with
	// a dot.
	if c := b.namedInPackage(r.Name, fi, topLevel); len(c) > 0 {
		return c, ScopeResolved
	}
	if c := b.dotImported(r.Name, binds, topLevel); len(c) > 0 {
		return c, ImportResolved
	}
	return nil, ""
}

// dotImport is the prefix of the binding of a Go package imported with a
// dot (import . "p"), before its path: its names are the file's own.
const dotImport = "."

// dotImported returns the definitions called name that keep keeps of the
// packages a Go file imports with a dot (binds are its imports), when
// one package declares them.
func (b *builder) dotImported(name string, binds map[string]binding, keep defFilter) []int32 {
	var out []int32
	found := 0
	for k, bd := range binds {
		if !strings.HasPrefix(k, dotImport) {
			continue
		}
		if c := b.named(name, bd.files, keep); len(c) > 0 {
			out, found = c, found+1
		}
	}
	if found != 1 {
		return nil // none, or two packages of the name: the compiler refuses it
	}
	return out
}

// modulePaths are the languages whose qualifiers name modules by path
// (a::f, Mod.f), not only imports and variables.
var modulePaths = map[string]bool{"rust": true, "ruby": true, "cpp": true, "php": true}

// moduleFiles returns the file nodes of the modules a name may stand for:
// the files whose base name without extension is name (the module
// file), and the files of a directory of that name whose stem is mod,
// index, __init__ or lib; at most maxImportFanout.
func (b *builder) moduleFiles(name string) []int32 {
	var out []int32
	for _, s := range b.g.byName[name] {
		if n := &b.g.Nodes[s]; n.Kind == string(symbols.Module) {
			if fn, ok := b.g.fileNode[n.Path]; ok && !slices.Contains(out, fn) {
				out = append(out, fn) // a module declared in a file (Ruby, Rust mod blocks)
			}
		}
	}
	for _, fn := range b.stems[strings.ToLower(name)] {
		if len(out) >= maxImportFanout {
			break
		}
		if !slices.Contains(out, fn) {
			out = append(out, fn)
		}
	}
	return out
}

// resolveSelected is resolveRef for a member selected from an expression
// whose type the syntax does not show (c.Root().Find()): a member, by its
// name, unless the expression starts from a module outside the project
// (sys.stdout.write, os.Stdout.Write: a member of its objects). In Go,
// one selected without a call is not a method (see resolveRef).
func (b *builder) resolveSelected(fi int, r symbols.Ref, binds map[string]binding, test bool) ([]int32, Method) {
	if bd, ok := binds[r.Qualifier]; ok && r.Qualifier != "" && len(bd.files) == 0 {
		return nil, ""
	}
	if builtinMethods[b.facts[fi].Language][r.Name] {
		return nil, "" // a built-in type's method as likely (see builtinMethods)
	}
	c := b.members(r.Name, "", test, r.Kind == symbols.Call && callsNoField[b.facts[fi].Language])
	if b.facts[fi].Language == "go" && r.Kind != symbols.Call && len(c) <= maxAmbiguous {
		c = slices.DeleteFunc(slices.Clone(c), func(s int32) bool { return b.g.Nodes[s].Kind == string(symbols.Method) })
	}
	if len(c) == 0 && (b.facts[fi].Language == "rust" || b.facts[fi].Language == "cpp") {
		// A path (crate::unicode::f) selects a module's definition.
		return byName(b.global(r.Name, test, topLevel))
	}
	return byName(c)
}

// addRefEdges adds the edges of a use r in f, from src (its enclosing
// definition) to each of its candidates, and in a test file a Tests edge
// from the file (from) to each candidate outside tests.
func (b *builder) addRefEdges(f *index.FileFacts, r symbols.Ref, src, from int, test bool, cands []int32, method Method) {
	for _, to := range cands {
		kind := References
		switch r.Kind {
		case symbols.Call:
			kind = Calls
		case symbols.Inherit:
			kind = Inherits
			if b.g.Nodes[to].Kind == string(symbols.Interface) {
				kind = Implements
			}
		}
		e := Edge{From: src, To: int(to), Kind: kind, Method: method, Path: f.Path, Line: r.Line, Column: r.Column,
			Span: utf8.RuneCountInString(r.Name), Stale: f.Stale}
		b.addEdge(e)
		if test && !b.g.Nodes[to].Test {
			e.From, e.Kind = from, Tests
			b.addEdge(e)
		}
	}
}

// A reexportKey is a file node and a name it may re-export.
type reexportKey struct {
	file int32
	name string
}

// Bounds of the re-exports followed for one name.
const (
	maxReexportDepth = 4
	maxReexportFiles = 64
)

// reexports returns the top-level definitions that files (file nodes,
// such as a JavaScript index or barrel module or a Python package's
// __init__.py) export under name: through their imports that bring in
// everything of a module (export * from, from m import *), that name (a
// name exported as another is not exported as itself), or another
// name exported as this one (export { a as name } from), followed
// breadth first within bounds, each module looked in for the name it
// exports the definition under.
func (b *builder) reexports(files []int32, name string) []int32 {
	if len(files) == 0 {
		return nil
	}
	k := reexportKey{files[0], name}
	if c, ok := b.reexport[k]; ok && len(files) == 1 {
		return c
	}
	// The modules looked through that export something under the name
	// they are asked for, at most maxReexportFiles, looked through rather
	// than hashed; a module that does not (most, and every Go package's
	// file) costs a scan of its imports and nothing else.
	var seen []reexportKey
	var queue []reexportKey // past the first level, the modules to look in and the name
	var out []int32
	for depth := 0; depth < maxReexportDepth && len(out) == 0; depth++ {
		n := len(queue)
		if depth == 0 {
			n = len(files)
		}
		if n == 0 {
			break
		}
		var next []reexportKey
		for i := range n {
			at := reexportKey{name: name}
			if depth == 0 {
				at.file = files[i]
			} else {
				at = queue[i]
			}
			f := &b.facts[b.nodeFile[at.file]]
			if !slices.ContainsFunc(f.Imports, func(im symbols.Import) bool { return exportsAs(&im, at.name) }) ||
				len(seen) >= maxReexportFiles || slices.Contains(seen, at) {
				continue
			}
			seen = append(seen, at)
			for _, im := range f.Imports {
				if !exportsAs(&im, at.name) {
					continue
				}
				_, bd := b.resolveImport(f, im)
				want := at.name
				if im.Name != "*" && im.Name != "" {
					want = im.Name
				}
				if c := b.named(want, bd.files, topLevel); len(c) > 0 {
					out = append(out, c...)
					continue
				}
				for _, fn := range bd.files {
					next = append(next, reexportKey{fn, want})
				}
			}
		}
		queue = next
	}
	if len(out) > maxAmbiguous {
		out = nil
	}
	if len(files) == 1 {
		b.reexport[k] = out
	}
	return out
}

// exportsAs reports whether import im may export a definition under name
// (see reexports): it brings in everything of a module (export * from,
// from m import *), that name, or another name as this one; a module's
// namespace under a name (export * as ns from) is no definition.
func exportsAs(im *symbols.Import, name string) bool {
	if im.Name == "*" {
		return im.Alias == ""
	}
	return im.Alias == name || im.Alias == "" && im.Name == name
}

// Filters on the definitions a use may name.
type defFilter func(n *Node) bool

func anyDef(n *Node) bool   { return n.Kind != string(symbols.Module) }
func topLevel(n *Node) bool { return n.Container == "" && n.Kind != string(symbols.Module) }
func notMember(n *Node) bool {
	return anyDef(n) && n.Kind != string(symbols.Method) && n.Kind != string(symbols.Field)
}
func topLevelOrType(n *Node) bool {
	return topLevel(n) || n.Kind == string(symbols.Class) || n.Kind == string(symbols.Interface) || n.Kind == string(symbols.Enum)
}
func member(container string) defFilter {
	return func(n *Node) bool { return normContainer(n.Container) == container }
}

// normContainer strips a Go receiver's pointer and type parameters.
func normContainer(c string) string {
	for len(c) > 0 && (c[0] == '*' || c[0] == '&') {
		c = c[1:]
	}
	for i := 1; i < len(c); i++ {
		if c[i] == '[' || c[i] == '<' {
			return c[:i]
		}
	}
	return c
}

// named returns the definitions called name in the given files (file
// nodes) that pass keep.
func (b *builder) named(name string, files []int32, keep defFilter) []int32 {
	all := b.g.byName[name]
	if len(all) == 0 || len(files) == 0 {
		return nil
	}
	if len(files) == 1 {
		var out []int32
		for _, s := range all {
			if b.nodeFile[s] == b.nodeFile[files[0]] && keep(&b.g.Nodes[s]) {
				out = append(out, s)
			}
		}
		return out
	}
	mark := b.fileMark()
	for _, f := range files {
		mark[b.nodeFile[f]] = true
	}
	out := b.namedMarked(all, mark, keep)
	for _, f := range files {
		mark[b.nodeFile[f]] = false
	}
	return out
}

// fileMark returns the builder's mark of files by their index in facts,
// all false: whoever sets marks clears them before the next call.
func (b *builder) fileMark() []bool {
	if len(b.mark) != len(b.facts) {
		b.mark = make([]bool, len(b.facts))
	}
	return b.mark
}

// namedMarked returns the definitions of all whose files are marked (by
// their index in facts) that pass keep, in the order of all.
func (b *builder) namedMarked(all []int32, mark []bool, keep defFilter) []int32 {
	var out []int32
	for _, s := range all {
		if mark[b.nodeFile[s]] && keep(&b.g.Nodes[s]) {
			out = append(out, s)
		}
	}
	return out
}

// namedInPackage is named over samePackage(fi), with the package's files
// marked once for every use of file fi.
func (b *builder) namedInPackage(name string, fi int, keep defFilter) []int32 {
	all := b.g.byName[name]
	if len(all) == 0 {
		return nil
	}
	b.enterPackage(fi)
	return b.namedMarked(all, b.pkgMark, keep)
}

// enterPackage makes pkgFiles samePackage(fi), and pkgMark mark them,
// once for every use of file fi.
func (b *builder) enterPackage(fi int) {
	if b.pkgOf == fi+1 {
		return
	}
	if len(b.pkgMark) != len(b.facts) {
		b.pkgMark = make([]bool, len(b.facts))
	}
	for _, f := range b.pkgFiles {
		b.pkgMark[b.nodeFile[f]] = false
	}
	b.pkgFiles = b.samePackage(fi)
	for _, f := range b.pkgFiles {
		b.pkgMark[b.nodeFile[f]] = true
	}
	b.pkgOf = fi + 1
}

// members returns the members (methods, fields) called name, those of a
// container named qual when there are any, else those of a container
// whose name qual spells in another case or with underscores (a variable
// named after its type); definitions in test files only for a use from
// one; no fields for a call that cannot name one (see callsNoField).
// The result is kept for the next call with the same arguments: callers
// must not modify it.
func (b *builder) members(name, qual string, test, call bool) []int32 {
	k := memberKey{name, qual, test, call}
	if c, ok := b.memberOf[k]; ok {
		return c
	}
	if b.memberOf == nil {
		b.memberOf = map[memberKey][]int32{}
	}
	c := b.findMembers(name, qual, test, call)
	b.memberOf[k] = c
	return c
}

// A memberKey is what members was asked.
type memberKey struct {
	name, qual string
	test, call bool
}

// callsNoField are the languages in which x.f() never calls a field f:
// Java and C# fields are not callable (a field holding a lambda is
// called through its method, x.f.apply()), and Rust calls one written
// (x.f)(). A member a call names there is a method, and the fields of
// that name neither compete with the methods nor count towards
// maxAmbiguous.
var callsNoField = map[string]bool{"java": true, "csharp": true, "rust": true}

// findMembers is members, found.
func (b *builder) findMembers(name, qual string, test, call bool) []int32 {
	var all, of, named []int32
	loose := looseName(qual)
	for _, s := range b.g.byName[name] {
		n := &b.g.Nodes[s]
		if n.Container == "" || n.Test && !test || call && n.Kind == string(symbols.Field) {
			continue
		}
		all = append(all, s)
		c := normContainer(n.Container)
		switch {
		case c == qual || lastName(c) == qual:
			of = append(of, s)
		case loose != "" && looseName(lastName(c)) == loose:
			named = append(named, s)
		}
	}
	if len(of) > 0 {
		return of
	}
	if len(named) > 0 {
		// A receiver named after its type, as code names them
		// (websocket.close() of a WebSocket, sender.send() of a Sender).
		return named
	}
	if len(all) > maxAmbiguous {
		return all[:maxAmbiguous+1] // too many: the caller leaves it
	}
	return b.echoed(all, qual)
}

// echoed returns the members c of the types whose names the receiver
// qual echoes most: code names a value with words of its type's name
// (forkApi a ForkedTaskAPI, listenerApi a ListenerEffectAPI, socket a
// WebSocket). A receiver word echoes a word of the type's name it is, or
// (three letters or more) begins. All of c when no type's name is echoed
// more than another's.
func (b *builder) echoed(c []int32, qual string) []int32 {
	if len(c) < 2 || qual == "" {
		return c
	}
	said := index.SubTokens(qual)
	scores := make([]int, len(c))
	for i, s := range c {
		for _, tw := range index.SubTokens(lastName(normContainer(b.g.Nodes[s].Container))) {
			for _, w := range said {
				if tw == w || len(w) >= 3 && strings.HasPrefix(tw, w) {
					scores[i]++
					break
				}
			}
		}
	}
	best, worst := slices.Max(scores), slices.Min(scores)
	if best == worst {
		return c
	}
	var out []int32
	for i, s := range c {
		if scores[i] == best {
			out = append(out, s)
		}
	}
	return out
}

// looseName is a name folded for comparing a variable with a type's name:
// lower case, without underscores ("web_socket", "webSocket" and
// "WebSocket" are alike); "" for a name too short to say which type.
func looseName(s string) string {
	s = strings.ToLower(strings.ReplaceAll(s, "_", ""))
	if len(s) < 3 {
		return ""
	}
	return s
}

// global returns the definitions called name anywhere that pass keep;
// those in test files only for a use from one.
func (b *builder) global(name string, test bool, keep defFilter) []int32 {
	var out []int32
	for _, s := range b.g.byName[name] {
		n := &b.g.Nodes[s]
		if !keep(n) || n.Test && !test {
			continue
		}
		out = append(out, s)
		if len(out) > maxAmbiguous {
			break
		}
	}
	return out
}

// samePackage returns the file nodes of the Go files in fi's directory
// that declare the same package.
func (b *builder) samePackage(fi int) []int32 {
	f := &b.facts[fi]
	var out []int32
	for _, n := range b.g.dirFiles[path.Dir(f.Path)] {
		if nd := &b.g.Nodes[n]; nd.Package == f.Package && strings.HasSuffix(nd.Path, ".go") {
			out = append(out, n)
		}
	}
	return out
}

// resolveImport returns the local name an import binds and what it
// stands for.
func (b *builder) resolveImport(f *index.FileFacts, im symbols.Import) (string, binding) {
	switch f.Language {
	case "go":
		return b.goImport(im)
	case "javascript", "typescript", "tsx":
		return b.jsImport(f, im)
	case "python":
		return b.pyImport(f, im)
	case "c", "cpp":
		if p := b.firstFile(path.Join(path.Dir(f.Path), im.Path), im.Path); p >= 0 {
			return "", binding{files: []int32{p}}
		}
	}
	return "", binding{}
}

func (b *builder) goImport(im symbols.Import) (string, binding) {
	local := im.Alias
	last := im.Path[strings.LastIndexByte(im.Path, '/')+1:]
	if local == "_" {
		return "", binding{}
	}
	if local == "." {
		local = dotImport + im.Path // never a qualifier: see dotImported
	}
	var bd binding
	for _, m := range b.goMods {
		rest, ok := strings.CutPrefix(im.Path, m.Path)
		if m.Path == "std" && stdImport(im.Path) {
			// The standard library's module: its packages are imported by
			// their directory alone (io, internal/bytealg).
			rest, ok = "/"+im.Path, true
		}
		if !ok || rest != "" && rest[0] != '/' {
			continue
		}
		dir := path.Join(m.Dir, strings.TrimPrefix(rest, "/"))
		for _, n := range b.g.dirFiles[dir] {
			nd := &b.g.Nodes[n]
			if strings.HasSuffix(nd.Path, ".go") && !nd.Test {
				if local == "" && nd.Package != "" {
					local = nd.Package
				}
				if len(bd.files) < maxImportFanout {
					bd.files = append(bd.files, n)
				}
			}
		}
		break
	}
	if local == "" {
		local = last
		// gopkg.in/yaml.v3 and example.com/foo/v2 name yaml and foo.
		if i := strings.IndexByte(local, '.'); i > 0 {
			local = local[:i]
		}
		if len(local) > 1 && local[0] == 'v' && strings.Trim(local[1:], "0123456789") == "" {
			if p := strings.TrimSuffix(im.Path, "/"+local); p != im.Path {
				local = p[strings.LastIndexByte(p, '/')+1:]
			}
		}
	}
	return local, bd
}

// stdImport reports whether an import path has the standard library's
// form: no dot in its first element (io, net/http, internal/abi).
func stdImport(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return first != "" && !strings.Contains(first, ".") && first != "std"
}

// jsExts are the extensions a relative import may leave out, in the
// order they are tried.
var jsExts = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}

func (b *builder) jsImport(f *index.FileFacts, im symbols.Import) (string, binding) {
	local := im.Alias
	if local == "" && im.Name != "" && im.Name != "*" && im.Name != "default" {
		local = im.Name
	}
	var bd binding
	if im.Name != "*" {
		bd.member = im.Name
	}
	if strings.HasPrefix(im.Path, ".") {
		base := path.Join(path.Dir(f.Path), im.Path)
		var cands []string
		ext := path.Ext(base)
		switch ext {
		case ".js", ".jsx", ".mjs", ".cjs":
			stem := strings.TrimSuffix(base, ext)
			ts := map[string]string{".js": ".ts", ".jsx": ".tsx", ".mjs": ".mts", ".cjs": ".cts"}[ext]
			cands = append(cands, stem+ts, stem+".tsx", base)
		}
		cands = append(cands, base)
		for _, e := range jsExts {
			cands = append(cands, base+e)
		}
		for _, e := range jsExts {
			cands = append(cands, base+"/index"+e)
		}
		if p := b.firstFile(cands...); p >= 0 {
			bd.files = []int32{p}
		}
	} else if p := b.packageImport(f.Path, im.Path); p >= 0 {
		bd.files = []int32{p}
	}
	if bd.member == "default" && local == "" {
		return "", bd
	}
	return local, bd
}

func (b *builder) pyImport(f *index.FileFacts, im symbols.Import) (string, binding) {
	mod := im.Path
	dots := len(mod) - len(strings.TrimLeft(mod, "."))
	rest := strings.ReplaceAll(mod[dots:], ".", "/")
	var bases []string
	if dots > 0 {
		d := path.Dir(f.Path)
		for range dots - 1 {
			d = path.Dir(d)
		}
		bases = []string{d}
	} else {
		bases = []string{".", "src", "lib", path.Dir(f.Path)}
	}
	moduleFile := func(rel string) int32 {
		for _, base := range bases {
			p := path.Join(base, rel)
			if r := b.firstFile(p+".py", p+"/__init__.py", p+".pyi"); r >= 0 {
				return r
			}
		}
		return -1
	}
	var bd binding
	if im.Name != "" && im.Name != "*" {
		// from M import N: N is a submodule, or a member of M.
		if sub := moduleFile(path.Join(rest, im.Name)); sub >= 0 {
			bd.files = []int32{sub}
		} else if m := moduleFile(rest); m >= 0 {
			bd.files, bd.member = []int32{m}, im.Name
		} else {
			bd.member = im.Name
		}
		local := im.Alias
		if local == "" {
			local = im.Name
		}
		return local, bd
	}
	if m := moduleFile(rest); m >= 0 {
		bd.files = []int32{m}
	}
	if im.Name == "*" {
		// from M import *: its names are used unqualified; not bound.
		return "", bd
	}
	if im.Alias != "" {
		return im.Alias, bd
	}
	if !strings.Contains(mod, ".") {
		return mod, bd
	}
	// import a.b binds a, which a use qualifies no further than a.
	return "", bd
}

// firstFile returns the node of the first of the paths that is a file of
// the graph, or -1.
func (b *builder) firstFile(paths ...string) int32 {
	for _, p := range paths {
		p = path.Clean(p)
		if n, ok := b.g.fileNode[p]; ok {
			return n
		}
	}
	return -1
}

package codecortex

import (
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/graph"
	"github.com/codecortex/codecortex/precision"
	"github.com/codecortex/codecortex/route"
	"github.com/codecortex/codecortex/syntax"
	"github.com/codecortex/codecortex/trust"
)

// A fit says how well each record answers the question the plan
// understood. Records that do not answer it leave the answer (counted in
// Answer.Omitted by reason); the others rank by their class first: what
// the question asked for before what it did not, whatever the tiers.
type fit struct {
	intent route.Intent
	name   route.Name
	named  bool
	// What the records hold, from a first pass.
	definitions bool // a definition of the name asked about
	qualified   bool // one whose container matches the question's qualifier
	nested      bool // one whose container holds the qualifier further out (Element.text for Element)
	// member: the question names a member of a type (its qualifier is
	// written as a type's name, capitalised: Context.invoke, not os.path).
	member bool
	strong bool // a use or relation the graph or an index established
	// ownSymbol: a precision record is about a symbol the project defines
	// (among several the name may mean).
	ownSymbol bool
	// subtypes: a record names a subtype or implementation of the name
	// (not what the name itself extends).
	subtypes bool
	// others: the graph resolved uses of the name to members of other
	// types, by what the syntax shows (see graph.OtherDefinitionAttribute).
	others bool
	// lines reads a project file as lines (nil when it cannot).
	lines func(string) []string
	// exact holds the file extensions of the uses or relations a
	// precision index resolved: for those languages it knows them all.
	exact map[string]bool
}

// The reasons a record leaves an answer.
const (
	leftReference   = "a definition answers the question"
	leftQualifier   = "defined in another container than the question names"
	leftText        = "text matches that indexed or graph evidence answers, or that are no call"
	leftNotTest     = "not in a test"
	leftProse       = "mentioned in documentation or data, not used in code"
	leftUnconfirmed = "inferred or text evidence the precision index does not confirm, in a language it resolves"
	leftImport      = "an import of the name, not a call"
	leftSupertype   = "what the name itself extends or implements, where its subtypes answer"
	leftForeign     = "uses of another module's symbol of that name, where the project defines one"
	leftNotCall     = "a use of the name that does not call it"
	leftSelf        = "the symbol asked about, not one of its uses or subtypes"
	leftIndirect    = "subtypes of its subtypes, which the direct ones answer for"
	leftNotSelected = "a text match of the member's name that neither selects it from a value nor calls it"
	leftOther       = "uses of the name the graph resolved to another definition"
	leftUntyped     = "text matches of a member's name other types define too, through a value whose type the syntax does not show"
)

// newFit reads what recs hold for the question plan understood, about
// the name the layers were asked (symbol): the plan's name of that text,
// else its first name that is no guess (a guess joined from plain words
// names the question only when the engine looked it up).
func newFit(plan route.Plan, symbol string, recs []evidence.Record) *fit {
	f := &fit{intent: plan.Intent}
	for _, n := range plan.Names {
		if n.Text == symbol || n.Origin != route.FromWords {
			f.name, f.named = n, true
			break
		}
	}
	if q := lastPart(f.name.Qualifier); q != "" {
		f.member = unicode.IsUpper([]rune(q)[0])
	}
	for i := range recs {
		r := &recs[i]
		switch {
		case otherDefinition(r):
			f.others = f.others || memberKey(r.TargetSymbol)
		case r.Kind == evidence.Definition && f.nameMatches(r):
			f.definitions = true
			f.qualified = f.qualified || f.name.Qualifier != "" && f.qualifierMatches(r)
			f.nested = f.nested || f.name.Qualifier != "" && f.qualifierOuter(r)
		case r.Kind != evidence.Definition && r.Provenance != trust.Lexical && r.Trust > trust.Weak:
			// For a tests question, only what is in tests answers it.
			f.strong = f.strong || f.intent != route.IntentTests || inTest(r)
			f.ownSymbol = f.ownSymbol || r.Metadata.Attributes[precision.DefinedAttribute] == "true"
			if r.Kind == evidence.Implementation && r.Metadata.Attributes["relation"] != relSupertype {
				f.subtypes = true
			}
			if r.Exact || r.Metadata.StaleFrom == trust.Exact || r.Trust == trust.Exact {
				if f.exact == nil {
					f.exact = map[string]bool{}
				}
				f.exact[path.Ext(r.Path)] = true
			}
		}
	}
	return f
}

// leave returns why r does not answer the question, or "".
func (f *fit) leave(r *evidence.Record) string {
	if r.Kind == evidence.Memory {
		return "" // what the team wrote about a place the answer cites
	}
	if otherDefinition(r) {
		return leftOther
	}
	switch f.intent {
	case route.IntentDefinition:
		if !f.definitions {
			return ""
		}
		if r.Kind != evidence.Definition || !f.nameMatches(r) {
			return leftReference
		}
		if f.qualified && !f.qualifierMatches(r) || !f.qualified && f.nested && !f.qualifierOuter(r) {
			return leftQualifier
		}
	case route.IntentCallers, route.IntentReferences, route.IntentTests:
		if r.Kind == evidence.Definition || precision.IsDeclaration(r) ||
			lexical(r) && declaresName(r.Metadata.Excerpt, f.name.Base, r.Path) {
			return leftSelf
		}
		if f.ownSymbol && r.Metadata.Attributes[precision.DefinedAttribute] == "false" {
			return leftForeign
		}
		// Where the graph or an index answers, it has read the files a
		// text match is in: a match it did not resolve to the name is
		// another symbol of that name, or one it cannot tell.
		if lexical(r) && (f.strong || f.intent == route.IntentCallers && !callShaped(r, f.name.Base)) {
			return leftText
		}
		if f.unconfirmed(r) {
			return leftUnconfirmed
		}
		if f.intent == route.IntentCallers && r.Kind == evidence.Reference && !lexical(r) {
			if why := f.notACall(r); why != "" {
				return why
			}
		}
		if lexical(r) && (r.Metadata.Attributes["content"] == "prose" || dataFile(r.Path)) {
			return leftProse
		}
		if lexical(r) && f.member && selectsMembers(r.Path) && !memberShaped(r.Metadata.Excerpt, f.name.Base) {
			return leftNotSelected
		}
		if lexical(r) && f.name.Qualifier != "" && f.others {
			// The graph typed uses of the name to other types' members
			// and none to the one asked about: a text match it left
			// unresolved is a use of one of several types' members.
			return leftUntyped
		}
		if f.intent == route.IntentTests && !inTest(r) {
			return leftNotTest
		}
	case route.IntentImplementations:
		if r.Kind == evidence.Definition {
			return leftSelf
		}
		if f.subtypes && r.Metadata.Attributes["relation"] == relSupertype {
			return leftSupertype
		}
		if d, _ := strconv.Atoi(r.Metadata.Attributes["depth"]); f.subtypes && d > 1 && !transitiveSubtypes(r.Path) {
			return leftIndirect
		}
		if f.unconfirmed(r) {
			return leftUnconfirmed
		}
		if f.strong && (r.Provenance == trust.Lexical || r.Trust <= trust.Weak) {
			return leftText
		}
	}
	return ""
}

// class ranks records that stay: lower first. For a definition question,
// the weights say what decides first: the record is a definition of the
// name (as written, then ignoring case), in the container the question
// names, of the kind it names, outside tests, with a body (an interface
// method or a declaration file only declares it), a type or function
// rather than a value, and a package-level declaration rather than a
// member when the question names none. Other questions rank records
// outside tests and declaration files first unless they ask for tests,
// but a use found by its name alone (below inferred_high) with the tests:
// a use a type shows in a test answers better; a tests question ranks a
// test file's import of the name after the uses. Go code the go command
// does not build (under _examples or testdata) comes after tests: it is
// neither compiled nor run with the module, so a change reaches the
// module's code and tests first.
func (f *fit) class(r *evidence.Record) int {
	test := 0
	if inTest(r) && f.intent != route.IntentTests || outsideBuild(r.Path) {
		test = 1
	}
	if f.intent != route.IntentDefinition || !f.named {
		switch {
		case declarationFile(r.Path):
			return 1 // types for the code, which come first
		case outsideBuild(r.Path):
			return 3
		case f.intent == route.IntentTests && r.Kind == evidence.Import:
			return 1 // a test file's import of the name, which its uses show at work
		case r.Trust < trust.InferredHigh:
			// A use found by its name alone answers no better in code
			// than a use a type shows does in a test: they rank by tier.
			return 1 + test
		}
		return test
	}
	c := 0
	add := func(bad bool, weight int) {
		if bad {
			c += weight
		}
	}
	_, base, member := recordName(r)
	add(r.Kind != evidence.Definition, 256)
	add(base != f.name.Base, 128)
	add(!strings.EqualFold(base, f.name.Base), 64)
	add(f.name.Qualifier != "" && !f.qualifierMatches(r) && !f.qualifierOuter(r), 32)
	add(f.name.Kind != "" && !f.kindMatches(r), 16)
	add(test == 1, 8)
	add(declarationOnly(r), 4)
	add(valueKind(recordKind(r)), 2)
	add(f.name.Qualifier == "" && member, 1)
	return c
}

// nameMatches reports whether r is about the name asked, ignoring case.
func (f *fit) nameMatches(r *evidence.Record) bool {
	_, base, _ := recordName(r)
	return strings.EqualFold(base, f.name.Base)
}

// qualifierMatches reports whether r's container (or, for a package-level
// definition, its package or file) is the question's qualifier: its last
// part, as Ruby's Rack::Response is Response.
func (f *fit) qualifierMatches(r *evidence.Record) bool {
	q := lastPart(f.name.Qualifier)
	container, _, _ := recordName(r)
	if container != "" {
		return lastPart(container) == q
	}
	a := r.Metadata.Attributes
	if p := a["package"]; p != "" && lastPart(p) == q {
		return true
	}
	stem := strings.TrimSuffix(path.Base(r.Path), path.Ext(r.Path))
	return stem == q || path.Base(path.Dir(r.Path)) == q
}

// qualifierOuter reports whether r's container holds the question's
// qualifier further out than its last part: the head of an anonymous
// class in Element's text method (container Element.text) is a head
// method of Element.
func (f *fit) qualifierOuter(r *evidence.Record) bool {
	q := lastPart(f.name.Qualifier)
	container, _, _ := recordName(r)
	parts := strings.FieldsFunc(container, func(c rune) bool { return strings.ContainsRune(".:#/\\", c) })
	return len(parts) > 1 && slices.Contains(parts[:len(parts)-1], q)
}

// kindMatches reports whether r's kind is the one the question names, or
// of its family (a class for "type", a method for "function") when the
// record says only the family.
func (f *fit) kindMatches(r *evidence.Record) bool {
	k := recordKind(r)
	if k == "" {
		return true
	}
	want := f.name.Kind
	return k == want || family(k) == family(want) && (k == "type" || want == "type" || family(k) == "callable")
}

func family(kind string) string {
	switch kind {
	case "interface", "class", "struct", "trait", "enum", "type", "module":
		return "type"
	case "function", "method", "macro":
		return "callable"
	case "field", "member", "constant", "variable", "property":
		return "value"
	}
	return kind
}

func valueKind(k string) bool { return family(k) == "value" }

// recordKind is the kind of definition r records: the local index says it;
// a SCIP symbol says type (ends in #), method or function (ends in ().).
func recordKind(r *evidence.Record) string {
	if k := r.Metadata.Attributes["kind"]; k != "" {
		return k
	}
	for _, s := range r.Metadata.Superseded {
		if k := s.Metadata.Attributes["kind"]; k != "" && s.Path == r.Path && s.StartLine == r.StartLine {
			return k
		}
	}
	if desc, ok := scipDescriptors(r.Symbol); ok {
		switch {
		case strings.HasSuffix(desc, "#"):
			return "type"
		case strings.HasSuffix(desc, ")."):
			if strings.Contains(desc, "#") {
				return "method"
			}
			return "function"
		case strings.HasSuffix(desc, "."):
			// A term: a variable, constant or field, or (as scip-go
			// writes them) an interface's method.
			return "variable"
		}
	}
	return ""
}

// declarationOnly reports whether r declares without defining: a member
// of a Go interface (its signature has no func keyword), a method
// signature in a TypeScript interface or a declaration file (see
// declarationFile), or a signature ending in a semicolon (a Rust trait's
// or a C prototype). A precision record is judged by the local index's
// record of the same place that it superseded.
func declarationOnly(r *evidence.Record) bool {
	if declarationFile(r.Path) {
		return true
	}
	for i := range r.Metadata.Superseded {
		if s := &r.Metadata.Superseded[i]; s.Path == r.Path && s.StartLine == r.StartLine && s.Metadata.Attributes["signature"] != "" {
			return declarationOnly(s)
		}
	}
	a := r.Metadata.Attributes
	sig := strings.TrimSpace(a["signature"])
	switch {
	case a["language"] == "go" && a["kind"] == "method":
		return !strings.HasPrefix(sig, "func")
	case strings.HasSuffix(sig, ";"):
		return true
	}
	return false
}

// declarationFile reports whether p is a TypeScript declaration file
// (.d.ts, and .d.cts, .d.mts beside CommonJS and ES modules): types for
// the code that is elsewhere.
func declarationFile(p string) bool {
	return strings.HasSuffix(p, ".d.ts") || strings.HasSuffix(p, ".d.cts") || strings.HasSuffix(p, ".d.mts")
}

// recordName splits the symbol r is about into its container, base name
// and whether it is a member: from the local index's attributes, a SCIP
// symbol's descriptors, or a "path#Container.Name" graph symbol.
func recordName(r *evidence.Record) (container, base string, member bool) {
	sym := r.Symbol
	if a := r.Metadata.Attributes; a["container"] != "" || r.Provider == "local-index" && r.Kind == evidence.Definition {
		c := a["container"]
		return c, lastPart(sym), c != ""
	}
	if desc, ok := scipDescriptors(sym); ok {
		desc = strings.TrimRight(desc, ".#()")
		desc = strings.TrimSuffix(desc, "()")
		parts := strings.FieldsFunc(desc, func(r rune) bool { return strings.ContainsRune("#./()[]", r) })
		if len(parts) == 0 {
			return "", "", false
		}
		base = parts[len(parts)-1]
		if k := strings.LastIndex(desc, "#"); k >= 0 && k+1 < len(desc) && len(parts) > 1 {
			return parts[len(parts)-2], base, true
		}
		return "", base, false
	}
	if k := strings.LastIndexByte(sym, '#'); k >= 0 {
		sym = sym[k+1:]
	}
	if k := strings.LastIndexAny(sym, ".:"); k >= 0 {
		return strings.Trim(sym[:k], ".:"), sym[k+1:], true
	}
	return "", sym, false
}

// scipDescriptors returns the descriptors of a SCIP symbol ("Command#Execute()."
// of "scip-go gomod m v `m`/Command#Execute()."): what follows the last
// slash outside backticks, without meta descriptors (name:), which name
// no symbol one writes: scip-typescript's "Annotation#typeLiteral3:make_()."
// is the method make_ of the type literal Annotation spells.
func scipDescriptors(sym string) (string, bool) {
	if strings.Count(sym, " ") < 4 {
		return "", false
	}
	tick := strings.LastIndexByte(sym, '`')
	slash := strings.LastIndexByte(sym, '/')
	k := max(tick, slash)
	if k < 0 {
		k = strings.LastIndexByte(sym, ' ')
	}
	desc := sym[k+1:]
	for {
		colon := strings.IndexByte(desc, ':')
		if colon < 0 {
			return desc, true
		}
		start := strings.LastIndexAny(desc[:colon], "#./()[]!") + 1
		desc = desc[:start] + desc[colon+1:]
	}
}

// lastPart returns the last part of a dotted, ::, # or / separated name.
func lastPart(s string) string {
	if k := strings.LastIndexAny(s, ".:#/\\"); k >= 0 {
		return s[k+1:]
	}
	return s
}

// inTest reports whether r is in test code: a test file, or a test module
// inside a source file (Rust's mod tests), as the graph marks its callers.
func inTest(r *evidence.Record) bool {
	if syntax.IsTestFile(r.Path) || r.Metadata.Attributes["test"] == "true" {
		return true
	}
	container, _, _ := recordName(r)
	for _, p := range strings.FieldsFunc(container, func(r rune) bool { return r == '.' || r == ':' }) {
		if p == "tests" || p == "test" {
			return true
		}
	}
	return false
}

// unconfirmed reports whether r is a guess the precision index would have
// confirmed: not exact, in a file of a language whose uses or relations
// the index resolved for this question.
func (f *fit) unconfirmed(r *evidence.Record) bool {
	return f.exact[path.Ext(r.Path)] && !r.Exact && r.Metadata.StaleFrom != trust.Exact && r.Trust != trust.Exact
}

// relSupertype is the relation attribute of an implementation record
// about what the name asked for implements (the precision layer's and the
// graph's), as against what implements it.
const relSupertype = precision.RelationImplementedBy

// otherDefinition reports whether r is a use of the name the graph
// resolved to another definition than the one asked about.
func otherDefinition(r *evidence.Record) bool {
	return r.Metadata.Attributes[graph.OtherDefinitionAttribute] == "true"
}

// memberKey reports whether a graph node's key names a member of a type
// ("path#Type.name"), not a package-level definition ("path#name").
func memberKey(key string) bool {
	_, q, ok := strings.Cut(key, "#")
	return ok && strings.Contains(q, ".")
}

func lexical(r *evidence.Record) bool { return r.Provenance == trust.Lexical || r.Trust <= trust.Weak }

// callShaped reports whether a text match's line calls the name: an
// argument list follows it, or (in a language that calls without one, as
// Ruby does) it is selected from a receiver and ends its statement.
func callShaped(r *evidence.Record, name string) bool {
	line := r.Metadata.Excerpt
	for off := 0; name != ""; {
		k := strings.Index(line[off:], name)
		if k < 0 {
			return false
		}
		k += off
		rest := strings.TrimLeft(line[k+len(name):], " \t")
		if strings.HasPrefix(rest, "(") || strings.HasPrefix(rest, "!(") {
			return true
		}
		if k > 0 && line[k-1] == '.' && (rest == "" || strings.HasPrefix(rest, ")") || strings.HasPrefix(rest, " ")) && strings.HasSuffix(r.Path, ".rb") {
			return true
		}
		off = k + 1
	}
	return false
}

// outsideBuild reports whether a Go file is in a directory the go command
// ignores: one whose name starts with _ or ., or testdata. Its code is an
// example or a fixture, not the module's.
func outsideBuild(p string) bool {
	if !strings.HasSuffix(p, ".go") {
		return false
	}
	for _, d := range strings.Split(path.Dir(p), "/") {
		if d == "testdata" || strings.HasPrefix(d, "_") || strings.HasPrefix(d, ".") && d != "." {
			return true
		}
	}
	return false
}

// notACall says why a reference record is no call, reading its line: an
// import, export or require of the name, or the name with no argument
// list after it (passed as a value, or a type). A line it cannot read,
// and a language that calls without parentheses (Ruby), say nothing.
func (f *fit) notACall(r *evidence.Record) string {
	if f.lines == nil || strings.HasSuffix(r.Path, ".rb") {
		return ""
	}
	ls := f.lines(r.Path)
	if r.StartLine < 1 || r.StartLine > len(ls) {
		return ""
	}
	line := strings.TrimRight(ls[r.StartLine-1], "\r")
	if importLine(line) {
		return leftImport
	}
	runes := []rune(line)
	at := r.StartColumn - 1
	if at < 0 || at >= len(runes) {
		return ""
	}
	end := at
	for end < len(runes) && isIdentRune(runes[end]) {
		end++
	}
	rest := strings.TrimLeft(string(runes[end:]), " \t")
	if strings.HasPrefix(rest, "<") { // type arguments: f<T>(x)
		if k := strings.IndexByte(rest, '>'); k > 0 {
			rest = strings.TrimLeft(rest[k+1:], " \t")
		}
	}
	if strings.HasPrefix(rest, "(") || strings.HasPrefix(rest, "!(") || strings.HasPrefix(rest, "?.(") || strings.HasPrefix(rest, "`") {
		return ""
	}
	return leftNotCall
}

// importLine reports whether a line imports, exports or requires names:
// import, from … import, export { … }, use, #include, require(…).
func importLine(line string) bool {
	t := strings.TrimSpace(line)
	for _, p := range []string{"import ", "import{", "from ", "export {", "export{", "export *", "use ", "pub use ", "#include", "require ", "require_relative "} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return strings.Contains(t, "require(") && strings.Contains(t, "=") || strings.HasPrefix(t, "} from ")
}

// dataFile reports whether a file holds data or documentation rather than
// code: a name written there is mentioned, not used.
func dataFile(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".json", ".yaml", ".yml", ".toml", ".lock", ".sum", ".mod", ".md", ".markdown", ".rst", ".txt",
		".xml", ".html", ".csv", ".ini", ".cfg", ".conf", ".properties", ".svg":
		return true
	}
	return false
}

// transitiveSubtypes reports whether the language of a file answers
// "which classes extend X" with the subtypes of its subtypes too, as its
// own tools do: TypeScript's and JavaScript's language service lists
// every implementation of a class or interface. Elsewhere the answer is
// the direct subtypes, as Python's __subclasses__() and Ruby's
// Class#subclasses give them, and a Java or C# class, a Rust impl or a
// Go type declares its own; theirs are left out, said in omitted.
func transitiveSubtypes(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts":
		return true
	}
	return false
}

// selectsMembers reports whether the language of a file writes every use
// of a type's member as a selection from a value or a type (self.x,
// this.x, x.f(), T::f, $this->x) or a call: Python, JavaScript,
// TypeScript, Go, Rust and PHP. Ruby, Java, C# and C++ use members bare
// inside their type, so a bare name may be a use there.
func selectsMembers(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".py", ".pyi", ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".go", ".rs", ".php":
		return true
	}
	return false
}

// memberShaped reports whether a line writes name as code that uses a
// member: selected (after ".", "->" or "::") or called (an argument list
// follows). A word of prose ("to invoke the callback"), a string or a
// key of a literal ("default:") is neither.
func memberShaped(line, name string) bool {
	for off := 0; name != "" && off < len(line); {
		k := strings.Index(line[off:], name)
		if k < 0 {
			return false
		}
		k += off
		end := k + len(name)
		off = k + 1
		if k > 0 && isIdentByte(line[k-1]) || end < len(line) && isIdentByte(line[end]) {
			continue // part of a longer identifier
		}
		before := strings.TrimRight(line[:k], " \t")
		after := strings.TrimLeft(line[end:], " \t")
		if strings.HasSuffix(before, ".") || strings.HasSuffix(before, "->") || strings.HasSuffix(before, "::") ||
			strings.HasPrefix(after, "(") {
			return true
		}
	}
	return false
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// declKeywords are the words that declare the name written after them.
var declKeywords = map[string]bool{
	"function": true, "def": true, "fn": true, "func": true, "fun": true, "sub": true, "class": true,
	"interface": true, "struct": true, "trait": true, "enum": true, "type": true, "module": true,
	"union": true, "const": true, "let": true, "var": true, "val": true, "macro_rules!": true,
}

// methodModifiers may precede a method's name where a JavaScript or
// TypeScript class or object literal declares it.
var methodModifiers = map[string]bool{
	"async": true, "static": true, "get": true, "set": true, "public": true, "private": true,
	"protected": true, "readonly": true, "override": true, "abstract": true,
}

// declaresName reports whether a line of code declares name rather than
// uses it: a declaring keyword before it (def name, function name, const
// name), a Go method's receiver before it (func (t *T) name), or, in
// JavaScript and TypeScript, a method's head (name(args) { at the start of
// the line, after modifiers).
func declaresName(line, name, file string) bool {
	t := strings.TrimSpace(line)
	for off := 0; name != "" && off < len(t); {
		k := strings.Index(t[off:], name)
		if k < 0 {
			return false
		}
		k += off
		end := k + len(name)
		off = k + 1
		if k > 0 && isIdentByte(t[k-1]) || end < len(t) && isIdentByte(t[end]) {
			continue
		}
		before := strings.TrimRight(t[:k], " \t")
		words := strings.Fields(before)
		switch {
		case len(words) > 0 && declKeywords[words[len(words)-1]]:
			return true
		case strings.HasPrefix(before, "func (") && strings.HasSuffix(before, ")"):
			return true
		case jsFamily(file) && strings.HasSuffix(t, "{") && allModifiers(words) && !strings.Contains(t, "=>"):
			// A head ends its parameters (and return type) before the
			// brace; a call's argument list does not hold a brace after
			// it (configure(app, { … } opens an object literal).
			rest := strings.TrimLeft(t[end:], " \t")
			head := strings.TrimSpace(strings.TrimSuffix(t, "{"))
			return (strings.HasPrefix(rest, "(") || strings.HasPrefix(rest, "<")) &&
				(strings.HasSuffix(head, ")") || strings.Contains(head, "):"))
		}
	}
	return false
}

func allModifiers(words []string) bool {
	for _, w := range words {
		if !methodModifiers[w] {
			return false
		}
	}
	return true
}

func jsFamily(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts":
		return true
	}
	return false
}

package symbols

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/codecortex/codecortex/syntax"
)

// ErrUnsupported is matched (errors.Is) by the error of [Extract] for a
// file whose extension names no language the syntax floor parses.
var ErrUnsupported = errors.New("symbols: unsupported language")

// MaxSignature is the most code points a [Symbol.Signature] holds; a
// longer head is cut and ends with "…".
const MaxSignature = 200

// Extract parses src, the content of the file at path, once, and returns
// the definitions it makes and the imports it reads. The language comes
// from the path's extension ([syntax.Detect]: a .h header holding C++ is
// read as C++); a file of no known language is an error matching
// [ErrUnsupported], and a build without cgo returns one matching
// [syntax.ErrUnavailable]. A file with syntax errors is not an error:
// File.Errors is set and the definitions outside the broken parts are
// given.
func Extract(path string, src []byte) (*File, error) {
	lang, ok := syntax.Detect(path, src)
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrUnsupported, quotePath(path))
	}
	var f *File
	if err := syntax.ParseFunc(lang, src, func(t *syntax.Tree) { f = ExtractTree(path, t) }); err != nil {
		return nil, fmt.Errorf("symbols: %s: %w", quotePath(path), err)
	}
	return f, nil
}

// ExtractTree returns what the file at path defines and imports, read
// from its parsed tree, so that a caller that parses a file for other
// uses too (chunks, structural search) parses it once. The language is
// the tree's.
//
// Where a syntax error broke the tree, the top-level parts that hold it
// are parsed again alone and what they define is added (see recover.go).
func ExtractTree(path string, t *syntax.Tree) *File {
	f := extractTree(path, t)
	recoverBroken(f, t)
	return f
}

func extractTree(path string, t *syntax.Tree) *File {
	x := newExtractor(path, t)
	if fn := extractors[t.Language()]; fn != nil {
		fn(x)
	}
	x.finish()
	x.refs()
	return x.f
}

// extractors read the definitions of each language.
var extractors = map[syntax.Language]func(*extractor){
	syntax.Go:         (*extractor).goFile,
	syntax.Python:     (*extractor).pyFile,
	syntax.JavaScript: (*extractor).jsFile,
	syntax.TypeScript: (*extractor).jsFile,
	syntax.TSX:        (*extractor).jsFile,
	syntax.Rust:       (*extractor).rustFile,
	syntax.Java:       (*extractor).javaFile,
	syntax.C:          (*extractor).cFile,
	syntax.Cpp:        (*extractor).cFile,
	syntax.CSharp:     (*extractor).csFile,
	syntax.Ruby:       (*extractor).rubyFile,
	syntax.PHP:        (*extractor).phpFile,
	syntax.Bash:       (*extractor).bashFile,
	syntax.Kotlin:     (*extractor).ktFile,
	syntax.JSON:       (*extractor).jsonFile,
}

func quotePath(p string) string {
	for _, r := range p {
		if r < ' ' || r == 0x7f {
			return fmt.Sprintf("%q", p)
		}
	}
	return p
}

// An extractor reads one tree.
type extractor struct {
	t     *syntax.Tree
	src   []byte
	lines *syntax.Lines
	lang  syntax.Language
	f     *File
	// doc marks the one-based lines that hold only a comment or an
	// attribute (decorator, annotation): the lines a DocLine may climb.
	doc []bool
	// trivia are the byte spans of comments and attributes, in order, left
	// out of signatures.
	trivia []syntax.Span
	// rustTraitPub says whether the trait being read is exported.
	rustTraitPub bool
	// rustLocal is how many function bodies the walk is in: items there
	// are not exported.
	rustLocal int
	// javaDepth is how many method bodies and initializers the walk is
	// in.
	javaDepth int
	// cHeader says the C or C++ file is a header.
	cHeader bool
	// outer is, for each definition, the one enclosing it (see
	// outerDefinitions), where locals' types are read.
	outer []int
}

// attributeKinds are the node kinds that annotate the definition below
// them, by language.
var attributeKinds = map[syntax.Language]map[string]bool{
	syntax.Python:     {"decorator": true},
	syntax.JavaScript: {"decorator": true},
	syntax.TypeScript: {"decorator": true},
	syntax.TSX:        {"decorator": true},
	syntax.Java:       {"annotation": true, "marker_annotation": true},
	syntax.Kotlin:     {"annotation": true, "file_annotation": true},
	syntax.CSharp:     {"attribute_list": true},
	syntax.Rust:       {"attribute_item": true, "inner_attribute_item": true},
	syntax.PHP:        {"attribute_list": true},
	syntax.Cpp:        {"attribute_declaration": true},
	syntax.C:          {"attribute_declaration": true},
}

// triviaKinds are the kinds of comments and attributes.
var triviaKinds = &kindSet{has: func(l syntax.Language, kind string) bool {
	return strings.Contains(kind, "comment") || attributeKinds[l][kind]
}}

func newExtractor(path string, t *syntax.Tree) *extractor {
	x := &extractor{t: t, src: t.Source(), lines: t.Lines(), lang: t.Language(),
		f: &File{Path: path, Language: string(t.Language()), Symbols: []Symbol{}, Imports: []Import{}, Errors: t.HasError()}}
	x.doc = make([]bool, x.lines.Count()+2)
	trivia := triviaKinds.of(t.Grammar())
	for i := range t.Len() {
		n := syntax.NodeID(i)
		if !trivia.has(t.KindID(n)) {
			continue
		}
		s, e := t.StartByte(n), t.EndByte(n)
		if k := len(x.trivia); k > 0 && x.trivia[k-1].End >= s {
			// An attribute holding a comment: one span.
			x.trivia[k-1].End = max(x.trivia[k-1].End, e)
		} else {
			x.trivia = append(x.trivia, syntax.Span{Start: s, End: e})
		}
		first := x.lines.Line(s)
		if !x.firstOnLine(s) {
			continue // a comment after code
		}
		last := x.lines.Line(max(s, e-1))
		for l := first; l <= last; l++ {
			x.doc[l] = true
		}
	}
	return x
}

// firstOnLine reports whether only blanks precede byte offset off on its
// line.
func (x *extractor) firstOnLine(off int) bool {
	for i := off - 1; i >= 0; i-- {
		switch x.src[i] {
		case '\n':
			return true
		case ' ', '\t', '\r', '\f', '\v':
		default:
			return false
		}
	}
	return true
}

// finish gives every symbol without a package the file's, and orders the
// symbols by position, outer before inner.
func (x *extractor) finish() {
	for i := range x.f.Symbols {
		if x.f.Symbols[i].Package == "" {
			x.f.Symbols[i].Package = x.f.Package
		}
	}
	sort.SliceStable(x.f.Symbols, func(i, j int) bool {
		a, b := &x.f.Symbols[i], &x.f.Symbols[j]
		if a.Range.StartByte != b.Range.StartByte {
			return a.Range.StartByte < b.Range.StartByte
		}
		if a.Range.EndByte != b.Range.EndByte {
			return a.Range.EndByte > b.Range.EndByte
		}
		return a.NameRange.StartByte < b.NameRange.StartByte
	})
	sort.SliceStable(x.f.Imports, func(i, j int) bool {
		return x.f.Imports[i].Range.StartByte < x.f.Imports[j].Range.StartByte
	})
}

// A def is one definition about to be added.
type def struct {
	kind      Kind
	name      string
	nameNode  syntax.NodeID
	node      syntax.NodeID // the whole definition
	container string
	exported  bool
	pkg       string
	// head is the byte span of the signature; zero means from node's
	// start to its end.
	headStart, headEnd int
	// prefix goes before the head in the signature (a keyword the
	// grouping declaration holds).
	prefix string
	// docAt is where the comments above are looked for: the byte offset
	// of the definition's first part (a decorator, a grouped spec); 0
	// means node's start.
	docAt int
}

// add adds a definition; a nameless one is dropped.
func (x *extractor) add(d def) {
	if d.name == "" {
		return
	}
	r := x.rangeOf(d.node)
	hs, he := d.headStart, d.headEnd
	if hs == 0 && he == 0 {
		hs, he = r.StartByte, r.EndByte
	}
	doc := r.StartLine
	at := d.docAt
	if at == 0 {
		at = r.StartByte
	}
	// Only a definition that starts its line has comments above it.
	if x.firstOnLine(at) {
		doc = x.docLine(x.lines.Line(at))
	}
	x.f.Symbols = append(x.f.Symbols, Symbol{
		Name:      d.name,
		Kind:      d.kind,
		Container: d.container,
		Package:   d.pkg,
		Signature: x.signature(d.prefix, hs, he),
		Exported:  d.exported,
		NameRange: Range(x.rangeOf(d.nameNode)),
		Range:     r,
		DocLine:   min(doc, r.StartLine),
	})
}

// addImport adds an import; an empty path is dropped.
func (x *extractor) addImport(path, name, alias string, n syntax.NodeID) {
	if path == "" {
		return
	}
	x.f.Imports = append(x.f.Imports, Import{Path: path, Name: name, Alias: alias, Range: Range(x.rangeOf(n))})
}

// rangeOf returns n's range without the line break some grammars end a
// node with (a C #define, an #include).
func (x *extractor) rangeOf(n syntax.NodeID) syntax.Range {
	s, e := x.t.StartByte(n), x.t.EndByte(n)
	for e > s && (x.src[e-1] == '\n' || x.src[e-1] == '\r') {
		e--
	}
	return x.lines.Range(s, e)
}

// docLine returns the first line of the comment and attribute lines
// directly above line (line itself when there are none).
func (x *extractor) docLine(line int) int {
	for line > 1 && x.doc[line-1] {
		line--
	}
	return line
}

// signature returns prefix and src[start:end] on one line: comments and
// attributes left out, every run of white space one space, cut to
// MaxSignature code points.
func (x *extractor) signature(prefix string, start, end int) string {
	var b strings.Builder
	n := 0         // code points written
	space := false // a space is due before the next character
	full := false
	var last rune
	put := func(r rune) {
		if unicode.IsSpace(r) {
			space = n > 0
			return
		}
		// A line break inside brackets reads as nothing: f(\n a) is f(a).
		if space && last != '(' && last != '[' && r != ')' && r != ']' && r != ',' {
			b.WriteByte(' ')
			n++
		}
		space = false
		b.WriteRune(r)
		n++
		last = r
		full = n > MaxSignature
	}
	for _, r := range prefix {
		put(r)
	}
	k := sort.Search(len(x.trivia), func(i int) bool { return x.trivia[i].End > start })
	for i := start; i < end && !full; {
		if k < len(x.trivia) && x.trivia[k].Start <= i {
			i = max(i, x.trivia[k].End)
			k++
			space = n > 0
			continue
		}
		r, w := utf8.DecodeRune(x.src[i:end])
		i += w
		put(r)
	}
	if !full {
		// A declaration's terminator is not part of its head.
		// A head cut before a value ends with its "=".
		return strings.TrimRight(strings.TrimSuffix(strings.TrimRight(b.String(), "; "), "="), " ")
	}
	s := []rune(b.String())
	return string(s[:MaxSignature-1]) + "…"
}

// Tree helpers.

func (x *extractor) kind(n syntax.NodeID) string { return x.t.Kind(n) }

func (x *extractor) text(n syntax.NodeID) string { return x.t.Text(n) }

func (x *extractor) kids(n syntax.NodeID) []syntax.NodeID { return x.t.AppendChildren(nil, n) }

// field returns n's child in the named field.
func (x *extractor) field(n syntax.NodeID, name string) (syntax.NodeID, bool) {
	return x.t.ChildByField(n, name)
}

// fieldText returns the text of n's child in the named field, or "".
func (x *extractor) fieldText(n syntax.NodeID, name string) string {
	if c, ok := x.t.ChildByField(n, name); ok {
		return x.t.Text(c)
	}
	return ""
}

// childOfKind returns n's first child of one of kinds.
func (x *extractor) childOfKind(n syntax.NodeID, kinds ...string) (syntax.NodeID, bool) {
	for c, ok := x.t.FirstChild(n); ok; c, ok = x.t.NextSibling(c) {
		k := x.t.Kind(c)
		for _, want := range kinds {
			if k == want {
				return c, true
			}
		}
	}
	return 0, false
}

// hasChild reports whether n has a child whose kind is k (a keyword or
// modifier token, typically).
func (x *extractor) hasChild(n syntax.NodeID, k string) bool {
	_, ok := x.childOfKind(n, k)
	return ok
}

// descendant returns the first node of one of kinds in n's subtree (n
// itself included), in pre-order.
func (x *extractor) descendant(n syntax.NodeID, kinds ...string) (syntax.NodeID, bool) {
	for i := n; i < x.t.End(n); i++ {
		k := x.t.Kind(i)
		for _, want := range kinds {
			if k == want {
				return i, true
			}
		}
	}
	return 0, false
}

// head returns the signature span of n: from its start (or from's, when
// from is not n) to the start of body, or to n's end without a body.
func (x *extractor) head(from, n syntax.NodeID, body syntax.NodeID, hasBody bool) (int, int) {
	if hasBody {
		return x.t.StartByte(from), x.t.StartByte(body)
	}
	return x.t.StartByte(from), x.t.EndByte(n)
}

// bodyHead returns the signature span of n up to its "body" field.
func (x *extractor) bodyHead(from, n syntax.NodeID) (int, int) {
	b, ok := x.field(n, "body")
	return x.head(from, n, b, ok)
}

// unquote strips the quotes of a string literal's text.
func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 {
		switch q := s[0]; q {
		case '"', '\'', '`', '<':
			end := q
			if q == '<' {
				end = '>'
			}
			if s[len(s)-1] == end {
				return s[1 : len(s)-1]
			}
		}
	}
	return s
}

// joinName joins a container and a name with a dot.
func joinName(container, name string) string {
	if container == "" {
		return name
	}
	return container + "." + name
}

// upperFirst reports whether s starts with an upper-case letter.
func upperFirst(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

package structural

import "bytes"

// Parsing dominates a search, and most of a file is usually far from any
// match: the declarations holding a common pattern's literals are about
// half of the files holding them (docs/benchmarks.md has the figures). A
// file whose language can be split safely at its
// top-level declarations is cut into segments; only the segments holding
// every literal the pattern needs are parsed, through tree-sitter's
// included ranges, which keep every node at its offset in the file.
//
// A match never spans two segments: every segment boundary starts a
// top-level declaration, in a form that can begin nothing else and
// continue nothing before it (startsGoDecl), so in a file tree-sitter
// reads without an error every node below the file's root lies within
// one segment, and the parse of a declaration does not depend on the
// declarations around it: the partial tree holds the same subtrees as the
// whole parse (TestPartialParseKeepsDeclarations, FuzzPartialParse). When
// the partial parse has an ERROR or MISSING node the file is parsed
// whole. What is not covered: a file whose syntax error lies only in
// declarations a search skips may read differently around that error
// when parsed whole (measured by BenchmarkPartialParseAroundErrors: 5 of
// 508 broken standard library files).

// A segment is a stretch of a file that starts at column 0 of a line and
// holds whole top-level items: the bytes [start, end).
type segment struct {
	start, end uint32
}

// segmentsOf returns src's segments for lang, or nil when the file is
// parsed whole: lang has no splitter, the file cannot be split safely, or
// it has a single segment.
func segmentsOf(lang Language, src []byte) []segment {
	if lang != Go || len(src) >= 1<<31 {
		return nil
	}
	return goSegments(src)
}

// goSegments cuts Go source before every line that starts, at column 0
// and outside every bracket, a declaration as startsGoDecl reads it, where
// the segment before looks complete and the line before ends a statement
// (Go inserts a semicolon there, so the declaration before cannot continue
// onto it). It lexes comments, strings, runes and raw strings so that none
// of their content counts. It returns nil for a file it cannot follow: an
// unterminated comment or literal, or unbalanced brackets.
func goSegments(src []byte) []segment {
	var (
		segs  []segment
		depth int
		// open is true when the last token does not end a statement
		// (an operator, a comma, most keywords), so the next line
		// continues it.
		open bool
		it   goItem
	)
	segs = cutSegment(segs, 0)
	lineStart := 0
	it.fresh = true
	for i := 0; i < len(src); {
		if i == lineStart && depth == 0 && !open {
			if i > 0 && it.complete() && startsGoDecl(src[i:]) {
				segs = cutSegment(segs, i)
			}
			it.fresh, it.line = true, i
		}
		c := src[i]
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '\f' && c != '\v' &&
			!(c == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*')) && !isGoWordByte(c) {
			it.token(src, nil) // punctuation or a literal: a token, never a segment's first word
		}
		ok := true
		switch {
		case c == '\n':
			i++
			lineStart = i
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			i, lineStart, ok = skipGoBlockComment(src, i, lineStart)
		case c == '"' || c == '\'':
			i, ok = skipGoQuoted(src, i)
			open = false
		case c == '`':
			i, lineStart, ok = skipGoRawString(src, i, lineStart)
			open = false
		case isGoWordByte(c):
			j := goWordEnd(src, i)
			it.token(src, src[i:j])
			open = goKeepsOpen(src[i:j])
			i = j
		case c == '(' || c == '[' || c == '{':
			depth++
			open = true
			i++
		case c == ')' || c == ']' || c == '}':
			depth--
			ok = depth >= 0
			open = false
			i++
		case (c == '+' || c == '-') && i+1 < len(src) && src[i+1] == c:
			open = false // ++ and -- end a statement
			i += 2
		case c == ';':
			open = false
			i++
		default:
			open = true
			i++
		}
		if !ok {
			return nil
		}
	}
	if depth != 0 || len(segs) < 2 {
		return nil
	}
	segs[len(segs)-1].end = uint32(len(src))
	return segs
}

// cutSegment ends the last segment at offset at and starts one there.
func cutSegment(segs []segment, at int) []segment {
	if n := len(segs); n > 0 {
		segs[n-1].end = uint32(at)
	}
	return append(segs, segment{start: uint32(at)})
}

// goWordEnd returns the end of the word at src[i].
func goWordEnd(src []byte, i int) int {
	for i < len(src) && isGoWordByte(src[i]) {
		i++
	}
	return i
}

// A goItem follows the last top-level item goSegments has seen. A segment
// may end only after a top-level item that looks complete: Go's own items
// (a line at depth 0 after one that ends a statement) are followed, and
// the last one must be the package clause or a declaration startsGoDecl
// accepts with more than its keyword and a name (var A alone would let
// tree-sitter read the next line as its type; a stray func() as the start
// of a conversion).
type goItem struct {
	first     string // the item's first word
	declStart bool   // whether its line starts a declaration
	tokens    int    // how many tokens it has
	fresh     bool   // the next token starts an item, at line
	line      int
	anyItem   bool // an item was seen: package may only come first
}

// complete reports whether the item looks complete.
func (it *goItem) complete() bool {
	if !it.declStart {
		return false
	}
	switch it.first {
	case "package", "func", "import":
		return it.tokens >= 2
	case "var", "type", "const":
		return it.tokens >= 3
	}
	return false
}

// token counts a token of src, word for a word and nil for anything
// else, and starts an item with it if one is due.
func (it *goItem) token(src, word []byte) {
	if it.fresh {
		it.first, it.tokens, it.fresh = string(word), 0, false
		it.declStart = it.first == "package" && !it.anyItem || startsGoDecl(src[it.line:])
		it.anyItem = true
	}
	it.tokens++
}

// skipGoBlockComment returns the offset past the /* comment at i and the
// start of the last line it begins; ok is false if it is unterminated.
func skipGoBlockComment(src []byte, i, lineStart int) (next, line int, ok bool) {
	i += 2
	for {
		if i+1 >= len(src) {
			return i, lineStart, false
		}
		if src[i] == '*' && src[i+1] == '/' {
			return i + 2, lineStart, true
		}
		if src[i] == '\n' {
			lineStart = i + 1
		}
		i++
	}
}

// skipGoQuoted returns the offset past the string or rune literal at i;
// ok is false if it is unterminated or breaks a line, which Go's are not.
func skipGoQuoted(src []byte, i int) (next int, ok bool) {
	c := src[i]
	i++
	for {
		if i >= len(src) || src[i] == '\n' {
			return i, false
		}
		if src[i] == '\\' {
			if i+1 < len(src) && src[i+1] == '\n' {
				return i, false // a line break inside a literal: not Go
			}
			i += 2
			continue
		}
		if src[i] == c {
			return i + 1, true
		}
		i++
	}
}

// skipGoRawString returns the offset past the raw string at i and the
// start of the last line it begins; ok is false if it is unterminated.
func skipGoRawString(src []byte, i, lineStart int) (next, line int, ok bool) {
	i++
	for {
		if i >= len(src) {
			return i, lineStart, false
		}
		if src[i] == '\n' {
			lineStart = i + 1
		}
		if src[i] == '`' {
			return i + 1, lineStart, true
		}
		i++
	}
}

// isGoWordByte reports whether c can be part of an identifier, keyword or
// number (bytes of multi-byte UTF-8 letters included).
func isGoWordByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= 0x80
}

// isGoKeyword reports whether word is one of Go's 25 keywords.
func isGoKeyword(word []byte) bool {
	switch string(word) {
	case "break", "continue", "fallthrough", "return":
		return true
	}
	return goKeepsOpen(word)
}

// goKeepsOpen reports whether a line ending with word does not end a
// statement: every keyword but break, continue, fallthrough and return.
func goKeepsOpen(word []byte) bool {
	switch string(word) {
	case "case", "chan", "const", "default", "defer", "else", "for", "func", "go", "goto",
		"if", "import", "interface", "map", "package", "range", "select", "struct", "switch",
		"type", "var":
		return true
	}
	return false
}

// startsGoDecl reports whether line starts a top-level declaration in a
// form nothing before it can continue: type, var, const or import, which
// only ever start a declaration, or a named function or method
// (func Name( or func (recv) Name(, with [ for type parameters). A func
// without a name is a function type or literal, which tree-sitter-go
// would read as continuing an unfinished declaration before it (var A on
// the line before is a variable of that function type), so it never cuts.
func startsGoDecl(line []byte) bool {
	for _, kw := range [...]string{"type", "var", "const", "import"} {
		if hasGoWord(line, kw) {
			return true
		}
	}
	if !hasGoWord(line, "func") {
		return false
	}
	rest := skipBlanks(line[len("func"):])
	if len(rest) > 0 && rest[0] == '(' {
		depth := 0
		i := 0
		for ; i < len(rest) && rest[i] != '\n'; i++ {
			if rest[i] == '(' {
				depth++
			} else if rest[i] == ')' {
				if depth--; depth == 0 {
					break
				}
			}
		}
		if depth != 0 || i == len(rest) || rest[i] != ')' || len(bytes.TrimSpace(rest[1:i])) == 0 {
			return false // a method has a receiver; func() is a type or literal
		}
		rest = skipBlanks(rest[i+1:])
	}
	n := 0
	for n < len(rest) && isGoWordByte(rest[n]) {
		n++
	}
	if n == 0 || '0' <= rest[0] && rest[0] <= '9' || isGoKeyword(rest[:n]) {
		return false // func()func(){} is a literal, not a method named func
	}
	rest = skipBlanks(rest[n:])
	return len(rest) > 0 && (rest[0] == '(' || rest[0] == '[')
}

// hasGoWord reports whether line starts with the word kw.
func hasGoWord(line []byte, kw string) bool {
	return len(line) > len(kw) && string(line[:len(kw)]) == kw && !isGoWordByte(line[len(kw)])
}

func skipBlanks(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

// selectSegments marks the segments of src that p may match in, and
// reports whether any is marked.
func selectSegments(p *Pattern, src []byte, segs []segment, marks []bool) bool {
	any := false
	for k, s := range segs {
		if p.mayMatch(src[s.start:s.end]) {
			marks[k] = true
			any = true
		}
	}
	return any
}

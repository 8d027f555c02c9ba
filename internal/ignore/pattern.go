// Package ignore decides which paths of a project tree git would ignore,
// from the tree's .gitignore files and .git/info/exclude, following
// gitignore(5) and git's own matcher (wildmatch) byte for byte.
//
// What is implemented, as git does it:
//
//   - one pattern a line; blank lines and lines starting with # match
//     nothing; trailing spaces are dropped unless escaped with \; a
//     trailing CR and a leading UTF-8 byte order mark are dropped;
//   - ! negates a pattern (re-includes what an earlier one excluded);
//     \! and \# start a pattern with a literal ! or #;
//   - a trailing / matches directories only;
//   - a pattern with no / but a trailing one matches the name at any
//     depth below its file's directory; any other / (leading or in the
//     middle) anchors it to that directory;
//   - * and ? never match a /, [...] is a byte class ([!...] and [^...]
//     negate, a-z ranges, [:alpha:] and the other POSIX classes) that
//     never matches a /; \ escapes the next byte;
//   - **/ at the start and /**/ in the middle match zero or more
//     directories, /** at the end everything inside; elsewhere ** is *;
//   - the deepest .gitignore that has a matching pattern decides, by its
//     last matching pattern; .git/info/exclude comes below every
//     .gitignore; a path inside an ignored directory is ignored, and no
//     pattern can re-include it.
//
// Matching is case-sensitive (git's default core.ignoreCase=false).
//
// A repository's ignore files are outside input, and every command's walk
// asks them about every path: an ignore file is compiled once (see List),
// so that the rules of the common shapes (names, extensions, prefixes,
// anchored paths) are looked up, whatever their number, and only the
// others run, each as a bit-parallel automaton in time linear in the
// path. What the ignore files may hold is bounded (see limits): past a
// bound, the directory of the file is left out whole, as if ignored, and
// Tree.Diagnostics says which file and which limit.
package ignore

import (
	"strings"
)

// A rule is one pattern line of an ignore file.
type rule struct {
	negate  bool
	dirOnly bool
	// base is true for a pattern without a slash, matched against the
	// last element of a path; otherwise it is matched against the path
	// relative to the ignore file's directory.
	basename bool
	// never is set for a pattern git can never match (an unterminated
	// [ class, a trailing backslash).
	never bool
	toks  []tok
	// lit is the bytes of the tokens' leading run of literals, which a
	// path must start with, and tail the tokens after it: most patterns
	// are anchored names or start with one, and fail on a path's first
	// bytes without running the tokens.
	lit  string
	tail []tok
	// star is set when tail is one * and literals (as *.log or the end of
	// .#*), suffix the bytes of those literals: a name matches when it
	// ends with them and holds no / before.
	star   bool
	suffix string
	// g runs tail, for a general rule that is not star (see List).
	g *glob
	// literal is set for a rule of literals only, parsed without tokens:
	// lit is all of it.
	literal bool
	// text is the pattern as written (after trimming), for diagnostics.
	text string
	// line is the rule's line in its file, from 1.
	line int
}

type tokKind uint8

const (
	tLit      tokKind = iota // one byte
	tAny                     // ?: one byte other than /
	tClass                   // [...]: one byte of the set, never /
	tStar                    // *: any bytes without a /
	tStarStar                // ** across directories: any bytes
	// tSkip consumes nothing and lets the match go on either at the next
	// token or n tokens further: **/ is tSkip(2) tStarStar '/', nothing or
	// any bytes ending in a slash.
	tSkip
)

type tok struct {
	kind tokKind
	b    byte
	n    uint8 // tSkip's jump
	set  *[256]bool
}

// eachRule calls fn with the rules of an ignore file, in the file's
// order, their line and shortcuts set (see parseRule for lean), until fn
// returns false.
func eachRule(data []byte, lean bool, fn func(rule) bool) {
	// One string for the whole file: every rule's text is a part of it.
	text := strings.TrimPrefix(string(data), "\xef\xbb\xbf")
	for n := 1; text != ""; n++ {
		var line string
		line, text, _ = strings.Cut(text, "\n")
		line = strings.TrimSuffix(line, "\r")
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		r, ok := parseRule(line, lean)
		if !ok {
			continue
		}
		r.line = n
		if !r.literal {
			r.shortcuts()
		}
		if !fn(r) {
			return
		}
	}
}

// shortcuts sets lit, tail, star and suffix from the tokens.
func (r *rule) shortcuts() {
	k := leadingLiterals(r.toks)
	r.lit, r.tail = literals(r.toks[:k]), r.toks[k:]
	if len(r.tail) > 0 && r.tail[0].kind == tStar {
		rest := r.tail[1:]
		if leadingLiterals(rest) == len(rest) {
			r.star, r.suffix = true, literals(rest)
		}
	}
}

// leadingLiterals returns how many of toks, from the first, are literals.
func leadingLiterals(toks []tok) int {
	k := 0
	for k < len(toks) && toks[k].kind == tLit {
		k++
	}
	return k
}

// literals returns the bytes of toks, all literals.
func literals(toks []tok) string {
	b := make([]byte, len(toks))
	for i, t := range toks {
		b[i] = t.b
	}
	return string(b)
}

// trimTrailingSpaces drops the spaces that end s, unless a backslash
// escapes the first of them, as git's trim_trailing_spaces does.
func trimTrailingSpaces(s string) string {
	lastSpace := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if lastSpace < 0 {
				lastSpace = i
			}
		case '\\':
			i++
			if i >= len(s) {
				return s
			}
			lastSpace = -1
		default:
			lastSpace = -1
		}
	}
	if lastSpace >= 0 {
		return s[:lastSpace]
	}
	return s
}

// parseRule parses one line. With lean, a pattern without any of *?[\
// is kept as its literal (lit) alone, without tokens.
func parseRule(line string, lean bool) (rule, bool) {
	// C strings end at a NUL: git never sees what follows one.
	if i := strings.IndexByte(line, 0); i >= 0 {
		line = line[:i]
	}
	p := trimTrailingSpaces(line)
	r := rule{text: p}
	if strings.HasPrefix(p, "!") {
		r.negate = true
		p = p[1:]
	}
	if strings.HasSuffix(p, "/") {
		r.dirOnly = true
		p = p[:len(p)-1]
	}
	if p == "" {
		return rule{}, false
	}
	r.basename = !strings.Contains(p, "/")
	if lean {
		q := p
		if !r.basename {
			q = strings.TrimPrefix(p, "/")
		}
		if !strings.ContainsAny(q, `*?[\`) {
			r.lit, r.literal = q, true
			return r, true
		}
	}
	// A token takes at least one byte of the pattern.
	r.toks = make([]tok, 0, len(p))
	if r.basename {
		r.toks, r.never = compile(r.toks, p)
		return r, true
	}
	// git compares the literal prefix (up to the first of *?[\) byte for
	// byte and gives only the rest to wildmatch, for which the rest then
	// starts the pattern: that matters to whether a ** there may match
	// across directories.
	p = strings.TrimPrefix(p, "/")
	lit := strings.IndexAny(p, `*?[\`)
	if lit < 0 {
		lit = len(p)
	}
	for i := 0; i < lit; i++ {
		r.toks = append(r.toks, tok{kind: tLit, b: p[i]})
	}
	r.toks, r.never = compile(r.toks, p[lit:])
	return r, true
}

// compile turns a wildmatch pattern (with WM_PATHNAME) into tokens,
// appended to toks. never is set when wildmatch can match nothing with
// it.
func compile(toks []tok, p string) ([]tok, bool) {
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch c {
		case '\\':
			i++
			if i >= len(p) {
				return nil, true
			}
			toks = append(toks, tok{kind: tLit, b: p[i]})
		case '?':
			toks = append(toks, tok{kind: tAny})
		case '*':
			j := i
			for j < len(p) && p[j] == '*' {
				j++
			}
			if j-i < 2 {
				toks = append(toks, tok{kind: tStar})
				continue
			}
			startOK := i == 0 || p[i-1] == '/'
			switch {
			case startOK && j == len(p):
				toks = append(toks, tok{kind: tStarStar})
			case startOK && p[j] == '/':
				toks = append(toks, tok{kind: tSkip, n: 2}, tok{kind: tStarStar}, tok{kind: tLit, b: '/'})
				j++ // the slash is part of it
			case startOK && j+1 < len(p) && p[j] == '\\' && p[j+1] == '/':
				// Across directories, but the escaped slash must follow.
				toks = append(toks, tok{kind: tStarStar})
			default:
				toks = append(toks, tok{kind: tStar})
			}
			i = j - 1
		case '[':
			t, next, ok := compileClass(p, i)
			if !ok {
				return nil, true
			}
			toks = append(toks, t)
			i = next
		default:
			toks = append(toks, tok{kind: tLit, b: c})
		}
	}
	return toks, false
}

// compileClass compiles the class starting at p[open] == '[' as
// wildmatch reads it, and returns the index of its closing ']'.
func compileClass(p string, open int) (tok, int, bool) {
	set := new([256]bool)
	i := open + 1
	at := func(k int) byte {
		if k < len(p) {
			return p[k]
		}
		return 0
	}
	pch := at(i)
	if pch == 0 {
		return tok{}, 0, false
	}
	negated := false
	if pch == '!' || pch == '^' {
		negated = true
		i++
		pch = at(i)
	}
	var prev byte
	for {
		if pch == 0 {
			return tok{}, 0, false
		}
		switch {
		case pch == '\\':
			i++
			pch = at(i)
			if pch == 0 {
				return tok{}, 0, false
			}
			set[pch] = true
		case pch == '-' && prev != 0 && at(i+1) != 0 && at(i+1) != ']':
			i++
			pch = at(i)
			if pch == '\\' {
				i++
				pch = at(i)
				if pch == 0 {
					return tok{}, 0, false
				}
			}
			for c := int(prev); c <= int(pch); c++ {
				set[c] = true
			}
			pch = 0 // so that prev becomes 0
		case pch == '[' && at(i+1) == ':':
			var ok bool
			if i, pch, ok = compilePOSIXClass(p, i, set); !ok {
				return tok{}, 0, false
			}
		default:
			set[pch] = true
		}
		prev = pch
		i++
		pch = at(i)
		if pch == ']' {
			break
		}
	}
	if negated {
		for c := range set {
			set[c] = !set[c]
		}
	}
	set['/'] = false
	return tok{kind: tClass, set: set}, i, true
}

// compilePOSIXClass reads the [:name:] at p[i] inside a class into set.
// It returns the index of its last byte and the byte the class reads as
// the previous one for a range: 0, or '[' itself, a literal, when no ":]"
// closes the name. ok is false for a class that never closes or a name
// POSIX does not define.
func compilePOSIXClass(p string, i int, set *[256]bool) (last int, prev byte, ok bool) {
	s := i + 2
	k := s
	for k < len(p) && p[k] != ']' {
		k++
	}
	if k >= len(p) {
		return 0, 0, false
	}
	if k-s-1 < 0 || p[k-1] != ':' {
		// No ":]": a literal [, and go on after it.
		set['['] = true
		return i, '[', true
	}
	in, ok := posixClass(p[s : k-1])
	if !ok {
		return 0, 0, false
	}
	for c := 0; c < 256; c++ {
		if in(byte(c)) {
			set[c] = true
		}
	}
	return k, 0, true
}

// posixClass returns the test of a [:name:] class, with git's
// locale-independent ASCII character types.
func posixClass(name string) (func(byte) bool, bool) {
	alpha := func(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
	digit := func(c byte) bool { return '0' <= c && c <= '9' }
	space := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	print := func(c byte) bool { return c >= 0x20 && c <= 0x7e }
	switch name {
	case "alnum":
		return func(c byte) bool { return alpha(c) || digit(c) }, true
	case "alpha":
		return alpha, true
	case "blank":
		return func(c byte) bool { return c == ' ' || c == '\t' }, true
	case "cntrl":
		return func(c byte) bool { return c < 0x20 || c == 0x7f }, true
	case "digit":
		return digit, true
	case "graph":
		return func(c byte) bool { return print(c) && c != ' ' }, true
	case "lower":
		return func(c byte) bool { return 'a' <= c && c <= 'z' }, true
	case "print":
		return print, true
	case "punct":
		return func(c byte) bool { return print(c) && c != ' ' && !alpha(c) && !digit(c) }, true
	case "space":
		return space, true
	case "upper":
		return func(c byte) bool { return 'A' <= c && c <= 'Z' }, true
	case "xdigit":
		return func(c byte) bool { return digit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }, true
	}
	return nil, false
}

// match runs the tokens over name as a set of states, one step a byte.
func match(toks []tok, name string) bool {
	if len(toks) == 0 {
		return name == ""
	}
	// The states of a pattern of up to 31 tokens live on the stack: a walk
	// asks every rule about every path.
	var small [64]bool
	var cur, next []bool
	if n := len(toks) + 1; n <= len(small)/2 {
		cur, next = small[:n], small[n:2*n]
	} else {
		cur, next = make([]bool, n), make([]bool, n)
	}
	// Every empty move goes forward, so one pass in order follows chains.
	closure := func(s []bool) {
		for i, t := range toks {
			if !s[i] {
				continue
			}
			switch t.kind {
			case tStar, tStarStar:
				s[i+1] = true
			case tSkip:
				s[i+1] = true
				s[i+1+int(t.n)] = true
			}
		}
	}
	cur[0] = true
	closure(cur)
	for k := 0; k < len(name); k++ {
		c := name[k]
		clear(next)
		alive := false
		for i, t := range toks {
			if !cur[i] {
				continue
			}
			switch t.kind {
			case tLit:
				next[i+1] = next[i+1] || c == t.b
			case tAny:
				next[i+1] = next[i+1] || c != '/'
			case tClass:
				next[i+1] = next[i+1] || t.set[c]
			case tStar:
				next[i] = next[i] || c != '/'
			case tStarStar:
				next[i] = true
			}
		}
		for _, v := range next {
			alive = alive || v
		}
		if !alive {
			return false
		}
		closure(next)
		cur, next = next, cur
	}
	return cur[len(toks)]
}

// matches reports whether the rule matches rel, the path relative to the
// directory of the rule's file.
func (r *rule) matches(rel string, isDir bool) bool {
	if r.never || r.dirOnly && !isDir {
		return false
	}
	if r.basename {
		rel = rel[strings.LastIndexByte(rel, '/')+1:]
	}
	// Literal tokens take one byte each, and nothing reaches the tokens
	// after them but through them.
	if !strings.HasPrefix(rel, r.lit) {
		return false
	}
	rest := rel[len(r.lit):]
	if r.star {
		cut := len(rest) - len(r.suffix)
		return cut >= 0 && rest[cut:] == r.suffix && strings.IndexByte(rest[:cut], '/') < 0
	}
	if r.g != nil {
		return r.g.match(rest)
	}
	return match(r.tail, rest)
}

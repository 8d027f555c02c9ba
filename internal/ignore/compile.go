package ignore

import (
	"fmt"
	"strings"
)

// A List is the rules of one ignore file, which apply to the paths below
// its directory, compiled so that asking about a path costs about the
// same whatever the number of rules: the rules of the common shapes are
// looked up by the path, and only the others ("general" rules) are run
// one by one.
//
// The shapes looked up, for a rule matched against a path's last element
// (a name) and for one anchored to the list's directory (a path):
//
//   - literal: the name or the path itself, in a hash map;
//   - literal then * (and * alone): by its prefix, in a trie;
//   - * then literal: by its suffix, in a trie of reversed keys;
//   - literal then a ** that may cross directories (foo/**): by prefix.
//
// A rule **/X, where X holds no slash, is the rule X matched against
// the name. Every other rule is general. Each lookup finds the last rule
// of its shape that matches; the last of those over all shapes decides,
// as the last matching rule decides in git, so general rules before it
// are not run.
type List struct {
	rules int // how many rules the file holds
	// over, when not empty, says why the file's rules could not be
	// applied (a limit it passed); the list then holds none.
	over string

	names   map[string]hit // literal names
	nameSuf trie           // *suffix on the name
	namePre trie           // prefix* on the name (* alone: the root)

	paths    map[string]hit // literal anchored paths
	pathSuf  trie           // /*suffix: what comes before the suffix holds no slash
	pathPre  trie           // /prefix*: what comes after the prefix holds no slash
	pathDeep trie           // /prefix**: anything after the prefix

	// general are the remaining rules, in the file's order, and weight
	// what running them all once costs per byte of a path (see
	// rule.weight).
	general []rule
	weight  int
}

// A hit is the last rule of one key, as its order (see rule.order): for
// a directory (any rule) and for a file (a rule without a trailing
// slash); -1 when none.
type hit struct{ dir, file int32 }

var noHit = hit{-1, -1}

func (h *hit) add(k keyed) {
	h.dir = max(h.dir, k.order)
	if !k.dirOnly {
		h.file = max(h.file, k.order)
	}
}

// A keyed is a rule that a List looks up: its key and what its hit needs.
type keyed struct {
	key     string
	order   int32
	dirOnly bool
}

func (h hit) pick(isDir bool) int32 {
	if isDir {
		return h.dir
	}
	return h.file
}

// order is the rule's place in its file, twice its line, with the low bit
// set for a negation: the greater order is the later rule, and its low
// bit says whether it re-includes.
func (r *rule) order() int32 {
	o := int32(r.line) << 1
	if r.negate {
		o |= 1
	}
	return o
}

// Parse reads and compiles the rules of an ignore file.
func Parse(data []byte) *List {
	l, _ := compileFile(data, limits{})
	return l
}

// compileFile reads and compiles the rules of an ignore file. Past a
// limit of lim on one file (its number of rules, the weight of its
// general rules; zero: no limit) it stops, and returns nil and why.
func compileFile(data []byte, lim limits) (*List, string) {
	var b builder
	reason := ""
	eachRule(data, true, func(r rule) bool {
		if b.l.rules++; lim.fileRules > 0 && b.l.rules > lim.fileRules {
			reason = fmt.Sprintf("more than %d patterns, the limit for one ignore file", lim.fileRules)
			return false
		}
		b.add(r)
		if lim.general > 0 && b.l.weight > lim.general {
			reason = generalReason(lim, &b.l.general[len(b.l.general)-1])
			return false
		}
		return true
	})
	if reason != "" {
		return nil, reason
	}
	return b.list(), ""
}

// A builder compiles the rules of one file, in the file's order.
type builder struct {
	l List
	// The rules to look up, by lookup, until list builds the lookups.
	keyed [numLookups][]keyed
}

// The lookups of a List.
const (
	lookNames = iota
	lookPaths
	lookNamePre
	lookPathPre
	lookNameSuf
	lookPathSuf
	lookPathDeep
	numLookups
)

// The shapes of rules that a List looks up rather than runs.
type shape uint8

const (
	shapeGeneral shape = iota
	shapeLiteral       // the literal key
	shapePrefix        // key then *
	shapeSuffix        // * then key
	shapeDeep          // key then ** (path rules only)
)

// shapeOf returns a rule's shape and key: the literals it is looked up
// by. A basename rule's ** (the whole pattern **) is a * there, as a name
// holds no slash.
func shapeOf(r *rule) (shape, string) {
	if r.literal {
		return shapeLiteral, r.lit
	}
	t := r.toks
	k := leadingLiterals(t)
	switch {
	case k == len(t):
		return shapeLiteral, literals(t)
	case k == len(t)-1 && (t[k].kind == tStar || r.basename && t[k].kind == tStarStar):
		return shapePrefix, literals(t[:k])
	case k == len(t)-1 && t[k].kind == tStarStar:
		return shapeDeep, literals(t[:k])
	case k == 0 && (t[0].kind == tStar || r.basename && t[0].kind == tStarStar) && leadingLiterals(t[1:]) == len(t)-1:
		return shapeSuffix, literals(t[1:])
	}
	return shapeGeneral, ""
}

// isDeepSlash reports whether t starts with the tokens of **/: a skip
// past them, **, and a slash.
func isDeepSlash(t []tok) bool {
	return len(t) >= 3 && t[0].kind == tSkip && t[1].kind == tStarStar && t[2].kind == tLit && t[2].b == '/'
}

// collapseDeep drops every **/ that follows another: both match nothing
// or anything that ends in a slash, and so do the two together. A glob's
// empty moves then go at most a few states on.
func (r *rule) collapseDeep() {
	t := r.toks
	var out []tok
	for i := 0; i < len(t); i++ {
		if i >= 3 && isDeepSlash(t[i:]) && isDeepSlash(t[i-3:]) {
			if out == nil {
				out = append(make([]tok, 0, len(t)), t[:i]...)
			}
			i += 2
			continue
		}
		if out != nil {
			out = append(out, t[i])
		}
	}
	if out != nil {
		r.toks = out
		r.shortcuts()
	}
}

// anyDepth turns a path rule **/X, X without a slash, into the basename
// rule X: both match a path whose last element X matches.
func (r *rule) anyDepth() {
	t := r.toks
	if r.basename || len(t) < 4 || !isDeepSlash(t) {
		return
	}
	for _, x := range t[3:] {
		if x.kind == tSkip || x.kind == tStarStar || x.kind == tLit && x.b == '/' {
			return
		}
	}
	r.basename, r.toks = true, t[3:]
	r.shortcuts()
}

// add sorts r into the lookups or the general rules.
func (b *builder) add(r rule) {
	if r.never {
		return
	}
	r.collapseDeep()
	r.anyDepth()
	sh, key := shapeOf(&r)
	look := -1
	switch {
	case sh == shapeLiteral && r.basename:
		look = lookNames
	case sh == shapeLiteral:
		look = lookPaths
	case sh == shapePrefix && r.basename:
		look = lookNamePre
	case sh == shapePrefix:
		look = lookPathPre
	case sh == shapeSuffix && r.basename:
		look = lookNameSuf
	case sh == shapeSuffix:
		look = lookPathSuf
	case sh == shapeDeep:
		look = lookPathDeep
	default:
		if !r.star {
			r.g = newGlob(r.tail)
		}
		b.l.general = append(b.l.general, r)
		b.l.weight += r.weight()
		return
	}
	b.keyed[look] = append(b.keyed[look], keyed{key, r.order(), r.dirOnly})
}

// weight is what running r costs per byte of a path, in words of its
// glob (see glob): at least 1.
func (r *rule) weight() int {
	if r.g == nil {
		return 1
	}
	return r.g.words
}

// list builds the lookups and returns the List.
func (b *builder) list() *List {
	l := &b.l
	l.names, l.paths = hitMap(b.keyed[lookNames]), hitMap(b.keyed[lookPaths])
	l.namePre, l.pathPre, l.pathDeep = newTrie(b.keyed[lookNamePre], false), newTrie(b.keyed[lookPathPre], false), newTrie(b.keyed[lookPathDeep], false)
	l.nameSuf, l.pathSuf = newTrie(b.keyed[lookNameSuf], true), newTrie(b.keyed[lookPathSuf], true)
	return l
}

// hitMap returns the hits of ks by key; nil for none.
func hitMap(ks []keyed) map[string]hit {
	if len(ks) == 0 {
		return nil
	}
	m := make(map[string]hit, len(ks))
	for _, k := range ks {
		h, ok := m[k.key]
		if !ok {
			h = noHit
		}
		h.add(k)
		m[k.key] = h
	}
	return m
}

// Match returns whether the list decides rel (a slash path relative to
// the list's directory) and, if so, whether it ignores it: the last
// matching rule decides.
func (l *List) Match(rel string, isDir bool) (decided, ignored bool) {
	best := l.last(rel, isDir, nil)
	return best >= 0, best >= 0 && best&1 == 0
}

// last returns the order of the last rule matching rel, -1 when none.
// work, when not nil, counts the weight of the general rules run.
func (l *List) last(rel string, isDir bool, work *int) int32 {
	best := int32(-1)
	take := func(o int32) {
		best = max(best, o)
	}
	firstSlash := strings.IndexByte(rel, '/')
	lastSlash := strings.LastIndexByte(rel, '/')
	name := rel[lastSlash+1:]
	if l.names != nil {
		if h, ok := l.names[name]; ok {
			take(h.pick(isDir))
		}
	}
	l.nameSuf.suffixes(name, func(_ int, h hit) { take(h.pick(isDir)) })
	l.namePre.prefixes(name, func(_ int, h hit) { take(h.pick(isDir)) })
	if l.paths != nil {
		if h, ok := l.paths[rel]; ok {
			take(h.pick(isDir))
		}
	}
	// /*suffix: the part before the suffix holds no slash.
	l.pathSuf.suffixes(rel, func(n int, h hit) {
		if firstSlash < 0 || firstSlash >= len(rel)-n {
			take(h.pick(isDir))
		}
	})
	// /prefix*: the part after the prefix holds no slash.
	l.pathPre.prefixes(rel, func(n int, h hit) {
		if lastSlash < n {
			take(h.pick(isDir))
		}
	})
	l.pathDeep.prefixes(rel, func(_ int, h hit) { take(h.pick(isDir)) })
	// The general rules from the last, down to the best found so far.
	for i := len(l.general) - 1; i >= 0; i-- {
		r := &l.general[i]
		if r.order() <= best {
			break
		}
		if work != nil {
			*work += r.weight()
		}
		if r.matches(rel, isDir) {
			return r.order()
		}
	}
	return best
}

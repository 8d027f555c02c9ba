package structural

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

type pkind uint8

const (
	pTerminal pkind = iota // a leaf: matched by kind, and by text when named
	pInternal              // a node with children: matched by kind and children
	pMeta                  // a metavariable
)

// pnode is one node of a compiled pattern.
type pnode struct {
	kind  pkind
	sym   uint16
	named bool
	text  string
	mv    metaVar
	kids  []pnode
}

// trivial reports whether the node is an unnamed token, which a multi
// metavariable skips over when it looks for the next pattern node.
func (p *pnode) trivial() bool { return p.kind == pTerminal && !p.named }

// ellipsis reports whether p is a multi-node metavariable, and its name.
func (p *pnode) ellipsis() (name string, ok bool) {
	if p.kind != pMeta {
		return "", false
	}
	switch p.mv.kind {
	case mvMulti:
		return "", true
	case mvMultiCap:
		return p.mv.name, true
	}
	return "", false
}

// A Pattern is a compiled structural pattern for one language. It is
// immutable and safe for concurrent use.
type Pattern struct {
	source string
	lang   Language
	g      *grammar
	root   pnode
	// literals are the texts of the pattern's named leaves, longest first:
	// every one of them occurs verbatim in any code the pattern matches,
	// so a file lacking one is never parsed.
	literals [][]byte
	// chains are runs of tokens any match holds in order (see chain.go),
	// checked after the literals.
	chains []*regexp.Regexp
	vars   []string
	// context is the statement context the pattern was read in, or nil
	// for the top-level reading.
	context *stmtContext
	// alts are other readings of the same text (the top-level type reading
	// of a Go pattern read in a body); a node matching any reading matches.
	alts []pnode
}

// roots returns the pattern's readings, the main one first.
func (p *Pattern) roots() []*pnode {
	out := []*pnode{&p.root}
	for i := range p.alts {
		out = append(out, &p.alts[i])
	}
	return out
}

// addAlternative adds other's reading to p. Only literals both readings
// need stay a prefilter.
func (p *Pattern) addAlternative(other *Pattern) {
	p.alts = append(p.alts, other.root)
	p.chains = nil // a node matching either reading need not hold them
	both := map[string]bool{}
	for _, l := range other.literals {
		both[string(l)] = true
	}
	kept := p.literals[:0]
	for _, l := range p.literals {
		if both[string(l)] {
			kept = append(kept, l)
		}
	}
	p.literals = kept
}

// Source returns the pattern as written.
func (p *Pattern) Source() string { return p.source }

// Language returns the pattern's language.
func (p *Pattern) Language() Language { return p.lang }

// Vars returns the names of the pattern's capturing metavariables, sorted.
func (p *Pattern) Vars() []string { return append([]string(nil), p.vars...) }

// Compile parses pattern as code of lang, following ast-grep's pattern
// language. The error is a [*PatternError] for a pattern that cannot be
// used (empty, unparsable, incomplete, several nodes, a bare $$$), and
// wraps [ErrUnavailable] when this build has no built-in engine. A Go
// pattern is read inside a function body when it parses cleanly there
// (see statementContexts), and otherwise at the top level.
func Compile(pattern string, lang Language) (*Pattern, error) {
	if !lang.Valid() {
		return nil, &PatternError{Pattern: pattern, Language: lang, Problem: ProblemLanguage, Offset: -1}
	}
	g, ok := grammarOf(lang)
	if !ok {
		return nil, fmt.Errorf("%w: this build has no tree-sitter (built without cgo)", ErrUnavailable)
	}
	if err := checkPatternSize(pattern, lang); err != nil {
		return nil, err
	}
	if !utf8.ValidString(pattern) {
		return nil, &PatternError{Pattern: pattern, Language: lang, Problem: ProblemSyntax, Offset: -1, Detail: "not valid UTF-8"}
	}
	src, offsets := preprocessMap(pattern, expando(lang))
	ps, err := newParser(g)
	if err != nil {
		return nil, err
	}
	defer ps.Close()
	t, ok := ps.parse([]byte(src), nil, nil)
	if !ok {
		return nil, &PatternError{Pattern: pattern, Language: lang, Problem: ProblemSyntax, Offset: -1, Detail: "the parser gave up"}
	}
	var ctxErr error
	if sc, ok := statementContexts[lang]; ok {
		var p *Pattern
		if p, ctxErr = compileInContext(pattern, lang, ps, src, offsets, sc); p != nil {
			// A type cannot be a statement, so in a body a.B is a selector
			// expression; where the top level reads a type (strings.Builder
			// as the qualified_type of var b strings.Builder), the pattern
			// matches either.
			if top, err := compileTree(pattern, lang, t, offsets); err == nil && strings.HasSuffix(g.name(top.root.sym), "_type") {
				p.addAlternative(top)
			}
			return p, nil
		}
	}
	p, err := compileTree(pattern, lang, t, offsets)
	if err != nil && ctxErr != nil {
		// Neither reading is usable. The statement context's error is
		// where a statement parser stopped, inside the pattern; the top
		// level's ERROR often wraps the whole pattern (byte 0).
		return nil, ctxErr
	}
	return p, err
}

// A stmtContext is code that puts a pattern where statements belong: the
// pattern goes between prefix and suffix. list is the kind of the node
// that holds the statements of a body, which a pattern may not be when it
// holds several of them.
type stmtContext struct{ prefix, suffix, list string }

// statementContexts are the languages whose top-level reading of a
// pattern differs from the reading the same text gets inside a function
// body, where the code a search meets almost always is. tree-sitter-go
// reads a.B(x) at the top of a file as a conversion to the type a.B (a
// type_conversion_expression over a qualified_type), never as the call
// that a.B(x) is in a function body, so fmt.Println($X) would find
// nothing, as it does in ast-grep. Measured over the statements of
// net/http, strings, encoding/json and os (7280 distinct one-line
// statements): 366 read differently at the top level (352 a
// type_conversion_expression for a call, 7 of them with an ERROR too, 3
// receives that do not parse, 4 generic calls), and in every one the
// function-body reading is the one the files have; the top-level
// declarations of those packages and go/types (560) either read the same
// in a body or do not parse there (functions, methods, imports, package
// clauses). The same measurement found no difference for Rust (512
// statements; 108 parse at the top level only under an ERROR wrapper,
// with the same reading), Java (166), C (2380 in two corpora),
// JavaScript (2426), TypeScript (1769) or Python (3267), so they keep the
// top-level reading alone. (TestStatementContextMeasured
// repeats the Go half.)
var statementContexts = map[Language]stmtContext{
	Go: {prefix: "func _() {\n", suffix: "\n}", list: "statement_list"},
}

// compileInContext compiles the pattern from its reading inside sc, when
// that reading is clean (no ERROR or MISSING node anywhere but the
// tolerated ones of firstBroken) and some node spans exactly the
// pattern's text. Otherwise the pattern is nil, and the error says what
// is wrong inside the pattern's text when the reading shows it (offsets
// in the pattern as written); it is nil when the reading only fails
// around the pattern (nothing spans it exactly, a broken node in the
// wrapper).
func compileInContext(pattern string, lang Language, ps *parser, src string, offsets []int, sc stmtContext) (*Pattern, error) {
	body := strings.TrimRightFunc(src, unicode.IsSpace)
	lead := len(body) - len(strings.TrimLeftFunc(body, unicode.IsSpace))
	if lead == len(body) {
		return nil, nil
	}
	wrapped := sc.prefix + src + sc.suffix
	t, ok := ps.parse([]byte(wrapped), nil, nil)
	if !ok {
		return nil, nil
	}
	// Offsets in t are those of src shifted by the prefix.
	shifted := make([]int, len(sc.prefix)+len(offsets))
	copy(shifted[len(sc.prefix):], offsets)
	lo, hi := len(sc.prefix)+lead, len(sc.prefix)+len(body)
	if bad, broken := t.firstBroken(0, expando(lang)); broken {
		start := t.StartByte(bad)
		if start < lo || start > hi {
			return nil, nil
		}
		pr := ProblemSyntax
		if t.IsMissing(bad) {
			pr = ProblemMissing
		}
		return nil, patternErrAt(pattern, lang, shifted, pr, start)
	}
	root, found := nodeID(0), false
	for i := range t.Len() { // pre-order: the first exact node is the outermost
		if t.StartByte(nodeID(i)) == lo && t.EndByte(nodeID(i)) == hi {
			root, found = nodeID(i), true
			break
		}
	}
	if !found || t.Kind(root) == sc.list && !t.single(root) {
		return nil, nil
	}
	for t.single(root) {
		root++
	}
	p, err := buildPattern(pattern, lang, t, root, shifted)
	if err != nil {
		return nil, err
	}
	p.context = &sc
	return p, nil
}

// astGrepRule returns an ast-grep rule (JSON, which its YAML reader
// accepts) that gives ast-grep this pattern's reading: the pattern in its
// statement context, selecting the node of the pattern's root kind. It is
// "" for a top-level reading, which ast-grep's --pattern gives alike.
func (p *Pattern) astGrepRule() string {
	if p.context == nil {
		return ""
	}
	rule := map[string]any{"pattern": map[string]string{
		"context":  p.context.prefix + p.source + p.context.suffix,
		"selector": p.g.name(p.root.sym),
	}}
	if len(p.alts) > 0 { // the top-level reading, which --pattern gives
		rule = map[string]any{"any": []any{rule, map[string]any{"pattern": p.source}}}
	}
	b, err := json.Marshal(map[string]any{"id": "cortex", "language": string(p.lang), "rule": rule})
	if err != nil { // a map of strings always marshals
		panic(err)
	}
	return string(b)
}

func patternErrAt(pattern string, lang Language, offsets []int, pr PatternProblem, at int) error {
	off := -1
	if at < len(offsets) {
		off = offsets[at]
	} else if at == len(offsets) {
		off = len(pattern)
	}
	return &PatternError{Pattern: pattern, Language: lang, Problem: pr, Offset: off}
}

func compileTree(pattern string, lang Language, t *tree, offsets []int) (*Pattern, error) {
	perr := func(pr PatternProblem, at int) error {
		return patternErrAt(pattern, lang, offsets, pr, at)
	}
	root := nodeID(0)
	if t.ChildCount(root) == 0 {
		return nil, perr(ProblemEmpty, 0)
	}
	if !t.single(root) {
		return nil, perr(ProblemMultiple, t.StartByte(t.child(root, 1)))
	}
	// Descend through single-child wrappers (source_file, statement...).
	// An ERROR wrapper on the way is tolerated, as ast-grep does: Rust's
	// grammar wraps some expressions without their ";" at the end of input
	// in one (&m.metadata) though the expression itself parses. Below the
	// pattern's own root nothing may be broken.
	for t.single(root) {
		root = root + 1 // the first child
	}
	return buildPattern(pattern, lang, t, root, offsets)
}

// buildPattern compiles the subtree at root, which must be clean but for
// the tolerated nodes of firstBroken.
func buildPattern(pattern string, lang Language, t *tree, root nodeID, offsets []int) (*Pattern, error) {
	perr := func(pr PatternProblem, at int) error {
		return patternErrAt(pattern, lang, offsets, pr, at)
	}
	if bad, ok := t.firstBroken(root, expando(lang)); ok {
		if t.IsMissing(bad) {
			return nil, perr(ProblemMissing, t.StartByte(bad))
		}
		return nil, perr(ProblemSyntax, t.StartByte(bad))
	}
	p := &Pattern{source: pattern, lang: lang, g: t.g}
	p.root = p.convert(t, root)
	if _, ok := p.root.ellipsis(); ok {
		return nil, perr(ProblemBareMulti, t.StartByte(root))
	}
	p.collect(&p.root, map[string]bool{}, map[string]bool{})
	sort.Slice(p.literals, func(i, j int) bool { return len(p.literals[i]) > len(p.literals[j]) })
	sort.Strings(p.vars)
	if len(p.vars) > MaxPatternVars {
		return nil, &PatternError{Pattern: pattern, Language: lang, Problem: ProblemTooLarge, Offset: -1,
			Detail: fmt.Sprintf("it names %d metavariables, more than the %d a pattern may have", len(p.vars), MaxPatternVars)}
	}
	if len(p.literals) > maxLiterals {
		p.literals = p.literals[:maxLiterals]
	}
	p.buildChains()
	return p, nil
}

// firstBroken returns the first ERROR or MISSING node in i's subtree
// that makes the pattern unusable. Two kinds are tolerated, as ast-grep
// tolerates them:
//
//   - a MISSING ";", a statement terminator the pattern left out;
//   - an ERROR node whose whole text is a metavariable, where it stands
//     for the items of a bracketed list (an opening bracket token before
//     it among its siblings and a closing one after it), or where it is
//     the pattern's root itself. That is $$$ (or $X) where the grammar
//     wants statements, members, fields, parameters or specs:
//     `impl $T for $S { $$$ }` (Rust), `for ($T $V : $C) { $$$ }` and
//     `public void $M($$$) { $$$ }` (Java), `import ($$$SPECS)` and
//     `switch $X { $$$ }` (Go), `if ($C) { $$$ }` (C), `[$$$]` (JSON). The
//     metavariable then takes the items' place, which is what the pattern
//     means.
//
// Anywhere else such an ERROR has displaced a part the grammar requires,
// and the rest of the parse is a reading that cannot match what the user
// meant: in a Go function body `func $F($$$) { $$$ }` reads as a function
// literal whose name is an ERROR, which no function declaration matches.
// Such a reading is refused (Compile then keeps the top-level one).
func (t *tree) firstBroken(i nodeID, sigil rune) (nodeID, bool) {
	if t.IsError(i) {
		if _, ok := t.metaVarOf(i, sigil); ok {
			return 0, false
		}
		return i, true
	}
	return t.brokenBelow(i, sigil)
}

func (t *tree) brokenBelow(i nodeID, sigil rune) (nodeID, bool) {
	if t.IsMissing(i) && t.Kind(i) != ";" {
		return i, true
	}
	kids := t.appendKids(nil, i)
	for k, c := range kids {
		if t.IsError(c) {
			if _, ok := t.metaVarOf(c, sigil); ok && t.bracketed(kids, k) {
				continue
			}
			return c, true
		}
		if b, ok := t.brokenBelow(c, sigil); ok {
			return b, true
		}
	}
	return 0, false
}

// bracketed reports whether kids[k] stands between an opening bracket
// token and a closing one among its siblings.
func (t *tree) bracketed(kids []nodeID, k int) bool {
	token := func(c nodeID, set string) bool {
		name := t.Kind(c)
		return !t.Named(c) && !t.IsMissing(c) && len(name) == 1 && strings.Contains(set, name)
	}
	open, closed := false, false
	for _, c := range kids[:k] {
		open = open || token(c, "{([")
	}
	for _, c := range kids[k+1:] {
		closed = closed || token(c, "})]")
	}
	return open && closed
}

// single reports whether node i is a wrapper around one child, as ast-grep
// decides it: one child, or two where the second is MISSING or has an
// empty kind (Go's implicit statement terminator at the end of input).
func (t *tree) single(i nodeID) bool {
	switch t.ChildCount(i) {
	case 1:
		return true
	case 2:
		c := t.child(i, 1)
		return t.IsMissing(c) || t.Kind(c) == ""
	}
	return false
}

func (p *Pattern) convert(t *tree, i nodeID) pnode {
	sym := t.KindID(i)
	if mv, ok := t.metaVarOf(i, expando(p.lang)); ok {
		return pnode{kind: pMeta, mv: mv, sym: sym}
	}
	if t.ChildCount(i) == 0 {
		return pnode{kind: pTerminal, sym: sym, named: t.Named(i), text: t.text(i)}
	}
	out := pnode{kind: pInternal, sym: sym, named: t.Named(i)}
	for _, c := range t.appendKids(nil, i) {
		if t.IsMissing(c) {
			continue
		}
		out.kids = append(out.kids, p.convert(t, c))
	}
	return out
}

func (p *Pattern) collect(n *pnode, lits, vars map[string]bool) {
	switch n.kind {
	case pTerminal:
		if n.named && n.text != "" && !lits[n.text] {
			lits[n.text] = true
			p.literals = append(p.literals, []byte(n.text))
		}
	case pMeta:
		if n.mv.name != "" && !vars[n.mv.name] {
			vars[n.mv.name] = true
			p.vars = append(p.vars, n.mv.name)
		}
	case pInternal:
		for i := range n.kids {
			p.collect(&n.kids[i], lits, vars)
		}
	}
}

// maxLiterals bounds the literals a file is checked for: the longest
// ones, which are the most selective. Keeping fewer loses no match.
const maxLiterals = 32

// mayMatch reports whether src contains every literal and every chain
// the pattern needs.
func (p *Pattern) mayMatch(src []byte) bool {
	for _, l := range p.literals {
		if !bytes.Contains(src, l) {
			return false
		}
	}
	for _, c := range p.chains {
		if !c.Match(src) {
			return false
		}
	}
	return true
}

// preprocessMap is preprocess that also returns, for every byte of the
// result, the byte offset in pattern it came from.
func preprocessMap(pattern string, expando rune) (string, []int) {
	out := preprocess(pattern, expando)
	offsets := make([]int, 0, len(out))
	i, j := 0, 0
	for i < len(pattern) && j < len(out) {
		_, on := utf8.DecodeRuneInString(out[j:])
		_, pn := utf8.DecodeRuneInString(pattern[i:])
		for k := 0; k < on; k++ {
			offsets = append(offsets, i)
		}
		j += on
		i += pn
	}
	return out, offsets
}

package structural

import (
	"regexp"
	"sort"
	"strings"
)

// A chain is a run of a pattern's tokens that any code it matches holds
// in order with nothing but gap text between them: `err != nil` in
// `if err != nil { return $$$ }`. Literals alone let through every
// function holding err and nil somewhere; chains keep only those where
// they meet as the pattern has them.
//
// Where chains are sound. Two consecutive children of one pattern node
// that are both leaves (not metavariables, and not nodes with children,
// whose source node may hold trailing children the matcher ignores)
// match consecutive source children with only skipped candidates between
// (see matcher.single): unnamed tokens and comments, plus the whitespace
// and hidden tokens no node covers. So a chain anchors
//
//   - a named leaf by its text, which the matcher compares exactly;
//   - an unnamed token by its text, when the grammar's unnamed tokens
//     always read as their kind names (the matcher compares them by kind);
//
// and lets the gap hold whitespace, comments, punctuation and the
// grammar's keyword tokens. That needs grammar facts, checked against the
// grammar's own description by TestChainGrammarFacts: unnamed tokens are
// fixed strings, the extras are whitespace and comments, and hidden
// tokens occur only inside string literals, where no chain is built.
// Only grammars so checked get chains (chainGrammars); an unnamed token
// right after a multi metavariable is never an anchor, since the matcher
// skips it (matcher.ellipsis).

// chainGrammars are the languages whose grammars TestChainGrammarFacts
// checks.
var chainGrammars = map[Language]bool{Go: true}

// gapExpr returns the regular expression of the text allowed between two
// chained tokens of g: any byte but ASCII letters, digits and _
// (whitespace and punctuation of every kind), // and /* */ comments, and
// g's keyword tokens.
func (g *grammar) gapExpr() string {
	g.gapOnce.Do(func() {
		seen := map[string]bool{}
		var words []string
		for _, w := range g.Keywords() {
			if w != "" && !seen[w] {
				seen[w] = true
				words = append(words, regexp.QuoteMeta(w))
			}
		}
		sort.Strings(words)
		g.gap = `(?:[^\w]|//[^\n]*|/\*(?s:.*?)\*/`
		if len(words) > 0 {
			g.gap += `|` + strings.Join(words, `|`)
		}
		g.gap += `)*`
	})
	return g.gap
}

func isWord(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// A pattern's chains are a prefilter, so keeping fewer of them, or a
// prefix of one, loses no match: a file holding a whole chain holds its
// prefix. Bounding both keeps compiling a large pattern (x+x+...+x holds
// one chain a level) linear in its size, and checking a file cheap.
const (
	maxChains       = 8  // the longest distinct chains are kept
	maxChainAnchors = 16 // the tokens of one chain that are anchored
)

// buildChains compiles p's chains of two or more anchors, and of one
// unnamed token of two bytes or more (the == of $A == $A): a named leaf
// alone is already a literal, and a one-byte token such as ( or { is in
// nearly every declaration, so checking for it would only cost time.
func (p *Pattern) buildChains() {
	if !chainGrammars[p.lang] || len(p.alts) > 0 {
		return
	}
	var runs [][]string
	p.walkChains(&p.root, &runs)
	sort.SliceStable(runs, func(i, j int) bool { return len(runs[i]) > len(runs[j]) })
	seen := map[string]bool{}
	for _, run := range runs {
		e := strings.Join(run, p.g.gapExpr())
		if seen[e] {
			continue
		}
		seen[e] = true
		p.chains = append(p.chains, regexp.MustCompile(e))
		if len(p.chains) == maxChains {
			break
		}
	}
}

func (p *Pattern) walkChains(n *pnode, out *[][]string) {
	if n.kind != pInternal {
		return
	}
	if strings.Contains(p.g.name(n.sym), "string") {
		return // hidden content tokens live here
	}
	var run []string
	token := "" // the run's one unnamed token, when it is one
	flush := func() {
		if len(run) >= 2 || len(run) == 1 && len(token) >= 2 {
			*out = append(*out, append([]string(nil), run[:min(len(run), maxChainAnchors)]...))
		}
		run, token = run[:0], ""
	}
	afterMulti := false
	for i := range n.kids {
		k := &n.kids[i]
		switch {
		case k.kind == pTerminal && k.named && !p.g.isComment(k.sym) && k.text != "":
			run = append(run, regexp.QuoteMeta(k.text))
			afterMulti = false
		case k.kind == pTerminal && !k.named && !afterMulti &&
			k.text == p.g.name(k.sym) && strings.TrimSpace(k.text) != "":
			if len(run) == 0 {
				token = k.text
			}
			run = append(run, regexp.QuoteMeta(k.text))
		case k.kind == pTerminal && !k.named && afterMulti:
			flush() // skipped by the matcher: not an anchor
		default:
			flush()
			_, afterMulti = k.ellipsis()
			p.walkChains(k, out)
		}
	}
	flush()
}

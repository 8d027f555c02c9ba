package route

import "strings"

// kindWords map the words that say what kind of definition a name is to
// the kind they name. A kind word beside a name ("the Querier interface",
// "class CGI") selects that kind among the name's definitions.
var kindWords = map[string]string{
	"interface": "interface", "protocol": "interface", "class": "class", "struct": "struct",
	"trait": "trait", "enum": "enum", "type": "type", "module": "module", "namespace": "module",
	"function": "function", "func": "function", "fn": "function", "method": "method",
	"constructor": "method", "field": "field", "property": "field", "attribute": "field",
	"member": "member", "constant": "constant", "variable": "variable", "macro": "macro",
}

// memberKinds are the kinds a member of a type may have: "the X method of
// T" names T.X.
var memberKinds = map[string]bool{"method": true, "function": true, "field": true, "member": true}

// ofWords join a member to its owner: "the X method of T", "method X on T".
var ofWords = set("of", "on", "in", "from")

// members rewrites the names of phrases that name a member of a type in
// words: "the X method of T" and "method X on T" name T.X, a method. The
// name takes the kind the phrase gives; T and X alone leave the names. A
// kind word beside any other name ("the Querier interface", "class CGI")
// gives that name its kind. One pass over the tokens.
func (a *analysis) members() {
	toks := a.toks
	word, owner := a.wordAt, a.ownerAt
	kindAt := func(i int) string {
		if i < 0 || i >= len(toks) || toks[i].code >= 0 {
			return ""
		}
		return kindWords[toks[i].word]
	}
	for i := range toks {
		k := kindAt(i)
		if k == "" {
			continue
		}
		// X method of T
		if x, ok := word(i-1, false); ok && memberKinds[k] && i+2 < len(toks) && ofWords[toks[i+1].word] {
			j := skipDeterminers(toks, i+2)
			if t, ok := owner(j); ok && ownerShaped(t, x, j == len(toks)-1) {
				a.member(t, x, k, toks[i-1].pos, toks[j].pos)
				continue
			}
		}
		// method X on T; X may be a kind word there ("method namespace
		// on ClassMethods"), which nothing else but a name can be.
		x, ok := word(i+1, false)
		if !ok && i+1 < len(toks) && toks[i+1].code < 0 && kindWords[toks[i+1].word] != "" && isIdent(toks[i+1].raw) {
			x, ok = toks[i+1].raw, true
		}
		if ok && memberKinds[k] && i+3 < len(toks) && ofWords[toks[i+2].word] {
			j := skipDeterminers(toks, i+3)
			if t, ok := owner(j); ok && ownerShaped(t, x, j == len(toks)-1) {
				a.member(t, x, k, toks[i+1].pos, toks[j].pos)
				continue
			}
		}
		// the X interface, class X; a word in lower case takes the kind
		// only after a determiner ("the endpoints type", "the function
		// parse"), never after a question word ("which function handles").
		for _, j := range [2]int{i - 1, i + 1} {
			n, ok := word(j, true)
			if !ok {
				continue
			}
			before := min(i, j) - 1
			plain := n == strings.ToLower(n) && !isCodeCase(n)
			if plain && !(before >= 0 && toks[before].code < 0 && determiners[toks[before].word]) {
				continue
			}
			if a.setKind(n, toks[j].pos, k) {
				break
			}
		}
	}
}

// wordAt returns the identifier at token i; strict refuses a word that
// names nothing in prose ("which function handles"), as a kind word beside
// it does not make it a name. In a member phrase the structure says it is
// one ("method call on Config"), short of a pronoun.
func (a *analysis) wordAt(i int, strict bool) (string, bool) {
	if i < 0 || i >= len(a.toks) {
		return "", false
	}
	t := a.toks[i]
	raw := t.raw
	if t.code >= 0 {
		raw = a.spans[t.code].text
	}
	if !isIdent(raw) || t.code < 0 && (determiners[t.word] || kindWords[t.word] != "" || questionWords[t.word] ||
		pronouns[t.word] || strict && vague[t.word] && !isCodeCase(raw) && raw == t.word) {
		return "", false
	}
	return raw, true
}

// ownerAt returns the type at token i that a member phrase names: a kind
// word written with capitals there is a type's name ("the html method of
// Attribute", "method read on Type"), not a kind.
func (a *analysis) ownerAt(i int) (string, bool) {
	if i >= 0 && i < len(a.toks) && a.toks[i].code < 0 && kindWords[a.toks[i].word] != "" &&
		a.toks[i].raw != a.toks[i].word && isIdent(a.toks[i].raw) {
		return a.toks[i].raw, true
	}
	return a.wordAt(i, false)
}

// questionWords never name a symbol, even capitalised at a sentence's start.
var questionWords = set("who", "what", "which", "where", "when", "why", "how", "is", "are", "does", "do", "show", "find")

// pronouns never name a symbol.
var pronouns = set("me", "it", "this", "that", "them", "they", "we", "you", "i", "us", "he", "she", "one", "ones", "here", "there")

// skipDeterminers returns the index of the first token from i that is not
// a determiner.
func skipDeterminers(toks []token, i int) int {
	for i < len(toks) && toks[i].code < 0 && determiners[toks[i].word] {
		i++
	}
	return i
}

// namedOnly reports whether the text is nothing but names with their kind
// words ("class CGI", "the Execute method of Command"): a definition
// question without question words.
func (a *analysis) namedOnly() bool {
	kind := false
	for _, t := range a.toks {
		switch {
		case t.code >= 0 || determiners[t.word] || ofWords[t.word]:
		case kindWords[t.word] != "":
			kind = true
		default:
			if !a.isName(t.pos) {
				return false
			}
		}
	}
	return kind
}

// isName reports whether a name was read at pos, or is one of those a
// member phrase joined.
func (a *analysis) isName(pos int) bool {
	for _, n := range a.names {
		if n.pos == pos || n.joined != [2]int{} && (n.joined[0] == pos || n.joined[1] == pos) {
			return true
		}
	}
	return false
}

// ownerShaped reports whether a word t may name the type that owns member
// x in a member phrase: one shaped as a type (see typeShaped), or, as the
// phrase's last word, a plain word after a member written as code ("the
// Match method of matcher": Go's unexported types are plain words).
func ownerShaped(t, x string, last bool) bool {
	return typeShaped(t) || last && (isCodeCase(x) || x != strings.ToLower(x))
}

// typeShaped reports whether a word may name the type or module that owns
// a member: written with a capital or as code (Config, ipValue,
// int64SliceValue), not a plain word ("in our installed version").
func typeShaped(s string) bool {
	return isCodeCase(s) || s != strings.ToLower(s)
}

// isCodeCase reports whether a word is written as code would be: with an
// upper-case letter after the first, an underscore or a digit.
func isCodeCase(s string) bool {
	for i, r := range s {
		if r == '_' || r >= '0' && r <= '9' || i > 0 && r >= 'A' && r <= 'Z' {
			return true
		}
	}
	return false
}

// member replaces the names owner and name (as found at their own
// positions) with owner.name of the given kind, at pos.
func (a *analysis) member(owner, name, kind string, pos, ownerPos int) {
	kept := a.names[:0]
	for _, n := range a.names {
		if n.Text != owner && n.Text != name {
			kept = append(kept, n)
		}
	}
	a.names = kept
	n := makeName(owner+"."+name, FromText)
	n.Kind = kind
	a.names = append(a.names, nameAt{Name: n, pos: pos, joined: [2]int{pos, ownerPos}})
}

// setKind gives the name written at pos the kind; a word that no other
// pass took for a name becomes one when a kind word stands beside it. It
// reports whether a name took the kind.
func (a *analysis) setKind(text string, pos int, kind string) bool {
	for i := range a.names {
		if a.names[i].pos == pos && strings.HasSuffix(a.names[i].Text, text) {
			if a.names[i].Kind == "" {
				a.names[i].Kind = kind
			}
			return true
		}
	}
	n := makeName(text, FromText)
	n.Kind = kind
	a.names = append(a.names, nameAt{Name: n, pos: pos})
	return true
}

// cueTokens are the tokens as intent cues read them: a capitalised word in
// mid-sentence is a name, not a cue ("subtypes of Shape" asks for
// implementations, not for a code shape).
func (a *analysis) cueTokens() []token {
	out := a.toks
	for i, t := range a.toks {
		if t.named {
			if &out[0] == &a.toks[0] {
				out = append([]token(nil), a.toks...)
			}
			out[i].word = ""
		}
	}
	return out
}

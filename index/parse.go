package index

import (
	"strings"
	"unicode/utf8"
)

// Bounds on a parsed query.
const (
	maxQueryTerms     = 8
	maxTermRunes      = 64
	maxPhraseWords    = 6
	maxJoinedPhrase   = 4 // a phrase of at most this many words also matches as one identifier
	maxNameParts      = 4
	maxQueryTextBytes = 4096
)

// A queryTerm is one word or quoted phrase of a search.
type queryTerm struct {
	// words are the term's words, lower case: one for a word, several for
	// a phrase.
	words []string
	// split are the sub-tokens of a single word that is a compound
	// identifier ("validateSession" → validate, session); nil otherwise.
	split []string
}

// stopwords are words of a question that say nothing about the code; a
// query made only of them keeps them.
var stopwords = map[string]bool{
	"a": true, "an": true, "the": true, "is": true, "are": true, "was": true, "be": true,
	"of": true, "in": true, "on": true, "at": true, "to": true, "for": true, "by": true,
	"with": true, "from": true, "as": true, "and": true, "or": true, "it": true, "its": true,
	"this": true, "that": true, "these": true, "those": true, "there": true,
	"where": true, "what": true, "who": true, "whom": true, "how": true, "which": true, "why": true, "when": true,
	"do": true, "does": true, "did": true, "can": true, "i": true, "we": true, "you": true, "me": true,
	"defined": true, "define": true, "declared": true, "find": true, "show": true,
}

// parseQuery splits a search into terms: words (runs of letters, digits
// and underscores) and "quoted phrases", lower case, without stopwords
// unless nothing else is left, without repeats, at most maxQueryTerms.
func parseQuery(s string) []queryTerm {
	if len(s) > maxQueryTextBytes {
		s = s[:maxQueryTextBytes]
	}
	s = strings.ToValidUTF8(s, " ")
	var all []queryTerm
	seen := map[string]bool{}
	add := func(words []string) {
		if len(words) == 0 {
			return
		}
		if len(words) > maxPhraseWords {
			words = words[:maxPhraseWords]
		}
		key := strings.ToLower(strings.Join(words, " "))
		if seen[key] {
			return
		}
		seen[key] = true
		t := queryTerm{words: make([]string, len(words))}
		for i, w := range words {
			t.words[i] = strings.ToLower(w)
		}
		if len(words) == 1 {
			if sp := SubTokens(words[0]); len(sp) > 1 {
				t.split = sp
			}
		}
		all = append(all, t)
	}
	for len(s) > 0 {
		if s[0] == '"' {
			end := strings.IndexByte(s[1:], '"')
			var phrase string
			if end < 0 {
				phrase, s = s[1:], ""
			} else {
				phrase, s = s[1:1+end], s[2+end:]
			}
			add(wordsOf(phrase))
			continue
		}
		end := strings.IndexByte(s, '"')
		if end < 0 {
			end = len(s)
		}
		for _, w := range wordsOf(s[:end]) {
			add([]string{w})
		}
		s = s[end:]
	}
	var kept []queryTerm
	for _, t := range all {
		if len(t.words) > 1 || !stopwords[t.words[0]] {
			kept = append(kept, t)
		}
	}
	if len(kept) == 0 {
		kept = all
	}
	if len(kept) > maxQueryTerms {
		kept = kept[:maxQueryTerms]
	}
	return kept
}

// wordsOf returns the runs of word characters in s, as written, each cut
// to maxTermRunes.
func wordsOf(s string) []string {
	var out []string
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		w := s[start:end]
		if utf8.RuneCountInString(w) > maxTermRunes {
			w = string([]rune(w)[:maxTermRunes])
		}
		out = append(out, w)
		start = -1
	}
	for i, r := range s {
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
	}
	flush(len(s))
	return out
}

// ftsQuote quotes s as an FTS5 string.
func ftsQuote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// fts returns the term as an FTS5 expression: the word or phrase, or its
// sub-token phrase, or (for a short phrase) the phrase spelled as one
// identifier.
func (t queryTerm) fts() string {
	alts := []string{ftsQuote(strings.Join(t.words, " "))}
	if t.split != nil {
		alts = append(alts, ftsQuote(strings.Join(t.split, " ")))
	}
	if len(t.words) > 1 && len(t.words) <= maxJoinedPhrase {
		alts = append(alts, ftsQuote(strings.Join(t.words, "")))
	}
	if len(alts) == 1 {
		return alts[0]
	}
	return "(" + strings.Join(alts, " OR ") + ")"
}

// ftsExpr joins the terms' expressions with op ("AND" or "OR").
func ftsExpr(terms []queryTerm, op string) string {
	parts := make([]string, len(terms))
	for i, t := range terms {
		parts[i] = t.fts()
	}
	return strings.Join(parts, " "+op+" ")
}

// queryNames returns the lower-case symbol names the terms may be asking for:
// each word, and each phrase spelled as one identifier.
func queryNames(terms []queryTerm) []string {
	seen := map[string]bool{}
	var out []string
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, t := range terms {
		if len(t.words) == 1 {
			add(t.words[0])
			if t.split != nil { // validate_session names validateSession too
				add(strings.Join(t.split, ""))
			}
		} else if len(t.words) <= maxJoinedPhrase {
			add(strings.Join(t.words, ""))
		}
	}
	if len(terms) > 1 && len(terms) <= maxJoinedPhrase {
		var all []string
		for _, t := range terms {
			all = append(all, t.words...)
		}
		if len(all) <= maxJoinedPhrase {
			add(strings.Join(all, ""))
		}
	}
	return out
}

// A nameQuery is a definition asked for by name: "Name", "Type.Method",
// "package.Name", "package.Type.Method".
type nameQuery struct {
	// quals are the qualifiers before the name, outermost first.
	quals []string
	name  string
}

// parseName reads a name to look up. It accepts ".", "::", "#" and "->"
// between parts, Go's "(*T).M" receiver form, a leading import path
// ("github.com/x/y.Name" is y.Name) and a trailing "()" or type
// arguments. ok is false when no name is left.
func parseName(s string) (nameQuery, bool) {
	s = strings.TrimSpace(s)
	if len(s) > maxQueryTextBytes || !utf8.ValidString(s) {
		return nameQuery{}, false
	}
	for _, suffix := range []string{"()", "{}"} {
		s = strings.TrimSuffix(s, suffix)
	}
	if i := strings.IndexAny(s, "<[("); i > 0 && (s[len(s)-1] == '>' || s[len(s)-1] == ']' || s[len(s)-1] == ')') {
		s = s[:i] // type arguments or a parameter list at the end
	}
	if strings.HasPrefix(s, "(") { // Go: (*T).M or (T).M
		if end := strings.Index(s, ")"); end > 0 {
			s = strings.TrimLeft(s[1:end], "*&") + s[end+1:]
		}
	}
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	for _, sep := range []string{"::", "->", "#", "\\"} {
		s = strings.ReplaceAll(s, sep, ".")
	}
	var parts []string
	for _, p := range strings.Split(s, ".") {
		p = strings.TrimLeft(strings.TrimSpace(p), "*&")
		if p == "" {
			continue
		}
		for _, r := range p {
			if !isWordRune(r) && r != '$' {
				return nameQuery{}, false
			}
		}
		if len(p) > maxNameBytes {
			return nameQuery{}, false
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 || len(parts) > maxNameParts {
		return nameQuery{}, false
	}
	return nameQuery{quals: parts[:len(parts)-1], name: parts[len(parts)-1]}, true
}

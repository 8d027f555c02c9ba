package structural

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// maxTerms bounds the terms taken from one question.
const maxTerms = 4

// TextTerms returns the identifier-like terms of a question asked in
// words, such as AuthService in "where is AuthService defined?", in the
// order they are most likely meant, at most four, without repeats:
//
//  1. Code the question quotes: every identifier or chain (see 2) inside
//     `backticks`, "double quotes" or 'single quotes' (a quote that opens
//     after a letter or digit, as in don't, opens nothing), keywords
//     such as func or return left out.
//  2. Words that look like code wherever they stand: snake_case or
//     SCREAMING_CASE (an underscore and a letter), camelCase or
//     CamelCase (a lower-case letter followed by a capital, or two
//     capitals followed by a lower-case letter, as in HTTPServer), a
//     letter then a digit (utf8, md5sum), a word followed by ( as in
//     refresh(), and chains joined by ., :: or -> without spaces
//     (Type.Method, os.Args, self.refresh), kept whole. A chain that
//     ends in a file extension (main.go, README.md) names a file, not a
//     symbol, and is left out.
//  3. Only when 1 and 2 found nothing: the other words of three letters
//     or more that are not English stop words or the vocabulary of
//     questions about code (where, defined, calls, usages, function...),
//     nor all-capital acronyms (API, HTTP).
//
// Identifiers are Unicode letters, digits and underscores, starting with
// a letter or an underscore. [TermWords] splits the terms into the names
// to search for.
func TextTerms(text string) []string {
	var code, strong, weak []string
	seen := map[string]bool{}
	add := func(list *[]string, t string) {
		if t != "" && !seen[t] {
			seen[t] = true
			*list = append(*list, t)
		}
	}
	rest := []rune{}
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		if q, ok := quoteClose(rs, i); ok {
			j := i + 1
			for j < len(rs) && rs[j] != q {
				j++
			}
			if j < len(rs) && (q != '\'' || j+1 >= len(rs) || !isIdentRune(rs[j+1])) {
				for _, tok := range scanTokens(string(rs[i+1 : j])) {
					if len(tok.elems) == 1 && !symbolKeywords()[tok.text] || len(tok.elems) > 1 && !namesFile(tok.text) {
						add(&code, tok.text)
					}
				}
				rest = append(rest, ' ')
				i = j
				continue
			}
		}
		rest = append(rest, c)
	}
	for _, tok := range scanTokens(string(rest)) {
		switch {
		case len(tok.elems) > 1:
			if !namesFile(tok.text) {
				add(&strong, tok.text)
			}
		case tok.call || looksLikeCode(tok.text):
			add(&strong, tok.text)
		case utf8.RuneCountInString(tok.text) >= 3 && !stopWords()[strings.ToLower(tok.text)] && !isAcronym(tok.text):
			weak = append(weak, tok.text)
		}
	}
	out := append(code, strong...)
	if len(out) == 0 {
		for _, w := range weak {
			add(&out, w)
		}
	}
	if len(out) > maxTerms {
		out = out[:maxTerms]
	}
	return out
}

// quoteClose reports whether rs[i] opens a quoted span, and the rune
// that closes it.
func quoteClose(rs []rune, i int) (rune, bool) {
	switch rs[i] {
	case '`', '"':
		return rs[i], true
	case '“':
		return '”', true
	case '\'', '‘':
		if i > 0 && isIdentRune(rs[i-1]) {
			return 0, false // an apostrophe: don't, Go's
		}
		if rs[i] == '‘' {
			return '’', true
		}
		return '\'', true
	}
	return 0, false
}

// A token is an identifier or a chain of them.
type token struct {
	text  string   // as written, separators included
	elems []string // the identifiers
	call  bool     // followed by (
}

// scanTokens returns the identifiers and chains of s in order.
func scanTokens(s string) []token {
	var out []token
	rs := []rune(s)
	for i := 0; i < len(rs); {
		if !isIdentStart(rs[i]) || i > 0 && isIdentRune(rs[i-1]) {
			i++
			continue
		}
		tok := token{}
		start := i
		for {
			j := i
			for j < len(rs) && isIdentRune(rs[j]) {
				j++
			}
			tok.elems = append(tok.elems, string(rs[i:j]))
			i = j
			sep := separatorAt(rs, i)
			if sep == 0 || i+sep >= len(rs) || !isIdentStart(rs[i+sep]) {
				break
			}
			i += sep
		}
		tok.text = string(rs[start:i])
		tok.call = i < len(rs) && rs[i] == '('
		out = append(out, tok)
	}
	return out
}

// separatorAt returns the length of the chain separator at rs[i] (., ::
// or ->), or 0.
func separatorAt(rs []rune, i int) int {
	switch {
	case i < len(rs) && rs[i] == '.':
		return 1
	case i+1 < len(rs) && (rs[i] == ':' && rs[i+1] == ':' || rs[i] == '-' && rs[i+1] == '>'):
		return 2
	}
	return 0
}

func isIdentStart(c rune) bool { return c == '_' || unicode.IsLetter(c) }
func isIdentRune(c rune) bool  { return c == '_' || unicode.IsLetter(c) || unicode.IsDigit(c) }

// looksLikeCode reports whether an identifier is spelled as code rather
// than as an English word: see rule 2 of TextTerms.
func looksLikeCode(w string) bool {
	rs := []rune(w)
	letter := false
	for i, c := range rs {
		switch {
		case c == '_':
			if hasLetter(rs) {
				return true
			}
		case unicode.IsDigit(c):
			if letter {
				return true
			}
		case unicode.IsUpper(c):
			if i > 0 && unicode.IsLower(rs[i-1]) {
				return true // camelCase
			}
			if i > 0 && i+1 < len(rs) && unicode.IsUpper(rs[i-1]) && unicode.IsLower(rs[i+1]) {
				return true // HTTPServer
			}
		}
		letter = letter || unicode.IsLetter(c)
	}
	return false
}

func hasLetter(rs []rune) bool {
	for _, c := range rs {
		if unicode.IsLetter(c) {
			return true
		}
	}
	return false
}

func isAcronym(w string) bool {
	for _, c := range w {
		if !unicode.IsUpper(c) && !unicode.IsDigit(c) {
			return false
		}
	}
	return true
}

// namesFile reports whether a chain ends in a file extension, as main.go
// and README.md do.
func namesFile(chain string) bool {
	i := strings.LastIndexByte(chain, '.')
	if i < 0 {
		return false
	}
	if _, ok := LanguageOf(chain); ok {
		return true
	}
	switch strings.ToLower(chain[i+1:]) {
	case "md", "txt", "yaml", "yml", "toml", "xml", "html", "css", "lock", "mod", "sum", "cfg", "ini", "sql", "proto", "rst":
		return true
	}
	return false
}

// stopWords are English words and the vocabulary of questions about code,
// which name no symbol (compared in lower case).
var stopWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again all also am an and any are as at be because
		been before being below between both but by can could did do does doing done down during each
		else every few for from further get gets got had has have having he her here hers him his how
		into its itself just like made make many may me might more most much must my no nor not now of
		off on once one only or other our ours out over own same she should so some such than that the
		their theirs them then there these they this those through to too under until up upon us very
		was we were what when where which while who whom whose why will with within without would you
		your yours
		api apis call called caller callers calls calling change changed changes class classes code
		codebase declaration declarations declare declared define defined defines definition
		definitions deprecated file files find function functions implement implementation
		implementations implemented implements implementing import imported imports installed
		instance instances interface interfaces kind line lines list method methods migrate module
		modules new object old package packages project reference references referenced repo
		repository return returns shape show symbol symbols type types usage usages use used uses
		using value values variable variables version versions work works`) {
		m[w] = true
	}
	return m
})

// TermWords returns the names to search for of terms from [TextTerms]:
// each identifier, and for a chain its last name first (Method of
// Type.Method, the symbol asked about), then the names qualifying it;
// without repeats, in order.
func TermWords(terms []string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(w string) {
		if w != "" && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	for _, t := range terms {
		for _, tok := range scanTokens(t) {
			add(tok.elems[len(tok.elems)-1])
		}
	}
	for _, t := range terms {
		for _, tok := range scanTokens(t) {
			for _, e := range tok.elems {
				add(e)
			}
		}
	}
	return out
}

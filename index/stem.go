package index

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The full-text index matches words by their Porter stems ("checkpoints"
// finds "checkpoint"). The stems are taken here, by the workers that read
// the files and by the query that asks, not by the database's tokenizer on
// the one writer: stemText gives the text the full-text index is given,
// and the words a query looks for, with each word of ASCII letters and
// digits replaced by its stem. Its tokenizer (unicode61) then only splits
// and folds. A word with other letters in it is left as it is, folded by
// the tokenizer and not stemmed, on both sides alike.

// Bounds of the words stemmed, in bytes: shorter and longer ones are kept
// as they are, as SQLite's porter tokenizer keeps them.
const (
	minStemmed = 3
	maxStemmed = 64
)

// stemText returns s with every word of ASCII letters and digits of
// minStemmed to maxStemmed bytes (a run of them not touching a letter,
// digit or mark of another script) replaced by its Porter stem, in lower
// case. The rest of s, word boundaries included, is unchanged, so that
// the tokenizer finds the same words at the same places.
func stemText(s string) string {
	var b strings.Builder
	var buf [maxStemmed]byte
	last := 0 // s[:last] is written to b, when b is used
	for i := 0; i < len(s); {
		start, ascii := i, true
		for i < len(s) {
			c := s[i]
			if c < utf8.RuneSelf {
				if !isASCIIWordByte(c) {
					break
				}
				i++
				continue
			}
			r, n := utf8.DecodeRuneInString(s[i:])
			if !unicode.In(r, unicode.L, unicode.N, unicode.M, unicode.Co) {
				break
			}
			ascii = false
			i += n
		}
		if i == start {
			_, n := utf8.DecodeRuneInString(s[i:])
			i += n
			continue
		}
		word := s[start:i]
		if !ascii || len(word) < minStemmed || len(word) > maxStemmed {
			continue
		}
		w := buf[:len(word)]
		for k := range len(word) {
			w[k] = asciiLower(word[k])
		}
		stem := porterStem(w)
		if string(stem) == word {
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[last:start])
		b.Write(stem)
		last = i
	}
	if b.Len() == 0 && last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func isASCIIWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func asciiLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// porterStem returns the stem of w, a word of lower-case ASCII letters
// and digits, by M. F. Porter's algorithm ("An algorithm for suffix
// stripping", 1980), in the form SQLite's porter tokenizer gives it
// (TestStemAgreesWithSQLite). It works in w and returns a slice of it,
// one byte longer at most (step 1b adds an e): w must have room.
func porterStem(w []byte) []byte {
	w = step1a(w)
	w = step1b(w)
	if n := len(w); n > 1 && w[n-1] == 'y' && hasVowel(w[:n-1]) {
		w[n-1] = 'i'
	}
	w = step2(w)
	w = step3(w)
	w = step4(w)
	if n := len(w); n > 0 && w[n-1] == 'e' {
		if m := measure(w[:n-1]); m > 1 || m == 1 && !cvc(w[:n-1]) {
			w = w[:n-1]
		}
	}
	if n := len(w); n > 1 && w[n-1] == 'l' && w[n-2] == 'l' && measure(w[:n-1]) > 1 {
		w = w[:n-1]
	}
	return w
}

// consonant reports whether w[i] is a consonant: a letter other than a,
// e, i, o, u, and y after a vowel or first; a digit counts as one.
func consonant(w []byte, i int) bool {
	switch w[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !consonant(w, i-1)
	}
	return true
}

// measure returns m of w written [C](VC)^m[V]: how many runs of vowels
// are followed by consonants.
func measure(w []byte) int {
	m, i := 0, 0
	for i < len(w) && consonant(w, i) {
		i++
	}
	for i < len(w) {
		for i < len(w) && !consonant(w, i) {
			i++
		}
		if i == len(w) {
			break
		}
		for i < len(w) && consonant(w, i) {
			i++
		}
		m++
	}
	return m
}

func hasVowel(w []byte) bool {
	for i := range w {
		if !consonant(w, i) {
			return true
		}
	}
	return false
}

// doubleConsonant reports whether w ends with two of the same consonant.
func doubleConsonant(w []byte) bool {
	n := len(w)
	return n > 1 && w[n-1] == w[n-2] && consonant(w, n-1)
}

// cvc reports whether w ends consonant, vowel, consonant, the last not
// w, x or y.
func cvc(w []byte) bool {
	n := len(w)
	if n < 3 || !consonant(w, n-3) || consonant(w, n-2) || !consonant(w, n-1) {
		return false
	}
	c := w[n-1]
	return c != 'w' && c != 'x' && c != 'y'
}

// hasSuffix reports whether w ends with s after at least one byte: a
// suffix is never the whole word.
func hasSuffix(w []byte, s string) bool {
	return len(w) > len(s) && string(w[len(w)-len(s):]) == s
}

// replace returns w with suffix from (which it has) replaced by to.
func replace(w []byte, from, to string) []byte {
	w = w[:len(w)-len(from)]
	return append(w, to...)
}

func step1a(w []byte) []byte {
	switch {
	case hasSuffix(w, "sses"), hasSuffix(w, "ies"):
		return w[:len(w)-2]
	case hasSuffix(w, "ss"):
		return w
	case hasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

func step1b(w []byte) []byte {
	if hasSuffix(w, "eed") {
		if measure(w[:len(w)-3]) > 0 {
			return w[:len(w)-1]
		}
		return w
	}
	var stem []byte
	switch {
	case hasSuffix(w, "ed") && hasVowel(w[:len(w)-2]):
		stem = w[:len(w)-2]
	case hasSuffix(w, "ing") && hasVowel(w[:len(w)-3]):
		stem = w[:len(w)-3]
	default:
		return w
	}
	switch {
	case hasSuffix(stem, "at"), hasSuffix(stem, "bl"), hasSuffix(stem, "iz"):
		return append(stem, 'e')
	case doubleConsonant(stem):
		if c := stem[len(stem)-1]; c != 'l' && c != 's' && c != 'z' {
			return stem[:len(stem)-1]
		}
	case measure(stem) == 1 && cvc(stem):
		return append(stem, 'e')
	}
	return stem
}

// A rule replaces a suffix when what is left before it has a measure
// greater than min.
type rule struct {
	from, to string
}

// step2Rules and step3Rules are tried in order; the first suffix w has
// decides, whether or not its condition holds.
var step2Rules = []rule{
	{"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"}, {"anci", "ance"}, {"izer", "ize"},
	{"bli", "ble"}, {"alli", "al"}, {"entli", "ent"}, {"eli", "e"}, {"ousli", "ous"},
	{"ization", "ize"}, {"ation", "ate"}, {"ator", "ate"}, {"alism", "al"}, {"iveness", "ive"},
	{"fulness", "ful"}, {"ousness", "ous"}, {"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"},
	{"logi", "log"},
}

var step3Rules = []rule{
	{"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"}, {"ical", "ic"}, {"ful", ""}, {"ness", ""},
}

var step4Suffixes = []string{
	"al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism",
	"ate", "iti", "ous", "ive", "ize",
}

func applyRules(w []byte, rules []rule) []byte {
	for _, r := range rules {
		if hasSuffix(w, r.from) {
			if measure(w[:len(w)-len(r.from)]) > 0 {
				return replace(w, r.from, r.to)
			}
			return w
		}
	}
	return w
}

func step2(w []byte) []byte { return applyRules(w, step2Rules) }
func step3(w []byte) []byte { return applyRules(w, step3Rules) }

// step4 drops the first of step4Suffixes that w has when what is left
// has a measure greater than 1 (and, for ion, ends with s or t); the
// first suffix w has decides.
func step4(w []byte) []byte {
	for _, s := range step4Suffixes {
		if !hasSuffix(w, s) {
			continue
		}
		stem := w[:len(w)-len(s)]
		if measure(stem) > 1 && (s != "ion" || hasSuffix(stem, "s") || hasSuffix(stem, "t")) {
			return stem
		}
		return w
	}
	return w
}

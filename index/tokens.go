package index

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// SubTokens splits an identifier into the lower-case words it is made of:
// at underscores and hyphens, where a lower-case letter or a digit is
// followed by an upper-case one ("validateSession" → validate, session),
// before the last capital of a run that a lower-case letter follows
// ("HTTPServer" → http, server), and where letters and digits meet
// ("utf8Decode" → utf, 8, decode). Other characters separate words too.
// Every word is a run of letters (with any combining marks) or a run of
// digits. An identifier that is one word gives that word alone.
func SubTokens(ident string) []string {
	return appendSubTokens(nil, ident)
}

// class is a character's class for splitting.
type class uint8

const (
	sep class = iota
	lower
	upper
	digit
	mark // a combining mark: it belongs to the letter before it
	other
)

func classOf(r rune) class {
	switch {
	case r < utf8.RuneSelf:
		switch {
		case r >= 'a' && r <= 'z':
			return lower
		case r >= 'A' && r <= 'Z':
			return upper
		case r >= '0' && r <= '9':
			return digit
		}
		return sep
	case (unicode.IsUpper(r) || unicode.IsTitle(r)) && unicode.ToLower(r) != r:
		return upper
	case unicode.IsLower(r):
		return lower
	case unicode.IsLetter(r):
		return other // a letter without case (CJK, Hebrew...)
	case unicode.IsDigit(r):
		return digit
	case unicode.Is(unicode.M, r):
		return mark
	}
	return sep
}

// appendSubTokens appends the words of ident to dst.
func appendSubTokens(dst []string, ident string) []string {
	eachWord(ident, func(start, end int) { dst = append(dst, strings.ToLower(ident[start:end])) })
	return dst
}

// eachWord calls word with where each word of ident starts and ends, in
// order: the words SubTokens returns, before they are lower-cased.
func eachWord(ident string, word func(start, end int)) {
	start := -1 // byte offset where the current word starts
	var prev class = sep
	var prevStart int // byte offset of the previous rune
	for i, r := range ident {
		c := classOf(r)
		if c == mark && start < 0 {
			c = sep // a mark with no letter before it is not part of a word
		}
		cut := -1 // the offset where a new word starts, if one does here
		switch {
		case c == sep:
			if start >= 0 {
				word(start, i)
				start = -1
			}
		case start < 0:
			start = i
		case c == mark:
			// stays with its letter
		case c == digit && prev != digit, c != digit && prev == digit:
			cut = i
		case c == upper && (prev == lower || prev == other):
			cut = i
		case c == lower && prev == upper && prevStart > start:
			// "HTTPServer": the S of Server starts the word, not the e.
			cut = prevStart
		}
		if cut >= 0 {
			word(start, cut)
			start = cut
		}
		if c != mark {
			prev = c
			prevStart = i
		}
	}
	if start >= 0 {
		word(start, len(ident))
	}
}

// appendLower appends w lower-cased to dst, as strings.ToLower would.
func appendLower(dst []byte, w string) []byte {
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			return append(dst, strings.ToLower(w)...)
		}
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// isWordRune reports whether r can be part of an identifier as the index
// reads text: letters, digits, combining marks and the underscore.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r)
}

// Bounds on the match-only text appended to a chunk.
const (
	maxExpandedIdents = 256  // distinct compound identifiers per chunk
	maxExpandedBytes  = 8192 // bytes appended per chunk
)

// matchText returns the text the full-text index matches a chunk by: the
// chunk itself, then, once for each distinct identifier in it that splits
// into more than one word, those words separated by spaces, up to the
// bounds above. The appended words never reach what is shown.
//
// Most identifiers of code are one word (if, err, return, Session): an
// ASCII one that only its first letter capitalises, without a digit or an
// underscore, is passed over without being looked up or split.
func matchText(chunk string) string {
	var b strings.Builder
	b.Grow(len(chunk) + len(chunk)/4)
	b.WriteString(chunk)
	b.WriteString("\n")
	sc := matchScratches.Get().(*matchScratch)
	seen, added := sc.seen, sc.added // identifiers looked at; word sequences appended
	phrase := sc.phrase[:0]
	defer func() {
		sc.phrase = phrase
		sc.put()
	}()
	for i := 0; i < len(chunk); {
		if c := chunk[i]; c < utf8.RuneSelf && asciiKind[c] == 0 {
			i++ // an ASCII character no word has
			continue
		}
		j, plain := i, true
		for j < len(chunk) {
			c := chunk[j]
			if c < utf8.RuneSelf {
				k := asciiKind[c]
				if k == 0 {
					break
				}
				plain = plain && (k == asciiLower || j == i && k == asciiUpper)
				j++
				continue
			}
			r, n := utf8.DecodeRuneInString(chunk[j:])
			if !isWordRune(r) {
				break
			}
			plain = false
			j += n
		}
		if j == i { // no word here: one character past ASCII, or one invalid byte
			_, n := utf8.DecodeRuneInString(chunk[i:])
			i += n
			continue
		}
		ident := chunk[i:j]
		i = j
		if plain || len(ident) < 3 || seen[ident] {
			continue
		}
		seen[ident] = true
		words := 0
		phrase = phrase[:0]
		eachWord(ident, func(start, end int) {
			if words > 0 {
				phrase = append(phrase, ' ')
			}
			phrase = appendLower(phrase, ident[start:end])
			words++
		})
		if words < 2 {
			continue
		}
		if added[string(phrase)] {
			continue
		}
		if len(added) >= maxExpandedIdents || b.Len()-len(chunk)+len(phrase)+1 > maxExpandedBytes {
			break
		}
		added[string(phrase)] = true
		b.Write(phrase)
		b.WriteByte('\n')
	}
	return b.String()
}

// A matchScratch is what matchText uses and gives back for its next call,
// empty.
type matchScratch struct {
	seen, added map[string]bool
	phrase      []byte
}

var matchScratches = sync.Pool{New: func() any {
	return &matchScratch{seen: map[string]bool{}, added: map[string]bool{}}
}}

// put empties sc and gives it back, unless its maps grew past what most
// chunks need: emptying a map takes as long as it is large.
func (sc *matchScratch) put() {
	if len(sc.seen) > maxScratchIdents {
		return
	}
	clear(sc.seen)
	clear(sc.added)
	matchScratches.Put(sc)
}

// maxScratchIdents is how many identifiers a matchScratch given back may
// have held.
const maxScratchIdents = 1024

// asciiKind tells, for each ASCII byte, whether it can be part of an
// identifier (see isWordRune: not 0) and whether it is a lower-case or an
// upper-case letter.
var asciiKind = func() (t [utf8.RuneSelf]uint8) {
	for c := range utf8.RuneSelf {
		switch {
		case c >= 'a' && c <= 'z':
			t[c] = asciiLower
		case c >= 'A' && c <= 'Z':
			t[c] = asciiUpper
		case c >= '0' && c <= '9', c == '_':
			t[c] = asciiOther
		}
	}
	return t
}()

// The kinds of ASCII byte of asciiKind's table.
const (
	asciiLower = 1 + iota
	asciiUpper
	asciiOther // a digit or the underscore
)

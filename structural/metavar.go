package structural

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// mvKind is what a metavariable is.
type mvKind uint8

const (
	mvNone     mvKind = iota
	mvCapture         // $X (named nodes) or $$X (any node): captures one node
	mvDropped         // $_ or $_X, $$_...: matches one node without capturing
	mvMulti           // $$$ or $$$_X: matches zero or more nodes, not captured
	mvMultiCap        // $$$X: matches and captures zero or more nodes
)

// metaVar is a metavariable found in a pattern.
type metaVar struct {
	kind  mvKind
	name  string // without sigils; empty for anonymous ones
	named bool   // only named nodes match (single $ sigil)
}

func isMetaFirst(c rune) bool { return c >= 'A' && c <= 'Z' || c == '_' }
func isMetaChar(c rune) bool  { return isMetaFirst(c) || c >= '0' && c <= '9' }

// extractMetaVar recognises the text of a pattern node as a metavariable
// written with sigil (the language's expando character after
// preprocessing). It follows ast-grep's rules: names are [A-Z_][A-Z0-9_]*,
// a leading underscore makes a variable anonymous, $$ (two sigils) also
// accepts unnamed tokens, and three sigils make a multi-node variable.
func extractMetaVar(src string, sigil rune) (metaVar, bool) {
	s := string(sigil)
	three := s + s + s
	if src == three {
		return metaVar{kind: mvMulti}, true
	}
	if rest, ok := strings.CutPrefix(src, three); ok {
		if !allMetaChars(rest) {
			return metaVar{}, false
		}
		if strings.HasPrefix(rest, "_") {
			return metaVar{kind: mvMulti}, true
		}
		return metaVar{kind: mvMultiCap, name: rest}, true
	}
	rest, ok := strings.CutPrefix(src, s)
	if !ok {
		return metaVar{}, false
	}
	named := true
	if r, ok := strings.CutPrefix(rest, s); ok {
		rest, named = r, false
	}
	if rest == "" || !isMetaFirst(rune(rest[0])) || !allMetaChars(rest) {
		return metaVar{}, false
	}
	if rest[0] == '_' {
		return metaVar{kind: mvDropped, named: named}, true
	}
	return metaVar{kind: mvCapture, name: rest, named: named}, true
}

// metaVarOf is extractMetaVar of a node's text, without copying the text
// of a node that cannot be a metavariable: one that does not start with
// sigil, or goes on with anything but sigils and name characters. So a
// pattern's nodes cost time for their own text only, however deep the
// pattern nests.
func (t *tree) metaVarOf(i nodeID, sigil rune) (metaVar, bool) {
	b := t.textBytes(i)
	var sb [utf8.UTFMax]byte
	sig := sb[:utf8.EncodeRune(sb[:], sigil)]
	if !bytes.HasPrefix(b, sig) {
		return metaVar{}, false
	}
	k := 0
	for k < 3 && bytes.HasPrefix(b, sig) {
		b = b[len(sig):]
		k++
	}
	for _, c := range b {
		if c >= utf8.RuneSelf || !isMetaChar(rune(c)) {
			return metaVar{}, false
		}
	}
	return extractMetaVar(t.text(i), sigil)
}

func allMetaChars(s string) bool {
	for _, c := range s {
		if !isMetaChar(c) {
			return false
		}
	}
	return true
}

// preprocess replaces the $ sigils of metavariables by the language's
// expando character, as ast-grep does, so that $X parses as an identifier
// in languages where $ cannot start one. A run of $ is replaced when a
// metavariable name follows it or when it is exactly $$$.
func preprocess(pattern string, expando rune) string {
	if expando == '$' || !strings.Contains(pattern, "$") {
		return pattern
	}
	var b strings.Builder
	dollars := 0
	flush := func(replace bool) {
		c := '$'
		if replace {
			c = expando
		}
		for ; dollars > 0; dollars-- {
			b.WriteRune(c)
		}
	}
	for _, c := range pattern {
		if c == '$' {
			dollars++
			continue
		}
		flush(isMetaFirst(c) || dollars == 3)
		b.WriteRune(c)
	}
	flush(dollars == 3)
	return b.String()
}

package syntax

import (
	"fmt"
	"sync"
	"unsafe"
)

// A Grammar is one language's table of node kinds and field names, as
// its tree-sitter grammar defines them. It is immutable and safe for
// concurrent use.
type Grammar struct {
	lang     Language
	ptr      unsafe.Pointer // const TSLanguage*
	dense    denseTable     // ptr's parse table made dense, once parses have read enough
	kinds    []string       // kind name by kind id
	named    []uint8        // 1 when the kind is named
	byName   map[string][]uint16
	fields   []string // field name by field id; 0 is no field
	fieldIDs map[string]uint16
	// keywords are the names of the visible unnamed kinds that are words
	// (if, return, func...), possibly repeated.
	keywords []string
}

// ErrorKind is the kind id of an ERROR node, in every grammar.
const ErrorKind uint16 = 0xFFFF

var (
	grammarsMu sync.Mutex
	grammars   = map[Language]*Grammar{}
)

// GrammarOf returns l's grammar, loading it once. The error matches
// [ErrUnknownLanguage] for a language that is not one of [Languages], and
// [ErrUnavailable] in a build without cgo.
func GrammarOf(l Language) (*Grammar, error) {
	if !l.Valid() {
		return nil, fmt.Errorf("%w %q", ErrUnknownLanguage, string(l))
	}
	grammarsMu.Lock()
	defer grammarsMu.Unlock()
	if g, ok := grammars[l]; ok {
		return g, nil
	}
	g, err := loadGrammar(l)
	if err != nil {
		return nil, err
	}
	grammars[l] = g
	return g, nil
}

// Language returns the grammar's language.
func (g *Grammar) Language() Language { return g.lang }

// KindCount returns how many kind ids the grammar has; every id but
// [ErrorKind] is below it.
func (g *Grammar) KindCount() int { return len(g.kinds) }

// KindName returns the name of kind id ("function_declaration", "(",
// "ERROR"), or "" for an id the grammar does not have.
func (g *Grammar) KindName(id uint16) string {
	if int(id) < len(g.kinds) {
		return g.kinds[id]
	}
	if id == ErrorKind {
		return "ERROR"
	}
	return ""
}

// KindNamed reports whether kind id is a named kind (a rule of the
// grammar, not an anonymous token such as "(" or "func").
func (g *Grammar) KindNamed(id uint16) bool {
	return int(id) < len(g.named) && g.named[id] == 1 || id == ErrorKind
}

// KindIDs returns the ids of the kinds named name; a grammar may give one
// name to several ids (a named rule and a token, or aliases).
func (g *Grammar) KindIDs(name string) []uint16 {
	return append([]uint16(nil), g.byName[name]...)
}

// FieldCount returns how many field ids the grammar has; field 0 is "no
// field".
func (g *Grammar) FieldCount() int { return len(g.fields) }

// FieldName returns the name of field id ("name", "body"), or "" for 0 or
// an id the grammar does not have.
func (g *Grammar) FieldName(id uint16) string {
	if int(id) < len(g.fields) {
		return g.fields[id]
	}
	return ""
}

// FieldID returns the id of the field named name, and whether the grammar
// has it.
func (g *Grammar) FieldID(name string) (uint16, bool) {
	id, ok := g.fieldIDs[name]
	return id, ok
}

// Keywords returns the names of the grammar's visible anonymous kinds that
// are words ("if", "return", "func"...), in kind-id order, possibly
// repeated.
func (g *Grammar) Keywords() []string { return append([]string(nil), g.keywords...) }

// isWord reports whether s is an identifier-like word.
func isWord(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

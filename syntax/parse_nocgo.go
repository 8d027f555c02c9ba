//go:build !cgo

package syntax

import (
	"fmt"
	"unsafe"
)

// Available reports whether this build can parse: false, as it was built
// without cgo and so without the tree-sitter runtime.
const Available = false

func loadGrammar(l Language) (*Grammar, error) {
	return nil, fmt.Errorf("%w: built without cgo, so the %s grammar is not linked in", ErrUnavailable, l)
}

// denseTable has nothing to hold in this build.
type denseTable struct{}

// A Parser parses sources of one language. This build has none.
type Parser struct{}

// NewParser returns an error matching [ErrUnavailable] in this build.
func NewParser(l Language) (*Parser, error) {
	if !l.Valid() {
		return nil, fmt.Errorf("%w %q", ErrUnknownLanguage, string(l))
	}
	_, err := loadGrammar(l)
	return nil, err
}

// Language returns "" in this build.
func (*Parser) Language() Language { return "" }

// Close does nothing in this build.
func (*Parser) Close() {}

// Parse returns an error matching [ErrUnavailable] in this build.
func (*Parser) Parse([]byte) (*Tree, error) { return nil, ErrUnavailable }

// ParseSpans returns an error matching [ErrUnavailable] in this build.
func (*Parser) ParseSpans([]byte, []Span) (*Tree, error) { return nil, ErrUnavailable }

// ParseSpansInto returns an error matching [ErrUnavailable] in this build.
func (*Parser) ParseSpansInto(*Tree, []byte, []Span) error { return ErrUnavailable }

// Parse returns an error matching [ErrUnavailable] (or
// [ErrUnknownLanguage]) in this build.
func Parse(l Language, _ []byte) (*Tree, error) {
	_, err := NewParser(l)
	return nil, err
}

// ParseFunc returns an error matching [ErrUnavailable] (or
// [ErrUnknownLanguage]) in this build, without calling fn.
func ParseFunc(l Language, _ []byte, _ func(*Tree)) error {
	_, err := NewParser(l)
	return err
}

var _ unsafe.Pointer // Grammar.ptr keeps the same type in both builds

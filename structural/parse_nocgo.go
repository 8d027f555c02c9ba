//go:build !cgo

package structural

import "unsafe"

// cgoEnabled reports whether this build has the built-in engine: without
// cgo the tree-sitter runtime cannot be linked.
const cgoEnabled = false

func grammarOf(Language) (*grammar, bool) { return nil, false }

type parser struct{}

func newParser(*grammar) (*parser, error) { return nil, ErrUnavailable }

func (*parser) Close() {}

func (*parser) parse([]byte, []segment, []bool) ([]flatNode, bool) { return nil, false }

var _ unsafe.Pointer // grammar.ptr keeps the same type in both builds

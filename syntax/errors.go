package syntax

import "errors"

// ErrUnavailable is matched (errors.Is) by the error of every parse in a
// build without cgo, where the tree-sitter runtime is not linked in.
var ErrUnavailable = errors.New("syntax: tree-sitter parser unavailable")

// ErrUnknownLanguage is matched by the error for a language name, alias or
// value that is not one of [Languages].
var ErrUnknownLanguage = errors.New("syntax: unknown language")

// ErrParse is matched by the error of a parse that produced no tree: a
// source of 2 GiB or more, or a runtime failure.
var ErrParse = errors.New("syntax: source could not be parsed")

package symbols

import (
	"fmt"

	"github.com/codecortex/codecortex/syntax"
)

// Version names the extraction rules. It changes whenever a change to
// them would give another answer for some file, so that an index built by
// an older version reads its files again.
const Version = "symbols-24"

// Kind is what a definition defines.
type Kind string

// The kinds of definitions.
const (
	Function  Kind = "function"
	Method    Kind = "method"
	Type      Kind = "type" // a named type that is none of the kinds below (Go's type T int, a TS type alias)
	Struct    Kind = "struct"
	Class     Kind = "class"
	Interface Kind = "interface"
	Enum      Kind = "enum"
	Constant  Kind = "constant"
	Variable  Kind = "variable"
	Field     Kind = "field"
	Module    Kind = "module" // a namespace, module or package declaration
	Macro     Kind = "macro"  // a C preprocessor function macro, a Rust macro_rules!
)

var kinds = map[Kind]bool{Function: true, Method: true, Type: true, Struct: true, Class: true, Interface: true,
	Enum: true, Constant: true, Variable: true, Field: true, Module: true, Macro: true}

// Valid reports whether k is one of the kinds above.
func (k Kind) Valid() bool { return kinds[k] }

// A Range is a span of a file: one-based lines and code-point columns,
// half-open, with the byte offsets of the same span; the syntax floor's.
type Range = syntax.Range

// contains reports whether r holds inner's bytes.
func contains(r, inner Range) bool {
	return r.StartByte <= inner.StartByte && inner.EndByte <= r.EndByte
}

// A Symbol is one definition.
type Symbol struct {
	Name string `json:"name"`
	Kind Kind   `json:"kind"`
	// Container is the type or class a method or field belongs to (a Go
	// method's receiver type), or the enclosing definition's name; empty at
	// the top level.
	Container string `json:"container,omitempty"`
	// Package is the package, module or namespace the file declares, where
	// the language has one (Go's package clause, a Java package, a C#
	// namespace, a Rust file's module path is not known from the file).
	Package string `json:"package,omitempty"`
	// Signature is the definition's head as written, on one line, bounded:
	// "func (c *Cart) Add(item string)", "class Cart(Base):".
	Signature string `json:"signature,omitempty"`
	// Exported reports whether the language makes the name visible outside
	// its file or package (Go's capital letter, an export keyword, public).
	Exported bool `json:"exported"`
	// NameRange is the name's span; Range the whole definition's.
	NameRange Range `json:"name_range"`
	Range     Range `json:"range"`
	// DocLine is the first line of the comments (or decorators) directly
	// above the definition that belong to it; Range.StartLine without any.
	DocLine int `json:"doc_line"`
}

// An Import is one import, require, use or include the file reads.
type Import struct {
	// Path is the imported module, package or file as written, unquoted.
	Path string `json:"path"`
	// Name is the member of Path the import names, where the syntax
	// separates the two: Python's from Path import Name, JavaScript's
	// import { Name } from "Path" ("default" for a default import, "*" for
	// a namespace or wildcard one). Empty when the whole Path is imported.
	Name string `json:"name,omitempty"`
	// Alias is the local name it is bound to, when the file gives one.
	Alias string `json:"alias,omitempty"`
	Range Range  `json:"range"`
}

// A File is what one source file defines and imports.
type File struct {
	Path     string `json:"path"`
	Language string `json:"language"`
	// Package is the file's package, module or namespace, where it has one.
	Package string   `json:"package,omitempty"`
	Symbols []Symbol `json:"symbols"`
	Imports []Import `json:"imports"`
	// Refs are the names the file uses outside its imports and the names
	// of its own definitions, in order (see [Ref]).
	Refs []Ref `json:"refs,omitempty"`
	// Errors reports whether the parse found syntax errors; the symbols
	// outside them are still given.
	Errors bool `json:"errors,omitempty"`
}

// Validate checks the file's invariants: every symbol has a name, a valid
// kind and valid ranges, its name lies within its range, its DocLine is
// at or above its first line; every import has a path and a valid range;
// and every range lies within size bytes (the source's length).
func (f *File) Validate(size int) error {
	within := func(r Range) error {
		if err := r.Validate(); err != nil {
			return err
		}
		if r.EndByte > size {
			return fmt.Errorf("symbols: range ends at byte %d of %d", r.EndByte, size)
		}
		return nil
	}
	for i, s := range f.Symbols {
		switch {
		case s.Name == "":
			return fmt.Errorf("symbols: symbol %d has no name", i)
		case !s.Kind.Valid():
			return fmt.Errorf("symbols: %s has an unknown kind %q", s.Name, s.Kind)
		case within(s.Range) != nil:
			return fmt.Errorf("symbols: %s: %w", s.Name, within(s.Range))
		case within(s.NameRange) != nil:
			return fmt.Errorf("symbols: %s: name %w", s.Name, within(s.NameRange))
		case !contains(s.Range, s.NameRange):
			return fmt.Errorf("symbols: %s: its name lies outside its range", s.Name)
		case s.DocLine < 1 || s.DocLine > s.Range.StartLine:
			return fmt.Errorf("symbols: %s: doc line %d is not at or above line %d", s.Name, s.DocLine, s.Range.StartLine)
		}
	}
	for i, im := range f.Imports {
		if im.Path == "" {
			return fmt.Errorf("symbols: import %d has no path", i)
		}
		if err := within(im.Range); err != nil {
			return fmt.Errorf("symbols: import %s: %w", im.Path, err)
		}
	}
	for i, r := range f.Refs {
		switch {
		case r.Name == "" || !r.Kind.Valid():
			return fmt.Errorf("symbols: ref %d has no name or an unknown kind", i)
		case r.Line < 1 || r.Column < 1 || r.Byte < 0 || r.Byte >= size:
			return fmt.Errorf("symbols: ref %s lies outside the file", r.Name)
		}
	}
	return nil
}

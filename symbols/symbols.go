// Package symbols extracts, from source files of every language the
// structural layer parses, the definitions they make and the imports they
// read: each definition with its name, kind, container, package, signature,
// exported flag, the range of its name and of the whole definition. A
// definition found this way is a parsed-syntax fact about a name, never a
// resolution by identity: its evidence is structural at most.
package symbols

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
)

// A Range is a span of a file: one-based lines and code-point columns,
// half-open (EndColumn is the column just past the end), with the byte
// offsets of the same span.
type Range struct {
	StartLine   int `json:"start_line"`
	StartColumn int `json:"start_column"`
	EndLine     int `json:"end_line"`
	EndColumn   int `json:"end_column"`
	StartByte   int `json:"start_byte"`
	EndByte     int `json:"end_byte"`
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
	// Errors reports whether the parse found syntax errors; the symbols
	// outside them are still given.
	Errors bool `json:"errors,omitempty"`
}

package structural

import "github.com/codecortex/codecortex/syntax"

// A Language is a language the structural engines know, by its canonical
// name (the one ast-grep's --lang accepts). It is the syntax floor's
// language; see [syntax.Language] for its methods.
type Language = syntax.Language

// The languages the built-in engine parses.
const (
	Go         = syntax.Go
	Python     = syntax.Python
	JavaScript = syntax.JavaScript
	TypeScript = syntax.TypeScript
	TSX        = syntax.TSX
	Rust       = syntax.Rust
	Java       = syntax.Java
	C          = syntax.C
	JSON       = syntax.JSON
	Cpp        = syntax.Cpp
	CSharp     = syntax.CSharp
	Ruby       = syntax.Ruby
	PHP        = syntax.PHP
	Bash       = syntax.Bash
	Kotlin     = syntax.Kotlin
)

// Languages returns every known language, sorted by name.
func Languages() []Language { return syntax.Languages() }

// ParseLanguage returns the language with the given name or alias, ignoring
// case ("go", "golang", "ts", "py"...).
func ParseLanguage(name string) (Language, error) { return syntax.ParseLanguage(name) }

// LanguageOf returns the language a file is written in, judged by its
// extension; ok is false for a file no engine parses.
func LanguageOf(file string) (Language, bool) { return syntax.LanguageOf(file) }

// expandos replace the metavariable sigil $ in patterns of languages where
// $ cannot start an identifier, so $X parses as an identifier. ast-grep
// uses the same characters (crates/language/src/lib.rs).
var expandos = map[Language]rune{
	Go:         'µ',
	Python:     'µ',
	JavaScript: '$',
	TypeScript: '$',
	TSX:        '$',
	Rust:       'µ',
	Java:       '$',
	// C and C++ take U+10000, a letter outside the Basic Multilingual
	// Plane that their grammars accept in identifiers, as ast-grep 0.51.1
	// does (a pattern with 𐀀A matches as $A does there).
	C:      '𐀀',
	JSON:   '$',
	Cpp:    '𐀀',
	CSharp: 'µ',
	Ruby:   'µ',
	PHP:    'µ',
	// Bash keeps $: $X reads as a variable expansion whose text is the
	// metavariable, as in ast-grep.
	Bash:   '$',
	Kotlin: 'µ',
}

// expando returns l's metavariable sigil in a parsed pattern.
func expando(l Language) rune { return expandos[l] }

package codecortex

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/codecortex/codecortex/syntax"
)

// maxNewName bounds a rename's new name, in bytes.
const maxNewName = 256

// checkNewName says why name cannot be an identifier of lang: empty, too
// long, not an identifier, or a keyword. It returns "" when it can.
func checkNewName(lang syntax.Language, name string) (kind, reason string) {
	switch {
	case name == "":
		return ConflictIdentifier, "the new name is empty"
	case len(name) > maxNewName:
		return ConflictIdentifier, fmt.Sprintf("the new name has %d bytes; at most %d", len(name), maxNewName)
	case !utf8.ValidString(name):
		return ConflictIdentifier, "the new name is not valid UTF-8"
	}
	dollar := lang == syntax.JavaScript || lang == syntax.TypeScript || lang == syntax.TSX || lang == syntax.PHP
	for i, r := range name {
		ok := r == '_' || unicode.IsLetter(r) || (dollar && r == '$') || (i > 0 && unicode.IsDigit(r))
		if !ok {
			return ConflictIdentifier, fmt.Sprintf("%q is not an identifier in %s: %q at byte %d", name, languageName(lang), r, i)
		}
	}
	if name == "_" && (lang == syntax.Go || lang == syntax.Rust) {
		return ConflictIdentifier, fmt.Sprintf("_ is the blank identifier in %s, not a name", languageName(lang))
	}
	if keywords[lang][name] {
		return ConflictKeyword, fmt.Sprintf("%q is a keyword in %s", name, languageName(lang))
	}
	return "", ""
}

// languageName is how a message names lang.
func languageName(lang syntax.Language) string {
	if lang == "" {
		return "this language"
	}
	return string(lang)
}

// words makes a set of space-separated words.
func words(ws ...string) map[string]bool {
	m := map[string]bool{}
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// jsReserved are the reserved words of JavaScript (ES2023, strict mode
// included) that TypeScript shares.
var jsReserved = []string{"break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete",
	"do", "else", "enum", "export", "extends", "false", "finally", "for", "function", "if", "import", "in",
	"instanceof", "new", "null", "return", "super", "switch", "this", "throw", "true", "try", "typeof", "var",
	"void", "while", "with", "yield", "let", "static", "implements", "interface", "package", "private",
	"protected", "public", "await"}

// keywords are the reserved words of the languages a rename checks; a
// language missing here is checked as an identifier only.
var keywords = map[syntax.Language]map[string]bool{
	syntax.Go: words("break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough",
		"for", "func", "go", "goto", "if", "import", "interface", "map", "package", "range", "return", "select",
		"struct", "switch", "type", "var"),
	syntax.Python: words("False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
		"continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
		"in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield"),
	syntax.JavaScript: words(jsReserved...),
	syntax.TypeScript: words(jsReserved...),
	syntax.TSX:        words(jsReserved...),
	syntax.Rust: words("as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum",
		"extern", "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
		"ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use",
		"where", "while", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof",
		"unsized", "virtual", "yield", "try"),
	syntax.Java: words("abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class",
		"const", "continue", "default", "do", "double", "else", "enum", "extends", "final", "finally", "float",
		"for", "goto", "if", "implements", "import", "instanceof", "int", "interface", "long", "native", "new",
		"package", "private", "protected", "public", "return", "short", "static", "strictfp", "super", "switch",
		"synchronized", "this", "throw", "throws", "transient", "try", "void", "volatile", "while", "true",
		"false", "null", "_"),
	syntax.C: words("auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
		"enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict",
		"return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned",
		"void", "volatile", "while", "_Bool", "_Complex", "_Imaginary", "bool", "true", "false"),
}

// exportedGo reports whether a Go identifier is exported.
func exportedGo(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}

package structural

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

// A Language is a language the structural engines know, by its canonical
// name (the one ast-grep's --lang accepts).
type Language string

// The languages the built-in engine parses.
const (
	Go         Language = "go"
	Python     Language = "python"
	JavaScript Language = "javascript"
	TypeScript Language = "typescript"
	TSX        Language = "tsx"
	Rust       Language = "rust"
	Java       Language = "java"
	C          Language = "c"
	JSON       Language = "json"
	Cpp        Language = "cpp"
	CSharp     Language = "csharp"
	Ruby       Language = "ruby"
	PHP        Language = "php"
	Bash       Language = "bash"
	Kotlin     Language = "kotlin"
)

type langInfo struct {
	aliases    []string
	extensions []string
	// expando replaces the metavariable sigil $ in patterns of languages
	// where $ cannot start an identifier, so $X parses as an identifier.
	// ast-grep uses the same characters (crates/language/src/lib.rs).
	expando rune
}

var languages = map[Language]langInfo{
	Go:         {[]string{"go", "golang"}, []string{"go"}, 'µ'},
	Python:     {[]string{"python", "py"}, []string{"py", "py3", "pyi", "bzl"}, 'µ'},
	JavaScript: {[]string{"javascript", "js", "jsx"}, []string{"js", "cjs", "mjs", "jsx"}, '$'},
	TypeScript: {[]string{"typescript", "ts"}, []string{"ts", "cts", "mts"}, '$'},
	TSX:        {[]string{"tsx"}, []string{"tsx"}, '$'},
	Rust:       {[]string{"rust", "rs"}, []string{"rs"}, 'µ'},
	Java:       {[]string{"java"}, []string{"java"}, '$'},
	// C and C++ take U+10000, a letter outside the Basic Multilingual
	// Plane that their grammars accept in identifiers, as ast-grep 0.51.1
	// does (a pattern with 𐀀A matches as $A does there).
	C:    {[]string{"c"}, []string{"c", "h"}, '𐀀'},
	JSON: {[]string{"json"}, []string{"json"}, '$'},
	Cpp: {[]string{"cpp", "c++", "cc", "cxx"},
		[]string{"cc", "hpp", "cpp", "c++", "hh", "cxx", "cu", "ino", "hxx", "h++"}, '𐀀'},
	CSharp: {[]string{"csharp", "cs", "c#"}, []string{"cs"}, 'µ'},
	Ruby:   {[]string{"ruby", "rb"}, []string{"rb", "rbw", "gemspec", "rake"}, 'µ'},
	PHP:    {[]string{"php"}, []string{"php"}, 'µ'},
	// Bash keeps $: $X reads as a variable expansion whose text is the
	// metavariable, as in ast-grep.
	Bash:   {[]string{"bash", "sh", "shell", "zsh"}, []string{"sh", "bash", "zsh", "ksh", "bats"}, '$'},
	Kotlin: {[]string{"kotlin", "kt"}, []string{"kt", "kts", "ktm"}, 'µ'},
}

// Languages returns every known language, sorted by name.
func Languages() []Language {
	out := make([]Language, 0, len(languages))
	for l := range languages {
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Valid reports whether l is a known language.
func (l Language) Valid() bool {
	_, ok := languages[l]
	return ok
}

// ParseLanguage returns the language with the given name or alias, ignoring
// case ("go", "golang", "ts", "py"...).
func ParseLanguage(name string) (Language, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for l, info := range languages {
		for _, a := range info.aliases {
			if a == n {
				return l, nil
			}
		}
	}
	return "", fmt.Errorf("structural: unknown language %q (known: %s)", name, joinLangs(Languages()))
}

func joinLangs(ls []Language) string {
	s := make([]string, len(ls))
	for i, l := range ls {
		s[i] = string(l)
	}
	return strings.Join(s, ", ")
}

// LanguageOf returns the language a file is written in, judged by its
// extension; ok is false for a file no engine parses.
func LanguageOf(file string) (Language, bool) {
	ext := strings.TrimPrefix(path.Ext(file), ".")
	if ext == "" {
		return "", false
	}
	for l, info := range languages {
		for _, e := range info.extensions {
			if e == ext {
				return l, true
			}
		}
	}
	return "", false
}

// Extensions returns the file extensions (without the dot) of l.
func (l Language) Extensions() []string {
	return append([]string(nil), languages[l].extensions...)
}

func (l Language) expando() rune { return languages[l].expando }

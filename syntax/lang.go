package syntax

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// A Language is a language the syntax floor knows, by its canonical name
// (the one ast-grep's --lang accepts).
type Language string

// The languages whose grammars are compiled in.
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
}

var languages = map[Language]langInfo{
	Go:         {[]string{"go", "golang"}, []string{"go"}},
	Python:     {[]string{"python", "py"}, []string{"py", "py3", "pyi", "bzl"}},
	JavaScript: {[]string{"javascript", "js", "jsx"}, []string{"js", "cjs", "mjs", "jsx"}},
	TypeScript: {[]string{"typescript", "ts"}, []string{"ts", "cts", "mts"}},
	TSX:        {[]string{"tsx"}, []string{"tsx"}},
	Rust:       {[]string{"rust", "rs"}, []string{"rs"}},
	Java:       {[]string{"java"}, []string{"java"}},
	C:          {[]string{"c"}, []string{"c", "h"}},
	JSON:       {[]string{"json"}, []string{"json"}},
	Cpp: {[]string{"cpp", "c++", "cc", "cxx"},
		[]string{"cc", "hpp", "cpp", "c++", "hh", "cxx", "cu", "ino", "hxx", "h++"}},
	CSharp: {[]string{"csharp", "cs", "c#"}, []string{"cs"}},
	Ruby:   {[]string{"ruby", "rb"}, []string{"rb", "rbw", "gemspec", "rake"}},
	PHP:    {[]string{"php"}, []string{"php"}},
	Bash:   {[]string{"bash", "sh", "shell", "zsh"}, []string{"sh", "bash", "zsh", "ksh", "bats"}},
	Kotlin: {[]string{"kotlin", "kt"}, []string{"kt", "kts", "ktm"}},
}

// byExtension maps every extension to its language.
var byExtension = func() map[string]Language {
	m := map[string]Language{}
	for l, info := range languages {
		for _, e := range info.extensions {
			m[e] = l
		}
	}
	return m
}()

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
// case ("go", "golang", "ts", "py"...). An unknown name is an error
// matching [ErrUnknownLanguage].
func ParseLanguage(name string) (Language, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for l, info := range languages {
		for _, a := range info.aliases {
			if a == n {
				return l, nil
			}
		}
	}
	return "", fmt.Errorf("%w %q (known: %s)", ErrUnknownLanguage, name, joinLangs(Languages()))
}

func joinLangs(ls []Language) string {
	s := make([]string, len(ls))
	for i, l := range ls {
		s[i] = string(l)
	}
	return strings.Join(s, ", ")
}

// LanguageOf returns the language a file is written in, judged by its
// extension (case-sensitive, as written in [Language.Extensions]); ok is
// false for a file no grammar reads.
func LanguageOf(file string) (Language, bool) {
	ext := strings.TrimPrefix(path.Ext(file), ".")
	if ext == "" {
		return "", false
	}
	l, ok := byExtension[ext]
	return l, ok
}

// Extensions returns the file extensions (without the dot) of l.
func (l Language) Extensions() []string {
	return append([]string(nil), languages[l].extensions...)
}

// Aliases returns the names [ParseLanguage] accepts for l, the canonical
// one first.
func (l Language) Aliases() []string {
	return append([]string(nil), languages[l].aliases...)
}

// Detect returns the language of a file from its name and, where the
// extension is ambiguous, its content: a .h header holding C++ (a
// namespace, a class, a template, access labels, :: or an extension-less
// standard include such as <vector>) is C++, other headers C. Every other
// file is judged by its extension, as [LanguageOf] judges it.
func Detect(file string, src []byte) (Language, bool) {
	l, ok := LanguageOf(file)
	if ok && l == C && path.Ext(file) == ".h" && cppHeader().Match(src) {
		return Cpp, true
	}
	return l, ok
}

// cppHeader matches what only C++ writes in a header.
var cppHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)::|^\s*(namespace|template\s*<|class\s+\w+[^;(]*[{:]|(public|private|protected)\s*:)|^\s*#\s*include\s*<\w+>`)
})

package precision

import (
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/codecortex/codecortex/internal/safeexec"
)

// An LSPLanguage is a language the language-server provider can route a
// file to: its name (the key of [LSPOptions.Servers]), the file name
// extensions that are written in it, and the servers tried, in order, when
// the options name none.
type LSPLanguage struct {
	Name       string
	Extensions []string
	// Defaults are the well-known servers' argvs; the first whose program
	// is on PATH serves the language. Go's is gopls, which is used (and
	// reported missing) even when it is not on PATH.
	Defaults [][]string
}

// lspLanguages is the routing table; languages sharing a default argv
// (TypeScript and JavaScript, C and C++) share one server process.
var lspLanguages = []LSPLanguage{
	{Name: "go", Extensions: []string{".go"}, Defaults: [][]string{{"gopls"}}},
	{Name: "python", Extensions: []string{".py", ".pyi"},
		Defaults: [][]string{{"pyright-langserver", "--stdio"}, {"basedpyright-langserver", "--stdio"}}},
	{Name: "typescript", Extensions: []string{".ts", ".tsx", ".mts", ".cts"},
		Defaults: [][]string{{"typescript-language-server", "--stdio"}}},
	{Name: "javascript", Extensions: []string{".js", ".jsx", ".mjs", ".cjs"},
		Defaults: [][]string{{"typescript-language-server", "--stdio"}}},
	{Name: "rust", Extensions: []string{".rs"}, Defaults: [][]string{{"rust-analyzer"}}},
	{Name: "c", Extensions: []string{".c", ".h"}, Defaults: [][]string{{"clangd"}}},
	{Name: "cpp", Extensions: []string{".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx"}, Defaults: [][]string{{"clangd"}}},
	{Name: "java", Extensions: []string{".java"}},
	{Name: "csharp", Extensions: []string{".cs"}},
	{Name: "ruby", Extensions: []string{".rb"}},
	{Name: "php", Extensions: []string{".php"}},
	{Name: "kotlin", Extensions: []string{".kt", ".kts"}},
	{Name: "swift", Extensions: []string{".swift"}},
	{Name: "lua", Extensions: []string{".lua"}},
	{Name: "zig", Extensions: []string{".zig"}},
}

// LSPLanguages returns the languages the provider routes files to, in a
// fixed order. The result is a copy the caller may keep.
func LSPLanguages() []LSPLanguage {
	out := make([]LSPLanguage, len(lspLanguages))
	for i, l := range lspLanguages {
		out[i] = LSPLanguage{Name: l.Name, Extensions: slices.Clone(l.Extensions)}
		for _, d := range l.Defaults {
			out[i].Defaults = append(out[i].Defaults, slices.Clone(d))
		}
	}
	return out
}

// LSPLanguageOf returns the language a file is routed to by its name's
// extension, or "" when no language has it.
func LSPLanguageOf(file string) string {
	ext := strings.ToLower(path.Ext(file))
	for _, l := range lspLanguages {
		if slices.Contains(l.Extensions, ext) {
			return l.Name
		}
	}
	return ""
}

func lspLanguage(name string) (LSPLanguage, bool) {
	for _, l := range lspLanguages {
		if l.Name == name {
			return l, true
		}
	}
	return LSPLanguage{}, false
}

// languageID is the LSP language identifier of a file, as didOpen names it.
func languageID(lang, file string) string {
	switch ext := strings.ToLower(path.Ext(file)); {
	case ext == ".tsx":
		return "typescriptreact"
	case ext == ".jsx":
		return "javascriptreact"
	}
	return lang
}

// serverArgv returns the argv that serves lang under opts, and whether one
// does: the configured one (an empty one turns the language off), Go's
// Command, or the first default found on PATH (gopls even when absent, so
// that a missing gopls is reported as before).
func (o *LSPOptions) serverArgv(lang string) ([]string, bool) {
	if argv, ok := o.Servers[lang]; ok {
		return argv, len(argv) > 0
	}
	if lang == "go" && len(o.Command) > 0 {
		return o.Command, true
	}
	l, ok := lspLanguage(lang)
	if !ok || len(l.Defaults) == 0 {
		return nil, false
	}
	for _, argv := range l.Defaults {
		if _, err := safeexec.LookPath(argv[0]); err == nil {
			return argv, true
		}
	}
	if lang == "go" {
		return l.Defaults[0], true
	}
	return nil, false
}

// serverKey names the process that serves argv: languages whose argvs are
// equal share it.
func serverKey(argv []string) string { return strings.Join(argv, "\x00") }

// planned lists, per server, the languages it serves under opts, sorted;
// a language the table does not know has no files, so no server.
func (o *LSPOptions) planned() map[string][]string {
	out := map[string][]string{}
	for _, l := range lspLanguages {
		if argv, ok := o.serverArgv(l.Name); ok {
			k := serverKey(argv)
			out[k] = append(out[k], l.Name)
		}
	}
	for _, langs := range out {
		sort.Strings(langs)
	}
	return out
}

package index

import (
	"path"
	"strings"
)

// languages maps a file extension (lower case, without the dot) to the
// language the index records for it. The names of the languages the
// structural layer parses are the ones it uses.
var languages = map[string]string{
	"go": "go",
	"py": "python", "pyi": "python", "py3": "python", "bzl": "python",
	"js": "javascript", "cjs": "javascript", "mjs": "javascript", "jsx": "javascript",
	"ts": "typescript", "cts": "typescript", "mts": "typescript",
	"tsx":  "tsx",
	"rs":   "rust",
	"java": "java",
	"c":    "c", "h": "c",
	"cc": "cpp", "cpp": "cpp", "cxx": "cpp", "hpp": "cpp", "hh": "cpp", "hxx": "cpp", "c++": "cpp", "h++": "cpp", "cu": "cpp", "ino": "cpp",
	"cs": "csharp",
	"rb": "ruby", "rake": "ruby", "gemspec": "ruby",
	"php": "php",
	"sh":  "bash", "bash": "bash", "zsh": "bash", "ksh": "bash", "bats": "bash",
	"kt": "kotlin", "kts": "kotlin",
	"swift": "swift", "scala": "scala", "lua": "lua", "dart": "dart", "ex": "elixir", "exs": "elixir",
	"erl": "erlang", "hs": "haskell", "ml": "ocaml", "clj": "clojure", "r": "r", "pl": "perl", "pm": "perl",
	"sql": "sql", "proto": "protobuf", "graphql": "graphql", "gql": "graphql",
	"json": "json", "yaml": "yaml", "yml": "yaml", "toml": "toml", "xml": "xml", "ini": "ini",
	"html": "html", "htm": "html", "css": "css", "scss": "scss", "less": "less", "vue": "vue", "svelte": "svelte",
	"tf": "terraform", "nix": "nix", "zig": "zig", "jsonnet": "jsonnet", "libsonnet": "jsonnet",
	"md": "markdown", "markdown": "markdown", "mdx": "markdown",
	"rst": "restructuredtext", "adoc": "asciidoc", "txt": "text", "org": "org",
}

// fileNames maps file names without a telling extension.
var fileNames = map[string]string{
	"Makefile": "make", "GNUmakefile": "make", "Dockerfile": "dockerfile", "Containerfile": "dockerfile",
	"go.mod": "go.mod", "go.sum": "go.sum", "Gemfile": "ruby", "Rakefile": "ruby", "BUILD": "python",
	"WORKSPACE": "python", "Jenkinsfile": "groovy", "README": "text", "LICENSE": "text", "CODEOWNERS": "text",
}

// prose are the languages whose chunks are prose rather than code.
var prose = map[string]bool{"markdown": true, "restructuredtext": true, "asciidoc": true, "text": true, "org": true}

// languageOf returns the language of a file by its name, "text" when the
// name says nothing.
func languageOf(p string) string {
	base := path.Base(p)
	if l, ok := fileNames[base]; ok {
		return l
	}
	ext := strings.ToLower(strings.TrimPrefix(path.Ext(base), "."))
	if l, ok := languages[ext]; ok {
		return l
	}
	return "text"
}

// contentOf returns whether a language's chunks are "code" or "prose".
func contentOf(language string) string {
	if prose[language] {
		return "prose"
	}
	return "code"
}

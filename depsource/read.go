package depsource

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"unicode"

	"github.com/codecortex/codecortex/depdocs"
	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/symbols"
)

// packageVersion reads an installed package.json's name and version.
func packageVersion(data []byte) (name, version string, err error) {
	var pj struct {
		Name    json.RawMessage `json:"name"`
		Version json.RawMessage `json:"version"`
	}
	if err := json.Unmarshal(data, &pj); err != nil {
		return "", "", fmt.Errorf("not a JSON object: %w", err)
	}
	if len(pj.Name) > 0 {
		if err := json.Unmarshal(pj.Name, &name); err != nil {
			return "", "", errors.New(`"name" is not a string`)
		}
	}
	if len(pj.Version) == 0 {
		return "", "", errors.New(`no "version"`)
	}
	if err := json.Unmarshal(pj.Version, &version); err != nil {
		return "", "", errors.New(`"version" is not a string`)
	}
	if version == "" || len(version) > 256 || strings.IndexFunc(version, func(r rune) bool {
		return unicode.IsSpace(r) || !unicode.IsPrint(r)
	}) >= 0 {
		return "", "", fmt.Errorf("%q is not a version", version)
	}
	return name, version, nil
}

// maxDefinitions bounds the definitions one copy gives.
const maxDefinitions = 50

// sourceExts are the files read in an npm package.
var sourceExts = map[string]bool{".js": true, ".mjs": true, ".cjs": true, ".jsx": true,
	".ts": true, ".mts": true, ".cts": true, ".tsx": true}

// definitions reads the definitions of t from copy c: for Go the files of
// the package directory, for npm every source file of the package (not
// its own node_modules). partial names the bound that cut it short.
func (p *Provider) definitions(ctx context.Context, c Copy, t target) (defs []Definition, partial string, err error) {
	root, err := contain.Open(c.abs)
	if err != nil {
		return nil, "", err
	}
	defer root.Close()
	files, partial, err := p.sourceFiles(ctx, root, c)
	if err != nil {
		return nil, "", err
	}
	needle := []byte(t.name)
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return defs, partial, err
		}
		src, err := readBounded(root, f, p.opts.maxFileSize())
		if err != nil || !containsWord(src, needle) || c.Ecosystem == "go" && !goMayDefine(src, needle) {
			continue
		}
		sf, err := symbols.Extract(f, src)
		if err != nil {
			continue
		}
		for _, s := range sf.Symbols {
			if s.Name != t.name || !containerMatches(s.Container, t.container) &&
				!(c.Ecosystem != depdocs.Go && s.Container == "" && moduleMatches(f, t.container)) {
				continue
			}
			if len(defs) == maxDefinitions {
				return defs, fmt.Sprintf("%s: only the first %d definitions are given", c.Dir, maxDefinitions), nil
			}
			defs = append(defs, Definition{Copy: c, Path: c.Dir + "/" + f, Symbol: s, Line: trimLine(src, s.NameRange.StartLine), Qualifier: t.qual})
		}
	}
	return defs, partial, nil
}

// sourceFiles lists the files of copy c to read, sorted, at most
// MaxFiles: a Go package directory's non-test files, or an npm package's
// JavaScript and TypeScript files outside its own node_modules and hidden
// directories. partial says when the bound cut the list.
func (p *Provider) sourceFiles(ctx context.Context, root *contain.Root, c Copy) (files []string, partial string, err error) {
	maxFiles := p.opts.maxFiles()
	if strings.HasSuffix(c.Package, ".py") {
		return []string{c.Package}, "", nil // a single-file Python module
	}
	exts, skip := sourceExts, map[string]bool{"node_modules": true, "__pycache__": true}
	switch c.Ecosystem {
	case depdocs.PyPI:
		exts = pythonExts
	case depdocs.Cargo:
		exts, skip = rustExts, map[string]bool{"target": true, "tests": true, "benches": true, "examples": true}
	}
	if c.Ecosystem == depdocs.Go {
		dir := c.Package
		if dir == "" {
			dir = "."
		}
		ents, err := fs.ReadDir(root.FS(), dir)
		if err != nil {
			return nil, "", err
		}
		for _, e := range ents {
			n := e.Name()
			if e.Type().IsRegular() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
				files = append(files, path.Join(dir, n))
			}
		}
	} else {
		err := fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // an unreadable directory is skipped
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if d.IsDir() {
				if p != "." && (skip[d.Name()] || strings.HasPrefix(d.Name(), ".")) {
					return fs.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() || !exts[path.Ext(p)] {
				return nil
			}
			if len(files) >= maxFiles {
				partial = fmt.Sprintf("%s: only the first %d source files were read", c.Dir, maxFiles)
				return fs.SkipAll
			}
			files = append(files, p)
			return nil
		})
		if err != nil {
			return nil, "", err
		}
	}
	sort.Strings(files)
	if len(files) > maxFiles {
		files = files[:maxFiles]
		partial = fmt.Sprintf("%s: only the first %d source files were read", c.Dir, maxFiles)
	}
	return files, partial, nil
}

// pythonExts and rustExts are the files read in a Python package and a
// crate.
var (
	pythonExts = map[string]bool{".py": true, ".pyi": true}
	rustExts   = map[string]bool{".rs": true}
)

// moduleMatches reports whether file, a path inside a package, is the
// module a dotted name's middle names ("sessions" of
// requests.sessions.Session is requests/sessions.py, "value" of
// serde_json::value::Value is src/value/mod.rs; "" is any module).
func moduleMatches(file, mod string) bool {
	if mod == "" {
		return true
	}
	m := strings.TrimSuffix(file, path.Ext(file))
	m = strings.TrimSuffix(strings.TrimSuffix(m, "/__init__"), "/mod")
	m = strings.TrimPrefix(m, "src/")
	m = strings.ReplaceAll(m, "/", ".")
	return m == mod || strings.HasSuffix(m, "."+mod)
}

// containerMatches reports whether a symbol's container is the one asked
// for: none when none is asked, else the same after the pointer mark and
// type parameters are dropped.
func containerMatches(have, want string) bool {
	if want == "" {
		return have == ""
	}
	return normContainer(have) == want
}

// containsWord reports whether src holds word not inside a longer
// identifier.
func containsWord(src, word []byte) bool {
	for off := 0; ; {
		i := indexFrom(src, word, off)
		if i < 0 {
			return false
		}
		end := i + len(word)
		if (i == 0 || !identByte(src[i-1])) && (end == len(src) || !identByte(src[end])) {
			return true
		}
		off = i + 1
	}
}

func indexFrom(src, word []byte, off int) int {
	if off > len(src) {
		return -1
	}
	i := bytes.Index(src[off:], word)
	if i < 0 {
		return -1
	}
	return off + i
}

func identByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// goMayDefine reports whether a Go file may define name, by its lines
// alone, so that only such files are parsed: a line (indentation trimmed)
// that begins with "type", "func", "var" or "const" and the name, that
// is a method's head naming it ("func (r T) name("), or that begins with
// a list of names holding it, at its start or after a "{" or ";" (a
// grouped spec, a field, a one-line struct, an interface method), or an
// embedded field of that type (*name, pkg.name). The test checks it
// against every definition symbols.Extract reads in real modules. It never misses a definition gofmt's layout writes; a line it
// lets through needlessly costs one parse.
func goMayDefine(src, name []byte) bool {
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		line = bytes.TrimLeft(line, " \t")
		if !bytes.Contains(line, name) {
			continue
		}
		for _, kw := range []string{"type ", "func ", "var ", "const "} {
			if rest, ok := bytes.CutPrefix(line, []byte(kw)); ok && startsWithWord(bytes.TrimLeft(rest, " \t"), name) {
				return true
			}
		}
		if rest, ok := bytes.CutPrefix(line, []byte("func (")); ok {
			if i := bytes.IndexByte(rest, ')'); i >= 0 && startsWithWord(bytes.TrimLeft(rest[i+1:], " \t"), name) {
				return true
			}
		}
		// A list of names at the start of the line ("A, name = ..."), or
		// of a one-line struct or interface body ("struct{ name T }").
		for _, seg := range bytes.FieldsFunc(line, func(r rune) bool { return r == '{' || r == ';' }) {
			if namesList(bytes.TrimLeft(seg, " \t"), name) {
				return true
			}
		}
	}
	return false
}

// namesList reports whether seg begins with a list of names holding name,
// or with an embedded field of type name (*name, pkg.name).
func namesList(seg, name []byte) bool {
	if i := bytes.IndexAny(seg, "=(:\"/"); i >= 0 {
		seg = seg[:i]
	}
	for i, w := range bytes.FieldsFunc(seg, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		if i == 0 {
			w = bytes.TrimLeft(w, "*")
			if k := bytes.LastIndexByte(w, '.'); k >= 0 && isIdent(w[:k]) {
				w = w[k+1:]
			}
		}
		if bytes.Equal(w, name) {
			return true
		}
		if !isIdent(w) {
			return false
		}
	}
	return false
}

// startsWithWord reports whether b begins with word, not followed by an
// identifier byte.
func startsWithWord(b, word []byte) bool {
	return bytes.HasPrefix(b, word) && (len(b) == len(word) || !identByte(b[len(word)]))
}

func isIdent(w []byte) bool {
	if len(w) == 0 {
		return false
	}
	for _, c := range w {
		if !identByte(c) {
			return false
		}
	}
	return true
}

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
		if err != nil || !containsWord(src, needle) {
			continue
		}
		sf, err := symbols.Extract(f, src)
		if err != nil {
			continue
		}
		for _, s := range sf.Symbols {
			if s.Name != t.name || !containerMatches(s.Container, t.container) {
				continue
			}
			if len(defs) == maxDefinitions {
				return defs, fmt.Sprintf("%s: only the first %d definitions are given", c.Dir, maxDefinitions), nil
			}
			defs = append(defs, Definition{Copy: c, Path: c.Dir + "/" + f, Symbol: s, Line: trimLine(src, s.NameRange.StartLine)})
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
	if c.Ecosystem == "go" {
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
				if p != "." && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
					return fs.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() || !sourceExts[path.Ext(p)] {
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

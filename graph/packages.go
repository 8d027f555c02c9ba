package graph

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
)

// A Package is a JavaScript or TypeScript package of the project as its
// package.json declares it. An import of its name from anywhere in the
// project names its files: a package's tests import it by its own name
// (Node's self-reference), and the packages of a workspace import each
// other by theirs.
type Package struct {
	Name string // "@reduxjs/toolkit"
	Dir  string // its directory, relative to the project root ("." for the root)
	// Entries maps each subpath the package declares ("." for the
	// package itself, "./query") to the files it names for it, relative
	// to Dir: those of "exports", and for "." those of "source", "types",
	// "typings", "module" and "main", in that order.
	Entries map[string][]string
}

// maxManifest bounds how much of a package.json or a go.mod is read.
const maxManifest = 1 << 20

// ReadPackages reads the package of each package.json among paths (files
// relative to the root of fsys, slash-separated). One it cannot read, or
// that names no package, is left out.
func ReadPackages(fsys fs.FS, paths []string) []Package {
	var out []Package
	for _, p := range paths {
		if path.Base(p) != "package.json" {
			continue
		}
		data, err := readBounded(fsys, p, maxManifest)
		if err != nil {
			continue
		}
		if pkg, ok := parsePackage(data); ok {
			pkg.Dir = path.Dir(p)
			out = append(out, pkg)
		}
	}
	return out
}

// readBounded reads the regular file at p, refusing one past max bytes.
func readBounded(fsys fs.FS, p string, max int64) ([]byte, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", p)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(data)) > max {
		err = fmt.Errorf("%s: larger than %d bytes", p, max)
	}
	return data, err
}

// parsePackage reads a package.json's name and entry points.
func parsePackage(data []byte) (Package, bool) {
	var m struct {
		Name    string          `json:"name"`
		Exports json.RawMessage `json:"exports"`
		Source  any             `json:"source"`
		Types   any             `json:"types"`
		Typings any             `json:"typings"`
		Module  any             `json:"module"`
		Main    any             `json:"main"`
	}
	if json.Unmarshal(data, &m) != nil || m.Name == "" || strings.ContainsAny(m.Name, " \t\n\\") {
		return Package{}, false
	}
	pkg := Package{Name: m.Name, Entries: map[string][]string{}}
	var exports any
	if len(m.Exports) > 0 && json.Unmarshal(m.Exports, &exports) == nil {
		if sub, ok := exports.(map[string]any); ok && slices.ContainsFunc(slices.Collect(maps.Keys(sub)), isSubpath) {
			for k, v := range sub {
				if isSubpath(k) {
					pkg.Entries[k] = leaves(pkg.Entries[k], v)
				}
			}
		} else {
			pkg.Entries["."] = leaves(nil, exports)
		}
	}
	for _, v := range []any{m.Source, m.Types, m.Typings, m.Module, m.Main} {
		pkg.Entries["."] = leaves(pkg.Entries["."], v)
	}
	maps.DeleteFunc(pkg.Entries, func(_ string, v []string) bool { return len(v) == 0 })
	return pkg, true
}

// isSubpath reports whether a key of "exports" is a subpath ("." or
// "./x") rather than a condition ("import", "types").
func isSubpath(k string) bool { return k == "." || strings.HasPrefix(k, "./") }

// leaves appends the file paths of an "exports" value to out: a string,
// or those of an array's elements or of a condition object's values (by
// condition name, so the order is the same every time).
func leaves(out []string, v any) []string {
	switch v := v.(type) {
	case string:
		if p := path.Clean(v); v != "" && !path.IsAbs(p) && p != ".." && !strings.HasPrefix(p, "../") && !slices.Contains(out, p) {
			out = append(out, p)
		}
	case []any:
		for _, e := range v {
			out = leaves(out, e)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			out = leaves(out, v[k])
		}
	}
	return out
}

// outDirs are the first directories a package's build writes to, whose
// files have their source at the same place under src/
// (dist/query/index.d.ts is built from src/query/index.ts).
var outDirs = map[string]bool{"dist": true, "build": true, "lib": true, "out": true, "esm": true, "cjs": true, "types": true}

// packageImport returns the file an import of a package of the project
// names, if the path is one of theirs ("@reduxjs/toolkit/query"): the
// package of the longest name the path starts with, and among packages of
// that name, the one the importing file is in, else the first.
func (b *builder) packageImport(from, spec string) int32 {
	var pkg *Package
	name := spec
	for pkg == nil && name != "" {
		for _, i := range b.pkgNamed[name] {
			if p := &b.pkgs[i]; pkg == nil || !within(from, pkg.Dir) && within(from, p.Dir) {
				pkg = p
			}
		}
		if pkg == nil {
			name = name[:max(strings.LastIndexByte(name, '/'), 0)]
		}
	}
	if pkg == nil {
		return -1
	}
	sub := "." + spec[len(name):] // ".", "./query"
	var cands []string
	add := func(stem string) {
		cands = append(cands, stem)
		for _, e := range jsExts {
			cands = append(cands, stem+e)
		}
		for _, e := range jsExts {
			cands = append(cands, stem+"/index"+e)
		}
	}
	for _, e := range pkg.Entries[sub] {
		stem := strings.TrimSuffix(e, jsExt(e))
		add(path.Join(pkg.Dir, stem))
		if first, rest, ok := strings.Cut(stem, "/"); ok && outDirs[first] {
			add(path.Join(pkg.Dir, "src", rest))
		}
	}
	add(path.Join(pkg.Dir, "src", sub))
	add(path.Join(pkg.Dir, sub))
	return b.firstFile(cands...)
}

// jsExt returns the extension of a JavaScript or TypeScript file name,
// ".d.ts" as a whole; "" for another.
func jsExt(p string) string {
	for _, e := range []string{".d.ts", ".d.mts", ".d.cts"} {
		if strings.HasSuffix(p, e) {
			return e
		}
	}
	if e := path.Ext(p); slices.Contains(jsExts, e) {
		return e
	}
	return ""
}

// within reports whether the file at p is in directory dir.
func within(p, dir string) bool {
	return dir == "." || strings.HasPrefix(p, dir+"/")
}

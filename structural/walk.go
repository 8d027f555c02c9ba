package structural

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/internal/ignore"
)

// skipDirs are directories a search never enters.
var skipDirs = map[string]bool{".git": true, "vendor": true, "node_modules": true}

// A fileSet is the result of resolving a request's paths.
type fileSet struct {
	files     []string // root-relative, sorted, unique
	truncated bool
}

// collectFiles resolves paths (files, directories or globs, relative to the
// root or absolute inside it) to the files of the wanted languages, at
// most max of them (0: no limit). An empty paths means the whole root.
// Every path is checked by root; one outside it is an error.
//
// What the tree's .gitignore files (and .git/info/exclude) ignore is left
// out of every walk, as ripgrep leaves it out: a directory that is ignored
// is not entered, and a file that is ignored is not searched. A file or a
// directory named in paths itself is searched even when ignored (ripgrep
// too searches what it is given), though what is ignored below a named
// directory stays out; a glob names no file, so what it matches is left
// out when ignored, as is everything under a glob's ignored base.
func collectFiles(root *contain.Root, paths []string, want func(string) bool, max int) (fileSet, error) {
	if len(paths) == 0 {
		paths = []string{"."}
	}
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] && want(p) {
			seen[p] = true
			out = append(out, p)
		}
	}
	fsys := root.FS()
	ig := ignore.NewTree(fsys)
	for _, p := range paths {
		if isGlob(p) {
			if path.IsAbs(p) || strings.HasPrefix(path.Clean(p), "..") {
				return fileSet{}, fmt.Errorf("structural: glob %q must be relative to the project root", p)
			}
			g := path.Clean(p)
			base := globBase(g)
			if ig.Ignored(base, true) {
				continue
			}
			err := walkFiles(fsys, base, ig, func(f string) { // never fails for a missing base
				if matchGlob(g, f) {
					add(f)
				}
			})
			if err != nil {
				return fileSet{}, err
			}
			continue
		}
		rel, err := root.Rel(p)
		if err != nil {
			return fileSet{}, err
		}
		fi, err := fs.Stat(fsys, rel)
		if err != nil {
			return fileSet{}, fmt.Errorf("structural: %w", err)
		}
		if !fi.IsDir() {
			if fi.Mode().IsRegular() {
				add(rel)
			}
			continue
		}
		if err := walkFiles(fsys, rel, ig, add); err != nil {
			return fileSet{}, err
		}
	}
	sort.Strings(out)
	fsOut := fileSet{files: out}
	if max > 0 && len(out) > max {
		fsOut.files, fsOut.truncated = out[:max], true
	}
	return fsOut, nil
}

// walkFiles calls fn for every regular file under dir, in lexical order,
// skipping the directories in skipDirs and what ig ignores below dir (dir
// itself is not judged).
func walkFiles(fsys fs.FS, dir string, ig *ignore.Tree, fn func(string)) error {
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			return nil // unreadable entries are skipped, not fatal
		}
		if p == dir {
			if d.Type().IsRegular() {
				fn(p)
			}
			return nil
		}
		if d.IsDir() {
			if skipDirs[d.Name()] || ig.Match(p, true) {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && !ig.Match(p, false) {
			fn(p)
		}
		return nil
	})
	return err
}

func isGlob(p string) bool { return strings.ContainsAny(p, "*?[") }

// globBase returns the directory part of a glob before its first
// wildcard element.
func globBase(g string) string {
	parts := strings.Split(g, "/")
	var base []string
	for _, p := range parts[:len(parts)-1] {
		if isGlob(p) {
			break
		}
		base = append(base, p)
	}
	if len(base) == 0 {
		return "."
	}
	return strings.Join(base, "/")
}

// matchGlob matches a slash path against a glob whose elements follow
// path.Match, where an element ** matches any number of directories.
func matchGlob(glob, name string) bool {
	return matchParts(strings.Split(glob, "/"), strings.Split(name, "/"))
}

func matchParts(g, n []string) bool {
	for len(g) > 0 {
		if g[0] == "**" {
			for i := 0; i <= len(n); i++ {
				if matchParts(g[1:], n[i:]) {
					return true
				}
			}
			return false
		}
		if len(n) == 0 {
			return false
		}
		ok, err := path.Match(g[0], n[0])
		if err != nil || !ok {
			return false
		}
		g, n = g[1:], n[1:]
	}
	return len(n) == 0
}

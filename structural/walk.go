package structural

import (
	"cmp"
	"fmt"
	"io/fs"
	"path"
	"slices"
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
	// notes say which ignore files could not be applied as written, and
	// the directories left out for them.
	notes []string
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
	dirs := root.DirCache()
	defer dirs.Close()
	fsys := dirs.FS()
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
			walkFiles(fsys, base, ig, func(f string) bool {
				if matchGlob(g, f) {
					add(f)
				}
				return true
			})
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
		walkFiles(fsys, rel, ig, func(f string) bool { add(f); return true })
	}
	sort.Strings(out)
	fsOut := fileSet{files: out, notes: ignoreNotes(ig)}
	if max > 0 && len(out) > max {
		fsOut.files, fsOut.truncated = out[:max], true
	}
	return fsOut, nil
}

// ignoreNotes returns the diagnostics of ig, as a result's notes.
func ignoreNotes(ig *ignore.Tree) []string {
	var notes []string
	for _, d := range ig.Diagnostics() {
		notes = append(notes, d.String())
	}
	return notes
}

// walkFiles calls fn for every regular file under dir (or for dir itself
// when it is one), skipping the directories in skipDirs and what ig
// ignores below dir (dir itself is not judged), until fn returns false. It
// calls fn in the order of the sorted paths: a directory's entries are
// taken by name, a directory's name read as if it ended in "/" (so "a.go"
// comes before the files in "a/", as "a.go" < "a/b.go"), which lets a
// caller use each file as soon as it is found. A missing dir holds
// nothing, and an unreadable entry is skipped.
func walkFiles(fsys fs.FS, dir string, ig *ignore.Tree, fn func(string) bool) {
	fi, err := fs.Stat(fsys, dir)
	switch {
	case err != nil:
	case fi.IsDir():
		walkDir(fsys, dir, ig, fn)
	case fi.Mode().IsRegular():
		fn(dir)
	}
}

// walkDir is walkFiles below a directory; false when fn stopped the walk.
func walkDir(fsys fs.FS, dir string, ig *ignore.Tree, fn func(string) bool) bool {
	entries, err := fs.ReadDir(fsys, dir) // what could be read of an unreadable directory
	if err == nil && !slices.ContainsFunc(entries, func(e fs.DirEntry) bool { return e.Name() == ignore.FileName }) {
		ig.Absent(dir)
	}
	slices.SortFunc(entries, compareEntries)
	for _, e := range entries {
		p := path.Join(dir, e.Name())
		switch {
		case e.IsDir():
			if !skipDirs[e.Name()] && !ig.Match(p, true) && !walkDir(fsys, p, ig, fn) {
				return false
			}
		case e.Type().IsRegular() && !ig.Match(p, false):
			if !fn(p) {
				return false
			}
		}
	}
	return true
}

// compareEntries orders a directory's entries as the paths below them
// sort: by name, a directory's name followed by "/".
func compareEntries(a, b fs.DirEntry) int {
	an, bn := a.Name(), b.Name()
	ad, bd := a.IsDir(), b.IsDir()
	for i := 0; ; i++ {
		x, y := keyByte(an, ad, i), keyByte(bn, bd, i)
		if x != y || x < 0 {
			return cmp.Compare(x, y)
		}
	}
}

// keyByte is byte i of name, followed by "/" for a directory; -1 past
// the end.
func keyByte(name string, dir bool, i int) int {
	switch {
	case i < len(name):
		return int(name[i])
	case dir && i == len(name):
		return '/'
	}
	return -1
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

package ignore

import (
	"io"
	"io/fs"
	"path"
)

// FileName is the name of the per-directory ignore file.
const FileName = ".gitignore"

// excludeFile is the repository's own ignore file, below every .gitignore.
const excludeFile = ".git/info/exclude"

// maxFileBytes bounds how much of one ignore file is read; the rest is
// not looked at.
const maxFileBytes = 1 << 20

// A Tree answers for one project tree, reading each directory's
// .gitignore once, when a path below it is first asked about. Only ignore
// files inside the tree count (none from its parents, the user's global
// excludes file or git's configuration), and only regular files: a
// symbolic link named .gitignore is not followed, as git does not follow
// one. A Tree is not safe for concurrent use.
type Tree struct {
	fsys    fs.FS
	lists   map[string]*List // directory ("." for the root) → its .gitignore, nil when none
	exclude *List
}

// NewTree returns the ignore rules of the tree fsys holds, whose root is
// the project root.
func NewTree(fsys fs.FS) *Tree {
	t := &Tree{fsys: fsys, lists: map[string]*List{}}
	t.exclude = readList(fsys, excludeFile)
	return t
}

func readList(fsys fs.FS, name string) *List {
	fi, err := fs.Lstat(fsys, name)
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes))
	if err != nil {
		return nil
	}
	l := Parse(data)
	if l.rules == 0 {
		return nil
	}
	return l
}

// Absent records that dir holds no .gitignore, as a listing of dir just
// read shows, so that Match does not look for one there. A walk that
// reads every directory it enters then looks up only the ignore files it
// saw.
func (t *Tree) Absent(dir string) {
	if _, ok := t.lists[dir]; !ok {
		t.lists[dir] = nil
	}
}

func (t *Tree) list(dir string) *List {
	l, ok := t.lists[dir]
	if !ok {
		l = readList(t.fsys, path.Join(dir, FileName))
		t.lists[dir] = l
	}
	return l
}

// Match reports whether the rules ignore p (a clean slash path relative
// to the root; isDir says whether it names a directory), judging p alone:
// the deepest .gitignore above p with a matching rule decides, then
// .git/info/exclude. Whether a parent directory is ignored is not looked
// at; a walk that does not enter ignored directories needs nothing more.
func (t *Tree) Match(p string, isDir bool) bool {
	if p == "." || p == "" {
		return false
	}
	// The ancestors, deepest first: for a/b/c, "a/b", "a" and ".".
	for dir := path.Dir(p); ; dir = path.Dir(dir) {
		if l := t.list(dir); l != nil {
			rel := p
			if dir != "." {
				rel = p[len(dir)+1:]
			}
			if decided, ignored := l.Match(rel, isDir); decided {
				return ignored
			}
		}
		if dir == "." {
			break
		}
	}
	if t.exclude != nil {
		if decided, ignored := t.exclude.Match(p, isDir); decided {
			return ignored
		}
	}
	return false
}

// Ignored reports whether git would ignore p: the rules ignore p itself
// or one of the directories it is in (which no rule can re-include a
// path from).
func (t *Tree) Ignored(p string, isDir bool) bool {
	if p == "." || p == "" {
		return false
	}
	for i := 0; i < len(p); i++ {
		if p[i] == '/' && t.Match(p[:i], true) {
			return true
		}
	}
	return t.Match(p, isDir)
}

package ignore

import (
	"fmt"
	"io"
	"io/fs"
	"path"
)

// FileName is the name of the per-directory ignore file.
const FileName = ".gitignore"

// excludeFile is the repository's own ignore file, below every .gitignore.
const excludeFile = ".git/info/exclude"

// A Tree answers for one project tree, reading each directory's
// .gitignore once, when a path below it is first asked about. Only ignore
// files inside the tree count (none from its parents, the user's global
// excludes file or git's configuration), and only regular files: a
// symbolic link named .gitignore is not followed, as git does not follow
// one. A Tree is not safe for concurrent use.
//
// What the ignore files may hold is bounded (see the limits); a
// directory whose ignore file passes a bound is left out whole, and
// Diagnostics reports it.
type Tree struct {
	fsys    fs.FS
	lim     limits
	lists   map[string]*List    // directory ("." for the root) → its .gitignore, nil when none
	dirs    map[string]dirState // directory → what is in effect there, once asked about
	base    dirState            // what .git/info/exclude puts in effect everywhere
	exclude *List
	// readBytes, readRules and readGeneral count what the ignore files
	// read hold: their bytes, rules, and general rules' weight.
	readBytes   int64
	readRules   int
	readGeneral int
	diags       []Diagnostic
	// work counts the weight of the general rules run, for the tests.
	work int
}

// A dirState is what is in effect in one directory.
type dirState struct {
	// weight is the weight of the general rules in effect.
	weight int
	// out is set when the directory, or one above it, is left out whole:
	// every path below it is ignored.
	out bool
}

// NewTree returns the ignore rules of the tree fsys holds, whose root is
// the project root.
func NewTree(fsys fs.FS) *Tree {
	return newTree(fsys, defaultLimits)
}

func newTree(fsys fs.FS, lim limits) *Tree {
	t := &Tree{fsys: fsys, lim: lim, lists: map[string]*List{}, dirs: map[string]dirState{}}
	if l := t.readList(excludeFile); l != nil {
		t.exclude = l
		t.base = t.apply(excludeFile, ".", l, dirState{})
		if t.base.out {
			t.exclude = nil
		}
	}
	return t
}

func (t *Tree) readList(name string) *List {
	fi, err := fs.Lstat(t.fsys, name)
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	over := func(format string, args ...any) *List {
		return &List{over: fmt.Sprintf(format, args...)}
	}
	if fi.Size() > t.lim.fileBytes {
		return over("%d bytes, over the limit of %d for one ignore file", fi.Size(), t.lim.fileBytes)
	}
	f, err := t.fsys.Open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, t.lim.fileBytes+1))
	if err != nil {
		return nil
	}
	if int64(len(data)) > t.lim.fileBytes {
		return over("more than %d bytes, the limit for one ignore file", t.lim.fileBytes)
	}
	if t.readBytes += int64(len(data)); t.readBytes > t.lim.treeBytes {
		return over("the ignore files read pass %d bytes, the limit for one tree", t.lim.treeBytes)
	}
	l, reason := compileFile(data, t.lim)
	if reason != "" {
		return &List{over: reason}
	}
	if t.readRules += l.rules; t.readRules > t.lim.treeRules {
		return over("the ignore files read pass %d patterns, the limit for one tree", t.lim.treeRules)
	}
	if t.readGeneral += l.weight; t.readGeneral > t.lim.treeGeneral {
		return over("the patterns that need a full glob match in the ignore files read weigh more than %d, the limit for one tree", t.lim.treeGeneral)
	}
	if l.rules == 0 {
		return nil
	}
	return l
}

// apply returns the state in dir, where the ignore file named file holds
// l and parent is the state of the directory above; it records a
// Diagnostic when l leaves dir out.
func (t *Tree) apply(file, dir string, l *List, parent dirState) dirState {
	s := parent
	reason := l.over
	if reason == "" {
		s.weight += l.weight
		if s.weight > t.lim.general {
			// Name the rule that passes the limit.
			w := parent.weight
			for i := range l.general {
				if w += l.general[i].weight(); w > t.lim.general {
					reason = generalReason(t.lim, &l.general[i])
					break
				}
			}
		}
	}
	if reason != "" {
		s.out = true
		t.diags = append(t.diags, Diagnostic{File: file, Dir: dir, Reason: reason})
	}
	return s
}

// Diagnostics returns the ignore files that could not be applied as
// written, in the order they were read.
func (t *Tree) Diagnostics() []Diagnostic {
	return append([]Diagnostic(nil), t.diags...)
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
		l = t.readList(path.Join(dir, FileName))
		t.lists[dir] = l
	}
	return l
}

// state returns what is in effect in dir, reading the ignore files of
// dir and the directories above it.
func (t *Tree) state(dir string) dirState {
	if s, ok := t.dirs[dir]; ok {
		return s
	}
	s := t.base
	if dir != "." {
		s = t.state(path.Dir(dir))
	}
	if !s.out {
		if l := t.list(dir); l != nil {
			s = t.apply(path.Join(dir, FileName), dir, l, s)
		}
	}
	t.dirs[dir] = s
	return s
}

// Match reports whether the rules ignore p (a clean slash path relative
// to the root; isDir says whether it names a directory), judging p alone:
// the deepest .gitignore above p with a matching rule decides, then
// .git/info/exclude. Whether a parent directory is ignored is not looked
// at; a walk that does not enter ignored directories needs nothing more.
// A path in a directory left out for its ignore files (see Diagnostics)
// is ignored.
func (t *Tree) Match(p string, isDir bool) bool {
	if p == "." || p == "" {
		return false
	}
	if t.state(path.Dir(p)).out {
		return true
	}
	// The ancestors, deepest first: for a/b/c, "a/b", "a" and ".".
	for dir := path.Dir(p); ; dir = path.Dir(dir) {
		if l := t.lists[dir]; l != nil {
			rel := p
			if dir != "." {
				rel = p[len(dir)+1:]
			}
			if o := l.last(rel, isDir, &t.work); o >= 0 {
				return o&1 == 0
			}
		}
		if dir == "." {
			break
		}
	}
	if t.exclude != nil {
		if o := t.exclude.last(p, isDir, &t.work); o >= 0 {
			return o&1 == 0
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

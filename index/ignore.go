package index

import (
	"bufio"
	"bytes"
	"io"
	"io/fs"
	"path"
	"strings"
)

// A matcher decides which paths the walk leaves out, judging each path
// alone (the walk does not enter a directory the matcher leaves out).
type matcher interface {
	Match(p string, isDir bool) bool
}

// newMatcher returns the ignore rules of the tree fsys holds.
//
// This is the one place the walk's ignore rules come from. Until the
// project's internal/ignore package (a byte-for-byte port of git's matcher)
// is in the tree, it returns the reduced matcher below; then its body
// becomes `return ignore.NewTree(fsys)`, which has the same Match method.
func newMatcher(fsys fs.FS) matcher { return newGitignore(fsys) }

// gitignore is a reduced reading of .gitignore files: one pattern a line,
// # comments, ! negation, a trailing / for directories only, a / elsewhere
// anchoring the pattern to its file's directory, * ? [...] within a path
// element and ** across elements. The deepest .gitignore with a matching
// pattern decides, by its last matching pattern, then .git/info/exclude.
type gitignore struct {
	fsys    fs.FS
	lists   map[string][]ignoreRule // directory → its rules; nil when none
	exclude []ignoreRule
}

type ignoreRule struct {
	elems    []string // the pattern split at /
	negate   bool
	dirOnly  bool
	anchored bool
}

func newGitignore(fsys fs.FS) *gitignore {
	g := &gitignore{fsys: fsys, lists: map[string][]ignoreRule{}}
	g.exclude = readIgnoreFile(fsys, ".git/info/exclude")
	return g
}

func readIgnoreFile(fsys fs.FS, name string) []ignoreRule {
	fi, err := fs.Stat(fsys, name)
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return nil
	}
	var rules []ignoreRule
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimRight(strings.TrimSuffix(sc.Text(), "\r"), " ")
		if line == "" || line[0] == '#' {
			continue
		}
		var r ignoreRule
		if line[0] == '!' {
			r.negate, line = true, line[1:]
		} else if strings.HasPrefix(line, `\`) {
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			r.dirOnly, line = true, strings.TrimRight(line, "/")
		}
		if line == "" {
			continue
		}
		r.anchored = strings.Contains(line, "/")
		r.elems = strings.Split(strings.TrimPrefix(line, "/"), "/")
		rules = append(rules, r)
	}
	return rules
}

func (g *gitignore) list(dir string) []ignoreRule {
	l, ok := g.lists[dir]
	if !ok {
		l = readIgnoreFile(g.fsys, path.Join(dir, ".gitignore"))
		g.lists[dir] = l
	}
	return l
}

// Match reports whether the rules leave p out.
func (g *gitignore) Match(p string, isDir bool) bool {
	elems := strings.Split(p, "/")
	// The directories above p, deepest first: for a/b/c, a/b, a and ".".
	for depth := len(elems) - 1; depth >= 0; depth-- {
		dir := "."
		if depth > 0 {
			dir = strings.Join(elems[:depth], "/")
		}
		if decided, ignored := matchRules(g.list(dir), elems[depth:], isDir); decided {
			return ignored
		}
	}
	_, ignored := matchRules(g.exclude, elems, isDir)
	return ignored
}

// matchRules applies rules to a path relative to their directory, given
// as its elements: the last rule that matches decides.
func matchRules(rules []ignoreRule, rel []string, isDir bool) (decided, ignored bool) {
	for i := len(rules) - 1; i >= 0; i-- {
		r := &rules[i]
		if r.dirOnly && !isDir {
			continue
		}
		name := rel
		if !r.anchored {
			name = rel[len(rel)-1:]
		}
		if matchElems(r.elems, name) {
			return true, !r.negate
		}
	}
	return false, false
}

// matchElems matches path elements against pattern elements, where a **
// element matches any number of path elements.
func matchElems(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if matchElems(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], name[0]); err != nil || !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

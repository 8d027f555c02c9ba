// Package gen generates an evaluation from oracles: it reads the truth of a
// real repository (a SCIP index, or ast-grep rules checked by hand), samples
// its symbols with a seed, writes questions in many phrasings with the
// complete sets of sites a right answer holds, asks them of the engine in
// several modes and scores the answers, beside the baseline of `rg -w`.
package gen

import (
	"io/fs"
	"path"
	"sort"
	"strings"
)

// A Site is a place in a corpus: a root-relative, slash-separated path and
// a one-based line. Line 0 stands for the whole file.
type Site struct {
	Path string `json:"path"`
	Line int    `json:"line,omitempty"`
}

// A Def is a definition the truth holds.
type Def struct {
	// ID is the symbol's identity: its SCIP symbol, or for syntax truth its
	// path, container and name.
	ID string `json:"id"`
	// Name is the defined identifier; Container the type, trait, class or
	// module it is a member of, empty for a package-level definition.
	Name      string `json:"name"`
	Container string `json:"container,omitempty"`
	// Kind is one of function, method, class, interface, struct, trait,
	// enum, module or type.
	Kind string `json:"kind"`
	Site
}

// A Ref is a reference: to a symbol's ID (SCIP truth) or to a name (syntax
// truth, whose references are call sites).
type Ref struct {
	To   string `json:"to"`
	Call bool   `json:"call"`
	// Test is set for a reference in a test file or a test region.
	Test bool `json:"test"`
	Site
}

// An Impl says Sub implements or extends Super (IDs for SCIP truth, names
// for syntax truth).
type Impl struct {
	Sub, Super string
	// Site is where the relation is written; zero for SCIP truth, where the
	// sub type's definition stands for it.
	Site
}

// Truth is what an oracle says about a corpus.
type Truth struct {
	// Source names the oracle, such as "scip-go" or "ast-grep".
	Source string
	// ByName is set when references and relations name identifiers rather
	// than symbol identities (syntax truth).
	ByName bool
	Defs   []Def
	Refs   []Ref
	Impls  []Impl
	// Shared pairs a method with an interface method it implements when
	// the oracle's language server reports their references as one set:
	// gopls answers references of either with the calls through both.
	Shared []Impl
	// SharedHere pairs a method with an interface method of another
	// module it implements (the standard library's io.Closer.Close):
	// gopls answers the method's references with the calls through that
	// one made in the method's own package (its directory).
	SharedHere []Impl
}

// The kinds of definition a question may ask about.
var askable = map[string]bool{
	"function": true, "method": true, "class": true, "interface": true, "struct": true,
	"trait": true, "enum": true, "type": true, "module": true,
}

// IsTestPath reports whether a root-relative path is a test file by the
// conventions of its language.
func IsTestPath(p string) bool {
	base := path.Base(p)
	lower := strings.ToLower(p)
	switch {
	case strings.HasSuffix(base, "_test.go"),
		strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py"),
		strings.HasSuffix(base, "_test.py"),
		strings.Contains(base, ".test.") || strings.Contains(base, ".spec."),
		strings.HasSuffix(base, "_spec.rb") || strings.HasSuffix(base, "_test.rb"),
		base == "tests.rs" || base == "test.rs",
		strings.HasSuffix(base, "Test.java") || strings.HasSuffix(base, "Tests.java"):
		return true
	}
	for _, dir := range []string{"test/", "tests/", "__tests__/", "spec/", "src/test/"} {
		if strings.HasPrefix(lower, dir) || strings.Contains(lower, "/"+dir) {
			return true
		}
	}
	return false
}

// index is the truth arranged for questions.
type index struct {
	t      *Truth
	byName map[string][]int // name → Defs indexes
	byID   map[string]int
	refs   map[string][]int // To → Refs indexes
	subs   map[string][]int // super (ID or name) → Impls indexes
	shared map[string][]string
	here   map[string][]string // Truth.SharedHere, from the method
}

func newIndex(t *Truth) *index {
	x := &index{t: t, byName: map[string][]int{}, byID: map[string]int{}, refs: map[string][]int{}, subs: map[string][]int{}, shared: map[string][]string{}}
	for i, d := range t.Defs {
		x.byName[d.Name] = append(x.byName[d.Name], i)
		x.byID[d.ID] = i
	}
	for i, r := range t.Refs {
		x.refs[r.To] = append(x.refs[r.To], i)
	}
	for i, im := range t.Impls {
		x.subs[im.Super] = append(x.subs[im.Super], i)
	}
	for _, s := range t.Shared {
		x.shared[s.Sub] = append(x.shared[s.Sub], s.Super)
		x.shared[s.Super] = append(x.shared[s.Super], s.Sub)
	}
	x.here = map[string][]string{}
	for _, s := range t.SharedHere {
		x.here[s.Sub] = append(x.here[s.Sub], s.Super)
	}
	return x
}

// refsOf are the indexes of the references d's answer counts: its own and,
// where the oracle shares them (Truth.Shared), those of the methods it
// implements or is implemented by, and those in its directory of the
// interface methods of other modules it implements (Truth.SharedHere).
func (x *index) refsOf(d Def) []int {
	k := x.refKey(d)
	out := x.refs[k]
	if len(x.shared[k]) == 0 && len(x.here[k]) == 0 {
		return out
	}
	out = append([]int(nil), out...)
	for _, o := range x.shared[k] {
		out = append(out, x.refs[o]...)
	}
	for _, o := range x.here[k] {
		for _, i := range x.refs[o] {
			if path.Dir(x.t.Refs[i].Path) == path.Dir(d.Path) {
				out = append(out, i)
			}
		}
	}
	return out
}

// refKey is what a definition's references point at.
func (x *index) refKey(d Def) string {
	if x.t.ByName {
		return d.Name
	}
	return d.ID
}

// refSites are the sites of d's references, calls only when calls is set,
// in path and line order without repeats.
func (x *index) refSites(d Def, calls bool) []Site {
	var out []Site
	for _, i := range x.refsOf(d) {
		r := x.t.Refs[i]
		if calls && !r.Call {
			continue
		}
		out = append(out, r.Site)
	}
	return uniqSites(out)
}

// testSites are d's references in tests.
func (x *index) testSites(d Def) []Site {
	var out []Site
	for _, i := range x.refsOf(d) {
		if r := x.t.Refs[i]; r.Test {
			out = append(out, r.Site)
		}
	}
	return uniqSites(out)
}

// subtypes are the definition sites of what implements or extends d.
func (x *index) subtypes(d Def) []Site {
	var out []Site
	for _, i := range x.subs[x.refKey(d)] {
		im := x.t.Impls[i]
		if x.t.ByName {
			out = append(out, im.Site)
			continue
		}
		if j, ok := x.byID[im.Sub]; ok {
			out = append(out, x.t.Defs[j].Site)
		}
	}
	return uniqSites(out)
}

func uniqSites(s []Site) []Site {
	sort.Slice(s, func(i, j int) bool {
		if s[i].Path != s[j].Path {
			return s[i].Path < s[j].Path
		}
		return s[i].Line < s[j].Line
	})
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// validPath reports whether p is a root-relative, slash-separated path
// naming a file.
func validPath(p string) bool {
	return p != "" && p != "." && fs.ValidPath(p)
}

package gen

import (
	"fmt"
	"hash/fnv"
	"io/fs"
	"math/rand/v2"
	"sort"
	"strings"
	"unicode"

	"github.com/codecortex/codecortex/cmd/cortex/internal/eval"
)

// Meta names a corpus.
type Meta struct {
	Corpus, Language, Version string
}

// Quota is how many questions of each kind a corpus gets at most; a kind
// with too few candidates leaves its share to definitions.
var Quota = map[string]int{
	KindDefinition: 45,
	KindAmbiguous:  10,
	KindCallers:    20,
	KindUsages:     12,
	KindSubtypes:   10,
	KindTests:      8,
	KindAbsent:     6,
}

// MaxSites bounds the expected sites of a callers, usages, subtypes or
// tests question: a symbol with more is not sampled for that kind, since no
// budgeted answer could list them all.
const MaxSites = 40

// The budget of every generated question.
const suiteBudget = 4000

// Generate samples t's symbols with seed and writes the suite of questions
// about the corpus whose files src holds. The same truth, corpus and seed
// give the same suite. The kinds are sampled in a fixed order, since each
// draws from the one random source.
func Generate(t *Truth, meta Meta, src fs.FS, seed uint64) (*Suite, error) {
	h := fnv.New64a()
	h.Write([]byte(meta.Corpus))
	s := &Suite{
		Name:   fmt.Sprintf("%s %s (%s), generated with seed %d", meta.Corpus, meta.Version, t.Source, seed),
		Budget: suiteBudget, Corpus: meta.Corpus, Language: meta.Language, Version: meta.Version,
		Oracle: t.Source, Seed: seed,
	}
	g := &generator{x: newIndex(t), rng: rand.New(rand.NewPCG(seed, h.Sum64())), lang: meta.Language, s: s, t: t}
	defs := g.candidates()
	if len(defs) == 0 {
		return nil, fmt.Errorf("gen: %s: no definition to ask about", meta.Corpus)
	}
	left := g.ambiguous(defs)
	left += g.callersAndUsages(defs)
	left += g.subtypesOf(defs)
	left += g.testsOf(defs)
	g.absent(defs, src)
	g.definitions(defs, Quota[KindDefinition]+left)
	return s, nil
}

type generator struct {
	x    *index
	rng  *rand.Rand
	lang string
	s    *Suite
	t    *Truth
	// idSites holds every definition site of a symbol: one defined at
	// several (TypeScript's overloads, a declaration merged with its
	// implementation) is one symbol whose definition is any of them.
	idSites map[string][]Site
}

// candidates returns the askable definitions outside tests, one per
// symbol, in a stable order, and notes every site of each in g.idSites.
func (g *generator) candidates() []Def {
	var defs []Def
	for _, d := range g.t.Defs {
		if askable[d.Kind] && !IsTestPath(d.Path) && len(d.Name) > 1 {
			defs = append(defs, d)
		}
	}
	sort.Slice(defs, func(i, j int) bool {
		if defs[i].ID != defs[j].ID {
			return defs[i].ID < defs[j].ID
		}
		return less(defs[i].Site, defs[j].Site)
	})
	g.idSites = map[string][]Site{}
	for _, d := range defs {
		g.idSites[d.ID] = append(g.idSites[d.ID], d.Site)
	}
	return dedupeByID(defs)
}

// unique reports whether d's name names one symbol only.
func (g *generator) unique(d Def) bool { return g.symbolsNamed(d.Name) == 1 }

// ambiguous asks about names defined at two or more sites (not a module
// reopened); it returns the quota left unused.
func (g *generator) ambiguous(defs []Def) int {
	var amb []Def
	seen := map[string]bool{}
	for _, d := range defs {
		n := g.symbolsNamed(d.Name)
		if n >= 2 && len(g.sitesOfName(d.Name)) <= 12 && d.Kind != "module" && !seen[d.Name] {
			seen[d.Name] = true
			amb = append(amb, d)
		}
	}
	return g.take(KindAmbiguous, amb, func(d Def) (string, string, []Site) {
		return g.phrase(KindAmbiguous, d, d.Name), d.Name, g.sitesOfName(d.Name)
	})
}

// each returns the sites of every symbol the name q, as a question writes
// it, stands for (T.M with a T in two packages): the answer is every one's.
// A bare name of several symbols stands for none.
func (g *generator) each(d Def, q string, sites func(Def) []Site) []Site {
	if q == d.Name && !g.unique(d) {
		return nil
	}
	var out []Site
	for _, m := range g.named(d, q) {
		out = append(out, sites(m)...)
	}
	return uniqSites(out)
}

// callersAndUsages asks who calls functions and methods, and where symbols
// are used: by identity for SCIP truth; by name, and only for names defined
// once, for syntax truth, which has no usages. It returns the quota left.
func (g *generator) callersAndUsages(defs []Def) int {
	x := g.x
	var callers, usages []Def
	for _, d := range defs {
		if d.Kind != "function" && d.Kind != "method" || g.t.ByName && !g.unique(d) {
			continue
		}
		if n := len(x.refSites(d, true)); n >= 1 && n <= MaxSites {
			callers = append(callers, d)
		}
	}
	if !g.t.ByName {
		for _, d := range defs {
			if n := len(x.refSites(d, false)); n >= 1 && n <= MaxSites {
				usages = append(usages, d)
			}
		}
	}
	left := g.take(KindCallers, callers, func(d Def) (string, string, []Site) {
		q := g.qualified(d, g.unique(d))
		return g.phrase(KindCallers, d, q), q, g.each(d, q, func(m Def) []Site { return x.refSites(m, true) })
	})
	return left + g.take(KindUsages, usages, func(d Def) (string, string, []Site) {
		q := g.qualified(d, g.unique(d))
		return g.phrase(KindUsages, d, q), q, g.each(d, q, func(m Def) []Site { return x.refSites(m, false) })
	})
}

// subtypesOf asks for the implementations or subclasses of types that have
// some in the corpus; it returns the quota left unused.
func (g *generator) subtypesOf(defs []Def) int {
	var supers []Def
	for _, d := range defs {
		if d.Kind == "function" || d.Kind == "method" || g.t.ByName && !g.unique(d) {
			continue
		}
		if n := len(g.x.subtypes(d)); n >= 1 && n <= MaxSites {
			supers = append(supers, d)
		}
	}
	return g.take(KindSubtypes, supers, func(d Def) (string, string, []Site) {
		return g.phrase(KindSubtypes, d, d.Name), d.Name, g.x.subtypes(d)
	})
}

// testsOf asks for the tests of what test code refers to; it returns the
// quota left unused.
func (g *generator) testsOf(defs []Def) int {
	var tested []Def
	for _, d := range defs {
		if g.t.ByName && !g.unique(d) {
			continue
		}
		if n := len(g.x.testSites(d)); n >= 1 && n <= MaxSites {
			tested = append(tested, d)
		}
	}
	return g.take(KindTests, tested, func(d Def) (string, string, []Site) {
		q := g.qualified(d, g.unique(d))
		return g.phrase(KindTests, d, q), q, g.each(d, q, g.x.testSites)
	})
}

// absent asks for names made of two defined names and written nowhere in
// src, as definition or callers questions.
func (g *generator) absent(defs []Def, src fs.FS) {
	words := tokens(src)
	var absent []string
	for tries := 0; len(absent) < Quota[KindAbsent] && tries < 200; tries++ {
		a, b := defs[g.rng.IntN(len(defs))].Name, defs[g.rng.IntN(len(defs))].Name
		n := compose(a, b)
		if n != "" && !words[n] && !words[strings.ToLower(n)] {
			absent = append(absent, n)
		}
	}
	for _, n := range absent {
		d := Def{Name: n, Kind: "function"}
		if g.rng.IntN(2) == 0 {
			g.add(KindAbsent, g.phrase(KindDefinition, d, n), n, nil)
		} else {
			g.add(KindAbsent, g.phrase(KindCallers, d, n), n, nil)
		}
	}
}

// definitions asks where quota symbols are defined: unique names,
// functions, methods and types mixed. A method whose name is not unique is
// asked with its receiver, and every member of that name in a type of that
// name is right (two packages may each have a Basic with an initialize).
func (g *generator) definitions(defs []Def, quota int) {
	var single []Def
	for _, d := range defs {
		if d.Kind == "method" || g.unique(d) {
			single = append(single, d)
		}
	}
	g.takeN(KindDefinition, single, quota, func(d Def) (string, string, []Site) {
		if d.Kind == "method" && !g.unique(d) {
			q := g.qualified(d, false)
			return g.phrase(KindDefinition, d, q), q, g.sitesOfMember(d.Container, d.Name)
		}
		return g.phrase(KindDefinition, d, d.Name), d.Name, uniqSites(g.idSites[d.ID])
	})
}

// take samples up to the kind's quota from cands and adds a question for
// each; it returns the quota left unused.
func (g *generator) take(kind string, cands []Def, ask func(Def) (string, string, []Site)) int {
	return g.takeN(kind, cands, Quota[kind], ask)
}

func (g *generator) takeN(kind string, cands []Def, n int, ask func(Def) (string, string, []Site)) int {
	idx := g.rng.Perm(len(cands))
	added := 0
	for _, i := range idx {
		if added == n {
			break
		}
		q, name, sites := ask(cands[i])
		if len(sites) == 0 {
			continue
		}
		g.add(kind, q, name, sites)
		added++
	}
	return n - added
}

func (g *generator) add(kind, q, name string, sites []Site) {
	c := Case{Kind: kind, Name: name, Sites: sites}
	c.Question = q
	if len(sites) > 0 {
		c.Expect = eval.Expect{Path: sites[0].Path, Line: sites[0].Line}
	}
	g.s.Cases = append(g.s.Cases, c)
}

// sitesOfName are the definition sites of every askable definition named n.
func (g *generator) sitesOfName(n string) []Site {
	var out []Site
	for _, i := range g.x.byName[n] {
		if d := g.x.t.Defs[i]; askable[d.Kind] && !IsTestPath(d.Path) {
			out = append(out, d.Site)
		}
	}
	return uniqSites(out)
}

// named are the definitions a question's name q stands for: d alone when
// q is its bare, unique name; every member of that name in a type of d's
// container's name when q is qualified.
func (g *generator) named(d Def, q string) []Def {
	if q == d.Name {
		return []Def{d}
	}
	var out []Def
	seen := map[string]bool{}
	for _, i := range g.x.byName[d.Name] {
		if m := g.x.t.Defs[i]; m.Container == d.Container && askable[m.Kind] && !IsTestPath(m.Path) && !seen[m.ID] {
			seen[m.ID] = true
			out = append(out, m)
		}
	}
	return out
}

// sitesOfMember are the definition sites of every member n of a type
// named container.
func (g *generator) sitesOfMember(container, n string) []Site {
	var out []Site
	for _, i := range g.x.byName[n] {
		if d := g.x.t.Defs[i]; d.Container == container && askable[d.Kind] && !IsTestPath(d.Path) {
			out = append(out, d.Site)
		}
	}
	return uniqSites(out)
}

// symbolsNamed counts the askable symbols named n outside tests.
func (g *generator) symbolsNamed(n string) int {
	ids := map[string]bool{}
	for _, i := range g.x.byName[n] {
		if d := g.x.t.Defs[i]; askable[d.Kind] && !IsTestPath(d.Path) {
			ids[d.ID] = true
		}
	}
	return len(ids)
}

// qualified writes a member as its language does (T.M, T::M in Rust, T#M
// in Ruby), or as its bare name when that is unique and the draw says so.
func (g *generator) qualified(d Def, unique bool) string {
	if d.Container == "" || (unique && g.rng.IntN(2) == 0) {
		return d.Name
	}
	sep := "."
	switch g.lang {
	case "rust":
		sep = "::"
	case "ruby":
		if g.rng.IntN(2) == 0 {
			sep = "#"
		}
	}
	return d.Container + sep + d.Name
}

// phrase writes a question of the kind about d, named q, in one of several
// phrasings drawn with the generator's seed.
func (g *generator) phrase(kind string, d Def, q string) string {
	var forms []string
	switch kind {
	case KindDefinition, KindAmbiguous:
		switch {
		case d.Kind == "method" && q != d.Name:
			forms = []string{"the %[2]s method of %[3]s", "%[1]s", "where is %[1]s defined?", "show me method %[2]s on %[3]s", "definition of %[1]s"}
		case d.Kind == "function" || d.Kind == "method":
			forms = []string{"where is %[1]s defined?", "definition of %[1]s", "find the %[1]s function", "show me %[1]s", "where is the function %[1]s?", "jump to %[1]s"}
		default:
			forms = []string{"show me the %[1]s %[4]s", "where is the %[1]s %[4]s defined?", "%[4]s %[1]s", "definition of %[1]s", "where is %[1]s defined?"}
		}
	case KindCallers:
		forms = []string{"who calls %[1]s?", "callers of %[1]s", "what calls %[1]s?", "where is %[1]s called?", "find calls to %[1]s"}
	case KindUsages:
		forms = []string{"where is %[1]s used?", "usages of %[1]s", "references to %[1]s", "find all references of %[1]s"}
	case KindSubtypes:
		switch d.Kind {
		case "interface", "trait":
			forms = []string{"what implements %[1]s?", "implementations of %[1]s", "which types implement %[1]s?", "who implements the %[1]s %[4]s?"}
		default:
			forms = []string{"which classes extend %[1]s?", "subclasses of %[1]s", "what inherits from %[1]s?", "which types implement %[1]s?"}
		}
	case KindTests:
		forms = []string{"tests of %[1]s", "which tests cover %[1]s?", "where is %[1]s tested?", "tests for %[1]s"}
	}
	f := forms[g.rng.IntN(len(forms))]
	return fmt.Sprintf(f, q, d.Name, d.Container, d.Kind)
}

func dedupeByID(defs []Def) []Def {
	out := defs[:0]
	for i, d := range defs {
		if i == 0 || d.ID != defs[i-1].ID {
			out = append(out, d)
		}
	}
	return out
}

// compose makes a name from two, in the style of the first: snake_case
// when it has an underscore, else camel case.
func compose(a, b string) string {
	if a == b || a == "" || b == "" {
		return ""
	}
	if strings.Contains(a, "_") || (strings.ToLower(a) == a && strings.Contains(b, "_")) {
		return strings.ToLower(a) + "_" + strings.ToLower(b)
	}
	r := []rune(b)
	r[0] = unicode.ToUpper(r[0])
	return a + string(r)
}

// tokens are the identifiers written anywhere in the corpus, as written and
// lower-cased.
func tokens(src fs.FS) map[string]bool {
	out := map[string]bool{}
	fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, err := fs.ReadFile(src, p)
		if err != nil || len(b) > MaxSourceSize {
			return nil
		}
		for _, w := range strings.FieldsFunc(string(b), func(r rune) bool {
			return !(r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r))
		}) {
			out[w] = true
			out[strings.ToLower(w)] = true
		}
		return nil
	})
	return out
}

package graph

import (
	"cmp"
	"path"
	"slices"
	"strings"

	"github.com/codecortex/codecortex/symbols"
	"github.com/codecortex/codecortex/trust"
)

// RankOptions tunes [Graph.Rank]. The zero value ranks every definition by
// how much the rest of the project uses it.
type RankOptions struct {
	// Focus leans the rank toward these files or directories
	// (root-relative; a directory stands for every file under it): their
	// definitions, and what those use, rank higher, as the places a reader
	// is working in. Paths the graph does not hold lean nothing.
	Focus []string
}

// A Ranked is one definition's centrality in the project graph.
type Ranked struct {
	// Node is the definition's index in Nodes.
	Node int
	// Score is its share of the rank: the scores of every definition and
	// file sum to 1.
	Score float64
	// UsedBy counts the uses of it from other definitions and files (calls,
	// references, inheritance; not a test naming its file), and Files the
	// files, other than its own, they are written in.
	UsedBy, Files int
	// Tier is the trust tier of the edges that carry most of its uses'
	// weight; Method the strongest method among them. A definition nothing
	// uses has the zero values.
	Tier   trust.Tier
	Method Method
}

// The rank's parameters: the damping of a random walk along uses, the
// rounds of power iteration (the scores settle within a few dozen on
// graphs of millions of edges), how much a focused node weighs against
// another at the teleport, how much a use established by one of a few
// names counts against a resolved one, and how much less a method's name
// counts from a file that cannot see its type's package.
const (
	rankDamping    = 0.85
	rankRounds     = 30
	focusWeight    = 50
	nameShare      = 0.5
	ambiguousShare = 0.25
	sameFileShare  = 0.1
	foreignShare   = 0.1
)

// Rank returns the definitions of g (files and tests aside) by
// centrality, the highest first (ties by key): PageRank over the uses
// between definitions and files (see rankUses.links), weighted by how each use
// was linked (see rankUses.weight), personalised toward opts.Focus. Time and memory are
// linear in the graph's size.
func (g *Graph) Rank(opts RankOptions) []Ranked {
	n := len(g.Nodes)
	if n == 0 {
		return nil
	}
	tele := g.teleport(opts.Focus)
	u := g.rankUses()
	links := u.links()
	// Each node's outgoing weight, for dividing its rank among its uses:
	// the weight its doubted uses would have had if trusted, so that what
	// the doubt takes restarts the walk rather than going to its other
	// uses (a function whose only use is a doubted one passes little on).
	outW, kept := make([]float64, n), make([]float64, n)
	for _, l := range links {
		outW[l.from] += l.full
		kept[l.from] += l.w
	}
	// What restarts from each node: all of a node that uses nothing.
	leak := make([]float64, n)
	for v := range n {
		leak[v] = 1
		if outW[v] > 0 {
			leak[v] = max(0, 1-kept[v]/outW[v])
		}
	}
	// Each link's share of its node's rank, damped, computed once.
	for i := range links {
		links[i].w = rankDamping * links[i].w / outW[links[i].from]
	}
	score := slices.Clone(tele)
	next := make([]float64, n)
	for range rankRounds {
		dangling := 0.0
		for v := range n {
			dangling += score[v] * leak[v]
		}
		for v := range n {
			next[v] = (1-rankDamping)*tele[v] + rankDamping*dangling*tele[v]
		}
		for _, l := range links {
			next[l.to] += score[l.from] * l.w
		}
		score, next = next, score
	}
	out := make([]Ranked, 0, n)
	stamp := make([]int32, n)
	for v := range g.Nodes {
		nd := &g.Nodes[v]
		if nd.Kind == NodeKindFile || nd.Test {
			continue
		}
		out = append(out, u.ranked(v, score[v], stamp))
	}
	// Many definitions tie (nothing uses them): each key is made once.
	keys := make([]string, n)
	key := func(v int) string {
		if keys[v] == "" {
			keys[v] = g.Nodes[v].Key()
		}
		return keys[v]
	}
	slices.SortFunc(out, func(a, b Ranked) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return strings.Compare(key(a.Node), key(b.Node))
	})
	return out
}

// A rankLink is one definition's (or file's) dependency on another, with
// its weight, and the weight it would have without doubt (see
// rankUses.weight).
type rankLink struct {
	from, to int32
	w, full  float64
}

// rankLinks returns the uses of g as dependencies: one link from each node
// to each node it uses, however many times, weighted by its best-linked
// use (a function calling another five times depends on it once) and
// shared among the nodes of its file that use the same one (ten functions
// of one file reading a constant are one file depending on it, not ten).
func (u *rankUses) links() []rankLink {
	g := u.g
	links := make([]rankLink, 0, len(g.Edges))
	slot := make([]int32, len(g.Nodes)) // the link of (v, target) + 1, for the v being read
	for v := range g.Nodes {
		first := len(links)
		for _, ei := range g.out[v] {
			e := &g.Edges[ei]
			w, full := u.weight(e)
			u.kept[ei] = w
			if full == 0 {
				continue
			}
			if k := int(slot[e.To]) - 1; k >= first && links[k].from == int32(v) {
				links[k].w, links[k].full = max(links[k].w, w), max(links[k].full, full)
				continue
			}
			slot[e.To] = int32(len(links)) + 1
			links = append(links, rankLink{from: int32(v), to: int32(e.To), w: w, full: full})
		}
	}
	fileOf := u.fileOf
	perFile := make(map[[2]int32]int32, len(links))
	for _, l := range links {
		perFile[[2]int32{fileOf[l.from], l.to}]++
	}
	for i := range links {
		share := float64(perFile[[2]int32{fileOf[links[i].from], links[i].to}])
		links[i].w /= share
		links[i].full /= share
	}
	return links
}

// teleport returns where the walk restarts: every node alike, or mostly
// the nodes in focus.
func (g *Graph) teleport(focus []string) []float64 {
	tele := make([]float64, len(g.Nodes))
	total := 0.0
	for v := range g.Nodes {
		w := 1.0
		if inFocus(g.Nodes[v].Path, focus) {
			w = focusWeight
		}
		tele[v] = w
		total += w
	}
	for v := range tele {
		tele[v] /= total
	}
	return tele
}

// inFocus reports whether path is one of focus or under one of them.
func inFocus(path string, focus []string) bool {
	for _, f := range focus {
		f = strings.TrimSuffix(f, "/")
		if f == "" || f == "." || path == f || strings.HasPrefix(path, f+"/") {
			return true
		}
	}
	return false
}

// rankUses weighs the uses of a graph for its rank.
type rankUses struct {
	g *Graph
	// kept is each edge's weight, once links has weighed it.
	kept []float64
	// fileOf is each node's file node, -1 for none.
	fileOf []int32
	// sees memoises whether a file (its node) imports another's package:
	// has an import edge to it.
	sees map[[2]int32]bool
}

func (g *Graph) rankUses() *rankUses {
	u := &rankUses{g: g, kept: make([]float64, len(g.Edges)), fileOf: make([]int32, len(g.Nodes)), sees: map[[2]int32]bool{}}
	for v := range g.Nodes {
		f, ok := g.fileNode[g.Nodes[v].Path]
		if !ok {
			f = -1
		}
		u.fileOf[v] = f
	}
	return u
}

// weight is how much an edge counts as a use: 0 for an import (a file's
// reach, not a definition's use), a test named after a file, and a
// definition using itself. A use linked by its name alone counts half
// (a common method name collects the calls of others), by one of a few
// names a quarter, and one within the definition's own file a tenth (a
// type's methods using its fields say little of what the rest of the
// project needs). A method linked by its name alone from a file outside
// its directory that does not import its file counts a tenth of that
// again: mu.Lock() on a sync.Mutex is not a call of the project's only
// Lock method, and a file that calls a method of the project's type
// mostly imports its package to name it. So does any Go definition so
// linked, and an unexported one even from a file that imports it: Go
// names another package's definitions through its import, and only
// those it exports; and a name linking Go with another language. full
// is the weight without that doubt, nor the tenth of a use within a
// file: what they take restarts the walk (a type used only by the one
// next to it does not take that one's whole rank).
func (u *rankUses) weight(e *Edge) (w, full float64) {
	if e.Kind == Imports || e.Kind == Tests || e.From == e.To {
		return 0, 0
	}
	g := u.g
	from, to := &g.Nodes[e.From], &g.Nodes[e.To]
	w = 1.0
	switch e.Method {
	case UniqueName:
		w = nameShare
	case AmbiguousName:
		w = ambiguousShare
	}
	if from.Path == to.Path {
		return w * sameFileShare, w
	}
	if e.Method != UniqueName && e.Method != AmbiguousName {
		return w, w
	}
	fromGo, toGo := strings.HasSuffix(from.Path, ".go"), strings.HasSuffix(to.Path, ".go")
	goFiles := fromGo && toGo
	switch {
	case fromGo != toGo:
		return w * foreignShare, w
	case (to.Kind == string(symbols.Method) || goFiles) && path.Dir(from.Path) != path.Dir(to.Path) &&
		(goFiles && !to.Exported || !u.imports(from.Path, to.Path)):
		return w * foreignShare, w
	}
	return w, w
}

// imports reports whether file from has an import edge to file to.
func (u *rankUses) imports(from, to string) bool {
	f, ok1 := u.g.fileNode[from]
	t, ok2 := u.g.fileNode[to]
	if !ok1 || !ok2 {
		return false
	}
	k := [2]int32{f, t}
	seen, ok := u.sees[k]
	if !ok {
		for _, ei := range u.g.out[f] {
			if e := &u.g.Edges[ei]; e.Kind == Imports && e.To == int(t) {
				seen = true
				break
			}
		}
		u.sees[k] = seen
	}
	return seen
}

// ranked describes node v's uses; stamp is scratch the size of Nodes,
// marking the files already counted for v.
func (u *rankUses) ranked(v int, score float64, stamp []int32) Ranked {
	g := u.g
	r := Ranked{Node: v, Score: score}
	var byTier [trust.Exact + 1]float64
	own := u.fileOf[v]
	for _, ei := range g.in[v] {
		e := &g.Edges[ei]
		w := u.kept[ei]
		if w == 0 {
			continue
		}
		r.UsedBy++
		t := e.Tier()
		byTier[t] += w
		if r.Method == "" || t > r.Method.Tier() {
			r.Method = e.Method
		}
		if f := u.fileOf[e.From]; f >= 0 && f != own && stamp[f] != int32(v)+1 {
			stamp[f] = int32(v) + 1
			r.Files++
		}
	}
	for t := trust.Exact; t >= trust.Weak; t-- {
		if byTier[t] > 0 && (r.Tier == 0 || byTier[t] > byTier[r.Tier]) {
			r.Tier = t
		}
	}
	return r
}

package graph

import (
	"fmt"
	"math"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/codecortex/codecortex/trust"
)

// Bounds of an impact walk the zero [Query] stands for.
const (
	DefaultDepth    = 3
	DefaultMaxNodes = 500
	// MaxDepth is the deepest walk a query may ask for.
	MaxDepth = 10
)

// A Target is what a change touches: a file, lines of a file, or a
// symbol.
type Target struct {
	// Path is a file relative to the project root; with StartLine (and
	// EndLine, StartLine when 0) only the definitions holding those lines.
	Path      string `json:"path,omitempty"`
	StartLine int    `json:"start_line,omitempty"`
	EndLine   int    `json:"end_line,omitempty"`
	// Symbol is a name: "Name", "Type.Method", "pkg.Name", or
	// "path#Type.Method" as a node's key.
	Symbol string `json:"symbol,omitempty"`
}

func (t Target) String() string {
	switch {
	case t.Symbol != "":
		return t.Symbol
	case t.StartLine > 0 && t.EndLine > t.StartLine:
		return fmt.Sprintf("%s:%d-%d", t.Path, t.StartLine, t.EndLine)
	case t.StartLine > 0:
		return fmt.Sprintf("%s:%d", t.Path, t.StartLine)
	}
	return t.Path
}

// A Query asks for the impact of a change.
type Query struct {
	Targets []Target
	// Depth bounds how many edges a caller may be from a target; 0 means
	// DefaultDepth, and it is at most MaxDepth.
	Depth int
	// MaxNodes bounds the nodes the walk visits; 0 means DefaultMaxNodes.
	MaxNodes int
}

// A Hit is a node the impact reaches.
type Hit struct {
	Symbol    string `json:"symbol"` // the node's key
	Name      string `json:"name"`
	Container string `json:"container,omitempty"`
	Kind      string `json:"kind"`
	Path      string `json:"path"`
	Line      int    `json:"line,omitempty"`
	Exported  bool   `json:"exported,omitempty"`
	Test      bool   `json:"test,omitempty"`
	// Depth is how many edges from a target it is (0 for a target).
	Depth int `json:"depth"`
	// Via is the edge it was reached by: from this node to the node at
	// Depth-1 (nil for a target).
	Via *Via `json:"via,omitempty"`
	// Sites are, for a direct caller (Depth 1), every use by which it
	// uses a target, Via among them, in source order and at most
	// [MaxSites]; for a target, its uses of itself (a recursive call) and
	// of the other targets.
	// Deeper callers have none.
	Sites []Via `json:"sites,omitempty"`
	// Tier is the weakest tier on the path from a target.
	Tier trust.Tier `json:"tier"`
}

// Via is the edge a hit was reached by.
type Via struct {
	Kind   EdgeKind   `json:"kind"`
	Method Method     `json:"method"`
	Tier   trust.Tier `json:"tier"`
	// To is the key of the node it uses.
	To string `json:"to"`
	// Path, Line and Column are where the use is written.
	Path   string `json:"path"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	Span   int    `json:"span,omitempty"`
	Stale  bool   `json:"stale,omitempty"`
}

// A TestHit is a test the change may break.
type TestHit struct {
	Path string `json:"path"`
	// Symbol is the test definition, when the test was reached through
	// one; empty for a test file named after a changed file.
	Symbol string     `json:"symbol,omitempty"`
	Tier   trust.Tier `json:"tier"`
	Why    string     `json:"why"`
}

// Mix counts the edges behind an answer by tier.
type Mix struct {
	Exact        int `json:"exact"`
	InferredHigh int `json:"inferred_high"`
	Inferred     int `json:"inferred"`
}

// Impact is what a change affects.
type Impact struct {
	Targets []Target `json:"targets"`
	// Affected are the definitions (or files, where no definition holds
	// the lines) the targets name.
	Affected []Hit `json:"affected"`
	// Callers are the nodes that reach an affected one through calls,
	// references, inheritance or imports, nearest first.
	Callers []Hit     `json:"callers"`
	Tests   []TestHit `json:"tests"`
	// Risk is in [0, 1], for ordering and attention; RiskReason gives the
	// arithmetic.
	Risk       float64 `json:"risk"`
	RiskReason string  `json:"risk_reason"`
	// Mix counts the edges the callers were reached by.
	Mix Mix `json:"mix"`
	// Cycles are the cycles the affected nodes and their callers take
	// part in.
	Cycles []Cycle `json:"cycles,omitempty"`
	// Depth and MaxNodes are the bounds the walk ran with; Truncated says
	// it stopped at MaxNodes with more to visit.
	Depth     int  `json:"depth"`
	MaxNodes  int  `json:"max_nodes"`
	Truncated bool `json:"truncated,omitempty"`
	// Unresolved lists the targets that named nothing in the graph.
	Unresolved []string `json:"unresolved,omitempty"`
	// StaleFiles are the files changed since the graph walked was built,
	// when it was read from the snapshot of an earlier state of the index
	// (see Graph.StaleFiles).
	StaleFiles []string `json:"stale_files,omitempty"`
	Notes      []string `json:"notes,omitempty"`
	// Elsewhere are uses of a target's name that the graph resolved to
	// another definition of that name, by what the syntax shows (an
	// import, the scope, a receiver's type) or by a precision index: the
	// places where a text match of the name is a use of something else
	// (see [Graph.Impact]).
	Elsewhere []Other `json:"elsewhere,omitempty"`
}

// An Other is a use of a name resolved to a definition other than the
// ones asked about.
type Other struct {
	From string `json:"from"` // the key of the definition (or file) that holds the use
	Via         // the use, the definition it names in To
}

// MaxSites bounds the [Hit.Sites] of one hit.
const MaxSites = 200

// walkKinds are the edges an impact walks backwards.
var walkKinds = map[EdgeKind]bool{Calls: true, References: true, Inherits: true, Implements: true, Imports: true, Tests: true}

// bounds returns the query's depth (DefaultDepth when unset, at most
// MaxDepth) and node bound (DefaultMaxNodes when unset).
func (q Query) bounds() (depth, maxNodes int) {
	depth, maxNodes = q.Depth, q.MaxNodes
	if depth <= 0 {
		depth = DefaultDepth
	}
	if maxNodes <= 0 {
		maxNodes = DefaultMaxNodes
	}
	return min(depth, MaxDepth), maxNodes
}

// Impact walks the graph from the query's targets.
func (g *Graph) Impact(q Query) *Impact {
	depth, maxNodes := q.bounds()
	im := &Impact{Targets: q.Targets, Affected: []Hit{}, Callers: []Hit{}, Tests: []TestHit{}, Depth: depth, MaxNodes: maxNodes}
	w := impactWalk{g: g, im: im, dist: map[int]int{}, tier: map[int]trust.Tier{}, maxNodes: maxNodes, shared: map[int]bool{}}
	frontier := w.seed(q.Targets)
	im.Elsewhere = g.elsewhere(w.named, bareNames(q.Targets))
	// Breadth first: each node once, at its shortest distance, reached by
	// its strongest edge among those from the previous level.
	for d := 1; d <= depth && len(frontier) > 0 && !im.Truncated; d++ {
		frontier = w.level(frontier, d)
	}
	g.tests(im, w.dist)
	g.risk(im)
	im.Cycles = g.cyclesAmong(w.dist)
	return im
}

// elsewhereKinds are the edges whose uses a text match of a name may be.
var elsewhereKinds = map[EdgeKind]bool{Calls: true, References: true}

// elsewhere returns the uses of the targets' names the graph resolved to
// other definitions of those names, at inferred_high or exact (an edge
// found by the name alone says nothing of which definition a use names):
// the first MaxSites in the order of the definitions and then of their
// edges, in source order. A name asked about bare (see bareNames) asks
// about all its definitions: none is another.
func (g *Graph) elsewhere(targets []int, bare []string) []Other {
	asked := make(map[int32]bool, len(targets))
	for _, t := range targets {
		asked[int32(t)] = true
	}
	var es []int32
names:
	for _, name := range targetNames(g, targets, bare) {
		for _, n := range g.byName[name] {
			if asked[n] {
				continue
			}
			for _, ei := range g.in[n] {
				if len(es) == MaxSites {
					break names
				}
				if e := &g.Edges[ei]; isElsewhere(e) {
					es = append(es, ei)
				}
			}
		}
	}
	g.sortSites(es)
	out := make([]Other, 0, len(es))
	for _, ei := range es {
		e := &g.Edges[ei]
		out = append(out, Other{From: g.Nodes[e.From].Key(), Via: g.via(e)})
	}
	return out
}

// isElsewhere reports whether e may be one of [Graph.elsewhere]'s uses: a
// use resolved to one definition, not a call through an interface of the
// standard library that may run any of several (see addKnownUses).
func isElsewhere(e *Edge) bool {
	return elsewhereKinds[e.Kind] && e.Line > 0 && e.Method.Tier() >= trust.InferredHigh && e.Method != MethodSet
}

// targetNames returns the names of the definitions among targets, each
// once, in their order, but those in bare.
func targetNames(g *Graph, targets []int, bare []string) []string {
	var names []string
	for _, t := range targets {
		if n := &g.Nodes[t]; n.Kind != NodeKindFile && !slices.Contains(names, n.Name) && !slices.Contains(bare, n.Name) {
			names = append(names, n.Name)
		}
	}
	return names
}

// bareNames returns the names the targets ask about without a qualifier
// ("Run", not "Cmd.Run" or "path#Run"): those name every definition so
// called, even where the lookup prefers some (code over tests).
func bareNames(targets []Target) []string {
	var out []string
	for _, t := range targets {
		if s := strings.TrimSuffix(strings.TrimSpace(t.Symbol), "()"); s != "" && symbolName(s) == s {
			out = append(out, s)
		}
	}
	return out
}

// An impactWalk is the state of one [Graph.Impact]: the nodes reached,
// at their distance and with the tier of the path that reached them.
type impactWalk struct {
	g        *Graph
	im       *Impact
	dist     map[int]int
	tier     map[int]trust.Tier
	maxNodes int
	// named are the nodes the targets name, those past maxNodes included
	// (a node twice when two targets name it).
	named []int
	// shared are the seeds only withShared added: their uses are the
	// targets', but not what implements or extends them.
	shared map[int]bool
}

// sharedRelation reports whether e relates a method the walk started
// from only because it shares the targets' uses to what it implements or
// what implements it: no use of theirs (a SCIP index relates each method
// to the interface methods it implements).
func (w *impactWalk) sharedRelation(e *Edge) bool {
	return (w.shared[e.To] || w.shared[e.From]) && (e.Kind == Implements || e.Kind == Inherits)
}

// A reach is how a walk reaches a node: by an edge, along a path of a
// tier.
type reach struct {
	edge int32
	tier trust.Tier
}

// seed starts the walk at the nodes the targets name and the Go methods
// that share their uses (see shared.go), as affected at distance 0, and
// returns them; a target that names nothing is listed as unresolved.
func (w *impactWalk) seed(targets []Target) []int {
	var frontier []int
	named := map[int]bool{}
	for _, t := range targets {
		nodes, note := w.g.resolve(t)
		for _, n := range nodes {
			named[n] = true
		}
		nodes = w.g.withShared(nodes)
		if note != "" {
			w.im.Notes = append(w.im.Notes, note)
		}
		if len(nodes) == 0 {
			w.im.Unresolved = append(w.im.Unresolved, t.String())
			continue
		}
		w.named = append(w.named, nodes...)
		for _, n := range nodes {
			if _, ok := w.dist[n]; ok {
				continue
			}
			if len(w.dist) >= w.maxNodes {
				w.im.Truncated = true
				break
			}
			w.dist[n] = 0
			w.tier[n] = trust.Structural
			frontier = append(frontier, n)
			w.im.Affected = append(w.im.Affected, w.g.hit(n, 0, nil, trust.Structural))
		}
	}
	for _, n := range frontier {
		if !named[n] {
			w.shared[n] = true
		}
	}
	for i := range w.im.Affected {
		w.im.Affected[i].Sites = w.targetSites(frontier[i])
	}
	return frontier
}

// level takes the walk one step back from the frontier, to distance d:
// each node not reached yet, by its strongest edge into the frontier,
// becomes a caller. It returns the new frontier, in the frontier's
// memory.
func (w *impactWalk) level(frontier []int, d int) []int {
	g, im := w.g, w.im
	best, order, sites := w.strongestReaches(frontier, d == 1)
	frontier = frontier[:0]
	for _, u := range order {
		if len(w.dist) >= w.maxNodes {
			im.Truncated = true
			break
		}
		r := best[u]
		e := &g.Edges[r.edge]
		w.dist[u] = d
		w.tier[u] = r.tier
		frontier = append(frontier, u)
		via := g.via(e)
		h := g.hit(u, d, &via, r.tier)
		for _, ei := range sites[u] {
			h.Sites = append(h.Sites, g.via(&g.Edges[ei]))
		}
		im.Callers = append(im.Callers, h)
		switch e.Tier() {
		case trust.Exact:
			im.Mix.Exact++
		case trust.InferredHigh:
			im.Mix.InferredHigh++
		default:
			im.Mix.Inferred++
		}
	}
	return frontier
}

// strongestReaches returns, for each node not reached yet with a walked
// edge into the frontier, the strongest such edge, and those nodes in
// the order they were first seen; with all, every such edge of each node
// too (its sites, in source order, at most MaxSites).
func (w *impactWalk) strongestReaches(frontier []int, all bool) (map[int]reach, []int, map[int][]int32) {
	g := w.g
	best := map[int]reach{}
	var order []int
	var sites map[int][]int32
	if all {
		sites = map[int][]int32{}
	}
	for _, v := range frontier {
		for _, ei := range g.in[v] {
			e := &g.Edges[ei]
			if !walkKinds[e.Kind] || w.sharedRelation(e) {
				continue
			}
			if _, seen := w.dist[e.From]; seen {
				continue
			}
			t := min(e.Tier(), w.tier[v])
			if r, ok := best[e.From]; !ok || e.Tier() > g.Edges[r.edge].Tier() {
				if !ok {
					order = append(order, e.From)
				}
				best[e.From] = reach{ei, t}
			}
			if all && len(sites[e.From]) < MaxSites {
				sites[e.From] = append(sites[e.From], ei)
			}
		}
	}
	for _, s := range sites {
		g.sortSites(s)
	}
	return best, order, sites
}

// via is the Via of edge e.
func (g *Graph) via(e *Edge) Via {
	return Via{Kind: e.Kind, Method: e.Method, Tier: e.Tier(), To: g.Nodes[e.To].Key(), Path: e.Path,
		Line: e.Line, Column: e.Column, Span: e.Span, Stale: e.Stale}
}

// targetSites returns the sites at which target n uses itself or
// another target, in source order, at most MaxSites.
func (w *impactWalk) targetSites(n int) []Via {
	g := w.g
	var es []int32
	for _, ei := range g.out[n] {
		e := &g.Edges[ei]
		if d, ok := w.dist[e.To]; ok && d == 0 && walkKinds[e.Kind] && !w.sharedRelation(e) && e.Line > 0 && len(es) < MaxSites {
			es = append(es, ei)
		}
	}
	g.sortSites(es)
	var out []Via
	for _, ei := range es {
		out = append(out, g.via(&g.Edges[ei]))
	}
	return out
}

// sortSites orders edges by where their use is written.
func (g *Graph) sortSites(es []int32) {
	sort.Slice(es, func(i, j int) bool {
		a, b := &g.Edges[es[i]], &g.Edges[es[j]]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}

func (g *Graph) hit(n, depth int, via *Via, t trust.Tier) Hit {
	nd := &g.Nodes[n]
	return Hit{Symbol: nd.Key(), Name: nd.Name, Container: nd.Container, Kind: nd.Kind, Path: nd.Path, Line: nd.Line,
		Exported: nd.Exported, Test: nd.Test, Depth: depth, Via: via, Tier: t}
}

// tests fills the tests: test definitions and files among the nodes
// reached, and the test files named after a changed file.
func (g *Graph) tests(im *Impact, dist map[int]int) {
	seen := map[string]bool{}
	add := func(t TestHit) {
		k := t.Path + "#" + t.Symbol
		if !seen[k] {
			seen[k] = true
			im.Tests = append(im.Tests, t)
		}
	}
	for _, h := range append(append([]Hit{}, im.Affected...), im.Callers...) {
		if !h.Test {
			continue
		}
		why := fmt.Sprintf("uses the change %d step(s) away", h.Depth)
		if h.Via != nil && h.Via.Method == TestNaming {
			why = "named after a changed file"
		}
		sym := h.Symbol
		if h.Kind == NodeKindFile {
			sym = ""
		}
		add(TestHit{Path: h.Path, Symbol: sym, Tier: h.Tier, Why: why})
	}
	// Test files named after the files of the affected definitions, even
	// when the walk did not reach them (a bound, or no use resolved).
	files := map[string]bool{}
	for _, h := range im.Affected {
		files[h.Path] = true
	}
	for p := range files {
		fn, ok := g.fileNode[p]
		if !ok {
			continue
		}
		for _, ei := range g.in[fn] {
			if e := &g.Edges[ei]; e.Kind == Tests && e.Method == TestNaming {
				add(TestHit{Path: g.Nodes[e.From].Path, Tier: e.Tier(), Why: "named after " + p})
			}
		}
	}
	sort.SliceStable(im.Tests, func(i, j int) bool {
		if im.Tests[i].Path != im.Tests[j].Path {
			return im.Tests[i].Path < im.Tests[j].Path
		}
		return im.Tests[i].Symbol < im.Tests[j].Symbol
	})
}

// Risk weights.
const (
	riskExported   = 0.15 // an exported definition touched
	riskOther      = 0.05 // another definition touched
	riskUntested   = 0.10 // a touched source file with no test found
	riskCallExact  = 0.04 // a caller reached by an exact edge, divided by its depth
	riskCallHigh   = 0.03 // ... by an inferred_high edge
	riskCallWeak   = 0.015
	riskTruncation = 0.10 // the walk stopped at its node bound
)

// risk scores the impact as independent chances, 1 - Π(1 - w).
func (g *Graph) risk(im *Impact) {
	var ws []float64
	var why []string
	count := func(n int, w float64, what string) {
		for range n {
			ws = append(ws, w)
		}
		if n > 0 {
			why = append(why, fmt.Sprintf("%d %s (%.3g each)", n, what, w))
		}
	}
	exp, other := 0, 0
	for _, h := range im.Affected {
		if h.Test {
			continue
		}
		if h.Exported {
			exp++
		} else {
			other++
		}
	}
	count(exp, riskExported, "exported definitions touched")
	count(other, riskOther, "other definitions touched")
	callers := map[string]int{}
	weights := map[string]float64{}
	for _, h := range im.Callers {
		if h.Test || h.Via == nil {
			continue
		}
		w, label := riskCallWeak, "inferred"
		switch h.Via.Tier {
		case trust.Exact:
			w, label = riskCallExact, "exact"
		case trust.InferredHigh:
			w, label = riskCallHigh, "inferred_high"
		}
		w /= float64(h.Depth)
		k := fmt.Sprintf("callers at depth %d by %s edges", h.Depth, label)
		callers[k]++
		weights[k] = w
	}
	keys := make([]string, 0, len(callers))
	for k := range callers {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		count(callers[k], weights[k], k)
	}
	untested := 0
	files := map[string]bool{}
	for _, h := range im.Affected {
		if h.Test || files[h.Path] {
			continue
		}
		files[h.Path] = true
		if !g.hasTestFor(h.Path, im) {
			untested++
		}
	}
	count(untested, riskUntested, "touched source files with no test found")
	if im.Truncated {
		count(1, riskTruncation, "walk stopped at its node bound")
	}
	p := 1.0
	for _, w := range ws {
		p *= 1 - w
	}
	im.Risk = math.Round((1-p)*1000) / 1000
	if len(why) == 0 {
		im.RiskReason = "nothing touched"
		return
	}
	im.RiskReason = "1 - Π(1 - w) over " + strings.Join(why, ", ")
}

// hasTestFor reports whether a test of the impact is named after the
// file or sits in its directory.
func (g *Graph) hasTestFor(p string, im *Impact) bool {
	for _, t := range im.Tests {
		if path.Dir(t.Path) == path.Dir(p) || strings.Contains(t.Why, p) {
			return true
		}
	}
	return false
}

// cyclesAmong returns the cycles the reached nodes take part in, at most
// 10.
func (g *Graph) cyclesAmong(dist map[int]int) []Cycle {
	if len(dist) == 0 {
		return nil
	}
	// The cycles through reached nodes lie within the nodes reached from
	// them and reaching them; restrict Tarjan to the reached set, which is
	// bounded, rather than the whole graph.
	nodes := make([]int, 0, len(dist))
	for n := range dist {
		nodes = append(nodes, n)
	}
	sort.Ints(nodes)
	pos := make(map[int]int, len(nodes))
	for i, n := range nodes {
		pos[n] = i
	}
	comps := SCC(len(nodes), func(v int) []int {
		var out []int
		for _, ei := range g.out[nodes[v]] {
			e := &g.Edges[ei]
			if e.Kind == Tests {
				continue
			}
			if j, ok := pos[e.To]; ok {
				out = append(out, j)
			}
		}
		return out
	})
	var out []Cycle
	for _, c := range comps {
		if len(c) < 2 {
			continue
		}
		for i, v := range c {
			c[i] = nodes[v]
		}
		out = append(out, g.cycleOf(c))
		if len(out) == 10 {
			break
		}
	}
	return out
}

// resolve returns the nodes a target names, with a note when it is
// ambiguous or partly out of the graph.
func (g *Graph) resolve(t Target) ([]int, string) {
	if t.Symbol != "" {
		return g.lookup(t.Symbol)
	}
	p := path.Clean(strings.TrimPrefix(t.Path, "./"))
	fn, ok := g.fileNode[p]
	if !ok {
		return nil, ""
	}
	syms := g.fileSyms[p]
	if t.StartLine <= 0 {
		// The whole file: its definitions, or the file when it has none.
		out := make([]int, 0, len(syms))
		for _, s := range syms {
			out = append(out, int(s))
		}
		if len(out) == 0 {
			out = append(out, int(fn))
		}
		return out, ""
	}
	end := max(t.EndLine, t.StartLine)
	// The innermost definitions that overlap the lines: those holding no
	// other overlapping definition.
	var over []int
	for _, s := range syms {
		n := &g.Nodes[s]
		if n.Line <= end && t.StartLine <= n.EndLine {
			over = append(over, int(s))
		}
	}
	var out []int
	for _, a := range over {
		na := &g.Nodes[a]
		inner := true
		for _, b := range over {
			nb := &g.Nodes[b]
			if a != b && na.Line <= nb.Line && nb.EndLine <= na.EndLine && (na.Line != nb.Line || na.EndLine != nb.EndLine) {
				inner = false
				break
			}
		}
		if inner {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return []int{int(fn)}, fmt.Sprintf("%s: no definition holds the lines; the file stands for them", t)
	}
	return out, ""
}

// lookup finds the definitions a name names: "path#Q.N", "Q.N", "pkg.N",
// "N".
func (g *Graph) lookup(s string) ([]int, string) {
	s = strings.TrimSuffix(strings.TrimSpace(s), "()")
	if i := strings.LastIndexByte(s, '#'); i > 0 {
		p, q := s[:i], s[i+1:]
		if _, ok := g.fileNode[p]; ok {
			for _, n := range g.fileSyms[p] {
				if g.Nodes[n].Qualified() == q {
					return []int{int(n)}, ""
				}
			}
			return nil, ""
		}
		// Type#method, as Ruby and JavaScript documentation write it.
	}
	s = strings.NewReplacer("::", ".", "->", ".", "#", ".").Replace(s)
	parts := strings.Split(s, ".")
	name := parts[len(parts)-1]
	quals := parts[:len(parts)-1]
	var exact, loose []int
	for _, n := range g.byName[name] {
		nd := &g.Nodes[n]
		if len(quals) == 0 {
			exact = append(exact, int(n))
			continue
		}
		q := quals[len(quals)-1]
		// A container written whole ("Outer.Inner") or by its last name.
		c := normContainer(nd.Container)
		of := c == q || lastName(c) == q || strings.HasSuffix(c, "."+strings.Join(quals, "."))
		switch {
		case of && (len(quals) < 2 || nd.Package == quals[len(quals)-2] || path.Base(path.Dir(nd.Path)) == quals[len(quals)-2] ||
			strings.HasSuffix(c, "."+strings.Join(quals, "."))):
			exact = append(exact, int(n))
		case nd.Container == "" && (nd.Package == q || path.Base(path.Dir(nd.Path)) == q):
			exact = append(exact, int(n))
		case of:
			loose = append(loose, int(n))
		}
	}
	if len(exact) == 0 {
		exact = loose
	}
	// Definitions in test files name a symbol only when nothing else does.
	var nonTest []int
	for _, n := range exact {
		if !g.Nodes[n].Test {
			nonTest = append(nonTest, n)
		}
	}
	if len(nonTest) > 0 {
		exact = nonTest
	}

	note := ""
	if len(exact) > 1 {
		note = fmt.Sprintf("%s names %d definitions; all are taken as targets", s, len(exact))
	}
	return exact, note
}

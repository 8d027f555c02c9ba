package graph

import (
	"iter"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/symbols"
	"github.com/codecortex/codecortex/syntax"
	"github.com/codecortex/codecortex/trust"
)

// EdgeKind is what an edge says one node does to another.
type EdgeKind string

// The kinds of edges.
const (
	Imports    EdgeKind = "imports"    // file → file it imports
	Calls      EdgeKind = "calls"      // definition → definition it calls
	References EdgeKind = "references" // definition → definition it uses otherwise
	Inherits   EdgeKind = "inherits"   // definition → base it extends or embeds
	Implements EdgeKind = "implements" // definition → interface it implements
	Tests      EdgeKind = "tests"      // test file → definition or file it tests
)

// Method is how an edge was established.
type Method string

// The methods, strongest first.
const (
	// Exact: a compiler- or indexer-resolved edge from a precision index.
	Exact Method = "precision-index"
	// ImportResolved: the name resolved through an import of the file to
	// the repository file or package it names.
	ImportResolved Method = "import"
	// ScopeResolved: the name is defined in the same file, or (where the
	// language shares a scope across a package's files) the same package.
	ScopeResolved Method = "scope"
	// ImportPath: an import resolved to a repository file by its path.
	ImportPath Method = "import-path"
	// UniqueName: the only definition of that name in the project.
	UniqueName Method = "unique-name"
	// AmbiguousName: one of a few definitions of that name.
	AmbiguousName Method = "ambiguous-name"
	// TestNaming: a test file named after the file it tests.
	TestNaming Method = "test-naming"
	// MethodSet: a Go type has every method an interface of the project
	// asks for, by name, parameter and result counts (see the package
	// documentation, # Type relations).
	MethodSet Method = "method-set"
)

// Tier returns the strongest trust tier an edge of method m may carry.
func (m Method) Tier() trust.Tier {
	switch m {
	case Exact:
		return trust.Exact
	case ImportResolved, ScopeResolved, ImportPath, MethodSet:
		return trust.InferredHigh
	}
	return trust.Inferred
}

// Provenance returns the trust method behind m.
func (m Method) Provenance() trust.Method {
	switch m.Tier() {
	case trust.Exact:
		return trust.PrecisionIndex
	case trust.InferredHigh:
		return trust.GraphRelation
	}
	return trust.Heuristic
}

// NodeKindFile is the Kind of a file's node.
const NodeKindFile = "file"

// A Node is a definition or a file.
type Node struct {
	// Path is the file, relative to the project root.
	Path string `json:"path"`
	// Name, Container and Kind are the definition's (symbols.Kind), or the
	// file's base name and "file".
	Name      string `json:"name"`
	Container string `json:"container,omitempty"`
	Kind      string `json:"kind"`
	Package   string `json:"package,omitempty"`
	Exported  bool   `json:"exported,omitempty"`
	// Line and EndLine are the definition's lines (one-based, inclusive);
	// 0 for a file.
	Line    int `json:"line,omitempty"`
	EndLine int `json:"end_line,omitempty"`
	// NameLine and NameColumn are where the definition's name starts
	// (one-based, code points); 0 for a file.
	NameLine   int `json:"name_line,omitempty"`
	NameColumn int `json:"name_column,omitempty"`
	// Test reports the node is in a test file.
	Test bool `json:"test,omitempty"`
	// Stale reports the file changed since it was indexed.
	Stale bool `json:"stale,omitempty"`
}

// Key returns the node's identity: "path#Container.Name", or the path for
// a file.
func (n *Node) Key() string {
	if n.Kind == NodeKindFile {
		return n.Path
	}
	return n.Path + "#" + n.Qualified()
}

// Qualified returns the definition's name with its container.
func (n *Node) Qualified() string {
	if n.Container != "" && n.Kind != NodeKindFile {
		return strings.TrimLeft(n.Container, "*&") + "." + n.Name
	}
	return n.Name
}

// An Edge is one relationship, from the node that uses to the node used.
type Edge struct {
	From   int      `json:"from"`
	To     int      `json:"to"`
	Kind   EdgeKind `json:"kind"`
	Method Method   `json:"method"`
	// Path, Line and Column are where the use is written (one-based); for
	// an edge with no site (a naming convention) Line is 0.
	Path   string `json:"path"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	// Span is the width of the name at the site, in code points.
	Span int `json:"span,omitempty"`
	// Of is, for an inherits or implements edge declared apart from its
	// subtype (a Rust impl block), the subtype's name as written there:
	// From is its definition when the project has one, else the file.
	Of string `json:"of,omitempty"`
	// Stale reports the edge came from a file or index that no longer
	// matches the source.
	Stale bool `json:"stale,omitempty"`
}

// Tier returns the edge's trust tier.
func (e *Edge) Tier() trust.Tier { return trust.Effective(e.Method.Tier(), e.Stale) }

// Stats describe a graph.
type Stats struct {
	Files   int `json:"files"`
	Symbols int `json:"symbols"`
	Edges   int `json:"edges"`
	// Exact, InferredHigh and Inferred count edges by tier.
	Exact        int `json:"exact"`
	InferredHigh int `json:"inferred_high"`
	Inferred     int `json:"inferred"`
	// ByKind counts edges by kind.
	ByKind map[EdgeKind]int `json:"by_kind"`
	// Unresolved counts uses that named no definition of the project
	// unambiguously enough to link (builtins, dependencies, locals).
	Unresolved int `json:"unresolved"`
}

// A Graph is a project's definitions and files with the edges between
// them. It is immutable once built and safe for concurrent use.
type Graph struct {
	// Version is the index state it was built from.
	Version string
	Nodes   []Node
	Edges   []Edge
	// ExactReport says how the exact edges fared ("" without a source);
	// ExactUnplaced counts exact records whose ends the graph could not
	// place on its definitions.
	ExactReport   string
	ExactUnplaced int

	in, out  [][]int32 // edge indices by node
	byName   map[string][]int32
	fileNode map[string]int32
	fileSyms map[string][]int32 // a file's definitions, by position
	dirFiles map[string][]int32 // a directory's file nodes
	stats    Stats
	// digests is the content hash of each file built from (index.FileFacts.Hash),
	// by path, which a snapshot keeps to tell later which files changed
	// since; nil for a graph read from a snapshot.
	digests map[string]string
	// known holds the types of the project (node indices, in order) that
	// implement or extend each supertype it does not define, which the
	// graph has no node for: each Go standard library interface, by the
	// name goKnownInterfaces gives it (see matchKnown), and each base
	// named as written (see noteExternalBase).
	known map[string][]int32
	// staleFiles are, for a part read from the snapshot of an earlier
	// state of the index, the files that changed since (see markStale).
	staleFiles []string
}

// StaleFiles returns, for a graph read from the snapshot of an earlier
// state of the index (a question asked after a few files changed, on a
// graph that takes seconds to build), the files that changed since, in
// path order: every node and edge in them, or that ends in them, is
// marked stale. It is nil for a graph of the index as it is.
func (g *Graph) StaleFiles() []string { return g.staleFiles }

// markStale marks stale the nodes in the files changed and the edges
// written in them or ending in them, and keeps the files' paths.
func (g *Graph) markStale(changed []string) {
	g.staleFiles = changed
	in := make(map[string]bool, len(changed))
	for _, p := range changed {
		in[p] = true
	}
	for i := range g.Nodes {
		if in[g.Nodes[i].Path] {
			g.Nodes[i].Stale = true
		}
	}
	for i := range g.Edges {
		e := &g.Edges[i]
		if in[e.Path] || g.Nodes[e.From].Stale || g.Nodes[e.To].Stale {
			e.Stale = true
		}
	}
}

// Stats returns counts of the graph's nodes and edges.
func (g *Graph) Stats() Stats { return g.stats }

// Incoming returns the indices in Edges of the edges into node n.
func (g *Graph) Incoming(n int) []int32 { return g.in[n] }

// Outgoing returns the indices in Edges of the edges out of node n.
func (g *Graph) Outgoing(n int) []int32 { return g.out[n] }

// File returns the node of the file at p.
func (g *Graph) File(p string) (int, bool) {
	n, ok := g.fileNode[p]
	return int(n), ok
}

// builder holds what Build needs while resolving.
type builder struct {
	g        *Graph
	facts    []index.FileFacts
	refs     index.EncodedRefs // the refs the facts left encoded, by file
	goMods   []goModule
	pkgs     []Package
	pkgNamed map[string][]int        // the indices in pkgs of the packages of each name
	symFile  []int32                 // file index of each symbol node (-1 for a file node)
	nodeFile []int32                 // the index in facts of each node's file
	owner    []string                // the type holding each node (see ownerOf)
	seen     map[edgeKey]int32       // edges by identity, as edge numbers them
	added    edgeLog                 // the edges added since the last flushEdges
	ms       *methodSets             // Go embeddings of other modules, for matchMethodSets
	relOut   map[int][]int32         // inherits and implements edges by source, for matchMethodSets
	reexport map[reexportKey][]int32 // what a file re-exports under a name (see reexports)
	bases    map[string][]string     // the bases each type name extends or embeds, by name
	stems    map[string][]int32      // file nodes by the module name their path gives (see moduleStem)
	// Marks of files by their index in facts (see named, namedInPackage).
	mark, pkgMark []bool
	pkgFiles      []int32               // the files pkgMark marks: samePackage(pkgOf-1)
	pkgOf         int                   // 1 + the file whose package pkgMark marks; 0 for none
	memberOf      map[memberKey][]int32 // what members found (see there)
	// localTypes are the types goLocalType found for file localOf-1.
	localTypes map[string]goLocal
	localOf    int
	// fileTypes are what is read of one file's types (see typesOf).
	fileTypes *fileTypes
	// part reports that g is a part of the snapshot read for one
	// question (see Provider.graphFor), not to be kept.
	part bool
	// args are the types argType found, by member and parameter.
	args map[argKey]string
	// knownUses are the Go uses through interfaces of the standard library
	// that addKnownUses links, in the order resolution met them.
	knownUses []knownUse
}

// edgeKey identifies an edge: its ends, its kind and the line of its site,
// so that every site of a use is its own edge.
type edgeKey struct {
	from, to, line int32
	kind           uint32 // kindCode: the builder makes edges of those kinds only
	of             string // two Rust impls of a trait in a file, for types it does not define
}

// keyOf returns the identity addEdge keeps one edge for.
func keyOf(e *Edge) edgeKey {
	k := edgeKey{from: int32(e.From), to: int32(e.To), line: int32(e.Line), kind: kindCode(e.Kind), of: e.Of}
	if e.Kind == Tests {
		k.line = 0 // a test file tests a definition once: its sites are its definitions' edges
	}
	return k
}

// BuildOptions are what [Build] needs besides the index's facts. The zero
// value resolves no Go imports and fuses no exact edges.
type BuildOptions struct {
	// Modules are the Go modules of the project (see [ReadGoModules]);
	// files outside them resolve no Go imports.
	Modules []GoModule
	// Packages are its JavaScript and TypeScript packages (see
	// [ReadPackages]): an import of their names resolves to their files.
	Packages []Package
	// Exact, if set, are exact edges to fuse in (see [EdgeSource]), and
	// ExactReport what their source said of itself.
	Exact       iter.Seq[evidence.Record]
	ExactReport string
}

// Build makes the graph of the facts an index holds.
func Build(facts index.Facts, opts BuildOptions) *Graph {
	b := buildBase(facts, index.EncodedRefs{}, layout{mods: opts.Modules, pkgs: opts.Packages}, false)
	b.finish(opts)
	return b.g
}

// finish fuses in the exact edges, if any, and indexes the graph.
func (b *builder) finish(opts BuildOptions) {
	b.g.ExactReport = opts.ExactReport
	if opts.Exact != nil {
		if b.seen == nil {
			b.seen = make(map[edgeKey]int32, len(b.g.Edges))
			for i := range b.g.Edges {
				e := &b.g.Edges[i]
				b.seen[keyOf(e)] = int32(i)
			}
		}
		b.fuse(opts.Exact)
	}
	b.flushEdges()
	b.g.index()
}

// A layout is what the project's manifests say of its code: its Go
// modules and its JavaScript and TypeScript packages.
type layout struct {
	mods []GoModule
	pkgs []Package
}

// buildBase makes the graph of the facts without exact edges and without
// its adjacency (see finish): what a snapshot keeps. With owned (facts
// no one else reads), each file's refs are dropped once resolved, so
// that a large project's are not all held to the end; refs holds those
// the facts left encoded, each file's decoded as it is resolved.
func buildBase(facts index.Facts, refs index.EncodedRefs, lay layout, owned bool) *builder {
	b := newBuilder(facts, lay)
	b.refs = refs
	b.readBases()
	b.resolveAll(owned)
	b.matchMethodSets()
	b.addKnownUses()
	b.testNaming()
	b.flushEdges()
	b.release()
	return b
}

// release drops what only resolution reads (the facts, the edges by
// identity, the caches), so that a large graph's snapshot is encoded
// and its adjacency made without them held; finish makes the edges by
// identity again when it has exact edges to fuse.
func (b *builder) release() {
	b.facts, b.refs, b.seen, b.symFile, b.nodeFile, b.owner = nil, index.EncodedRefs{}, nil, nil, nil, nil
	b.ms, b.relOut, b.reexport, b.bases, b.stems, b.memberOf = nil, nil, nil, nil, nil, nil
	b.mark, b.pkgMark, b.pkgFiles, b.pkgOf = nil, nil, nil, 0
	b.args = nil
}

// newBuilder returns a builder holding the nodes of the facts' files and
// definitions, nothing resolved yet.
func newBuilder(facts index.Facts, lay layout) *builder {
	g := &Graph{Version: facts.Version, byName: map[string][]int32{}, fileNode: map[string]int32{},
		fileSyms: map[string][]int32{}, dirFiles: map[string][]int32{}, digests: make(map[string]string, len(facts.Files))}
	// The edges and the map of their identities grow as uses resolve,
	// not sized up front: sized, they were held whole from the start,
	// beside every file's facts, where the heap is at its largest (the
	// garbage collector's goal twice that); grown, they take the room
	// of the refs a provider's build drops file by file.
	b := &builder{g: g, facts: facts.Files, seen: map[edgeKey]int32{}, reexport: map[reexportKey][]int32{},
		stems: map[string][]int32{}}
	for _, m := range lay.mods {
		b.goMods = append(b.goMods, goModule(m))
	}
	b.pkgs, b.pkgNamed = lay.pkgs, map[string][]int{}
	for i, p := range lay.pkgs {
		b.pkgNamed[p.Name] = append(b.pkgNamed[p.Name], i)
	}
	nodes := len(facts.Files)
	for fi := range facts.Files {
		nodes += len(facts.Files[fi].Symbols)
	}
	g.Nodes = make([]Node, 0, nodes)
	b.nodeFile, b.symFile, b.owner = make([]int32, 0, nodes), make([]int32, 0, nodes), make([]string, 0, nodes)
	// Longest module path first, so that a nested module wins.
	sort.Slice(b.goMods, func(i, j int) bool { return len(b.goMods[i].Path) > len(b.goMods[j].Path) })
	for fi := range facts.Files {
		f := &facts.Files[fi]
		test := syntax.IsTestFile(f.Path)
		id := int32(len(g.Nodes))
		g.Nodes = append(g.Nodes, Node{Path: f.Path, Name: path.Base(f.Path), Kind: NodeKindFile, Package: f.Package, Test: test, Stale: f.Stale})
		b.nodeFile = append(b.nodeFile, int32(fi))
		b.symFile = append(b.symFile, -1)
		b.owner = append(b.owner, "")
		g.fileNode[f.Path] = id
		g.digests[f.Path] = f.Hash
		if st := moduleStem(f.Path); st != "" {
			b.stems[st] = append(b.stems[st], id)
		}
		d := path.Dir(f.Path)
		g.dirFiles[d] = append(g.dirFiles[d], id)
		for _, s := range f.Symbols {
			sid := int32(len(g.Nodes))
			g.Nodes = append(g.Nodes, Node{Path: f.Path, Name: s.Name, Container: s.Container, Kind: string(s.Kind),
				Package: s.Package, Exported: s.Exported, Line: s.Range.StartLine, EndLine: s.Range.EndLine,
				NameLine: s.NameRange.StartLine, NameColumn: s.NameRange.StartColumn,
				Test: test || testModule(f.Language, s), Stale: f.Stale})
			b.symFile = append(b.symFile, int32(fi))
			b.nodeFile = append(b.nodeFile, int32(fi))
			b.owner = append(b.owner, lastName(normContainer(s.Container)))
			g.fileSyms[f.Path] = append(g.fileSyms[f.Path], sid)
			g.byName[s.Name] = append(g.byName[s.Name], sid)
		}
	}
	return b
}

// testModule reports whether definition s of a file in lang lies in a
// test module of a source file: Rust's conventional #[cfg(test)] mod
// tests (a module named tests or test, and what it holds).
func testModule(lang string, s symbols.Symbol) bool {
	if lang != "rust" {
		return false
	}
	if s.Kind == symbols.Module && (s.Name == "tests" || s.Name == "test") {
		return true
	}
	for _, c := range strings.Split(s.Container, ".") {
		if c == "tests" || c == "test" {
			return true
		}
	}
	return false
}

// moduleStem returns the module name a file's path gives, lower-cased:
// its base name without extensions, or its directory's for a file that
// stands for its directory (mod.rs, index.js, __init__.py, lib.rs).
func moduleStem(p string) string {
	base := path.Base(p)
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	switch base {
	case "mod", "index", "__init__", "lib", "main":
		base = path.Base(path.Dir(p))
		if base == "." || base == "/" {
			return ""
		}
	}
	return strings.ToLower(base)
}

// index fills the adjacency lists and the stats.
func (g *Graph) index() {
	// Each node's lists are slices of two arrays, sized by a first count.
	nin, nout := make([]int32, len(g.Nodes)), make([]int32, len(g.Nodes))
	for i := range g.Edges {
		nin[g.Edges[i].To]++
		nout[g.Edges[i].From]++
	}
	g.in, g.out = adjacency(nin, len(g.Edges)), adjacency(nout, len(g.Edges))
	st := Stats{ByKind: map[EdgeKind]int{}, Unresolved: g.stats.Unresolved}
	for i := range g.Edges {
		e := &g.Edges[i]
		g.out[e.From] = append(g.out[e.From], int32(i))
		g.in[e.To] = append(g.in[e.To], int32(i))
		switch e.Tier() {
		case trust.Exact:
			st.Exact++
		case trust.InferredHigh:
			st.InferredHigh++
		default:
			st.Inferred++
		}
		st.ByKind[e.Kind]++
	}
	for i := range g.Nodes {
		if g.Nodes[i].Kind == NodeKindFile {
			st.Files++
		} else {
			st.Symbols++
		}
	}
	st.Edges = len(g.Edges)
	g.stats = st
}

// adjacency returns empty lists with room for counts[n] entries each, all
// in one array of total.
func adjacency(counts []int32, total int) [][]int32 {
	all := make([]int32, total)
	lists := make([][]int32, len(counts))
	off := 0
	for n, c := range counts {
		lists[n] = all[off : off : off+int(c)]
		off += int(c)
	}
	return lists
}

// addEdge adds an edge, or keeps the stronger of it and the one already
// between the same nodes with the same kind at the same line (any line
// for a Tests edge). An edge from a node to itself is kept when it has a
// site (a recursive call).
func (b *builder) addEdge(e Edge) {
	if e.From == e.To && (e.Line < 1 || e.Kind == Imports || e.Kind == Tests) {
		return
	}
	k := keyOf(&e)
	if i, ok := b.seen[k]; ok {
		if old := b.edge(i); e.Tier() > old.Tier() {
			*old = e
		}
		return
	}
	b.seen[k] = int32(len(b.g.Edges) + b.added.n)
	b.added.add(e)
}

// edge returns edge i of the graph being built: one of g.Edges, or one
// added since they were last flushed.
func (b *builder) edge(i int32) *Edge {
	if n := int32(len(b.g.Edges)); i >= n {
		return b.added.at(int(i - n))
	}
	return &b.g.Edges[i]
}

// flushEdges moves the edges added into g.Edges, which grows once.
func (b *builder) flushEdges() {
	if b.added.n == 0 {
		return
	}
	b.g.Edges = slices.Grow(b.g.Edges, b.added.n)
	for _, bl := range b.added.blocks {
		b.g.Edges = append(b.g.Edges, bl...)
	}
	b.added = edgeLog{}
}

// edgeBlock is how many edges an edgeLog block holds unless it says.
const edgeBlock = 1 << 14

// An edgeLog holds edges in blocks of edgeBlock (or size): it grows
// without copying what it holds, as a slice of millions of edges would,
// several times over, in copies the garbage collector cannot interrupt.
type edgeLog struct {
	blocks [][]Edge
	n      int
	size   int        // the edges a block holds; edgeBlock when 0
	from   *committer // where its blocks come from, if not new
}

func (l *edgeLog) block() int {
	if l.size > 0 {
		return l.size
	}
	return edgeBlock
}

func (l *edgeLog) add(e Edge) {
	if k := len(l.blocks); k == 0 || len(l.blocks[k-1]) == cap(l.blocks[k-1]) {
		if l.from != nil {
			l.blocks = append(l.blocks, l.from.block(l.block()))
		} else {
			l.blocks = append(l.blocks, make([]Edge, 0, l.block()))
		}
	}
	last := &l.blocks[len(l.blocks)-1]
	*last = append(*last, e)
	l.n++
}

func (l *edgeLog) at(i int) *Edge { return &l.blocks[i/l.block()][i%l.block()] }

// enclosingSym returns the index among the file's symbols of the
// innermost definition holding byte offset off, or -1.
func (b *builder) enclosingSym(fi int, off int) int {
	f := &b.facts[fi]
	// Symbols are ordered by start, outer before inner: the last one that
	// starts at or before off and still holds it is the innermost.
	i := sort.Search(len(f.Symbols), func(i int) bool { return f.Symbols[i].Range.StartByte > off })
	for j := i - 1; j >= 0; j-- {
		r := f.Symbols[j].Range
		if r.StartByte <= off && off < r.EndByte {
			return j
		}
	}
	return -1
}

// enclosingLine is enclosing by line: the innermost definition whose
// lines hold line.
func (g *Graph) enclosingLine(p string, line int) int {
	best, bestSpan := -1, 0
	for _, s := range g.fileSyms[p] {
		n := &g.Nodes[s]
		if n.Line <= line && line <= n.EndLine && (best < 0 || n.EndLine-n.Line <= bestSpan) {
			best, bestSpan = int(s), n.EndLine-n.Line
		}
	}
	if best < 0 {
		if f, ok := g.fileNode[p]; ok {
			return int(f)
		}
	}
	return best
}

// testSubjects returns the source files a test file is named after, as
// candidate paths (the caller keeps those that exist).
func testSubjects(p string) []string {
	dir, name := path.Dir(p), path.Base(p)
	ext := path.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	var stems []string
	switch {
	case strings.HasSuffix(stem, "_test"):
		stems = append(stems, strings.TrimSuffix(stem, "_test"))
	case strings.HasPrefix(stem, "test_"):
		stems = append(stems, strings.TrimPrefix(stem, "test_"))
	case strings.HasSuffix(stem, ".test"), strings.HasSuffix(stem, ".spec"):
		stems = append(stems, stem[:len(stem)-5])
	case strings.HasSuffix(stem, "_spec"):
		stems = append(stems, strings.TrimSuffix(stem, "_spec"))
	case strings.HasSuffix(stem, "Tests"):
		stems = append(stems, strings.TrimSuffix(stem, "Tests"))
	case strings.HasSuffix(stem, "Test"):
		stems = append(stems, strings.TrimSuffix(stem, "Test"))
	}
	dirs := []string{dir}
	if base := path.Base(dir); base == "__tests__" || base == "tests" || base == "test" {
		dirs = append(dirs, path.Dir(dir))
	}
	if i := strings.Index("/"+dir+"/", "/src/test/"); i >= 0 {
		d := "/" + dir + "/"
		dirs = append(dirs, strings.Trim(d[:i]+"/src/main/"+d[i+len("/src/test/"):], "/"))
	}
	var out []string
	for _, d := range dirs {
		for _, s := range stems {
			if s == "" {
				continue
			}
			out = append(out, path.Join(d, s+ext))
			if ext == ".ts" || ext == ".tsx" || ext == ".js" || ext == ".jsx" {
				for _, e := range []string{".ts", ".tsx", ".js", ".jsx"} {
					if e != ext {
						out = append(out, path.Join(d, s+e))
					}
				}
			}
		}
	}
	return out
}

// testNaming adds the tests edges of test files named after a file.
func (b *builder) testNaming() {
	for fi := range b.facts {
		p := b.facts[fi].Path
		if !syntax.IsTestFile(p) {
			continue
		}
		from := int(b.g.fileNode[p])
		for _, s := range testSubjects(p) {
			if to, ok := b.g.fileNode[s]; ok && s != p {
				b.addEdge(Edge{From: from, To: int(to), Kind: Tests, Method: TestNaming, Path: p, Stale: b.facts[fi].Stale})
			}
		}
	}
}

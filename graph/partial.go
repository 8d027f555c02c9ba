package graph

import (
	"encoding/binary"
	"fmt"
	"path"
	"slices"
	"strings"
)

// A question about a few definitions reads the part of the snapshot it
// walks, not the whole graph: the snapshot's tables say where each node
// and edge is written, which edges go into and out of each node, and
// which nodes each string names, so that a walk decodes only what it
// visits. The part is a graph of its own whose nodes and edges keep the
// whole graph's order, with every edge into each node the walk goes
// back from, so that Impact, Subtypes and Supertypes answer on it as on
// the whole graph (see impactPart and implementationsPart).

// A snapView reads the nodes and edges of a sealed snapshot's body on
// demand. Every offset and index it reads is checked against the body
// (see snapshot.go); a bad one is errSnapshotCorrupt.
type snapView struct {
	version    string
	h          snapHeader
	strEnds    []int
	strBytes   []byte
	nodes      []byte
	edges      []byte
	nodeOff    []byte // uint32 tables, as written by encodeSnapshot
	edgeOff    []byte
	inStart    []byte
	inList     []byte
	outStart   []byte
	outList    []byte
	nameStart  []byte
	nameList   []byte
	strs       map[int]string
	nodesRead  map[int32]Node
	nodeNames  map[int32]int // the string index of each node read's name
	partNodes  map[int32]bool
	partEdges  map[int32]bool
	maxPartLen int
}

// maxPart bounds the nodes plus edges of a part: past it, the whole
// graph answers (a walk that reaches that far costs less on the graph
// held in memory).
const maxPart = 200_000

// view opens the snapshot's body for reading in part.
func (ss *sealedSnapshot) view() (*snapView, error) {
	d := decoder{buf: ss.body}
	h := d.header()
	ends := d.stringEnds(h.strings)
	if d.err != nil {
		return nil, d.err
	}
	v := &snapView{version: ss.version, h: h, strEnds: ends, strs: map[int]string{}, nodesRead: map[int32]Node{},
		nodeNames: map[int32]int{}, partNodes: map[int32]bool{}, partEdges: map[int32]bool{}, maxPartLen: maxPart}
	total := 0
	if len(ends) > 0 {
		total = ends[len(ends)-1]
	}
	rest := d.buf
	if total+h.nodeBytes+h.edgeBytes+4*h.tableWords() != len(rest) {
		return nil, fmt.Errorf("%w: sections of the wrong size", errSnapshotCorrupt)
	}
	cut := func(n int) []byte {
		b := rest[:n:n]
		rest = rest[n:]
		return b
	}
	v.strBytes, v.nodes, v.edges = cut(total), cut(h.nodeBytes), cut(h.edgeBytes)
	v.nodeOff, v.edgeOff = cut(4*(h.nodes+1)), cut(4*(h.edges+1))
	v.inStart, v.inList = cut(4*(h.nodes+1)), cut(4*h.edges)
	v.outStart, v.outList = cut(4*(h.nodes+1)), cut(4*h.edges)
	v.nameStart, v.nameList = cut(4*(h.strings+1)), cut(4*h.named)
	return v, nil
}

func u32(b []byte, i int) int { return int(binary.LittleEndian.Uint32(b[4*i:])) }

// str returns string i of the table.
func (v *snapView) str(i int) string {
	if s, ok := v.strs[i]; ok {
		return s
	}
	start := 0
	if i > 0 {
		start = v.strEnds[i-1]
	}
	s := string(v.strBytes[start:v.strEnds[i]])
	v.strs[i] = s
	return s
}

// stringID returns the index of s in the table, or -1.
func (v *snapView) stringID(s string) int {
	start := 0
	for i, end := range v.strEnds {
		if end-start == len(s) && string(v.strBytes[start:end]) == s {
			return i
		}
		start = end
	}
	return -1
}

// record returns the bytes of record i of a section, by its offsets.
func record(sec, off []byte, i, n int) ([]byte, error) {
	if i < 0 || i >= n {
		return nil, fmt.Errorf("%w: a record out of range", errSnapshotCorrupt)
	}
	a, b := u32(off, i), u32(off, i+1)
	if a > b || b > len(sec) {
		return nil, fmt.Errorf("%w: a record past its section", errSnapshotCorrupt)
	}
	return sec[a:b], nil
}

// node returns node i.
func (v *snapView) node(i int32) (Node, error) {
	if nd, ok := v.nodesRead[i]; ok {
		return nd, nil
	}
	rec, err := record(v.nodes, v.nodeOff, int(i), v.h.nodes)
	if err != nil {
		return Node{}, err
	}
	d := decoder{buf: rec}
	var nd Node
	var ids [5]int
	name := d.node(&nd, &ids, uint64(v.h.strings))
	if d.err == nil && len(d.buf) != 0 {
		d.err = fmt.Errorf("%w: a node record too long", errSnapshotCorrupt)
	}
	if d.err != nil {
		return Node{}, d.err
	}
	nd.Path, nd.Name, nd.Container, nd.Kind, nd.Package = v.str(ids[0]), v.str(ids[1]), v.str(ids[2]), v.str(ids[3]), v.str(ids[4])
	v.nodesRead[i], v.nodeNames[i] = nd, name
	return nd, nil
}

// edge returns edge i.
func (v *snapView) edge(i int32) (Edge, error) {
	rec, err := record(v.edges, v.edgeOff, int(i), v.h.edges)
	if err != nil {
		return Edge{}, err
	}
	d := decoder{buf: rec}
	var e Edge
	var ids [4]int
	d.edge(&e, &ids, uint64(v.h.nodes), uint64(v.h.strings))
	if d.err == nil && len(d.buf) != 0 {
		d.err = fmt.Errorf("%w: an edge record too long", errSnapshotCorrupt)
	}
	if d.err != nil {
		return Edge{}, d.err
	}
	e.Kind, e.Method, e.Path, e.Of = EdgeKind(v.str(ids[0])), Method(v.str(ids[1])), v.str(ids[2]), v.str(ids[3])
	return e, nil
}

// list returns entry i's list of a table of starts and items, each item
// below n.
func list(starts, items []byte, i, keys, n int) ([]int32, error) {
	if i < 0 || i >= keys {
		return nil, fmt.Errorf("%w: a list out of range", errSnapshotCorrupt)
	}
	a, b := u32(starts, i), u32(starts, i+1)
	if a > b || 4*b > len(items) {
		return nil, fmt.Errorf("%w: a list past its table", errSnapshotCorrupt)
	}
	out := make([]int32, 0, b-a)
	for k := a; k < b; k++ {
		x := u32(items, k)
		if x >= n {
			return nil, fmt.Errorf("%w: a list item out of range", errSnapshotCorrupt)
		}
		out = append(out, int32(x))
	}
	return out, nil
}

// in returns the edges into node i, in edge order.
func (v *snapView) in(i int32) ([]int32, error) {
	return list(v.inStart, v.inList, int(i), v.h.nodes, v.h.edges)
}

// out returns the edges out of node i, in edge order.
func (v *snapView) out(i int32) ([]int32, error) {
	return list(v.outStart, v.outList, int(i), v.h.nodes, v.h.edges)
}

// named returns the nodes string s names: the definitions called s and
// the file at path s, in node order.
func (v *snapView) named(s string) ([]int32, error) {
	id := v.stringID(s)
	if id < 0 {
		return nil, nil
	}
	return list(v.nameStart, v.nameList, id, v.h.strings, v.h.nodes)
}

// addNode puts node i in the part.
func (v *snapView) addNode(i int32) error {
	if v.partNodes[i] {
		return nil
	}
	if _, err := v.node(i); err != nil {
		return err
	}
	v.partNodes[i] = true
	return v.bound()
}

// addEdge puts edge i and its ends in the part, and returns it.
func (v *snapView) addEdge(i int32) (Edge, error) {
	e, err := v.edge(i)
	if err != nil {
		return e, err
	}
	if !v.partEdges[i] {
		v.partEdges[i] = true
		if err := v.bound(); err != nil {
			return e, err
		}
	}
	if err := v.addNode(int32(e.From)); err != nil {
		return e, err
	}
	return e, v.addNode(int32(e.To))
}

// errPartTooLarge: the part passed maxPart.
var errPartTooLarge = fmt.Errorf("graph: the part of the snapshot a question reads passed %d nodes and edges", maxPart)

func (v *snapView) bound() error {
	if len(v.partNodes)+len(v.partEdges) > v.maxPartLen {
		return errPartTooLarge
	}
	return nil
}

// fileOf returns the node of the file at p, or -1.
func (v *snapView) fileOf(p string) (int32, error) {
	ns, err := v.named(p)
	if err != nil {
		return -1, err
	}
	for _, n := range ns {
		nd, err := v.node(n)
		if err != nil {
			return -1, err
		}
		if nd.Kind == NodeKindFile && nd.Path == p {
			return n, nil
		}
	}
	return -1, nil
}

// addFile puts the file at p and its definitions (the nodes after its
// own up to the next file's) in the part.
func (v *snapView) addFile(p string) error {
	fn, err := v.fileOf(p)
	if err != nil || fn < 0 {
		return err
	}
	if err := v.addNode(fn); err != nil {
		return err
	}
	for i := fn + 1; int(i) < v.h.nodes; i++ {
		nd, err := v.node(i)
		if err != nil {
			return err
		}
		if nd.Kind == NodeKindFile || nd.Path != p {
			break
		}
		if err := v.addNode(i); err != nil {
			return err
		}
	}
	return nil
}

// addTarget puts what t may name in the part: the definitions called its
// name, or the file at its path and its definitions.
func (v *snapView) addTarget(t Target) error {
	if t.Symbol == "" {
		return v.addFile(path.Clean(strings.TrimPrefix(t.Path, "./")))
	}
	s := strings.TrimSuffix(strings.TrimSpace(t.Symbol), "()")
	if i := strings.LastIndexByte(s, '#'); i > 0 {
		if err := v.addFile(s[:i]); err != nil {
			return err
		}
	}
	ns, err := v.named(symbolName(t.Symbol))
	if err != nil {
		return err
	}
	for _, n := range ns {
		if err := v.addNode(n); err != nil {
			return err
		}
	}
	return nil
}

// roots returns the nodes the targets name, in the whole graph's
// numbering, as Graph.resolve finds them on the part read so far.
func (v *snapView) roots(targets []Target) ([]int32, error) {
	for _, t := range targets {
		if err := v.addTarget(t); err != nil {
			return nil, err
		}
	}
	g, ids := v.graph()
	var out []int32
	seen := map[int32]bool{}
	for _, t := range targets {
		ns, _ := g.resolve(t)
		for _, n := range ns {
			if id := ids[n]; !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	return out, nil
}

// graph returns the part as a graph, its nodes and edges in the whole
// graph's order, and the whole graph's index of each of its nodes; its
// adjacency is made by the caller's finish.
func (v *snapView) graph() (*Graph, []int32) {
	ids := make([]int32, 0, len(v.partNodes))
	for n := range v.partNodes {
		ids = append(ids, n)
	}
	slices.Sort(ids)
	pos := make(map[int32]int, len(ids))
	g := &Graph{Version: v.version, Nodes: make([]Node, len(ids)), byName: map[string][]int32{}, fileNode: map[string]int32{},
		fileSyms: map[string][]int32{}, dirFiles: map[string][]int32{}}
	g.stats.Unresolved = v.h.unresolved
	for k, n := range ids {
		pos[n] = k
		nd := v.nodesRead[n]
		g.Nodes[k] = nd
		if nd.Kind == NodeKindFile {
			g.fileNode[nd.Path] = int32(k)
			d := path.Dir(nd.Path)
			g.dirFiles[d] = append(g.dirFiles[d], int32(k))
			continue
		}
		g.fileSyms[nd.Path] = append(g.fileSyms[nd.Path], int32(k))
		g.byName[nd.Name] = append(g.byName[nd.Name], int32(k))
	}
	es := make([]int32, 0, len(v.partEdges))
	for e := range v.partEdges {
		es = append(es, e)
	}
	slices.Sort(es)
	g.Edges = make([]Edge, 0, len(es))
	for _, i := range es {
		e, err := v.edge(i) // read before: no error
		if err != nil {
			continue
		}
		e.From, e.To = pos[int32(e.From)], pos[int32(e.To)]
		g.Edges = append(g.Edges, e)
	}
	return g, ids
}

// impactPart reads the part of the snapshot Graph.Impact walks for q
// (its Depth and MaxNodes set): the nodes the targets may name; from the
// roots, level by level, every edge into each node of a level the walk
// goes back from (every level before the last, while the levels so far
// hold at most MaxNodes: past that the walk stops within them); the
// edges among all the nodes reached (for cycles and the targets' own
// uses); and the edges into the files of the roots (the tests named
// after them).
func (v *snapView) impactPart(q Query) (*Graph, error) {
	depth := q.Depth
	if depth <= 0 {
		depth = DefaultDepth
	}
	depth = min(depth, MaxDepth)
	maxNodes := q.MaxNodes
	if maxNodes <= 0 {
		maxNodes = DefaultMaxNodes
	}
	roots, err := v.roots(q.Targets)
	if err != nil {
		return nil, err
	}
	seen := map[int32]bool{}
	for _, r := range roots {
		seen[r] = true
	}
	level, reached := roots, slices.Clone(roots)
	for d := 0; d < depth && len(level) > 0 && len(seen) <= maxNodes; d++ {
		var next []int32
		for _, n := range level {
			es, err := v.in(n)
			if err != nil {
				return nil, err
			}
			for _, ei := range es {
				e, err := v.addEdge(ei)
				if err != nil {
					return nil, err
				}
				if from := int32(e.From); !seen[from] {
					seen[from] = true
					next = append(next, from)
				}
			}
		}
		reached = append(reached, next...)
		level = next
	}
	for _, n := range reached {
		es, err := v.out(n)
		if err != nil {
			return nil, err
		}
		for _, ei := range es {
			if v.partEdges[ei] {
				continue
			}
			e, err := v.edge(ei)
			if err != nil {
				return nil, err
			}
			if seen[int32(e.To)] {
				if _, err := v.addEdge(ei); err != nil {
					return nil, err
				}
			}
		}
	}
	for _, r := range roots {
		fn, err := v.fileOf(v.nodesRead[r].Path)
		if err != nil {
			return nil, err
		}
		if fn < 0 {
			continue
		}
		if err := v.addNode(fn); err != nil {
			return nil, err
		}
		es, err := v.in(fn)
		if err != nil {
			return nil, err
		}
		for _, ei := range es {
			if _, err := v.addEdge(ei); err != nil {
				return nil, err
			}
		}
	}
	g, _ := v.graph()
	return g, nil
}

// implementationsPart reads the part of the snapshot that Subtypes and
// Supertypes walk from the types target names: the inherits and
// implements edges into each type reached, to MaxSubtypeDepth steps, and
// out of the roots.
func (v *snapView) implementationsPart(t Target) (*Graph, error) {
	roots, err := v.roots([]Target{t})
	if err != nil {
		return nil, err
	}
	seen := map[int32]bool{}
	level := roots
	for _, r := range roots {
		seen[r] = true
		es, err := v.out(r)
		if err != nil {
			return nil, err
		}
		for _, ei := range es {
			if err := v.addRelation(ei); err != nil {
				return nil, err
			}
		}
	}
	for d := 0; d < MaxSubtypeDepth && len(level) > 0; d++ {
		var next []int32
		for _, n := range level {
			es, err := v.in(n)
			if err != nil {
				return nil, err
			}
			for _, ei := range es {
				e, err := v.edge(ei)
				if err != nil {
					return nil, err
				}
				if !relationKinds[e.Kind] {
					continue
				}
				if err := v.addRelation(ei); err != nil {
					return nil, err
				}
				if from := int32(e.From); !seen[from] {
					seen[from] = true
					next = append(next, from)
				}
			}
		}
		level = next
	}
	g, _ := v.graph()
	return g, nil
}

// addRelation puts edge i in the part when it is an inherits or
// implements edge.
func (v *snapView) addRelation(i int32) error {
	e, err := v.edge(i)
	if err != nil || !relationKinds[e.Kind] {
		return err
	}
	_, err = v.addEdge(i)
	return err
}

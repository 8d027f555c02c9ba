package graph

import (
	"context"
	"encoding/binary"
	"fmt"
	"path"
	"slices"
	"sort"
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

// partImpact answers q, a walk of depth 1, from the part of the snapshot
// it visits, when the process holds no graph, there are no exact edges to
// fuse and the snapshot is of the index as it is now; ok is false
// otherwise, and then only the snapshot's head and the index's version
// were read.
func (p *Provider) partImpact(ctx context.Context, q Query) (im *Impact, ok bool, err error) {
	if q.Depth != 1 {
		return nil, false, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.graph != nil || p.opts.Exact != nil && p.exactOptions(ctx).Exact != nil {
		return nil, false, nil
	}
	ix, err := p.index()
	if err != nil {
		return nil, false, err
	}
	snap, err := p.snapshots(ix).read()
	if err != nil {
		return nil, false, nil // the per-name or the whole graph answers, and says why
	}
	defer snap.close()
	same, fr, err := ix.Current(ctx, snap.version)
	if err != nil || !same {
		return nil, false, err
	}
	if q.MaxNodes == 0 {
		q.MaxNodes = p.opts.MaxNodes
	}
	v, err := snap.view()
	if err != nil {
		return nil, false, nil
	}
	g, err := v.impactPart(q)
	if err != nil {
		return nil, false, nil
	}
	g.index()
	p.fresh, p.snapshot = fr, "read in part"
	im = g.Impact(q)
	partialNote(im, fr)
	return im, true, nil
}

// A snapView reads the nodes and edges of a sealed snapshot's body on
// demand, through the snapshot's checked chunks. Every offset and index
// it reads is checked against the body (see snapshot.go); a bad one is
// errSnapshotCorrupt.
type snapView struct {
	ss      *sealedSnapshot
	version string
	h       snapHeader
	strEnds []uint32 // where each string's text ends (the body is within MaxSnapshotSize)
	// Where each section starts in the body.
	text, nodes, edges, nodeOff, edgeOff, inStart, inList, outStart int
	outList, nameStart, nameList, hashes, files, known              int

	strs       map[int]string
	nodesRead  map[int32]Node
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
	total := len(ss.body)
	if ss.f != nil {
		total = ss.size - ss.start
	}
	pre, err := ss.at(0, min(total, 9*binary.MaxVarintLen64))
	if err != nil {
		return nil, err
	}
	d := decoder{buf: pre}
	h := d.header(total)
	if d.err != nil {
		return nil, d.err
	}
	v := &snapView{ss: ss, version: ss.version, h: h, strs: map[int]string{}, nodesRead: map[int32]Node{},
		partNodes: map[int32]bool{}, partEdges: map[int32]bool{}, maxPartLen: maxPart}
	hdr := len(pre) - len(d.buf)
	lens, err := ss.at(hdr, h.lenBytes)
	if err != nil {
		return nil, err
	}
	ld := decoder{buf: lens}
	v.strEnds = make([]uint32, h.strings)
	end := 0
	for i := range v.strEnds {
		if end += int(ld.uint(uint64(h.textBytes))); end > h.textBytes || end > MaxSnapshotSize {
			break
		}
		v.strEnds[i] = uint32(end)
	}
	if ld.err != nil || len(ld.buf) != 0 || end != h.textBytes {
		return nil, fmt.Errorf("%w: a string table that does not fit its text", errSnapshotCorrupt)
	}
	v.text = hdr + h.lenBytes
	v.nodes = v.text + h.textBytes
	v.edges = v.nodes + h.nodeBytes
	v.nodeOff = v.edges + h.edgeBytes
	v.edgeOff = v.nodeOff + 4*(h.nodes+1)
	v.inStart = v.edgeOff + 4*(h.edges+1)
	v.inList = v.inStart + 4*(h.nodes+1)
	v.outStart = v.inList + 4*h.edges
	v.outList = v.outStart + 4*(h.nodes+1)
	v.nameStart = v.outList + 4*h.edges
	v.nameList = v.nameStart + 4*(h.strings+1)
	v.hashes = v.nameList + 4*h.named
	v.files = v.hashes + 8*h.strings
	v.known = v.files + h.fileBytes
	return v, nil
}

// knownTypes returns the types of the project that implement or extend
// each supertype it does not define (see Graph.known).
func (v *snapView) knownTypes() (map[string][]int32, error) {
	b, err := v.ss.at(v.known, v.h.knownBytes)
	if err != nil {
		return nil, err
	}
	return decodeKnown(b, v.h.nodes)
}

// digests returns the content hash of each file the snapshot's graph was
// built from, by path.
func (v *snapView) digests() (map[string]string, error) {
	b, err := v.ss.at(v.files, v.h.fileBytes)
	if err != nil {
		return nil, err
	}
	d := decoder{buf: b}
	out := map[string]string{}
	for len(d.buf) > 0 && d.err == nil {
		p, h := d.str(), d.str()
		out[p] = h
	}
	if d.err != nil {
		return nil, d.err
	}
	return out, nil
}

// u32 returns entry i of the uint32 table at base.
func (v *snapView) u32(base, i int) (int, error) {
	b, err := v.ss.at(base+4*i, 4)
	if err != nil {
		return 0, err
	}
	return int(binary.LittleEndian.Uint32(b)), nil
}

// str returns string i of the table (i is below h.strings).
func (v *snapView) str(i int) (string, error) {
	if s, ok := v.strs[i]; ok {
		return s, nil
	}
	start := 0
	if i > 0 {
		start = int(v.strEnds[i-1])
	}
	b, err := v.ss.at(v.text+start, int(v.strEnds[i])-start)
	if err != nil {
		return "", err
	}
	s := string(b)
	v.strs[i] = s
	return s, nil
}

// stringID returns the index of s in the table, or -1: a binary search
// of the hashes, then the strings of s's hash compared.
func (v *snapView) stringID(s string) (int, error) {
	want, n := strHash(s), v.h.strings
	var err error
	lo := sort.Search(n, func(k int) bool {
		h, e := v.u32(v.hashes, k)
		if e != nil {
			err = e
			return true
		}
		return uint32(h) >= want
	})
	for k := lo; k < n && err == nil; k++ {
		var h, id int
		if h, err = v.u32(v.hashes, k); err != nil || uint32(h) != want {
			break
		}
		if id, err = v.u32(v.hashes+4*n, k); err != nil {
			break
		}
		if id >= n {
			return -1, fmt.Errorf("%w: a string index out of range", errSnapshotCorrupt)
		}
		var got string
		if got, err = v.str(id); err == nil && got == s {
			return id, nil
		}
	}
	return -1, err
}

// record returns the bytes of record i of the section at sec, whose
// offsets are the table at off, of n records.
func (v *snapView) record(sec, off, size, i, n int) ([]byte, error) {
	if i < 0 || i >= n {
		return nil, fmt.Errorf("%w: a record out of range", errSnapshotCorrupt)
	}
	a, err := v.u32(off, i)
	if err != nil {
		return nil, err
	}
	b, err := v.u32(off, i+1)
	if err != nil {
		return nil, err
	}
	if a > b || b > size {
		return nil, fmt.Errorf("%w: a record past its section", errSnapshotCorrupt)
	}
	return v.ss.at(sec+a, b-a)
}

// strings returns the strings of ids.
func (v *snapView) strings(ids []int) ([]string, error) {
	out := make([]string, len(ids))
	for k, id := range ids {
		s, err := v.str(id)
		if err != nil {
			return nil, err
		}
		out[k] = s
	}
	return out, nil
}

// node returns node i.
func (v *snapView) node(i int32) (Node, error) {
	if nd, ok := v.nodesRead[i]; ok {
		return nd, nil
	}
	rec, err := v.record(v.nodes, v.nodeOff, v.h.nodeBytes, int(i), v.h.nodes)
	if err != nil {
		return Node{}, err
	}
	d := decoder{buf: rec}
	var nd Node
	var ids [5]int
	d.node(&nd, &ids, uint64(v.h.strings))
	if d.err == nil && len(d.buf) != 0 {
		d.err = fmt.Errorf("%w: a node record too long", errSnapshotCorrupt)
	}
	if d.err != nil {
		return Node{}, d.err
	}
	strs, err := v.strings(ids[:])
	if err != nil {
		return Node{}, err
	}
	nd.Path, nd.Name, nd.Container, nd.Kind, nd.Package = strs[0], strs[1], strs[2], strs[3], strs[4]
	v.nodesRead[i] = nd
	return nd, nil
}

// edge returns edge i.
func (v *snapView) edge(i int32) (Edge, error) {
	rec, err := v.record(v.edges, v.edgeOff, v.h.edgeBytes, int(i), v.h.edges)
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
	strs, err := v.strings(ids[:])
	if err != nil {
		return Edge{}, err
	}
	e.Kind, e.Method, e.Path, e.Of = EdgeKind(strs[0]), Method(strs[1]), strs[2], strs[3]
	return e, nil
}

// list returns entry i's list of the table of starts at starts and items
// at items, of keys entries, each item below n once its tag bits (those
// of mask's complement) are cleared; keep, if set, leaves out the items
// whose tag it refuses.
func (v *snapView) list(starts, items, i, keys, n int, mask uint32, keep func(tag uint32) bool) ([]int32, error) {
	if i < 0 || i >= keys {
		return nil, fmt.Errorf("%w: a list out of range", errSnapshotCorrupt)
	}
	a, err := v.u32(starts, i)
	if err != nil {
		return nil, err
	}
	b, err := v.u32(starts, i+1)
	if err != nil {
		return nil, err
	}
	if a > b || items+4*b > v.ss.bodyLen() {
		return nil, fmt.Errorf("%w: a list past its table", errSnapshotCorrupt)
	}
	raw, err := v.ss.at(items+4*a, 4*(b-a))
	if err != nil {
		return nil, err
	}
	out := make([]int32, 0, b-a)
	for k := 0; k < len(raw); k += 4 {
		x := binary.LittleEndian.Uint32(raw[k:])
		if int(x&mask) >= n {
			return nil, fmt.Errorf("%w: a list item out of range", errSnapshotCorrupt)
		}
		if keep == nil || keep(x&^mask) {
			out = append(out, int32(x&mask))
		}
	}
	return out, nil
}

const edgeMask = 1<<edgeIndexBits - 1

// kinds returns a filter of adjacency tags that keeps the edges of the
// kinds in want and those of another kind (read to know it); nil keeps
// all.
func kinds(want map[EdgeKind]bool) func(uint32) bool {
	if want == nil {
		return nil
	}
	return func(tag uint32) bool {
		c := tag >> edgeIndexBits
		return c == 0 || int(c) >= len(edgeKindCodes) || want[edgeKindCodes[c]]
	}
}

// in returns the edges into node i of the kinds in want (nil: all), in
// edge order; an edge of a kind the tables do not code is among them.
func (v *snapView) in(i int32, want map[EdgeKind]bool) ([]int32, error) {
	return v.list(v.inStart, v.inList, int(i), v.h.nodes, v.h.edges, edgeMask, kinds(want))
}

// out returns the edges out of node i of the kinds in want (nil: all),
// in edge order, as in does.
func (v *snapView) out(i int32, want map[EdgeKind]bool) ([]int32, error) {
	return v.list(v.outStart, v.outList, int(i), v.h.nodes, v.h.edges, edgeMask, kinds(want))
}

// named returns the nodes string s names: the definitions called s and
// the file at path s, in node order.
func (v *snapView) named(s string) ([]int32, error) {
	id, err := v.stringID(s)
	if err != nil || id < 0 {
		return nil, err
	}
	return v.list(v.nameStart, v.nameList, id, v.h.strings, v.h.nodes, ^uint32(0), nil)
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
	return v.addNamed(symbolName(t.Symbol))
}

// addNamed puts the definitions called name in the part.
func (v *snapView) addNamed(name string) error {
	ns, err := v.named(name)
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
// (its Depth and MaxNodes set): the nodes the targets may name and what
// finds the methods that share their uses (see addShared); from the
// roots, level by level, every edge into each node of a level the walk
// goes back from (every level before the last, while the levels so far
// hold at most MaxNodes: past that the walk stops within them); the
// edges into the files of the roots (the tests named after them); then,
// the walk run on that part to know which nodes it reaches, the edges
// among those (their cycles).
func (v *snapView) impactPart(q Query) (*Graph, error) {
	depth, maxNodes := q.bounds()
	roots, err := v.roots(q.Targets)
	if err != nil {
		return nil, err
	}
	if roots, err = v.addShared(roots); err != nil {
		return nil, err
	}
	seen := map[int32]bool{}
	for _, r := range roots {
		seen[r] = true
	}
	level := roots
	for d := 0; d < depth && len(level) > 0 && len(seen) <= maxNodes; d++ {
		var next []int32
		for _, n := range level {
			es, err := v.in(n, nil)
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
		level = next
	}
	if err := v.addRootFiles(roots); err != nil {
		return nil, err
	}
	if err := v.addElsewhere(roots, bareNames(q.Targets)); err != nil {
		return nil, err
	}
	if err := v.addCycles(q); err != nil {
		return nil, err
	}
	g, _ := v.graph()
	return g, nil
}

// addElsewhere puts in the part the edges Graph.elsewhere takes for the
// roots: the first MaxSites uses of their names resolved to other
// definitions, read in the same order.
func (v *snapView) addElsewhere(roots []int32, bare []string) error {
	var names []string
	for _, r := range roots {
		nd, err := v.node(r)
		if err != nil {
			return err
		}
		if nd.Kind != NodeKindFile && !slices.Contains(names, nd.Name) && !slices.Contains(bare, nd.Name) {
			names = append(names, nd.Name)
		}
	}
	taken := 0
	for _, name := range names {
		ns, err := v.named(name)
		if err != nil {
			return err
		}
		for _, n := range ns {
			nd, err := v.node(n)
			if err != nil {
				return err
			}
			if nd.Kind == NodeKindFile || nd.Name != name || slices.Contains(roots, n) {
				continue
			}
			es, err := v.in(n, elsewhereKinds)
			if err != nil {
				return err
			}
			for _, ei := range es {
				if taken == MaxSites {
					return nil
				}
				e, err := v.edge(ei)
				if err != nil {
					return err
				}
				if !isElsewhere(&e) {
					continue
				}
				if _, err := v.addEdge(ei); err != nil {
					return err
				}
				taken++
			}
		}
	}
	return nil
}

// addCycles runs the walk of q on the part read so far, which reaches the
// nodes it reaches on the whole graph, and adds the edges among those
// (their cycles).
func (v *snapView) addCycles(q Query) error {
	g, ids := v.graph()
	g.index()
	im := g.Impact(q)
	walked := map[string]bool{}
	for _, h := range append(im.Affected, im.Callers...) {
		walked[h.Symbol] = true
	}
	var among []int32
	inWalk := map[int32]bool{}
	for k := range g.Nodes {
		if walked[g.Nodes[k].Key()] {
			among = append(among, ids[k])
			inWalk[ids[k]] = true
		}
	}
	// An edge among them is out of one and into another: the tables of
	// edges into each say which, so that only those are decoded (and
	// checked), not every edge out of the walk.
	into := map[int32]bool{}
	for _, n := range among {
		es, err := v.in(n, walkKinds)
		if err != nil {
			return err
		}
		for _, ei := range es {
			into[ei] = true
		}
	}
	for _, n := range among {
		es, err := v.out(n, walkKinds)
		if err != nil {
			return err
		}
		for _, ei := range es {
			if v.partEdges[ei] || !into[ei] {
				continue
			}
			e, err := v.edge(ei)
			if err != nil {
				return err
			}
			if inWalk[int32(e.To)] {
				if _, err := v.addEdge(ei); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// testKinds are the edges into a file that name a test after it.
var testKinds = map[EdgeKind]bool{Tests: true}

// addRootFiles puts the files of the roots in the part, with the tests
// edges into them (the tests named after them: an edge of another kind
// into a root's file matters only when the walk reaches the file, and
// then it is read as any other node's).
func (v *snapView) addRootFiles(roots []int32) error {
	for _, r := range roots {
		fn, err := v.fileOf(v.nodesRead[r].Path)
		if err != nil {
			return err
		}
		if fn < 0 {
			continue
		}
		if err := v.addNode(fn); err != nil {
			return err
		}
		es, err := v.in(fn, testKinds)
		if err != nil {
			return err
		}
		for _, ei := range es {
			if _, err := v.addEdge(ei); err != nil {
				return err
			}
		}
	}
	return nil
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
	if t.Symbol != "" && !v.anyType(roots) {
		if g, ok, err := v.knownPart(t.Symbol); ok || err != nil {
			return g, err
		}
	}
	seen := map[int32]bool{}
	level := roots
	for _, r := range roots {
		seen[r] = true
		es, err := v.out(r, relationKinds)
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
			es, err := v.in(n, relationKinds)
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
func (v *snapView) addRelation(i int32) error { return v.addOfKinds(i, relationKinds) }

// addOfKinds adds edge i to the part, with its ends, when it is of one of
// kinds.
func (v *snapView) addOfKinds(i int32, kinds map[EdgeKind]bool) error {
	e, err := v.edge(i)
	if err != nil || !kinds[e.Kind] {
		return err
	}
	_, err = v.addEdge(i)
	return err
}

// anyType reports whether one of nodes is a type.
func (v *snapView) anyType(nodes []int32) bool {
	for _, n := range nodes {
		if nd, err := v.node(n); err == nil && isType(&nd) {
			return true
		}
	}
	return false
}

// knownPart reads the types that implement or extend sym, a supertype the
// graph has no node for, into a part whose known lists them under sym's
// key (see knownKey); ok is false when sym names none.
func (v *snapView) knownPart(sym string) (g *Graph, ok bool, err error) {
	known, err := v.knownTypes()
	if err != nil {
		return nil, false, err
	}
	iface, ok := knownKey(sym, known)
	if !ok {
		return nil, false, nil
	}
	ids := known[iface]
	for _, n := range ids {
		if err := v.addNode(n); err != nil {
			return nil, false, err
		}
	}
	g, all := v.graph()
	pos := make(map[int32]int32, len(all))
	for k, n := range all {
		pos[n] = int32(k)
	}
	g.known = map[string][]int32{}
	for _, n := range ids {
		g.known[iface] = append(g.known[iface], pos[n])
	}
	return g, true, nil
}

package graph

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/codecortex/codecortex/index"
)

// resolveBlock is how many files a worker of resolveAll takes at a time.
const resolveBlock = 64

// resolveAll resolves the imports and uses of every file, on every CPU,
// into the graph resolving them one file after another in order makes:
// the same edges, in the same order, the same notes of what the project
// does not define.
//
// Workers take the files in blocks, each worker a copy of the builder
// with caches and marks of its own, and keep each block's edges and
// notes apart. Each block's edges go into the graph as soon as the blocks
// before it have (see committer), and the block's notes are joined in
// order at the end. An edge is kept once by its identity (keyOf), and
// almost every edge starts from a node of the file it is written in, so
// that two blocks' edges cannot be the same edge: the few that start
// elsewhere (a Rust impl of a type defined in another file) are matched
// across blocks by the join. The refs of each file are dropped once
// resolved when owned; those left encoded are decoded as the file is
// resolved, each worker's into the memory of its file before.
func (b *builder) resolveAll(owned bool) {
	n := len(b.facts)
	blocks := (n + resolveBlock - 1) / resolveBlock
	parts := make([]resolved, blocks)
	c := newCommitter(b, parts)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), blocks) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := b.resolver(c)
			var dec index.RefDecoder
			for i := int(next.Add(1) - 1); i < blocks; i = int(next.Add(1) - 1) {
				for fi := i * resolveBlock; fi < min(n, (i+1)*resolveBlock); fi++ {
					lazy := b.facts[fi].Refs == nil
					if lazy {
						// Into the memory the worker's last file was decoded into.
						b.facts[fi].Refs = dec.Refs(b.refs, fi)
					}
					w.resolveFile(fi)
					if owned || lazy {
						b.facts[fi].Refs = nil // no other file's resolution reads them
					}
				}
				parts[i] = w.take()
				c.done(i)
			}
		}()
	}
	wg.Wait()
	b.g.Edges = c.edges
	b.join(parts)
}

// A committer appends the blocks' edges to the graph's in the blocks'
// order as the workers finish them, and gives their memory back to the
// workers: the edges are held once, not once in blocks and again joined.
type committer struct {
	mu    sync.Mutex
	parts []resolved
	ready []bool
	next  int      // the first block whose edges are not in yet
	edges []Edge   // the graph's edges so far
	free  [][]Edge // emptied blocks of edges, for the workers to fill again
}

// newCommitter returns the committer of parts, its edges sized for as
// many as the files' imports and refs (most refs resolve to one edge or
// none) and a few in a hundred more for the steps after resolution.
func newCommitter(b *builder, parts []resolved) *committer {
	n := 0
	for i := range b.facts {
		n += len(b.facts[i].Imports) + len(b.facts[i].Refs) + b.refs.Len(i)
	}
	return &committer{parts: parts, ready: make([]bool, len(parts)), edges: slices.Grow(b.g.Edges[:0], n+n/16)}
}

// done takes block i's edges, and those of the blocks after it that were
// waiting for it.
func (c *committer) done(i int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ready[i] = true
	for ; c.next < len(c.parts) && c.ready[c.next]; c.next++ {
		p := &c.parts[c.next]
		for _, bl := range p.edges.blocks {
			c.edges = append(c.edges, bl...)
			c.free = append(c.free, bl[:0])
		}
		p.edges = edgeLog{}
	}
}

// block returns an empty block of edges of capacity size: one given back,
// or a new one.
func (c *committer) block(size int) []Edge {
	c.mu.Lock()
	defer c.mu.Unlock()
	if k := len(c.free); k > 0 && cap(c.free[k-1]) == size {
		bl := c.free[k-1]
		c.free = c.free[:k-1]
		return bl
	}
	return make([]Edge, 0, size)
}

// resolved is what resolving a block of files adds to the graph.
type resolved struct {
	edges edgeLog
	// foreign are the starts of the edges that start from a node of
	// another file than the one they are written in.
	foreign    []int
	unresolved int
	known      map[string][]int32
	ms         *methodSets
	knownUses  []knownUse
}

// resolvedEdges is the size of the blocks of a worker's edge log: a block
// of files adds thousands of edges, which the committer takes from
// blocks of this size with little room left over.
const resolvedEdges = 1 << 10

// resolver returns a builder for one worker of resolveAll: it shares
// what resolution reads and holds what it writes apart (a graph of its
// own over the same nodes, the edges by identity, the caches and marks).
func (b *builder) resolver(c *committer) *builder {
	g := *b.g
	g.Edges, g.known, g.stats = nil, nil, Stats{}
	w := *b
	w.g = &g
	w.seen, w.added, w.ms = map[edgeKey]int32{}, edgeLog{size: resolvedEdges, from: c}, nil
	w.mark, w.pkgMark, w.pkgFiles, w.pkgOf = nil, nil, nil, 0
	w.localTypes, w.localOf = nil, 0
	w.knownUses = nil
	w.fileTypes = nil
	w.memberOf, w.reexport = nil, map[reexportKey][]int32{}
	return &w
}

// take returns what the worker w resolved since it last took, and starts
// it on the next block.
func (w *builder) take() resolved {
	r := resolved{edges: w.added, unresolved: w.g.stats.Unresolved, known: w.g.known, ms: w.ms, knownUses: w.knownUses}
	for _, bl := range r.edges.blocks {
		for k := range bl {
			if e := &bl[k]; w.g.Nodes[e.From].Path != e.Path {
				r.foreign = append(r.foreign, e.From)
			}
		}
	}
	w.added = edgeLog{size: resolvedEdges, from: r.edges.from}
	clear(w.seen)
	w.g.stats.Unresolved, w.g.known, w.ms, w.knownUses = 0, nil, nil, nil
	return r
}

// join adds the blocks' notes to the graph, in order, keeps once the
// edges that two blocks hold (see resolveAll), and keeps by identity (in
// seen) the edges of the kinds that the steps after resolution add
// (Implements, Tests), which they must not add twice.
func (b *builder) join(parts []resolved) {
	// The starts of the edges that start outside their file: two blocks
	// may hold the same edge only from one of them.
	var shared map[int]bool
	for i := range parts {
		for _, from := range parts[i].foreign {
			if shared == nil {
				shared = map[int]bool{}
			}
			shared[from] = true
		}
	}
	if shared != nil {
		b.g.Edges = keepOnce(b.g.Edges, shared)
	}
	for i := range parts {
		p := &parts[i]
		b.g.stats.Unresolved += p.unresolved
		b.knownUses = append(b.knownUses, p.knownUses...)
		for key, ids := range p.known {
			if b.g.known == nil {
				b.g.known = map[string][]int32{}
			}
			for _, id := range ids {
				if have := b.g.known[key]; len(have) == 0 || have[len(have)-1] != id {
					b.g.known[key] = append(have, id)
				}
			}
		}
		if p.ms != nil {
			if b.ms == nil {
				b.ms = &methodSets{external: map[int][]string{}, open: map[int]bool{}}
			}
			for n, names := range p.ms.external {
				b.ms.external[n] = append(b.ms.external[n], names...)
			}
			for n := range p.ms.open {
				b.ms.open[n] = true
			}
		}
		*p = resolved{}
	}
	clear(b.seen)
	for i := range b.g.Edges {
		if e := &b.g.Edges[i]; e.Kind == Implements || e.Kind == Tests {
			b.seen[keyOf(e)] = int32(i)
		}
	}
}

// keepOnce keeps, in place, the first of the edges of a start in shared
// that are the same edge, with the best tier among them, and every other
// edge, in order.
func keepOnce(edges []Edge, shared map[int]bool) []Edge {
	first := map[edgeKey]int32{}
	kept := 0
	for i := range edges {
		e := edges[i]
		if shared[e.From] {
			key := keyOf(&e)
			if j, ok := first[key]; ok {
				if old := &edges[j]; e.Tier() > old.Tier() {
					*old = e
				}
				continue
			}
			first[key] = int32(kept)
		}
		edges[kept] = e
		kept++
	}
	clear(edges[kept:]) // what they held is not the graph's
	return edges[:kept]
}

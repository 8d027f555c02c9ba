package graph

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
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
// notes apart; the blocks are then joined in order. An edge is kept once
// by its identity (keyOf), and almost every edge starts from a node of
// the file it is written in, so that two blocks' edges cannot be the same
// edge: the few that start elsewhere (a Rust impl of a type defined in
// another file) are matched across blocks as the join goes. The refs of
// each file are dropped once resolved when owned.
func (b *builder) resolveAll(owned bool) {
	n := len(b.facts)
	blocks := (n + resolveBlock - 1) / resolveBlock
	parts := make([]resolved, blocks)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), blocks) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := b.resolver()
			for i := int(next.Add(1) - 1); i < blocks; i = int(next.Add(1) - 1) {
				for fi := i * resolveBlock; fi < min(n, (i+1)*resolveBlock); fi++ {
					w.resolveFile(fi)
					if owned {
						b.facts[fi].Refs = nil // no other file's resolution reads them
					}
				}
				parts[i] = w.take()
			}
		}()
	}
	wg.Wait()
	b.join(parts)
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
}

// resolvedEdges is the size of the blocks of a worker's edge log: a block
// of files adds thousands of edges, which the join copies from blocks of
// this size with little room left over.
const resolvedEdges = 1 << 10

// resolver returns a builder for one worker of resolveAll: it shares
// what resolution reads and holds what it writes apart (a graph of its
// own over the same nodes, the edges by identity, the caches and marks).
func (b *builder) resolver() *builder {
	g := *b.g
	g.Edges, g.known, g.stats = nil, nil, Stats{}
	w := *b
	w.g = &g
	w.seen, w.added, w.ms = map[edgeKey]int32{}, edgeLog{size: resolvedEdges}, nil
	w.mark, w.pkgMark, w.pkgFiles, w.pkgOf = nil, nil, nil, 0
	w.memberOf, w.reexport = nil, map[reexportKey][]int32{}
	return &w
}

// take returns what the worker w resolved since it last took, and starts
// it on the next block.
func (w *builder) take() resolved {
	r := resolved{edges: w.added, unresolved: w.g.stats.Unresolved, known: w.g.known, ms: w.ms}
	for _, bl := range r.edges.blocks {
		for k := range bl {
			if e := &bl[k]; w.g.Nodes[e.From].Path != e.Path {
				r.foreign = append(r.foreign, e.From)
			}
		}
	}
	w.added = edgeLog{size: resolvedEdges}
	clear(w.seen)
	w.g.stats.Unresolved, w.g.known, w.ms = 0, nil, nil
	return r
}

// join adds the blocks' edges and notes to the graph, in order, and keeps
// by identity (in seen) the edges of the kinds that the steps after
// resolution add (Implements, Tests), which they must not add twice.
func (b *builder) join(parts []resolved) {
	total := 0
	// The starts of the edges that start outside their file: two blocks
	// may hold the same edge only from one of them.
	var shared map[int]bool
	for i := range parts {
		total += parts[i].edges.n
		for _, from := range parts[i].foreign {
			if shared == nil {
				shared = map[int]bool{}
			}
			shared[from] = true
		}
	}
	// Room besides for the edges the steps after resolution add (a few
	// in a hundred), so that they do not copy the graph's edges again.
	b.g.Edges = slices.Grow(b.g.Edges[:0], total+total/16)
	if shared == nil {
		b.g.Edges = b.g.Edges[:total]
		copyEdges(b.g.Edges, parts)
	} else {
		b.g.Edges = joinShared(b.g.Edges, parts, shared)
	}
	for i := range parts {
		p := &parts[i]
		b.g.stats.Unresolved += p.unresolved
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

// copyEdges copies the parts' edges, in order, into dst, which holds
// exactly as many, on every CPU: each part has its place in dst.
func copyEdges(dst []Edge, parts []resolved) {
	at := make([]int, len(parts))
	for i, off := 0, 0; i < len(parts); i++ {
		at[i], off = off, off+parts[i].edges.n
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(parts)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(parts); i = int(next.Add(1) - 1) {
				d := dst[at[i]:]
				for _, bl := range parts[i].edges.blocks {
					d = d[copy(d, bl):]
				}
			}
		}()
	}
	wg.Wait()
}

// joinShared appends the parts' edges to dst in order, keeping once, with
// the better tier, an edge of a start in shared that two parts hold.
func joinShared(dst []Edge, parts []resolved, shared map[int]bool) []Edge {
	across := map[edgeKey]int32{}
	for i := range parts {
		for _, bl := range parts[i].edges.blocks {
			for k := range bl {
				e := &bl[k]
				if shared[e.From] {
					key := keyOf(e)
					if j, ok := across[key]; ok {
						if old := &dst[j]; e.Tier() > old.Tier() {
							*old = *e
						}
						continue
					}
					across[key] = int32(len(dst))
				}
				dst = append(dst, *e)
			}
		}
	}
	return dst
}

package graph

// Benchmarks on github.com/prometheus/prometheus v0.308.0, copied from the
// module cache into a temporary directory and indexed once (the index's
// own cold build is index's BenchmarkColdBuild). Run them with
//
//	go test ./graph/ -run '^$' -bench . -benchtime 10x

import (
	"bytes"
	"context"
	"encoding/gob"
	"sort"
	"testing"
	"time"

	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/seal"
	"github.com/codecortex/codecortex/syntax"
)

// promIndexed returns a copy of prometheus with its local index built,
// removed when the benchmark ends.
func promIndexed(b *testing.B) string {
	if !syntax.Available {
		b.Skip("no tree-sitter in this build (cgo disabled)")
	}
	dir := copyTree(b, moduleDir(b, "github.com/prometheus/prometheus@v0.308.0"))
	ix, err := index.Open(index.Options{Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Update(context.Background()); err != nil {
		b.Fatal(err)
	}
	return dir
}

func median(ds []time.Duration) float64 {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return float64(ds[len(ds)/2]) / float64(time.Millisecond)
}

// BenchmarkGraphBuild reads every file's facts from a current index and
// builds the graph.
func BenchmarkGraphBuild(b *testing.B) {
	dir := promIndexed(b)
	ix, err := index.Open(index.Options{Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	ctx := context.Background()
	var ds []time.Duration
	var st Stats
	for b.Loop() {
		start := time.Now()
		p := New(Options{Index: ix})
		g, err := p.Graph(ctx)
		if err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(start))
		st = g.Stats()
	}
	b.ReportMetric(median(ds), "p50-ms")
	b.ReportMetric(float64(st.Files), "files")
	b.ReportMetric(float64(st.Symbols), "symbols")
	b.ReportMetric(float64(st.Edges), "edges")
	b.ReportMetric(float64(st.InferredHigh), "inferred_high")
	b.ReportMetric(float64(st.Inferred), "inferred")
}

// BenchmarkImpactHubWarm asks the impact of a hub type (labels.Labels,
// used across the tree) of a provider whose graph is built: the index's
// freshness check, then the walk at the default depth and node bound.
func BenchmarkImpactHubWarm(b *testing.B) {
	dir := promIndexed(b)
	ix, err := index.Open(index.Options{Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	ctx := context.Background()
	p := New(Options{Index: ix})
	if _, err := p.Graph(ctx); err != nil {
		b.Fatal(err)
	}
	q := Query{Targets: []Target{{Symbol: "labels.Labels"}}}
	var ds []time.Duration
	var im *Impact
	for b.Loop() {
		start := time.Now()
		im, err = p.Impact(ctx, q)
		if err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(start))
	}
	b.ReportMetric(median(ds), "p50-ms")
	b.ReportMetric(float64(len(im.Callers)), "callers")
	b.ReportMetric(float64(len(im.Tests)), "tests")
	if im.Truncated {
		b.ReportMetric(1, "truncated")
	}
}

// promBase returns the base graph of prometheus (as a snapshot keeps it)
// and the store of its snapshot, written.
func promBase(b *testing.B) (*Graph, snapStore) {
	dir := promIndexed(b)
	ix, err := index.Open(index.Options{Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	facts, err := ix.Facts(context.Background(), "")
	if err != nil {
		b.Fatal(err)
	}
	g := buildBase(facts, index.EncodedRefs{}, layout{}, false).g
	s := snapStore{root: ix.Dir(), seal: seal.User(), build: snapshotBuild()}
	if err := s.write(g); err != nil {
		b.Fatal(err)
	}
	return g, s
}

// BenchmarkSnapshotSave encodes, seals and writes the snapshot of the
// prometheus graph.
func BenchmarkSnapshotSave(b *testing.B) {
	g, s := promBase(b)
	var ds []time.Duration
	for b.Loop() {
		start := time.Now()
		if err := s.write(g); err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(start))
	}
	b.ReportMetric(median(ds), "p50-ms")
	b.ReportMetric(float64(len(encodeSnapshot(g, s.build))), "bytes")
}

// BenchmarkSnapshotLoad reads, verifies and decodes the snapshot of the
// prometheus graph and indexes it: what a process's first question pays
// instead of reading the facts and building.
func BenchmarkSnapshotLoad(b *testing.B) {
	_, s := promBase(b)
	var ds []time.Duration
	var g *Graph
	for b.Loop() {
		start := time.Now()
		ss, err := s.read()
		if err != nil {
			b.Fatal(err)
		}
		if g, err = ss.graph(); err != nil {
			b.Fatal(err)
		}
		(&builder{g: g}).finish(BuildOptions{})
		ds = append(ds, time.Since(start))
	}
	b.ReportMetric(median(ds), "p50-ms")
	b.ReportMetric(float64(len(g.Nodes)), "nodes")
	b.ReportMetric(float64(len(g.Edges)), "edges")
}

// BenchmarkSnapshotGob decodes the same nodes and edges with
// encoding/gob, the encoding the snapshot's own was measured against.
func BenchmarkSnapshotGob(b *testing.B) {
	g, _ := promBase(b)
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(struct {
		Nodes []Node
		Edges []Edge
	}{g.Nodes, g.Edges}); err != nil {
		b.Fatal(err)
	}
	var ds []time.Duration
	for b.Loop() {
		start := time.Now()
		var out struct {
			Nodes []Node
			Edges []Edge
		}
		if err := gob.NewDecoder(bytes.NewReader(buf.Bytes())).Decode(&out); err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(start))
	}
	b.ReportMetric(median(ds), "p50-ms")
	b.ReportMetric(float64(buf.Len()), "bytes")
}

// BenchmarkSnapshotPart reads the part of the prometheus snapshot that
// an impact of a hub type (labels.Labels, depth 3, 500 nodes) walks: the
// head and its seal, the chunks holding the tables, records and strings
// the walk reads, each checked, and the part made a graph; what an impact
// question pays where BenchmarkSnapshotLoad decodes the whole graph.
func BenchmarkSnapshotPart(b *testing.B) {
	_, s := promBase(b)
	var ds []time.Duration
	var g *Graph
	for b.Loop() {
		start := time.Now()
		ss, err := s.read()
		if err != nil {
			b.Fatal(err)
		}
		v, err := ss.view()
		if err != nil {
			b.Fatal(err)
		}
		if g, err = v.impactPart(Query{Targets: []Target{{Symbol: "labels.Labels"}}}); err != nil {
			b.Fatal(err)
		}
		g.index()
		ss.close()
		ds = append(ds, time.Since(start))
	}
	b.ReportMetric(median(ds), "p50-ms")
	b.ReportMetric(float64(len(g.Nodes)), "nodes")
	b.ReportMetric(float64(len(g.Edges)), "edges")
}

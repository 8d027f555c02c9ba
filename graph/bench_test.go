package graph

// Benchmarks on github.com/prometheus/prometheus v0.308.0, copied from the
// module cache into a temporary directory and indexed once (the index's
// own cold build is index's BenchmarkColdBuild). Run them with
//
//	go test ./graph/ -run '^$' -bench . -benchtime 10x

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/codecortex/codecortex/index"
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

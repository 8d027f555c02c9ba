package precision

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/scip-code/scip/bindings/go/scip"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
)

// BenchmarkStaleness stats 600 documents, the spec's headline size, with
// both methods.
func BenchmarkStaleness(b *testing.B) {
	dir := b.TempDir()
	ix := &scip.Index{Metadata: &scip.Metadata{ToolInfo: &scip.ToolInfo{Name: "scip-go"}}}
	old := time.Now().Add(-time.Hour)
	for i := range 600 {
		p := fmt.Sprintf("pkg%02d/file%03d.go", i%30, i)
		abs := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(abs), 0o755)
		os.WriteFile(abs, []byte("package x\n"), 0o644)
		os.Chtimes(abs, old, old)
		ix.Documents = append(ix.Documents, &scip.Document{RelativePath: p,
			Occurrences: []*scip.Occurrence{occ([]int32{0, 8, 9}, "local 0", 1)}})
	}
	indexPath := filepath.Join(dir, "index.scip")
	os.WriteFile(indexPath, marshal(b, ix), 0o644)
	f, _ := os.Open(indexPath)
	loaded, err := Load(context.Background(), f, LoadOptions{})
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	info, _ := os.Stat(indexPath)
	accept(b, Options{Dir: dir})
	pv := New(Options{Dir: dir})
	pv.root, _ = contain.Open(dir)
	m, err := pv.readManifest("index.scip")
	pv.Close()
	if err != nil || m == nil {
		b.Fatalf("manifest: %v", err)
	}
	for _, tc := range []struct {
		name string
		m    *Manifest
	}{{"manifest", m}} {
		b.Run(tc.name+"/600docs", func(b *testing.B) {
			fr := newFreshness(dir, loaded, info, tc.m, "")
			for b.Loop() {
				if s := fr.check(); s.Stale || s.Checked != 600 {
					b.Fatalf("staleness = %+v", s)
				}
			}
		})
	}
}

// benchIndex is a large real index for BenchmarkLargeIndex; set
// CODECORTEX_BENCH_INDEX to its path and CODECORTEX_BENCH_ROOT to the
// project it was built from (see docs/benchmarks-precision.md).
func benchIndex(b *testing.B) (string, string) {
	p, root := os.Getenv("CODECORTEX_BENCH_INDEX"), os.Getenv("CODECORTEX_BENCH_ROOT")
	if p == "" || root == "" {
		b.Skip("set CODECORTEX_BENCH_INDEX and CODECORTEX_BENCH_ROOT to benchmark a large index")
	}
	return p, root
}

func loadFile(b *testing.B, p, root string) *Index {
	f, err := os.Open(p)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	ix, err := Load(context.Background(), f, LoadOptions{Source: os.DirFS(root), Size: fi.Size()})
	if err != nil {
		b.Fatal(err)
	}
	return ix
}

// BenchmarkLargeIndex measures load time and live heap, the same from a
// snapshot and the cost of writing one, 10,000 definition lookups at
// reference positions, and staleness over every document.
func BenchmarkLargeIndex(b *testing.B) {
	p, root := benchIndex(b)
	b.Run("load", func(b *testing.B) {
		var ix *Index
		// CPU time is reported beside wall time: on a shared machine it
		// moves far less.
		cpu0 := testtool.CPUTime()
		for b.Loop() {
			ix = loadFile(b, p, root)
		}
		b.ReportMetric(float64((testtool.CPUTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "live-heap-MB")
		b.ReportMetric(float64(ix.Stats().Documents), "docs")
		runtime.KeepAlive(ix)
	})
	// What the provider does when it parses: the same load, with the
	// SHA-256 of the file that the sources manifest is checked against.
	b.Run("load-digest", func(b *testing.B) {
		cpu0 := testtool.CPUTime()
		for b.Loop() {
			f, err := os.Open(p)
			if err != nil {
				b.Fatal(err)
			}
			fi, _ := f.Stat()
			if _, _, err := loadDigest(context.Background(), f, os.DirFS(root), fi.Size()); err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
		b.ReportMetric(float64((testtool.CPUTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
	})
	ix := loadFile(b, p, root)
	benchSnapshot(b, ix, p, root)
	// 10,000 reference positions spread over the index, as one-based code
	// points (the cache of source text is warmed by the first round).
	type pos struct {
		path      string
		line, col int
	}
	var qs []pos
	step := max(1, len(ix.refs)/10000)
	for i := 0; i < len(ix.refs) && len(qs) < 10000; i += step {
		l := ix.location(ix.refs[i].doc, ix.refs[i].occ)
		qs = append(qs, pos{l.Path, l.StartLine, l.StartColumn})
	}
	b.Run("10000-definitions", func(b *testing.B) {
		found := 0
		for b.Loop() {
			found = 0
			for _, q := range qs {
				s, _, err := ix.SymbolAt(q.path, q.line, q.col)
				if err != nil {
					continue
				}
				if len(ix.Definitions(s)) > 0 {
					found++
				}
			}
		}
		b.ReportMetric(float64(found), "found")
	})
	b.Run("staleness-all-docs", func(b *testing.B) {
		info, err := os.Stat(p)
		if err != nil {
			b.Fatal(err)
		}
		fr := newFreshness(root, ix, info, nil, "")
		for b.Loop() {
			fr.check()
		}
		b.ReportMetric(float64(len(fr.abs)), "docs")
	})
}

// benchSnapshot measures what a process that finds the snapshot of the
// index pays instead of parsing it (sample the index for the key, read the
// snapshot, check and decode it, rebuild the tables), and what the process
// that parses it pays more to write it.
func benchSnapshot(b *testing.B, ix *Index, p, root string) {
	snap := filepath.Join(b.TempDir(), "index.snap")
	key := func() snapshotKey {
		f, err := os.Open(p)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			b.Fatal(err)
		}
		k, err := indexKey(f, fi, "index.scip")
		if err != nil {
			b.Fatal(err)
		}
		return k
	}
	first, err := encodeSnapshot(ix, key(), [32]byte{}, testSeal)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(snap, first, 0o644); err != nil {
		b.Fatal(err)
	}
	b.Run("snapshot-write", func(b *testing.B) {
		var size int
		for b.Loop() {
			data, err := encodeSnapshot(ix, key(), [32]byte{}, testSeal)
			if err != nil {
				b.Fatal(err)
			}
			size = len(data)
			if err := os.WriteFile(snap, data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(size)/(1<<20), "snapshot-MB")
	})
	b.Run("snapshot-read", func(b *testing.B) {
		var got *Index
		heap := func() float64 {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			return float64(ms.HeapAlloc) / (1 << 20)
		}
		heap0 := heap()
		cpu0 := testtool.CPUTime()
		for b.Loop() {
			f, err := os.Open(snap)
			if err != nil {
				b.Fatal(err)
			}
			fi, err := f.Stat()
			if err != nil {
				b.Fatal(err)
			}
			got, _, err = readSnapshot(f, fi.Size(), key(), testSeal)
			f.Close()
			if err != nil {
				b.Fatal(err)
			}
			got.src = os.DirFS(root)
		}
		b.ReportMetric(float64((testtool.CPUTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
		// The index read last, beside the parsed one the benchmark keeps.
		b.ReportMetric(heap()-heap0, "live-heap-MB")
		runtime.KeepAlive(got)
	})
}

// BenchmarkGoplsFirstAnswer measures what LSPOptions' timeouts bound, on
// cobra: the initialize handshake, the first definition answer (which
// waits while gopls loads the module) and a later one, with gopls's cache
// cold (a new cache directory each round) and warm. See
// docs/benchmarks.md for the numbers the defaults were chosen from.
func BenchmarkGoplsFirstAnswer(b *testing.B) {
	testtool.Require(b, "gopls", installHint)
	dir := cobraModule(b)
	q := evidence.Query{Path: "command.go", Line: 1084, Column: 19, Kinds: []evidence.Kind{evidence.Definition}}
	for _, cache := range []string{"cold", "warm"} {
		b.Run(cache, func(b *testing.B) {
			warm := b.TempDir()
			var initT, firstT, laterT time.Duration
			round := func(xdg string) {
				env := append(safeexec.Environ(generatorEnv...), "XDG_CACHE_HOME="+xdg)
				lsp := NewLSP(LSPOptions{Dir: dir, Env: env, LoadTimeout: 10 * time.Minute})
				defer lsp.Close()
				start := time.Now()
				_, err := lsp.startServer(context.Background(), "go")
				if err != nil {
					b.Fatal(err)
				}
				initT += time.Since(start)
				for i, d := range []*time.Duration{&firstT, &laterT} {
					start = time.Now()
					resp, err := lsp.Gather(context.Background(), q)
					if err != nil || len(resp.Records) != 1 {
						b.Fatalf("definition %d: %v, %+v", i, err, resp)
					}
					*d += time.Since(start)
				}
			}
			if cache == "warm" {
				round(warm)
				initT, firstT, laterT = 0, 0, 0
			}
			for b.Loop() {
				xdg := warm
				if cache == "cold" {
					xdg = b.TempDir()
				}
				round(xdg)
			}
			n := float64(b.N)
			b.ReportMetric(float64(initT.Milliseconds())/n, "init-ms")
			b.ReportMetric(float64(firstT.Milliseconds())/n, "first-answer-ms")
			b.ReportMetric(float64(laterT.Milliseconds())/n, "later-answer-ms")
		})
	}
}

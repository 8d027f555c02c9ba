package codecortex

import (
	"context"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/config"
	"github.com/codecortex/codecortex/internal/testtool"
)

// BenchmarkAsk is a warm engine answering questions about cobra v1.10.2
// with a fresh scip-go index: the in-process cost of one Ask (route,
// providers side by side, fuse, rank, pack), reported as the median.
//
//	go test -run '^$' -bench Ask -benchtime 200x .
func BenchmarkAsk(b *testing.B) {
	scipGo := testtool.Require(b, "scip-go", "bash .ci/install-precision.sh")
	dir := testtool.ModuleCopy(b, testtool.Cobra)
	for _, args := range [][]string{{"go", "mod", "download"}, {scipGo, "--output", "index.scip"}} {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	acceptIndex(b, dir)
	e, err := Open(dir, Options{Project: config.ProjectOptions{Trust: config.TrustNever}})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	if err := e.Refresh(ctx); err != nil {
		b.Fatal(err)
	}
	for _, q := range []string{"where is ExecuteC defined?", "who calls ExecuteC?", "what implements SliceValue?",
		"which version of pflag do we use?", "find usages of `MinimumNArgs($N)`"} {
		b.Run(q, func(b *testing.B) {
			if _, err := e.Ask(ctx, Question{Text: q}); err != nil { // warm
				b.Fatal(err)
			}
			times := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				if _, err := e.Ask(ctx, Question{Text: q}); err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(start))
			}
			sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
		})
	}
}

// BenchmarkRename plans a rename on a real repository with a fresh SCIP
// index and stores its preview: CODECORTEX_BENCH_RENAME_ROOT names the
// project, CODECORTEX_BENCH_RENAME the symbol and the new name ("Labels.Get
// Value"). Nothing is applied. See docs/benchmarks.md.
func BenchmarkRename(b *testing.B) {
	root, spec := os.Getenv("CODECORTEX_BENCH_RENAME_ROOT"), strings.Fields(os.Getenv("CODECORTEX_BENCH_RENAME"))
	if root == "" || len(spec) != 2 {
		b.Skip("set CODECORTEX_BENCH_RENAME_ROOT and CODECORTEX_BENCH_RENAME (SYMBOL NEWNAME)")
	}
	ctx := context.Background()
	// The tests run with a user configuration of their own: vouch for the
	// index as this (test) user, as cortex precision-status --accept does.
	e, err := Open(root, Options{NoGenerate: true})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := e.Precision().Accept(ctx); err != nil {
		b.Fatal(err)
	}
	e.Close()
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			e, err := Open(root, Options{NoGenerate: true})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := e.Rename(ctx, RenameRequest{Target: Target{Symbol: spec[0]}, NewName: spec[1]}); err != nil {
				b.Fatal(err)
			}
			e.Close()
		}
	})
	b.Run("warm", func(b *testing.B) {
		e, err := Open(root, Options{NoGenerate: true})
		if err != nil {
			b.Fatal(err)
		}
		defer e.Close()
		for b.Loop() {
			if _, err := e.Rename(ctx, RenameRequest{Target: Target{Symbol: spec[0]}, NewName: spec[1]}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

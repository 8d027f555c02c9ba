package cli

import (
	"context"
	"io"
	"os"
	"testing"
)

// BenchmarkSearchJSON runs `cortex sg -p PAT -l LANG --json` in process
// over the directory $CORTEX_BENCH_DIR (skipped without one): the search
// and the printing of its records, without the process's start, with the
// allocations it makes. $CORTEX_BENCH_LANG and $CORTEX_BENCH_PATTERN
// default to ts and $F($$$A), the rxjs row of docs/benchmarks.md:
//
//	CORTEX_BENCH_DIR=~/.cache/cortex-bench/npm/rxjs@7.8.2/package/src go test ./internal/cli -run '^$' -bench SearchJSON -benchmem
func BenchmarkSearchJSON(b *testing.B) {
	dir := os.Getenv("CORTEX_BENCH_DIR")
	if dir == "" {
		b.Skip("CORTEX_BENCH_DIR names no directory to search")
	}
	lang, pattern := os.Getenv("CORTEX_BENCH_LANG"), os.Getenv("CORTEX_BENCH_PATTERN")
	if lang == "" {
		lang = "ts"
	}
	if pattern == "" {
		pattern = "$F($$$A)"
	}
	args := []string{"sg", "-p", pattern, "-l", lang, "--json", "--max-matches", "10000000", "."}
	for b.Loop() {
		if code := Run(context.Background(), args, &Env{Stdout: io.Discard, Stderr: io.Discard, Wd: dir}); code != ExitOK {
			b.Fatalf("exit %d", code)
		}
	}
}

package precision

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/evidence"
)

// BenchmarkLanguageServerAnswers measures a language server on a real
// repository: the first answer of a fresh provider (starting the server,
// loading the workspace, answering) and a warm answer (the same question
// again, and a second position). The repository and the questions come
// from CODECORTEX_LSP_BENCH, "DIR FILE:LINE:COL FILE:LINE:COL"; the file's
// language picks the server. Each round starts a new provider; run it
// with -benchtime=1x for one round (see docs/benchmarks.md).
func BenchmarkLanguageServerAnswers(b *testing.B) {
	spec := strings.Fields(os.Getenv("CODECORTEX_LSP_BENCH"))
	if len(spec) != 3 {
		b.Skip(`set CODECORTEX_LSP_BENCH="DIR FILE:LINE:COL FILE:LINE:COL"`)
	}
	qs := []evidence.Query{benchPosition(b, spec[1]), benchPosition(b, spec[2])}
	var first, again, second time.Duration
	var refs int
	for b.Loop() {
		lsp := NewLSP(LSPOptions{Dir: spec[0], RequestTimeout: time.Minute, LoadTimeout: 10 * time.Minute})
		for i, d := range []*time.Duration{&first, &again, &second} {
			start := time.Now()
			resp, err := lsp.Gather(context.Background(), qs[[]int{0, 0, 1}[i]])
			if err != nil {
				b.Fatal(err)
			}
			*d += time.Since(start)
			if i == 0 {
				refs = len(resp.Records)
			}
		}
		lsp.Close()
	}
	n := float64(b.N)
	b.ReportMetric(float64(first.Milliseconds())/n, "first-ms")
	b.ReportMetric(float64(again.Milliseconds())/n, "warm-same-ms")
	b.ReportMetric(float64(second.Milliseconds())/n, "warm-other-ms")
	b.ReportMetric(float64(refs), "records")
}

// benchPosition reads FILE:LINE:COL as a definition and references
// question.
func benchPosition(b *testing.B, s string) evidence.Query {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		b.Fatalf("%q is not FILE:LINE:COL", s)
	}
	line, err1 := strconv.Atoi(parts[1])
	col, err2 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil {
		b.Fatalf("%q is not FILE:LINE:COL", s)
	}
	return evidence.Query{Path: parts[0], Line: line, Column: col,
		Kinds: []evidence.Kind{evidence.Definition, evidence.Reference}}
}

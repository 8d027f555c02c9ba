package evidence

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/codecortex/codecortex/trust"
)

// benchRecords makes n valid records over 2,000 files with realistic
// excerpts; about one in five shares its location with another record.
func benchRecords(n int) []Record {
	rng := rand.New(rand.NewPCG(1, 2))
	methods := trust.Methods()
	out := make([]Record, n)
	for i := range out {
		m := methods[rng.IntN(len(methods))]
		tier := trust.Tier(1 + rng.IntN(int(m.Ceiling())))
		line := 1 + rng.IntN(400)
		r := Record{
			Kind: Kinds()[rng.IntN(4)], Provider: string(m), Provenance: m, Trust: tier,
			Exact: tier == trust.Exact, Confidence: rng.Float64(),
			Path:      fmt.Sprintf("pkg%d/file%d.go", rng.IntN(40), rng.IntN(50)),
			StartLine: line, StartColumn: 1 + rng.IntN(40), EndLine: line, EndColumn: 60,
			Symbol:   fmt.Sprintf("scip-go gomod example.com/m v1 `example.com/m/pkg`/Sym%d#", rng.IntN(5000)),
			Metadata: Metadata{Excerpt: "func (s *Service) Refresh(ctx context.Context, token string) error {"},
		}
		if rng.IntN(10) == 0 {
			r = MarkStale(r)
		}
		out[i] = r
	}
	return out
}

// BenchmarkRankPack10k ranks and packs 10,000 records into an 8,000-token
// budget (the goal: ≤ 10 ms).
func BenchmarkRankPack10k(b *testing.B) {
	recs := benchRecords(10_000)
	b.ReportAllocs()
	for b.Loop() {
		ctx := Pack(recs, 8000)
		if ctx.Included == 0 {
			b.Fatal("nothing packed")
		}
	}
}

// BenchmarkFuseRankPack10k adds fusion in front.
func BenchmarkFuseRankPack10k(b *testing.B) {
	recs := benchRecords(10_000)
	b.ReportAllocs()
	for b.Loop() {
		Pack(Fuse(recs), 8000)
	}
}

package evidence

import (
	"math"

	"github.com/codecortex/codecortex/trust"
	"pgregory.net/rapid"
)

// genRecord draws valid records over a small location space, so that
// records often share a location and fusion has work to do.
func genRecord() *rapid.Generator[Record] {
	return rapid.Custom(func(t *rapid.T) Record {
		m := rapid.SampledFrom(trust.Methods()).Draw(t, "method")
		tier := trust.Tier(rapid.IntRange(int(trust.Weak), int(m.Ceiling())).Draw(t, "tier"))
		r := Record{
			Kind:       rapid.SampledFrom(Kinds()).Draw(t, "kind"),
			Provider:   rapid.SampledFrom([]string{"scip", "gopls", "ast", "grep", "docs"}).Draw(t, "provider"),
			Provenance: m,
			Trust:      tier,
			Exact:      tier == trust.Exact,
			Confidence: rapid.OneOf(rapid.Float64Range(0, 1), rapid.SampledFrom([]float64{0, 1, 0.5, math.Nextafter(1, 0)})).Draw(t, "confidence"),
			Symbol:     rapid.SampledFrom([]string{"", "pkg/A#", "pkg/B#", "local 1"}).Draw(t, "symbol"),
		}
		if rapid.IntRange(0, 9).Draw(t, "located") > 0 {
			r.Path = rapid.SampledFrom([]string{"a.go", "b/c.py", "日本/é.ts"}).Draw(t, "path")
			r.StartLine = rapid.IntRange(1, 3).Draw(t, "start_line")
			r.StartColumn = rapid.IntRange(1, 3).Draw(t, "start_column")
			r.EndLine = r.StartLine + rapid.IntRange(0, 1).Draw(t, "lines")
			r.EndColumn = r.StartColumn + rapid.IntRange(0, 2).Draw(t, "cols")
		}
		r.Metadata.Excerpt = rapid.StringN(0, 60, -1).Draw(t, "excerpt")
		if rapid.Bool().Draw(t, "stale") {
			r = MarkStale(r)
		}
		return r
	})
}

// flatten returns r and, recursively, every record it superseded, each
// without its superseded list, so that multisets can be compared.
func flatten(recs []Record) []Record {
	var out []Record
	for _, r := range recs {
		sup := r.Metadata.Superseded
		r.Metadata.Superseded = nil
		out = append(out, r)
		out = append(out, flatten(sup)...)
	}
	return out
}

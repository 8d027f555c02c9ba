package evidence

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestPropRankFor: RankFor orders by class first and, within one class, as
// Rank does; the order does not depend on the input's; a constant class
// ranks as Rank; PackRanked keeps the order it is given.
func TestPropRankFor(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := rapid.SliceOfN(genRecord(), 0, 25).Draw(t, "records")
		classes := rapid.IntRange(1, 3).Draw(t, "classes")
		class := func(r *Record) int { return (r.StartLine + len(r.Symbol)) % classes }
		got := RankFor(slices.Clone(in), class)
		for i := 1; i < len(got); i++ {
			a, b := &got[i-1], &got[i]
			if ca, cb := class(a), class(b); ca > cb || ca == cb && Stronger(b, a) {
				t.Fatalf("records %d and %d out of order: classes %d, %d, scores %v, %v", i-1, i, ca, cb, a.Score(), b.Score())
			}
		}
		shuffled := rapid.Permutation(slices.Clone(in)).Draw(t, "shuffled")
		if again := RankFor(shuffled, class); !slices.EqualFunc(got, again, func(a, b Record) bool {
			return a.ID() == b.ID() && a.Provider == b.Provider && a.Confidence == b.Confidence
		}) {
			t.Fatal("the order depends on the input's order")
		}
		plain := Rank(slices.Clone(in))
		if one := RankFor(slices.Clone(in), func(*Record) int { return 0 }); !slices.EqualFunc(plain, one, func(a, b Record) bool { return a.ID() == b.ID() && a.Provider == b.Provider }) {
			t.Fatal("a constant class does not rank as Rank")
		}
		ctx := PackRanked(got, 1<<20)
		for i, te := range ctx.Trace {
			if te.Rank != i+1 || !te.Included || te.Provider != got[i].Provider {
				t.Fatalf("trace entry %d: %+v, want the record ranked %d", i, te, i+1)
			}
		}
	})
}

package evidence

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/codecortex/codecortex/trust"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"
)

// canonical sorts a flattened multiset by JSON so two can be compared.
func canonical(t interface{ Fatal(...any) }, recs []Record) []string {
	out := make([]string, len(recs))
	for i := range recs {
		b, err := json.Marshal(recs[i])
		if err != nil {
			t.Fatal(err)
		}
		out[i] = string(b)
	}
	slices.Sort(out)
	return out
}

// Property 4 with rapid: weaker evidence is superseded, never erased; the
// result does not depend on input order; every location appears once, held
// by its strongest record; and fusion keeps every record valid.
func TestPropFuse(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := rapid.SliceOfN(genRecord(), 0, 30).Draw(t, "records")
		out := Fuse(in)
		if diff := cmp.Diff(canonical(t, in), canonical(t, flatten(out))); diff != "" {
			t.Fatalf("fusion lost or invented records (-in +out):\n%s", diff)
		}
		shuffled := slices.Clone(in)
		perm := rapid.Permutation(shuffled).Draw(t, "order")
		if diff := cmp.Diff(Fuse(in), Fuse(perm), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("fusion depends on input order (-first +permuted):\n%s", diff)
		}
		seen := map[string]bool{}
		for _, r := range out {
			if err := r.Validate(); err != nil {
				t.Fatalf("fused record invalid: %v", err)
			}
			if r.HasLocation() {
				if seen[r.Location()] {
					t.Fatalf("location %s appears twice", r.Location())
				}
				seen[r.Location()] = true
			}
			for i := range r.Metadata.Superseded {
				if Stronger(&r.Metadata.Superseded[i], &r) {
					t.Fatalf("superseded record outranks the one kept at %s", r.Location())
				}
			}
		}
	})
}

// Property 4, exhaustively over two records at one location: every tier ×
// a confidence grid × fresh/stale on each side. The stronger is kept, the
// weaker is under metadata.superseded, whole, in both input orders.
func TestFuseExhaustivePairs(t *testing.T) {
	grid := []float64{0, 0.1, 0.25, 0.5, 0.75, 0.9, 1}
	var variants []Record
	for _, tier := range trust.Tiers() {
		for _, c := range grid {
			for _, stale := range []bool{false, true} {
				r := Record{Kind: Reference, Provider: "p-" + tier.String(), Provenance: methodFor(tier),
					Trust: tier, Exact: tier == trust.Exact, Confidence: c,
					Path: "x.go", StartLine: 1, StartColumn: 1, EndLine: 1, EndColumn: 4}
				if stale {
					r = MarkStale(r)
				}
				variants = append(variants, r)
			}
		}
	}
	for i := range variants {
		for j := range variants {
			if i == j {
				continue
			}
			a, b := variants[i], variants[j]
			for _, in := range [][]Record{{a, b}, {b, a}} {
				out := Fuse(in)
				if len(out) != 1 || len(out[0].Metadata.Superseded) != 1 {
					t.Fatalf("%s + %s: got %d records", a.Provider, b.Provider, len(out))
				}
				kept, lost := a, b
				if Stronger(&b, &a) {
					kept, lost = b, a
				}
				got := out[0]
				gotLost := got.Metadata.Superseded[0]
				got.Metadata.Superseded = nil
				if diff := cmp.Diff(kept, got); diff != "" {
					t.Fatalf("kept the wrong record (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(lost, gotLost); diff != "" {
					t.Fatalf("weaker record not kept whole (-want +got):\n%s", diff)
				}
				// Stale exact never wins over fresh structural.
				if kept.Stale && kept.Metadata.StaleFrom == trust.Exact && !lost.Stale && lost.Trust == trust.Structural {
					t.Fatalf("stale exact %v beat fresh structural %v", kept.Confidence, lost.Confidence)
				}
			}
		}
	}
}

// methodFor returns a method whose ceiling is tier.
func methodFor(tier trust.Tier) trust.Method {
	for _, m := range trust.Methods() {
		if m.Ceiling() == tier {
			return m
		}
	}
	panic(fmt.Sprint("no method for ", tier))
}

// Ranking fixture. Scores (see trust.Score: (rank + 0.5*confidence) / 6,
// stale scaled by StaleFactor ≈ 0.5454):
//
//	fresh exact @0.2         (5 + 0.10) / 6 = 0.8500   rank 1
//	fresh structural @0.0    (3 + 0.00) / 6 = 0.5000   rank 2
//	stale exact @1.0         0.5454 * (5 + 0.5) / 6 ≈ 0.49999  rank 3
//	fresh inferred_high @1.0 (2 + 0.50) / 6 = 0.4167   rank 4
//	stale weak @1.0          0.5454 * (0 + 0.5) / 6 ≈ 0.0455   rank 6
//	fresh weak @0.9          (0 + 0.45) / 6 = 0.0750   rank 5
func TestRankFixture(t *testing.T) {
	mk := func(name string, m trust.Method, tier trust.Tier, c float64, stale bool, line int) Record {
		r := Record{Kind: Reference, Provider: name, Provenance: m, Trust: tier, Exact: tier == trust.Exact,
			Confidence: c, Path: "f.go", StartLine: line, StartColumn: 1, EndLine: line, EndColumn: 2}
		if stale {
			r = MarkStale(r)
		}
		return r
	}
	in := []Record{
		mk("stale-weak", trust.Lexical, trust.Weak, 1, true, 1),
		mk("fresh-weak", trust.Lexical, trust.Weak, 0.9, false, 2),
		mk("stale-exact", trust.PrecisionIndex, trust.Exact, 1, true, 3),
		mk("fresh-structural", trust.StructuralMatch, trust.Structural, 0, false, 4),
		mk("fresh-inferred-high", trust.GraphRelation, trust.InferredHigh, 1, false, 5),
		mk("fresh-exact", trust.PrecisionIndex, trust.Exact, 0.2, false, 6),
	}
	var got []string
	for _, r := range Rank(in) {
		got = append(got, r.Provider)
	}
	want := []string{"fresh-exact", "fresh-structural", "stale-exact", "fresh-inferred-high", "fresh-weak", "stale-weak"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rank order (-want +got):\n%s", diff)
	}
}

func TestPropRankDeterministic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := rapid.SliceOfN(genRecord(), 0, 25).Draw(t, "records")
		a := Rank(slices.Clone(in))
		b := Rank(rapid.Permutation(slices.Clone(in)).Draw(t, "order"))
		if diff := cmp.Diff(a, b, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("rank depends on input order:\n%s", diff)
		}
		for i := 1; i < len(a); i++ {
			if a[i].Score() > a[i-1].Score() {
				t.Fatalf("rank %d scores above rank %d", i+1, i)
			}
		}
	})
}

func TestFuseDoesNotModifyInput(t *testing.T) {
	a := goodRecord()
	b := goodRecord()
	b.Provenance, b.Trust, b.Exact, b.Provider = trust.Lexical, trust.Weak, false, "grep"
	in := []Record{b, a}
	before := canonical(t, in)
	out := Fuse(in)
	out[0].Metadata.Superseded[0].Provider = "changed"
	if diff := cmp.Diff(before, canonical(t, in)); diff != "" {
		t.Errorf("Fuse changed its input:\n%s", diff)
	}
}

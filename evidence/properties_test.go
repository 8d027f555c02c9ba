package evidence

import (
	"math"
	"testing"

	"github.com/codecortex/codecortex/trust"
	"pgregory.net/rapid"
)

// confidenceGrid is every hundredth of [0, 1] plus the float neighbours of 0
// and 1 (the trust package's own proofs use a finer grid on scores alone).
func confidenceGrid() []float64 {
	g := []float64{math.Nextafter(0, 1), math.Nextafter(1, 0)}
	for i := 0; i <= 100; i++ {
		g = append(g, float64(i)/100)
	}
	return g
}

func located(m trust.Method, tier trust.Tier, c float64) Record {
	return Record{Kind: Reference, Provider: "p", Provenance: m, Trust: tier, Exact: tier == trust.Exact,
		Confidence: c, Path: "x.go", StartLine: 1, StartColumn: 1, EndLine: 1, EndColumn: 2}
}

// Properties 2 and 3 on whole records, exhaustively: every method × every
// claimed tier × the confidence grid × exact × stale. A record validates only
// if exact and stale are not both set and its tier is within its method's
// ceiling; MarkStale never yields an exact record; and Collect lowers any
// over-claim to the ceiling.
func TestRecordPropertiesExhaustive(t *testing.T) {
	for _, m := range trust.Methods() {
		for claim := trust.Weak; claim <= trust.Exact; claim++ {
			for _, c := range confidenceGrid() {
				for _, exact := range []bool{false, true} {
					for _, stale := range []bool{false, true} {
						r := located(m, claim, c)
						r.Exact, r.Stale = exact, stale
						err := r.Validate()
						consistent := exact == (claim == trust.Exact) && !(exact && stale) && !(stale && claim == trust.Exact)
						wantOK := consistent && claim <= m.Ceiling()
						if (err == nil) != wantOK {
							t.Fatalf("%s claiming %s exact=%v stale=%v c=%v: Validate() = %v, want ok=%v", m, claim, exact, stale, c, err, wantOK)
						}
						if exact && stale && err == nil {
							t.Fatal("exact and stale both accepted")
						}
						if claim <= m.Ceiling() {
							fresh := located(m, claim, c)
							s := MarkStale(fresh)
							if s.Exact || !s.Stale || s.Validate() != nil {
								t.Fatalf("MarkStale(%s %s) = exact %v stale %v err %v", m, claim, s.Exact, s.Stale, s.Validate())
							}
						}
					}
				}
			}
		}
	}
}

// Property 1 on records, exhaustively: stale exact evidence never outranks
// fresh structural evidence, at every confidence pairing, and still
// outranks every stale record of a lower fresh tier.
func TestStaleExactRecordsExhaustive(t *testing.T) {
	grid := confidenceGrid()
	for _, c1 := range grid {
		staleExact := MarkStale(located(trust.PrecisionIndex, trust.Exact, c1))
		for _, c2 := range grid {
			freshStructural := located(trust.StructuralMatch, trust.Structural, c2)
			if Stronger(&staleExact, &freshStructural) {
				t.Fatalf("stale exact@%v outranks fresh structural@%v", c1, c2)
			}
			for tier := trust.Weak; tier < trust.Exact; tier++ {
				other := MarkStale(located(methodFor(tier), tier, c2))
				if !Stronger(&staleExact, &other) {
					t.Fatalf("stale exact@%v does not beat stale %s@%v", c1, tier, c2)
				}
			}
		}
	}
}

// The same properties with rapid, over random records.
func TestPropRecordInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := genRecord().Draw(t, "record")
		if r.Validate() != nil {
			t.Fatalf("generated record invalid: %v", r.Validate())
		}
		// Property 2: setting both exact and stale is always rejected.
		both := r
		both.Exact, both.Stale = true, true
		if both.Validate() == nil {
			t.Fatal("exact and stale both accepted")
		}
		// Property 3: raising the tier above the ceiling is always rejected.
		if c := r.Provenance.Ceiling(); c < trust.Exact && !r.Stale {
			up := r
			up.Trust = trust.Tier(rapid.IntRange(int(c)+1, int(trust.Exact)).Draw(t, "raised"))
			up.Exact = up.Trust == trust.Exact
			if up.Validate() == nil {
				t.Fatalf("%s raised to %s accepted", r.Provenance, up.Trust)
			}
		}
		// Property 1: any stale record ranks below any fresh structural one.
		if r.Stale {
			fs := located(trust.StructuralMatch, trust.Structural, rapid.Float64Range(0, 1).Draw(t, "c"))
			if Stronger(&r, &fs) {
				t.Fatalf("stale %s outranks fresh structural", r.Metadata.StaleFrom)
			}
		}
	})
}

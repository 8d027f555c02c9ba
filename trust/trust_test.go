package trust

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

func TestTierNamesRoundTrip(t *testing.T) {
	for _, tier := range Tiers() {
		b, err := tier.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Tier
		if err := back.UnmarshalText(b); err != nil || back != tier {
			t.Errorf("%s: round trip gave %v, %v", tier, back, err)
		}
	}
	for _, bad := range []string{"", "EXACT", "exact ", "nearexact", "unknown"} {
		if _, err := ParseTier(bad); err == nil {
			t.Errorf("ParseTier(%q) succeeded", bad)
		}
	}
	if _, err := Tier(0).MarshalText(); err == nil {
		t.Error("the zero tier encoded")
	}
	if _, err := Tier(7).MarshalText(); err == nil {
		t.Error("tier 7 encoded")
	}
}

func TestTiersStrongestFirst(t *testing.T) {
	want := []string{"exact", "near_exact", "structural", "inferred_high", "inferred", "weak"}
	got := Tiers()
	for i := range want {
		if got[i].String() != want[i] {
			t.Fatalf("Tiers()[%d] = %s, want %s", i, got[i], want[i])
		}
		if i > 0 && !(got[i-1] > got[i]) {
			t.Fatalf("%s does not compare stronger than %s", got[i-1], got[i])
		}
	}
}

func TestCeilings(t *testing.T) {
	want := map[Method]Tier{
		PrecisionIndex: Exact, LanguageServer: NearExact, StructuralMatch: Structural,
		SymbolIndex: Structural, VersionedDocs: Structural, Manifest: Structural, GitHistory: Structural,
		ValidationRun: Structural, GraphRelation: InferredHigh, Heuristic: Inferred,
		FallbackDocs: Inferred, Memory: Inferred, Lexical: Weak,
	}
	if len(Methods()) != len(want) {
		t.Fatalf("Methods() has %d methods, want %d", len(Methods()), len(want))
	}
	for _, m := range Methods() {
		if m.Ceiling() != want[m] {
			t.Errorf("%s ceiling = %s, want %s", m, m.Ceiling(), want[m])
		}
	}
	if Method("made-up").Valid() || Method("made-up").Ceiling() != 0 {
		t.Error("an unknown method has a ceiling")
	}
}

// Property 3, exhaustively: a provider cannot elevate its own tier. Every
// method × every claim: Clamp never raises, never exceeds the ceiling, and
// keeps any claim at or below it; CheckClaim rejects exactly the claims
// above it.
func TestNoElevationExhaustive(t *testing.T) {
	for _, m := range append(Methods(), "made-up") {
		for claim := Tier(0); claim <= Exact+1; claim++ {
			got := Clamp(m, claim)
			if got > claim {
				t.Errorf("Clamp(%s, %s) = %s raised the claim", m, claim, got)
			}
			if got > m.Ceiling() {
				t.Errorf("Clamp(%s, %s) = %s is above the ceiling %s", m, claim, got, m.Ceiling())
			}
			if claim <= m.Ceiling() && got != claim {
				t.Errorf("Clamp(%s, %s) = %s lowered a claim within the ceiling", m, claim, got)
			}
			err := CheckClaim(m, claim)
			if wantErr := !m.Valid() || claim > m.Ceiling(); (err != nil) != wantErr {
				t.Errorf("CheckClaim(%s, %s) = %v, want error %v", m, claim, err, wantErr)
			}
		}
	}
}

// The bounds are constants equal to the scores they name, so the proofs
// below are about the scores Score really gives.
func TestBoundsAreTheScores(t *testing.T) {
	if MaxScore != fresh(Exact, 1) {
		t.Errorf("MaxScore = %v, want fresh(Exact, 1) = %v", MaxScore, fresh(Exact, 1))
	}
	if MinFreshStructural != fresh(Structural, 0) {
		t.Errorf("MinFreshStructural = %v, want fresh(Structural, 0) = %v", MinFreshStructural, fresh(Structural, 0))
	}
	for _, tier := range Tiers() {
		for _, c := range []float64{0, 0.5, 1} {
			if s := Score(tier, c, false); s > MaxScore {
				t.Errorf("Score(%s, %v) = %v above MaxScore %v", tier, c, s, MaxScore)
			}
		}
	}
}

func TestStaleFactorDerivedFromBound(t *testing.T) {
	bound := MinFreshStructural / MaxScore
	if !(StaleFactor() < bound) {
		t.Fatalf("StaleFactor %v is not below the bound %v", StaleFactor(), bound)
	}
	if !(StaleFactor()*MaxScore < MinFreshStructural) {
		t.Fatalf("StaleFactor*MaxScore = %v reaches MinFreshStructural %v", StaleFactor()*MaxScore, MinFreshStructural)
	}
	// Derived, not chosen: the next float up would break the bound.
	if next := math.Nextafter(StaleFactor(), 1); next*MaxScore < MinFreshStructural && next < bound {
		t.Errorf("StaleFactor %v is not the largest factor below the bound; %v also works", StaleFactor(), next)
	}
	if StaleFactor() <= 0 {
		t.Fatal("StaleFactor must be positive to keep stale records ordered")
	}
}

// Property 1, exhaustively: over every tier × the dense confidence grid ×
// fresh/stale, stale evidence of any tier (stale exact above all) never
// outranks fresh structural evidence; stale scores keep the order of the
// tiers they had while fresh, so a stale exact result beats a stale guess;
// and fresh tiers never overlap.
func TestScoreInvariantsExhaustive(t *testing.T) {
	grid := confidenceGrid()
	for _, tier := range Tiers() {
		for _, stale := range []bool{false, true} {
			for _, c := range grid {
				s := Score(tier, c, stale)
				if math.IsNaN(s) || s < 0 || s > MaxScore {
					t.Fatalf("Score(%s, %v, %v) = %v out of [0, MaxScore]", tier, c, stale, s)
				}
			}
		}
	}
	for _, t1 := range Tiers() {
		for _, t2 := range Tiers() {
			for _, c1 := range grid {
				staleScore := Score(t1, c1, true)
				fresh1 := Score(t1, c1, false)
				for _, c2 := range grid {
					if s := Score(Structural, c2, false); !(staleScore < s) {
						t.Fatalf("stale %s@%v (%v) outranks fresh structural@%v (%v)", t1, c1, staleScore, c2, s)
					}
					if t1 > t2 {
						if s := Score(t2, c2, true); !(staleScore > s) {
							t.Fatalf("stale %s@%v (%v) does not beat stale %s@%v (%v)", t1, c1, staleScore, t2, c2, s)
						}
						if s := Score(t2, c2, false); !(fresh1 > s) {
							t.Fatalf("fresh %s@%v (%v) does not beat fresh %s@%v (%v)", t1, c1, fresh1, t2, c2, s)
						}
					}
				}
			}
		}
	}
}

func TestScoreMonotoneInConfidence(t *testing.T) {
	grid := confidenceGrid()
	for _, tier := range Tiers() {
		for _, stale := range []bool{false, true} {
			for i := range grid {
				for j := range grid {
					if grid[i] < grid[j] && Score(tier, grid[i], stale) > Score(tier, grid[j], stale) {
						t.Fatalf("%s stale=%v: score falls from %v to %v", tier, stale, grid[i], grid[j])
					}
				}
			}
		}
	}
}

func TestScoreTotalOnBadInput(t *testing.T) {
	for _, c := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -0.5, 7} {
		s := Score(Exact, c, false)
		if math.IsNaN(s) || s < 0 || s > MaxScore {
			t.Errorf("Score(exact, %v) = %v", c, s)
		}
	}
	if Score(0, 1, false) != 0 {
		t.Error("an invalid tier scores above 0")
	}
}

func TestEffective(t *testing.T) {
	for _, tier := range Tiers() {
		if Effective(tier, false) != tier {
			t.Errorf("fresh %s reads as %s", tier, Effective(tier, false))
		}
		want := tier
		if tier == Exact {
			want = InferredHigh
		}
		if Effective(tier, true) != want {
			t.Errorf("stale %s reads as %s, want %s", tier, Effective(tier, true), want)
		}
	}
}

func drawTier(t *rapid.T, label string) Tier {
	return rapid.SampledFrom(Tiers()).Draw(t, label)
}

func drawConfidence(t *rapid.T, label string) float64 {
	return rapid.OneOf(
		rapid.Float64Range(0, 1),
		rapid.SampledFrom([]float64{0, 1, math.Nextafter(0, 1), math.Nextafter(1, 0)}),
	).Draw(t, label)
}

// Property 1 with rapid: any stale record scores below any fresh structural
// one, and stale records keep their fresh tiers' order.
func TestPropStaleBelowFreshStructural(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		t1, t2 := drawTier(t, "stale_tier"), drawTier(t, "other_tier")
		c1, c2 := drawConfidence(t, "c1"), drawConfidence(t, "c2")
		if Score(t1, c1, true) >= Score(Structural, c2, false) {
			t.Fatalf("stale %s@%v outranks fresh structural@%v", t1, c1, c2)
		}
		if t1 > t2 && Score(t1, c1, true) <= Score(t2, c2, true) {
			t.Fatalf("stale %s@%v does not beat stale %s@%v", t1, c1, t2, c2)
		}
		if t1 > t2 && Score(t1, c1, false) <= Score(t2, c2, false) {
			t.Fatalf("fresh %s@%v does not beat fresh %s@%v", t1, c1, t2, c2)
		}
	})
}

// Property 3 with rapid.
func TestPropNoElevation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := rapid.SampledFrom(Methods()).Draw(t, "method")
		claim := rapid.Custom(func(t *rapid.T) Tier { return Tier(rapid.IntRange(0, 8).Draw(t, "tier")) }).Draw(t, "claim")
		got := Clamp(m, claim)
		if got > claim || got > m.Ceiling() {
			t.Fatalf("Clamp(%s, %s) = %s", m, claim, got)
		}
	})
}

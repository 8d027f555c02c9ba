package trust

import "math"

// BandWidth is the share of a tier's unit interval that confidence may move a
// fresh score. It is below 1 so that adjacent tiers' bands never touch: the
// strongest record of one tier still scores strictly below the weakest
// record of the next.
const BandWidth = 0.5

// Score returns the ranking score of evidence at tier t with confidence c in
// [0, 1]; stale scales the score by [StaleFactor]. A confidence outside [0, 1]
// is clamped into it and NaN counts as 0; records are validated before they
// are scored, so this only keeps Score total.
//
// The score orders results and fills budgets. It is not a probability.
func Score(t Tier, c float64, stale bool) float64 {
	s := fresh(t, c)
	if stale {
		s *= staleFactor
	}
	return s
}

// fresh places tier t's scores in [rank, rank+BandWidth] / 6, where rank is
// 0 for weak and 5 for exact; an invalid tier scores 0.
func fresh(t Tier, c float64) float64 {
	if !t.Valid() {
		return 0
	}
	switch {
	case !(c >= 0): // also NaN
		c = 0
	case c > 1:
		c = 1
	}
	return (float64(t-Weak) + BandWidth*c) / float64(len(tiers))
}

// MaxScore is the highest score any record can reach: fresh exact at
// confidence 1. It is a constant, so no importer can move the bound the
// invariants are proven against.
const MaxScore = (float64(Exact-Weak) + BandWidth) / float64(Exact)

// MinFreshStructural is the weakest score a fresh structural record can
// reach: confidence 0.
const MinFreshStructural = float64(Structural-Weak) / float64(Exact)

// StaleFactor returns the multiplier of stale evidence's score. It is
// derived from the bound the spec states rather than chosen: the largest
// float64 f such that f*MaxScore, rounded as the hardware rounds it, is
// still strictly below MinFreshStructural. Every stale score is at most
// f*MaxScore, so stale evidence of any tier and confidence ranks below every
// fresh structural record, and because it scales rather than clamps, stale
// records keep their order among themselves. It is a function rather than a
// variable so that no importer can reassign it.
func StaleFactor() float64 { return staleFactor }

var staleFactor = deriveStaleFactor(MinFreshStructural, MaxScore)

func deriveStaleFactor(bound, max float64) float64 {
	f := math.Nextafter(bound/max, 0)
	for f*max >= bound {
		f = math.Nextafter(f, 0)
	}
	return f
}

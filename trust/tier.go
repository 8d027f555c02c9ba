package trust

import "fmt"

// Tier is a categorical strength of evidence. Larger values are stronger; the
// zero value is not a tier.
type Tier uint8

// The six tiers, weakest first so that a stronger tier compares greater.
const (
	Weak Tier = iota + 1
	Inferred
	InferredHigh
	Structural
	NearExact
	Exact
)

// Tiers lists every tier from strongest to weakest.
var tiers = [...]Tier{Exact, NearExact, Structural, InferredHigh, Inferred, Weak}

// Tiers returns every tier from strongest to weakest.
func Tiers() []Tier { return append([]Tier(nil), tiers[:]...) }

var tierNames = [...]string{
	Weak:         "weak",
	Inferred:     "inferred",
	InferredHigh: "inferred_high",
	Structural:   "structural",
	NearExact:    "near_exact",
	Exact:        "exact",
}

// Valid reports whether t is one of the six tiers.
func (t Tier) Valid() bool { return t >= Weak && t <= Exact }

// String returns the tier's wire name, such as "near_exact".
func (t Tier) String() string {
	if !t.Valid() {
		return fmt.Sprintf("Tier(%d)", uint8(t))
	}
	return tierNames[t]
}

// ParseTier returns the tier with the given wire name.
func ParseTier(s string) (Tier, error) {
	for t := Weak; t <= Exact; t++ {
		if tierNames[t] == s {
			return t, nil
		}
	}
	return 0, fmt.Errorf("trust: unknown tier %q", s)
}

// MarshalText encodes the tier as its wire name.
func (t Tier) MarshalText() ([]byte, error) {
	if !t.Valid() {
		return nil, fmt.Errorf("trust: cannot encode invalid tier %d", uint8(t))
	}
	return []byte(tierNames[t]), nil
}

// UnmarshalText decodes a wire name.
func (t *Tier) UnmarshalText(b []byte) error {
	v, err := ParseTier(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// Effective returns the tier that evidence produced at tier t reads as when
// stale is set: exact evidence that is no longer fresh reads as
// inferred_high; every other tier is unchanged.
func Effective(t Tier, stale bool) Tier {
	if stale && t == Exact {
		return InferredHigh
	}
	return t
}

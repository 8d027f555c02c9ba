package memory

import (
	"math"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

var genType = rapid.SampledFrom(Types())

// genAge draws an age from zero to ten years, in nanoseconds, with the
// interesting ones (zero, exact half-lives) likely.
var genAge = rapid.Custom(func(t *rapid.T) time.Duration {
	switch rapid.IntRange(0, 3).Draw(t, "shape") {
	case 0:
		return 0
	case 1:
		return time.Duration(rapid.IntRange(0, 40).Draw(t, "halflives")) * 90 * day / 2
	default:
		return time.Duration(rapid.Int64Range(0, int64(3650*day)).Draw(t, "ns"))
	}
})

// Decay never rises with age, stays in (0, 1], and is 1 when new.
func TestDecayMonotone(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		typ := genType.Draw(t, "type")
		a, b := genAge.Draw(t, "a"), genAge.Draw(t, "b")
		if a > b {
			a, b = b, a
		}
		ca, cb := Decay(typ, a), Decay(typ, b)
		if ca < cb {
			t.Fatalf("%s: Decay(%v) = %v < Decay(%v) = %v", typ, a, ca, b, cb)
		}
		for _, c := range []float64{ca, cb} {
			if !(c > 0 && c <= 1) || math.IsNaN(c) {
				t.Fatalf("%s: confidence %v outside (0, 1]", typ, c)
			}
		}
		if Decay(typ, 0) != 1 {
			t.Fatalf("%s: a new entry has confidence %v", typ, Decay(typ, 0))
		}
		if neg := -time.Duration(rapid.Int64Range(1, math.MaxInt64).Draw(t, "neg")); Decay(typ, neg) != 1 {
			t.Fatalf("%s: an entry from the future has confidence %v", typ, Decay(typ, neg))
		}
	})
}

// After k half-lives, exactly 0.5^k is left; and decay over a+b is decay
// over a times decay over b (it is exponential, not stepped or linear).
func TestDecayHalfLifeExact(t *testing.T) {
	for _, tc := range []struct {
		typ Type
		hl  time.Duration
	}{{Decision, 180 * day}, {Gotcha, 90 * day}, {Failure, 90 * day}} {
		if got := tc.typ.HalfLife(); got != tc.hl {
			t.Errorf("%s half-life = %v, want %v", tc.typ, got, tc.hl)
		}
		for k := 0; k <= 60; k++ {
			if got, want := Decay(tc.typ, time.Duration(k)*tc.hl), math.Pow(0.5, float64(k)); got != want {
				t.Errorf("%s after %d half-lives = %v, want exactly %v", tc.typ, k, got, want)
			}
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		typ := rapid.SampledFrom([]Type{Decision, Gotcha, Failure}).Draw(t, "type")
		a := time.Duration(rapid.Int64Range(0, int64(2000*day)).Draw(t, "a"))
		b := time.Duration(rapid.Int64Range(0, int64(2000*day)).Draw(t, "b"))
		got, want := Decay(typ, a+b), Decay(typ, a)*Decay(typ, b)
		if math.Abs(got-want) > 1e-12*math.Max(want, 1e-300) && math.Abs(got-want) > 1e-300 {
			t.Fatalf("%s: Decay(a+b) = %v, Decay(a)·Decay(b) = %v", typ, got, want)
		}
	})
}

// Conventions never decay and are never stale.
func TestConventionsNeverDecay(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		age := time.Duration(rapid.Int64Range(math.MinInt64, math.MaxInt64).Draw(t, "age"))
		e := Entry{Type: Convention, Created: t0}
		if Decay(Convention, age) != 1 || e.Stale(t0.Add(age)) {
			t.Fatalf("a convention decayed at age %v: %v", age, Decay(Convention, age))
		}
	})
}

// An entry is flagged stale exactly when its confidence is below 30 %:
// decisions after log2(1/0.3) half-lives (about 312.65 days), gotchas and
// failures after about 156.33 days, and on both sides of the threshold to
// the nanosecond.
func TestStaleThreshold(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		typ := genType.Draw(t, "type")
		age := genAge.Draw(t, "age")
		e := Entry{Type: typ, Created: t0}
		now := t0.Add(age)
		if e.Stale(now) != (e.Confidence(now) < StaleBelow) {
			t.Fatalf("%s at %v: stale %v, confidence %v", typ, age, e.Stale(now), e.Confidence(now))
		}
	})
	for _, typ := range []Type{Decision, Gotcha, Failure} {
		hl := typ.HalfLife()
		cross := time.Duration(math.Log2(1/StaleBelow) * float64(hl))
		// Find the first stale nanosecond near the computed crossing.
		lo, hi := cross-time.Second, cross+time.Second
		for lo+1 < hi {
			mid := lo + (hi-lo)/2
			if Decay(typ, mid) < StaleBelow {
				hi = mid
			} else {
				lo = mid
			}
		}
		e := Entry{Type: typ, Created: t0}
		if e.Stale(t0.Add(lo)) || !e.Stale(t0.Add(hi)) {
			t.Errorf("%s: stale at %v = %v, at %v = %v", typ, lo, e.Stale(t0.Add(lo)), hi, e.Stale(t0.Add(hi)))
		}
		wantDays := map[Type]float64{Decision: 312.654, Gotcha: 156.327, Failure: 156.327}[typ]
		if d := float64(hi) / float64(day); math.Abs(d-wantDays) > 0.001 {
			t.Errorf("%s turns stale after %.2f days, want about %.3f", typ, d, wantDays)
		}
	}
}

var genEntry = rapid.Custom(func(t *rapid.T) Entry {
	word := rapid.StringMatching(`[a-zA-Z][a-zA-Z0-9_.]{0,10}`)
	return Entry{
		Type:    genType.Draw(t, "type"),
		Text:    rapid.StringMatching(`[a-z][a-z ]{0,30}[a-z]`).Draw(t, "text"),
		Reason:  rapid.StringMatching(`([a-z][a-z ]{0,20}[a-z])?`).Draw(t, "reason"),
		Scope:   Scope{Paths: rapid.SliceOfN(rapid.StringMatching(`[a-z]{1,4}(/[a-z]{1,4}){0,2}`), 0, 3).Draw(t, "paths"), Symbols: rapid.SliceOfN(word, 0, 3).Draw(t, "symbols")},
		Author:  rapid.StringMatching(`[A-Z][a-z]{1,8}`).Draw(t, "author"),
		Created: t0.Add(time.Duration(rapid.Int64Range(-int64(1000*day), int64(1000*day)).Draw(t, "created"))),
	}
})

// The digest is a function of the content: the order of the scope does not
// change it, and any change of content does; the id derives from it, and
// an encoded entry parses back to itself.
func TestDigestProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		e := genEntry.Draw(t, "entry")
		e.normalize()
		if e.Validate() != nil {
			t.Skip("not a valid entry")
		}
		e.Digest = e.ComputeDigest()
		e.ID = IDFor(e.Digest)
		if !ValidID(e.ID) || !strings.HasPrefix(e.Digest, "sha256:") || len(e.Digest) != 71 {
			t.Fatalf("id %q digest %q", e.ID, e.Digest)
		}
		shuffled := e
		shuffled.Scope.Paths = rapid.Permutation(e.Scope.Paths).Draw(t, "paths order")
		shuffled.Scope.Symbols = rapid.Permutation(e.Scope.Symbols).Draw(t, "symbols order")
		if shuffled.ComputeDigest() != e.Digest {
			t.Fatalf("scope order changed the digest")
		}
		changed := e
		switch rapid.IntRange(0, 5).Draw(t, "field") {
		case 0:
			changed.Text += "!"
		case 1:
			changed.Reason += "!"
		case 2:
			changed.Author += "x"
		case 3:
			changed.Created = changed.Created.Add(time.Nanosecond)
		case 4:
			changed.Scope.Paths = append(append([]string(nil), changed.Scope.Paths...), "zz/new")
		case 5:
			changed.Type = Types()[(slicesIndex(Types(), e.Type)+1)%4]
		}
		if changed.ComputeDigest() == e.Digest {
			t.Fatalf("a change of content kept the digest")
		}
		back, err := ParseEntry(encodeEntry(&e))
		if err != nil {
			t.Fatalf("ParseEntry(encodeEntry(e)) = %v", err)
		}
		if back.Digest != e.Digest || back.ID != e.ID || !back.Created.Equal(e.Created) {
			t.Fatalf("round trip changed the entry: %+v vs %+v", back, e)
		}
	})
}

func slicesIndex(ts []Type, t Type) int {
	for i, x := range ts {
		if x == t {
			return i
		}
	}
	return -1
}

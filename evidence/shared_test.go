package evidence

import (
	"maps"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// genAttributed draws records whose attributes come from a small space, so
// that a provider's records often share some and differ in others.
func genAttributed() *rapid.Generator[Record] {
	return rapid.Custom(func(t *rapid.T) Record {
		r := genRecord().Draw(t, "record")
		n := rapid.IntRange(0, 4).Draw(t, "attributes")
		if n > 0 {
			r.Metadata.Attributes = map[string]string{}
		}
		for range n {
			k := rapid.SampledFrom([]string{"encoding", "relation", "package", "declaration"}).Draw(t, "key")
			r.Metadata.Attributes[k] = rapid.SampledFrom([]string{"utf-8", "implements", "true", ""}).Draw(t, "value")
		}
		return r
	})
}

// TestPropShareAttributes: what is shared is carried alike by every record
// of its provider and leaves them; restoring it gives back the records
// given; the records given are not changed.
func TestPropShareAttributes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := rapid.SliceOfN(genAttributed(), 0, 12).Draw(t, "records")
		before := make([]map[string]string, len(in))
		for i := range in {
			before[i] = maps.Clone(in[i].Metadata.Attributes)
		}
		shared, out := ShareAttributes(in)
		for i := range in {
			if !maps.Equal(before[i], in[i].Metadata.Attributes) {
				t.Fatalf("record %d's attributes changed: %v, were %v", i, in[i].Metadata.Attributes, before[i])
			}
		}
		perProvider := map[string]int{}
		for _, r := range in {
			perProvider[r.Provider]++
		}
		for p, common := range shared {
			if perProvider[p] < 2 || len(common) == 0 {
				t.Fatalf("provider %s shares %v over %d records", p, common, perProvider[p])
			}
			for i, r := range in {
				for k, v := range common {
					if r.Provider == p && r.Metadata.Attributes[k] != v {
						t.Fatalf("record %d does not carry shared %s=%s", i, k, v)
					}
					if r.Provider == p {
						if _, ok := out[i].Metadata.Attributes[k]; ok {
							t.Fatalf("record %d keeps shared attribute %s", i, k)
						}
					}
				}
			}
		}
		back := shared.Restore(out)
		if !slices.EqualFunc(in, back, func(a, b Record) bool {
			return a.ID() == b.ID() && a.Provider == b.Provider &&
				maps.Equal(a.Metadata.Attributes, b.Metadata.Attributes)
		}) {
			t.Fatalf("restored records differ:\n%v\n%v", in, back)
		}
	})
}

// TestShareAttributesKeepsDifferences: an attribute one record lacks or
// holds differently is not shared, and a provider with one record shares
// nothing.
func TestShareAttributesKeepsDifferences(t *testing.T) {
	recs := []Record{
		{Provider: "precision", Metadata: Metadata{Attributes: map[string]string{"encoding": "utf-8", "relation": "implements", "candidates": "4"}}},
		{Provider: "precision", Metadata: Metadata{Attributes: map[string]string{"encoding": "utf-8", "relation": "implements", "candidates": "5"}}},
		{Provider: "precision", Metadata: Metadata{Attributes: map[string]string{"encoding": "utf-8", "relation": "implements"}}},
		{Provider: "graph", Metadata: Metadata{Attributes: map[string]string{"encoding": "utf-8"}}},
	}
	shared, out := ShareAttributes(recs)
	want := Shared{"precision": {"encoding": "utf-8", "relation": "implements"}}
	if len(shared) != 1 || !maps.Equal(shared["precision"], want["precision"]) {
		t.Fatalf("shared = %v, want %v", shared, want)
	}
	if got := out[0].Metadata.Attributes; !maps.Equal(got, map[string]string{"candidates": "4"}) {
		t.Errorf("first record keeps %v, want its candidates only", got)
	}
	if out[2].Metadata.Attributes != nil {
		t.Errorf("a record left with no attribute has %v, want none", out[2].Metadata.Attributes)
	}
	if got := out[3].Metadata.Attributes; !maps.Equal(got, recs[3].Metadata.Attributes) {
		t.Errorf("the graph's one record lost attributes: %v", got)
	}
}

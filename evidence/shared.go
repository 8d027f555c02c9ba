package evidence

import "maps"

// Shared is what an answer writes once instead of in each of its records:
// by provider, the attributes that every record of that provider carries
// with the same value (an index's position encoding, the interface all the
// implementations implement). A record's facts are its own attributes with
// its provider's shared ones added; [Shared.Restore] puts them back.
type Shared map[string]map[string]string

// ShareAttributes returns the attributes shared by the records of each
// provider that has at least two of recs, and recs without them: copies
// whose attribute maps are new (recs and their maps are unchanged; a record
// left with no attribute has none). Providers with one record, and
// attributes that differ or are missing in one record, stay in the records.
// Superseded records are not consulted; they keep their attributes.
func ShareAttributes(recs []Record) (Shared, []Record) {
	count := map[string]int{}
	shared := Shared{}
	for i := range recs {
		p := recs[i].Provider
		count[p]++
		attrs := recs[i].Metadata.Attributes
		common, seen := shared[p]
		if !seen {
			shared[p] = maps.Clone(attrs)
			continue
		}
		for k, v := range common {
			if w, ok := attrs[k]; !ok || w != v {
				delete(common, k)
			}
		}
	}
	for p, common := range shared {
		if count[p] < 2 || len(common) == 0 {
			delete(shared, p)
		}
	}
	if len(shared) == 0 {
		return nil, recs
	}
	out := make([]Record, len(recs))
	for i, r := range recs {
		if common := shared[r.Provider]; common != nil {
			attrs := make(map[string]string, len(r.Metadata.Attributes)-len(common))
			for k, v := range r.Metadata.Attributes {
				if _, ok := common[k]; !ok {
					attrs[k] = v
				}
			}
			if len(attrs) == 0 {
				attrs = nil
			}
			r.Metadata.Attributes = attrs
		}
		out[i] = r
	}
	return shared, out
}

// Restore returns recs with their providers' shared attributes added back,
// as copies: the records [ShareAttributes] was given.
func (s Shared) Restore(recs []Record) []Record {
	out := make([]Record, len(recs))
	for i, r := range recs {
		if common := s[r.Provider]; len(common) > 0 {
			attrs := maps.Clone(r.Metadata.Attributes)
			if attrs == nil {
				attrs = make(map[string]string, len(common))
			}
			maps.Copy(attrs, common)
			r.Metadata.Attributes = attrs
		}
		out[i] = r
	}
	return out
}

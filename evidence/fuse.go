package evidence

import (
	"cmp"
	"slices"
)

// Fuse merges records that point at the same location (the same path and
// range): the strongest, by [Rank] order, is kept, and every weaker one is
// stored whole in its Metadata.Superseded, strongest first, so conflicts stay
// visible. Weaker evidence is superseded, never erased: the records in the
// result, counted with everything under their Superseded, are exactly the
// input. Records without a location are never merged.
//
// The result is ranked and does not depend on the order of the input. The
// input slice is not modified.
func Fuse(records []Record) []Record {
	// Sort indices by location so that each group is one run.
	idx := make([]int, len(records))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return compareLocation(&records[a], &records[b]) })

	out := make([]Record, 0, len(records))
	for start := 0; start < len(idx); {
		end := start + 1
		first := &records[idx[start]]
		if first.HasLocation() {
			for end < len(idx) && compareLocation(first, &records[idx[end]]) == 0 {
				end++
			}
		}
		if end-start == 1 {
			out = append(out, cloneRecord(*first))
			start = end
			continue
		}
		group := make([]Record, 0, end-start)
		for _, i := range idx[start:end] {
			group = append(group, records[i])
		}
		Rank(group)
		winner := cloneRecord(group[0])
		winner.Metadata.Superseded = Rank(append(winner.Metadata.Superseded, group[1:]...))
		out = append(out, winner)
		start = end
	}
	return Rank(out)
}

// compareLocation orders records by path and range; records without a
// location sort first and never compare equal to a located one.
func compareLocation(a, b *Record) int {
	if c := cmp.Compare(a.Path, b.Path); c != 0 {
		return c
	}
	for _, p := range [...][2]int{
		{a.StartLine, b.StartLine}, {a.StartColumn, b.StartColumn},
		{a.EndLine, b.EndLine}, {a.EndColumn, b.EndColumn},
	} {
		if c := cmp.Compare(p[0], p[1]); c != 0 {
			return c
		}
	}
	return 0
}

// cloneRecord copies r so that the result's slices and maps can be changed
// without touching the caller's record.
func cloneRecord(r Record) Record {
	r.Metadata.Superseded = slices.Clone(r.Metadata.Superseded)
	if r.Metadata.Attributes != nil {
		m := make(map[string]string, len(r.Metadata.Attributes))
		for k, v := range r.Metadata.Attributes {
			m[k] = v
		}
		r.Metadata.Attributes = m
	}
	return r
}

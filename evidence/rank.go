package evidence

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"
)

// Rank sorts records in place, strongest first, and returns them. The order
// is total and deterministic: by score, then tier, confidence, location,
// kind, method, provider, symbols, and finally the records' JSON encoding,
// so equal inputs in any order rank the same.
func Rank(records []Record) []Record {
	if len(records) < 2 {
		return records
	}
	order := rankOrder(records)
	out := make([]Record, len(records))
	for i, k := range order {
		out[i] = records[k]
	}
	copy(records, out)
	return records
}

// RankFor sorts records in place for one question and returns them. class
// says how well a record answers the question asked, 0 for the best fit
// (a definition of the name asked about, when the question asks where it
// is defined): a record of a lower class ranks before every record of a
// higher class, whatever their tiers, and within one class [Rank]'s order
// holds. A nil class ranks as Rank does.
func RankFor(records []Record, class func(*Record) int) []Record {
	if class == nil || len(records) < 2 {
		return Rank(records)
	}
	keyed := make([]ranked, len(records))
	classes := make([]int, len(records))
	for i := range records {
		keyed[i] = ranked{score: records[i].Score(), rec: &records[i], index: i}
		classes[i] = class(&records[i])
	}
	slices.SortFunc(keyed, func(a, b ranked) int {
		if c := cmp.Compare(classes[a.index], classes[b.index]); c != 0 {
			return c
		}
		return compareRanked(a, b)
	})
	out := make([]Record, len(records))
	for i, k := range keyed {
		out[i] = records[k.index]
	}
	copy(records, out)
	return records
}

// rankOrder returns the indices of records in rank order, leaving the
// records where they are.
func rankOrder(records []Record) []int {
	keyed := make([]ranked, len(records))
	for i := range records {
		keyed[i] = ranked{score: records[i].Score(), rec: &records[i], index: i}
	}
	slices.SortFunc(keyed, compareRanked)
	order := make([]int, len(keyed))
	for i, k := range keyed {
		order[i] = k.index
	}
	return order
}

type ranked struct {
	score float64
	rec   *Record
	index int
}

func compareRanked(a, b ranked) int {
	if c := cmp.Compare(b.score, a.score); c != 0 {
		return c
	}
	return compareRecords(a.rec, b.rec)
}

// Stronger reports whether a ranks before b.
func Stronger(a, b *Record) bool {
	return compareRanked(ranked{score: a.Score(), rec: a}, ranked{score: b.Score(), rec: b}) < 0
}

// compareRecords breaks ties between records of equal score: stronger tier
// and higher confidence first, then lexical order of the identifying fields.
func compareRecords(a, b *Record) int {
	if c := cmp.Compare(b.Trust, a.Trust); c != 0 {
		return c
	}
	if c := cmp.Compare(b.Confidence, a.Confidence); c != 0 {
		return c
	}
	if c := compareLocation(a, b); c != 0 {
		return c
	}
	for _, s := range [...][2]string{
		{string(a.Kind), string(b.Kind)}, {string(a.Provenance), string(b.Provenance)},
		{a.Provider, b.Provider}, {a.Symbol, b.Symbol}, {a.TargetSymbol, b.TargetSymbol},
	} {
		if c := cmp.Compare(s[0], s[1]); c != 0 {
			return c
		}
	}
	// Identical in every ranked field: fall back to the full encoding so the
	// order stays total. This is rare and only then pays for marshalling.
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Compare(ja, jb)
}

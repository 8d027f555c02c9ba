package evidence

import "fmt"

// LocationCheck returns a check for [CollectOptions].Check that passes a
// record without a location and refuses one whose path inside rejects. A
// host passes its project root's containment check, so that a record
// reported outside the root is dropped, with its reason in the provider's
// report, rather than acted on.
func LocationCheck(inside func(path string) error) func(*Record) error {
	return func(r *Record) error {
		if !r.HasLocation() {
			return nil
		}
		return inside(r.Path)
	}
}

// Keep returns the records of recs that check accepts, and one reason for
// each record it dropped. recs is not modified.
func Keep(recs []Record, check func(*Record) error) (kept []Record, dropped []string) {
	kept = recs[:0:0]
	for i := range recs {
		if err := check(&recs[i]); err != nil {
			dropped = append(dropped, fmt.Sprintf("%s %s: %v", recs[i].ID(), recs[i].Location(), err))
			continue
		}
		kept = append(kept, recs[i])
	}
	return kept, dropped
}

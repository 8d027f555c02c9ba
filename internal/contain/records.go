package contain

import (
	"fmt"

	"github.com/codecortex/codecortex/evidence"
)

// CheckRecord returns an error when rec points at a location outside the
// root (lexically or through a symbolic link). Records without a location
// pass. It fits [evidence.CollectOptions].Check, so a match reported outside
// the root is dropped, with its reason in the provider's report, rather than
// acted on.
func (r *Root) CheckRecord(rec *evidence.Record) error {
	if !rec.HasLocation() {
		return nil
	}
	_, err := r.Rel(rec.Path)
	return err
}

// KeepInside returns the records of recs that [Root.CheckRecord] accepts and
// one reason for each record it dropped.
func (r *Root) KeepInside(recs []evidence.Record) (kept []evidence.Record, dropped []string) {
	kept = recs[:0:0]
	for i := range recs {
		if err := r.CheckRecord(&recs[i]); err != nil {
			dropped = append(dropped, fmt.Sprintf("%s %s: %v", recs[i].ID(), recs[i].Location(), err))
			continue
		}
		kept = append(kept, recs[i])
	}
	return kept, dropped
}

package precision

import (
	"context"
	"fmt"
	"strings"

	"github.com/codecortex/codecortex/evidence"
)

// MaxSymbolRecords bounds the records [Provider.SearchSymbols] returns.
const MaxSymbolRecords = 1000

// SearchSymbols returns the definitions and references of every global
// symbol each name may mean ([Index.LookupName]: two packages exporting
// the name are two symbols), as [Provider.Gather] produces them: exact when
// the index is fresh, marked stale with reindex guidance when it is not.
// Names are resolved by the index, never by text. At most
// [MaxSymbolRecords] records are returned; the report says when more were
// left off. It implements structural.SymbolSearcher, the symbol half of
// the structural fallback.
func (p *Provider) SearchSymbols(ctx context.Context, names []string) (evidence.Response, error) {
	return p.searchSymbols(ctx, names, MaxSymbolRecords)
}

func (p *Provider) searchSymbols(ctx context.Context, names []string, limit int) (evidence.Response, error) {
	snap, err := p.acquire(ctx)
	if err != nil {
		return evidence.Response{}, err
	}
	q := evidence.Query{Kinds: []evidence.Kind{evidence.Definition, evidence.Reference}}
	seen := map[string]bool{}
	var recs []evidence.Record
	total, found := 0, 0
	for _, name := range names {
		for _, c := range snap.ix.LookupName(name) {
			if err := ctx.Err(); err != nil {
				return evidence.Response{}, err
			}
			if seen[c.Symbol.Name] {
				continue
			}
			seen[c.Symbol.Name] = true
			found++
			rs := snap.ix.answer(c.Symbol, &q, false) // the definitions are there already
			total += len(rs)
			if room := limit - len(recs); room > 0 {
				recs = append(recs, rs[:min(room, len(rs))]...)
			}
		}
	}
	rep := evidence.Report{Provider: Name, State: evidence.Available}
	if snap.stale.Stale {
		for i := range recs {
			recs[i] = evidence.MarkStale(recs[i])
		}
		rep.State, rep.Reason, rep.Guidance = evidence.StaleState, snap.stale.Reason, p.guidance(snap.ix, snap.rel)
	}
	var notes []string
	if found == 0 {
		notes = append(notes, "the index has no symbol named "+strings.Join(names, ", "))
	}
	if total > len(recs) {
		notes = append(notes, fmt.Sprintf("stopped after %d of %d records (limit %d)", len(recs), total, limit))
	}
	if len(notes) > 0 {
		if rep.Reason != "" {
			notes = append([]string{rep.Reason}, notes...)
		}
		rep.Reason = strings.Join(notes, "; ")
	}
	rep.Records = len(recs)
	return evidence.Response{Records: recs, Report: rep}, nil
}

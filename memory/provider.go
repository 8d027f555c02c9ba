package memory

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/trust"
)

// ProviderName is the provider's name in reports, and the route layer it
// implements.
const ProviderName = "memory"

var _ evidence.Provider = (*Store)(nil)

// Name returns "memory".
func (s *Store) Name() string { return ProviderName }

// gatherLimit bounds the memories one query returns.
const gatherLimit = 10

// Gather answers q with the memories it finds (see [Store.Recall]): those
// whose scope covers q.Path or q.Symbol, or whose words match q.Text; a
// query with none of them finds nothing. Records are of kind memory,
// provenance memory and tier inferred (what people or agents wrote down,
// not what the code says), without a location; their confidence is the
// match's ([Confidence]), and a stale entry says so in the attribute
// "decay" and in its excerpt. See [Store.Record] for the attributes. When
// some of the memories found are unreviewed, the response's report says
// how many, in cortex's words, and how the user reviews them.
func (s *Store) Gather(ctx context.Context, q evidence.Query) (evidence.Response, error) {
	if err := ctx.Err(); err != nil {
		return evidence.Response{}, err
	}
	if !q.Wants(evidence.Memory) || q.Path == "" && q.Symbol == "" && strings.TrimSpace(q.Text) == "" {
		return evidence.Response{}, nil
	}
	ms, err := s.Recall(Query{Text: q.Text, Path: q.Path, Symbol: q.Symbol, Limit: gatherLimit})
	if err != nil {
		return evidence.Response{}, &evidence.UnavailableError{Reason: "the project memory cannot be read",
			Guidance: "check " + Dir + " (cortex memory verify)", Err: err}
	}
	recs := make([]evidence.Record, 0, len(ms))
	unreviewed := 0
	for _, m := range ms {
		recs = append(recs, s.Record(m))
		if !m.Review.Reviewed() {
			unreviewed++
		}
	}
	resp := evidence.Response{Records: recs}
	if unreviewed > 0 {
		// Said by cortex, in its own words: no entry's text is lifted here.
		resp.Report = evidence.Report{State: evidence.Available,
			Reason:   fmt.Sprintf("%d of the %d memories found were supplied with the repository and are unreviewed: quoted as data, at most half the confidence of a reviewed one", unreviewed, len(ms)),
			Guidance: "the user may read them (cortex memory list --unreviewed) and accept those that hold (cortex memory accept ID)"}
	}
	return resp, nil
}

// Record turns a match into an evidence record: kind memory, provenance
// memory, tier inferred, no location, the match's confidence, and the
// attributes id, type, digest, author (as written), created (RFC 3339, the
// match's clamped date; created_as_written beside it for an entry dated in
// the future), half_life ("never", "180d", "90d"), decay ("fresh", or
// "stale" below [StaleBelow]), review ("reviewed" or "unreviewed"),
// provenance ("user" for an entry this user remembered, "repository"
// otherwise), paths and symbols (comma-separated scope), reason and matched
// (what matched, comma-separated).
//
// The excerpt of a reviewed entry says the type, the text, the reason, the
// scope, who and when, and for a stale entry that it should be checked.
// An unreviewed entry's excerpt opens by saying that it was supplied with
// the repository, and then quotes every field the entry holds (text,
// reason, scope, author) as a Go string: whatever the entry says stays
// data, on one line, and nothing it holds reads as something cortex says.
// Anything shaped like a credential is redacted.
func (s *Store) Record(m Match) evidence.Record {
	e := &m.Entry
	decay := "fresh"
	if m.Stale {
		decay = "stale"
	}
	hl := "never"
	if d := e.Type.HalfLife(); d > 0 {
		hl = strconv.Itoa(int(d/(24*time.Hour))) + "d"
	}
	created := m.Created
	if created.IsZero() {
		created = e.Created
	}
	reviewed := m.Review.Reviewed()
	review, provenance := "unreviewed", "repository"
	if reviewed {
		review = "reviewed"
	}
	if m.Review == Remembered {
		provenance = "user"
	}
	attrs := map[string]string{
		"id": e.ID, "type": string(e.Type), "digest": e.Digest, "author": e.Author,
		"created": created.Format(time.RFC3339), "half_life": hl, "decay": decay,
		"matched": strings.Join(m.Why, ","), "review": review, "provenance": provenance,
	}
	if m.FutureDated {
		attrs["created_as_written"] = e.Created.Format(time.RFC3339)
	}
	if e.Reason != "" {
		attrs["reason"] = s.red.String(e.Reason)
	}
	if len(e.Scope.Paths) > 0 {
		attrs["paths"] = strings.Join(e.Scope.Paths, ",")
	}
	if len(e.Scope.Symbols) > 0 {
		attrs["symbols"] = strings.Join(e.Scope.Symbols, ",")
	}
	scope := append(append([]string(nil), e.Scope.Paths...), e.Scope.Symbols...)
	var b strings.Builder
	if reviewed {
		fmt.Fprintf(&b, "%s %s: %s", e.Type, e.ID, e.Text)
		if e.Reason != "" {
			fmt.Fprintf(&b, " (because %s)", e.Reason)
		}
		if len(scope) > 0 {
			fmt.Fprintf(&b, " [scope: %s]", strings.Join(scope, ", "))
		}
		fmt.Fprintf(&b, " — %s, %s", e.Author, created.Format(time.DateOnly))
	} else {
		fmt.Fprintf(&b, "unreviewed memory supplied with the repository, quoted as written: %s %s %s", e.Type, e.ID, strconv.Quote(e.Text))
		if e.Reason != "" {
			fmt.Fprintf(&b, " (reason %s)", strconv.Quote(e.Reason))
		}
		if len(scope) > 0 {
			quoted := make([]string, len(scope))
			for i, sc := range scope {
				quoted[i] = strconv.Quote(sc)
			}
			fmt.Fprintf(&b, " [scope %s]", strings.Join(quoted, ", "))
		}
		fmt.Fprintf(&b, " — author %s, dated %s", strconv.Quote(e.Author), created.Format(time.DateOnly))
	}
	if m.FutureDated {
		b.WriteString(" (its own date is in the future)")
	}
	if m.Stale {
		fmt.Fprintf(&b, "; stale (confidence %.2f): check before relying on it", m.Confidence)
	}
	return evidence.Record{
		Kind: evidence.Memory, Provider: ProviderName, Provenance: trust.Memory, Trust: trust.Inferred,
		Confidence: m.Confidence,
		Metadata:   evidence.Metadata{Excerpt: s.red.String(b.String()), Attributes: attrs},
	}
}

// Attach returns the memories whose scope covers what records cite: their
// locations' paths (and the "path" attribute of records without one) and
// their symbols. It is how an answer carries the team's knowledge about
// the code it shows: the engine adds the result to the answer's records.
// Memories of project-wide scope are not attached (recall them by words),
// nor are memory records attached to. At most Options.AttachLimit
// memories are returned (DefaultAttachLimit when 0), best first; each
// says what it is attached to in the attribute "attached_to".
func (s *Store) Attach(ctx context.Context, records []evidence.Record) ([]evidence.Record, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	paths, syms := cited(records)
	if len(paths) == 0 && len(syms) == 0 {
		return nil, nil
	}
	idx, err := s.load()
	if err != nil {
		return nil, err
	}
	now := s.now()
	type hit struct {
		m  Match
		to string
	}
	cand := make([]bool, len(idx.entries))
	for p := range paths {
		idx.pathCandidates(p, func(i int32) { cand[i] = true })
	}
	for sym := range syms {
		idx.symbolCandidates(sym, func(i int32) { cand[i] = true })
	}
	var hits []hit
	var revs map[string]Review
	for i, le := range idx.entries {
		if !cand[i] || le.Scope.IsZero() {
			continue
		}
		best, to, why := bestCover(le, paths, syms)
		if best == 0 {
			continue
		}
		if revs == nil {
			if revs, err = s.reviews(); err != nil {
				return nil, err
			}
		}
		hits = append(hits, hit{newMatch(le, now, revs[le.Digest], best, []string{why}), to})
	}
	sort.Slice(hits, func(i, j int) bool { return better(&hits[i].m, &hits[j].m) })
	limit := s.opts.AttachLimit
	if limit <= 0 {
		limit = DefaultAttachLimit
	}
	if len(hits) > limit {
		hits = hits[:limit]
	}
	out := make([]evidence.Record, 0, len(hits))
	for _, h := range hits {
		r := s.Record(h.m)
		r.Metadata.Attributes["attached_to"] = h.to
		out = append(out, r)
	}
	return out, nil
}

// cited returns the paths and symbol names that records other than
// memories cite: their locations' paths (or their "path" attribute) and
// their symbols.
func cited(records []evidence.Record) (paths, syms map[string]bool) {
	paths, syms = map[string]bool{}, map[string]bool{}
	for i := range records {
		r := &records[i]
		if r.Kind == evidence.Memory {
			continue
		}
		if r.Path != "" {
			paths[r.Path] = true
		} else if p := r.Metadata.Attributes["path"]; p != "" && evidence.CheckPath(p) == nil {
			paths[p] = true
		}
		for _, sym := range []string{r.Symbol, r.TargetSymbol} {
			if n := SymbolName(sym); n != "" {
				syms[n] = true
			}
		}
	}
	return paths, syms
}

// bestCover returns how well the entry covers the best covered of the
// paths and symbols (0 for none), which one (the least of equals) and
// whether it is a "path" or a "symbol".
func bestCover(le *loadedEntry, paths, syms map[string]bool) (best float64, to, why string) {
	for p := range paths {
		if v := le.coversPath(p); v > best || v == best && v > 0 && p < to {
			best, to, why = v, p, "path"
		}
	}
	for sym := range syms {
		if v := le.coversSymbol(sym); v > best || v == best && v > 0 && sym < to {
			best, to, why = v, sym, "symbol"
		}
	}
	return best, to, why
}

// SymbolName returns the name a memory's scope would use for a record's
// symbol: a name as code spells it is kept ("Engine.Ask"); a SCIP symbol
// ("scip-go gomod example.com/m v1 `example.com/m/pkg`/Engine#Ask().")
// becomes its descriptors joined by "." ("Engine.Ask").
func SymbolName(sym string) string {
	sym = strings.TrimSpace(sym)
	if !strings.Contains(sym, " ") {
		return sym
	}
	f := strings.Fields(sym)
	if f[0] == "local" {
		return ""
	}
	desc := f[len(f)-1]
	// The package descriptor ends at the last "/" outside backticks.
	if i := strings.LastIndex(desc, "`/"); i >= 0 {
		desc = desc[i+2:]
	} else if i := strings.LastIndex(desc, "/"); i >= 0 {
		desc = desc[i+1:]
	}
	var parts []string
	for _, p := range strings.FieldsFunc(desc, func(r rune) bool { return strings.ContainsRune("#.:!", r) }) {
		p = strings.TrimSuffix(p, "()")
		if i := strings.IndexByte(p, '('); i >= 0 {
			p = p[:i]
		}
		p = strings.Trim(p, "`[]")
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ".")
}

package evidence

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/codecortex/codecortex/trust"
)

// A Query is the question a provider answers, already routed. Providers use
// the fields that concern them and ignore the rest.
type Query struct {
	// Text is the question as asked, such as "who calls refresh_token?".
	Text string `json:"text,omitempty"`
	// Path, Line and Column name a position (root-relative, one-based code
	// points) when the question is about one.
	Path   string `json:"path,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	// Symbol is a resolved symbol or a name to look up.
	Symbol string `json:"symbol,omitempty"`
	// Kinds restricts the answer to these kinds; empty means any.
	Kinds []Kind `json:"kinds,omitempty"`
	// Outgoing turns the question around: the uses Symbol (or the
	// definition at the position) makes, such as the calls written in its
	// body, rather than the uses of it. A provider that cannot answer it
	// returns no records and says so in its report.
	Outgoing bool `json:"outgoing,omitempty"`
	// Pattern is a structural pattern in ast-grep's pattern language, such
	// as "old_api($$$ARGS)", when the question is about code of a given
	// shape. A structural provider answers it; the others ignore it.
	Pattern string `json:"pattern,omitempty"`
	// Language is the pattern's language by name, such as "go"; empty
	// means every language in which the pattern parses.
	Language string `json:"language,omitempty"`
}

// NotOutgoing is the response of a provider that does not answer an
// outgoing query (see [Query.Outgoing]): no records, and a report that
// says so.
func NotOutgoing(provider string) Response {
	return Response{Report: Report{Provider: provider, State: Available,
		Reason: "it does not answer what a symbol uses, only what uses it"}}
}

// Wants reports whether q asks for records of kind k.
func (q *Query) Wants(k Kind) bool {
	if len(q.Kinds) == 0 {
		return true
	}
	for _, w := range q.Kinds {
		if w == k {
			return true
		}
	}
	return false
}

// A Provider produces evidence for a query. Host programs implement it.
//
// Gather returns the records it found and a report of its state. An error
// means the provider could not answer at all; [Collect] turns it into an
// unavailable report (or disabled, for [ErrDisabled]). A provider whose
// source is out of date returns its records marked stale (see [MarkStale])
// with a [Stale] report that says how to refresh it.
type Provider interface {
	Name() string
	Gather(ctx context.Context, q Query) (Response, error)
}

// A Response is what a provider returns for one query.
type Response struct {
	Records []Record
	// Report describes the provider's state; its zero value means available.
	Report Report
}

// State is a provider's (or layer's) condition.
type State string

// The provider states.
const (
	Available   State = "available"
	StaleState  State = "stale"
	Unavailable State = "unavailable"
	Disabled    State = "disabled"
)

// A Report says how a provider fared for one request.
type Report struct {
	Provider string `json:"provider"`
	State    State  `json:"state"`
	// Reason says why the state is not available, in a sentence.
	Reason string `json:"reason,omitempty"`
	// Guidance says what to do about it, such as the command that reindexes.
	Guidance string `json:"guidance,omitempty"`
	// Records is how many records the provider contributed.
	Records int `json:"records"`
	// Lowered lists records whose claimed tier was above their method's
	// ceiling and was lowered to it.
	Lowered []string `json:"lowered,omitempty"`
	// Dropped lists records the provider returned that broke an invariant
	// and were not used, one reason each.
	Dropped []string `json:"dropped,omitempty"`
}

// ErrDisabled is returned by a provider that is switched off by
// configuration; Collect reports it as disabled rather than unavailable.
var ErrDisabled = errors.New("provider disabled")

// An UnavailableError is a provider failure with guidance for the user.
type UnavailableError struct {
	Reason   string
	Guidance string
	Err      error
}

func (e *UnavailableError) Error() string {
	if e.Err != nil {
		return e.Reason + ": " + e.Err.Error()
	}
	return e.Reason
}

func (e *UnavailableError) Unwrap() error { return e.Err }

// CollectOptions tunes [Collect]. The zero value is ready to use.
type CollectOptions struct {
	// Check, if set, is applied to every record after validation; a non-nil
	// error drops the record with that reason. Hosts use it to drop
	// locations outside the project root.
	Check func(*Record) error
}

// Collect runs every provider concurrently on q and returns the records they
// produced and one report per provider, in the order the providers were
// given. It never fails: an error, a panic or a cancelled context becomes a
// report. Records are checked on the way in: a tier above the method's
// ceiling is lowered to the ceiling (and said so in the report), and a record
// that still breaks an invariant is dropped and listed in Dropped.
func Collect(ctx context.Context, q Query, providers []Provider, opts CollectOptions) ([]Record, []Report) {
	type result struct {
		recs   []Record
		report Report
	}
	results := make([]result, len(providers))
	var wg sync.WaitGroup
	for i, p := range providers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			recs, rep := gatherOne(ctx, q, p, opts)
			results[i] = result{recs, rep}
		}()
	}
	wg.Wait()
	var all []Record
	reports := make([]Report, len(providers))
	for i, r := range results {
		all = append(all, r.recs...)
		reports[i] = r.report
	}
	return all, reports
}

func gatherOne(ctx context.Context, q Query, p Provider, opts CollectOptions) (recs []Record, rep Report) {
	name := "unnamed"
	defer func() {
		if v := recover(); v != nil {
			recs = nil
			rep = Report{Provider: name, State: Unavailable,
				Reason: fmt.Sprintf("provider panicked: %v", v)}
		}
	}()
	name = p.Name()
	if err := ctx.Err(); err != nil {
		return nil, Report{Provider: name, State: Unavailable, Reason: "not run: " + err.Error()}
	}
	resp, err := p.Gather(ctx, q)
	if err != nil {
		rep = Report{Provider: name, State: Unavailable, Reason: err.Error()}
		var ue *UnavailableError
		switch {
		case errors.Is(err, ErrDisabled):
			rep.State = Disabled
		case errors.As(err, &ue):
			rep.Guidance = ue.Guidance
		}
		return nil, rep
	}
	rep = resp.Report
	rep.Provider = name
	if rep.State == "" {
		rep.State = Available
	}
	for _, r := range resp.Records {
		if r.Provider == "" {
			r.Provider = name
		}
		if c := r.Provenance.Ceiling(); c.Valid() && r.Trust > c {
			rep.Lowered = append(rep.Lowered, fmt.Sprintf("%s %s: claimed %s, above the %s ceiling %s", r.ID(), r.Location(), r.Trust, r.Provenance, c))
			r.Trust = trust.Clamp(r.Provenance, r.Trust)
			r.Exact = r.Trust == trust.Exact && !r.Stale
		}
		err := r.Validate()
		if err == nil && opts.Check != nil {
			err = opts.Check(&r)
		}
		if err != nil {
			rep.Dropped = append(rep.Dropped, fmt.Sprintf("%s %s: %v", r.ID(), r.Location(), err))
			continue
		}
		recs = append(recs, r)
	}
	rep.Records = len(recs)
	sort.Strings(rep.Lowered)
	sort.Strings(rep.Dropped)
	return recs, rep
}

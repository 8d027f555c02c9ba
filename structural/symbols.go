package structural

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/codecortex/codecortex/evidence"
)

// A SymbolSearcher is the symbol half of the fallback: when no structural
// engine can answer, [Search] asks it about the identifiers the pattern
// names (see [Options.Symbols]). A precision index implements it
// (precision.Provider.SearchSymbols), so the fallback can return resolved
// definitions and references rather than text alone.
//
// SearchSymbols returns, for every symbol each name may mean, its records
// as the searcher produces them (exact when fresh, marked stale when not),
// and a report of its state: stale, or capped, with the reason. An error
// means it could not answer at all; Search turns it into a note and keeps
// the lexical answer.
type SymbolSearcher interface {
	SearchSymbols(ctx context.Context, names []string) (evidence.Response, error)
}

// SymbolNotice is what the symbol half of a fallback says about itself.
const SymbolNotice = "symbol fallback: the definitions and references of symbols named like the pattern's identifiers (or a question's terms); they show where those names resolve, not where the pattern matches"

// A SymbolResult is what the [SymbolSearcher] returned for a fallback.
type SymbolResult struct {
	// Names are the identifiers of the pattern that were asked about.
	Names []string `json:"names"`
	// Notice is SymbolNotice.
	Notice  string            `json:"notice"`
	Records []evidence.Record `json:"records"`
	// Report is the searcher's report; a failed search is an unavailable
	// report whose reason is the error.
	Report evidence.Report `json:"report"`
}

// maxSymbolNames bounds how many of a pattern's identifiers are looked up.
const maxSymbolNames = 4

// symbolNames returns the identifiers of pattern a symbol search should
// ask about, in order of appearance: the callees (fmt.Println($X) gives
// Println, $X.Close() gives Close); failing those, the last names of
// selector chains (os.Args gives Args); failing those, every identifier
// that is not a common keyword. Metavariable names never count.
func symbolNames(pattern string) []string {
	type word struct {
		w                 string
		call, selEnd, key bool
	}
	var words []word
	for _, ix := range identRE().FindAllStringIndex(pattern, -1) {
		w := pattern[ix[0]:ix[1]]
		if w[0] == '$' {
			continue
		}
		before := strings.TrimRight(pattern[:ix[0]], " \t\n")
		after := strings.TrimLeft(pattern[ix[1]:], " \t\n")
		selected := strings.HasSuffix(before, ".") || strings.HasSuffix(before, "::") || strings.HasSuffix(before, "->")
		continues := strings.HasPrefix(after, ".") || strings.HasPrefix(after, "::") || strings.HasPrefix(after, "->")
		words = append(words, word{w: w, call: strings.HasPrefix(after, "("),
			selEnd: selected && !continues, key: symbolKeywords()[w]})
	}
	pick := func(keep func(word) bool) []string {
		seen := map[string]bool{}
		var out []string
		for _, w := range words {
			if !w.key && keep(w) && !seen[w.w] && len(out) < maxSymbolNames {
				seen[w.w] = true
				out = append(out, w.w)
			}
		}
		return out
	}
	if out := pick(func(w word) bool { return w.call }); len(out) > 0 {
		return out
	}
	if out := pick(func(w word) bool { return w.selEnd }); len(out) > 0 {
		return out
	}
	return pick(func(word) bool { return true })
}

// symbolKeywords are words of the supported languages that never name a
// symbol worth looking up.
var symbolKeywords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`if else elif for while do switch case default return func
		function def class struct interface type var let const new delete catch try finally throw
		throws await async yield import from package go defer select range in not and or is
		lambda sizeof typeof instanceof match impl fn pub mut use mod nil null None true false
		True False self this super public private protected static final void int string bool
		break continue pass raise with as`) {
		m[w] = true
	}
	return m
})

// searchSymbols runs the symbol half of a fallback for the names a
// pattern or a question gives (none says why there are none). It never
// fails: an error of the searcher becomes an unavailable report, and an
// invalid record a dropped one.
func searchSymbols(ctx context.Context, s SymbolSearcher, names []string, none string) *SymbolResult {
	if len(names) > maxSymbolNames {
		names = names[:maxSymbolNames]
	}
	res := &SymbolResult{Names: names, Notice: SymbolNotice, Records: []evidence.Record{}}
	if len(res.Names) == 0 {
		res.Report = evidence.Report{State: evidence.Available, Reason: none}
		return res
	}
	resp, err := s.SearchSymbols(ctx, res.Names)
	if err != nil {
		st := evidence.Unavailable
		if errors.Is(err, evidence.ErrDisabled) {
			st = evidence.Disabled
		}
		res.Report = evidence.Report{State: st, Reason: "symbol search failed: " + err.Error()}
		var ue *evidence.UnavailableError
		if errors.As(err, &ue) {
			res.Report.Guidance = ue.Guidance
		}
		return res
	}
	res.Report = resp.Report
	if res.Report.State == "" {
		res.Report.State = evidence.Available
	}
	// A host's searcher may break the record invariants: such a record is
	// dropped with its reason, never passed on.
	for _, r := range resp.Records {
		if err := r.Validate(); err != nil {
			res.Report.Dropped = append(res.Report.Dropped, r.Location()+": "+err.Error())
			continue
		}
		res.Records = append(res.Records, r)
	}
	res.Report.Records = len(res.Records)
	return res
}

// summary says in a sentence what the symbol half found, or why not.
func (r *SymbolResult) summary() string {
	s := SymbolNotice
	if len(r.Names) > 0 {
		s += " (asked about " + strings.Join(r.Names, ", ") + ")"
	}
	switch {
	case r.Report.State != evidence.Available && r.Report.Reason != "":
		s += "; " + string(r.Report.State) + ": " + r.Report.Reason
	case r.Report.Reason != "":
		s += "; " + r.Report.Reason
	}
	return s
}

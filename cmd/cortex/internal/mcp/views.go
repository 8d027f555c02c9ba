package mcp

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"unicode/utf8"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/history"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/memory"
	"github.com/codecortex/codecortex/route"
	"github.com/codecortex/codecortex/structural"
	"github.com/codecortex/codecortex/validation"
)

// Budgets, in tokens estimated as evidence.EstimateTokens does. Hosts
// reject results over 25,000 tokens, and the result's JSON travels twice
// (structured and as text), so a budget stays below half of that.
const (
	DefaultBudget = 4000
	MinBudget     = 500
	MaxBudget     = 10000
)

// fitSlack is the room kept back for what grows after fitting: the
// omission counts, the tokens used, a redaction mask longer than what it
// hides.
const fitSlack = 256

// maxExcerpt bounds one excerpt, in code points, as the packed context
// does.
const maxExcerpt = evidence.MaxExcerptRunes

// maxListed bounds the short lists inside an item (a report's dropped
// records, a dependency's dependents).
const maxListed = 10

// enumSets are the named value sets parameters refer to as enum:"$name":
// the values the layers know, so a schema cannot drift from them.
func enumSets() map[string][]string {
	sets := map[string][]string{}
	for _, t := range memory.Types() {
		sets["memoryTypes"] = append(sets["memoryTypes"], string(t))
	}
	for _, i := range route.Intents() {
		sets["intents"] = append(sets["intents"], string(i))
	}
	for _, l := range structural.Languages() {
		sets["languages"] = append(sets["languages"], string(l))
	}
	return sets
}

// An omission says what a bounded result left out, and how to get it.
type omission struct {
	BudgetTokens int `json:"budget_tokens" jsonschema:"the token budget the result was fitted into"`
	UsedTokens   int `json:"used_tokens" jsonschema:"the tokens the result is estimated to use"`
	// Omitted counts the items (records, hits, definitions...) left out.
	Omitted int    `json:"omitted" jsonschema:"how many items were left out to stay within the budget or the limit"`
	Note    string `json:"note,omitempty" jsonschema:"what was left out and how to see it"`
}

// A fitter fills a result up to a budget: the room left, in bytes of
// JSON, after the result's envelope.
type fitter struct {
	budget  int
	room    int
	omitted int
}

// newFitter returns a fitter for budget tokens, envelope being the result
// with its bounded lists still empty.
func newFitter(budget int, envelope any) *fitter {
	b, _ := json.Marshal(envelope)
	return &fitter{budget: budget, room: budget*evidence.BytesPerToken - len(b) - fitSlack}
}

// take returns the longest prefix of items that fits in the room left,
// counting the rest as omitted. The order is the caller's (rank, path,
// line): a result never skips an item to show a later one.
func take[T any](f *fitter, items []T) []T {
	kept := make([]T, 0, min(len(items), 64))
	for i, it := range items {
		b, err := json.Marshal(it)
		need := len(b) + 1 // the comma
		if err != nil || need > f.room {
			f.omitted += len(items) - i
			return kept
		}
		f.room -= need
		kept = append(kept, it)
	}
	return kept
}

// text returns s cut to fit the room left, at a code point boundary, and
// whether it was cut.
func (f *fitter) text(s string) (string, bool) {
	if n := jsonLen(s); n <= f.room {
		f.room -= n
		return s, false
	}
	// The longest prefix whose JSON fits.
	lo, hi := 0, len(s)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if jsonLen(s[:mid]) <= f.room {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	for lo > 0 && !utf8.RuneStart(s[lo]) {
		lo--
	}
	f.room -= jsonLen(s[:lo])
	return s[:lo], true
}

func jsonLen(s string) int {
	b, _ := json.Marshal(s)
	return len(b)
}

// done returns the omission for a result whose items were fitted, with
// note said when something was left out. Its UsedTokens is set when the
// result is sent.
func (f *fitter) done(note string) omission {
	o := omission{BudgetTokens: f.budget, Omitted: f.omitted}
	if f.omitted > 0 {
		o.Note = note
	}
	return o
}

// clip shortens s to n code points, ending in "…".
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// clipList keeps the first n of ss (never nil).
func clipList(ss []string, n int) []string {
	out := make([]string, 0, min(len(ss), n))
	for i, s := range ss {
		if i == n {
			break
		}
		out = append(out, clip(s, 200))
	}
	return out
}

// A record is one piece of evidence as a tool returns it: the evidence
// record's identity, location and trust, with its excerpt bounded.
type record struct {
	ID           string      `json:"id" jsonschema:"a stable id of the record: same kind, method, location and symbols give the same id"`
	Kind         string      `json:"kind" jsonschema:"what the record says: definition, reference, implementation, call, import, documentation, structural_match, git_history, memory, validation..."`
	Trust        string      `json:"trust" jsonschema:"how strongly it is established: exact > near_exact > structural > inferred_high > inferred > weak"`
	Provider     string      `json:"provider" jsonschema:"the layer that produced it"`
	Provenance   string      `json:"provenance" jsonschema:"how it was produced, such as precision-index or structural-match"`
	Path         string      `json:"path,omitempty" jsonschema:"the file, relative to the project root; absent for a record about no location"`
	StartLine    int         `json:"start_line,omitempty" jsonschema:"one-based"`
	StartColumn  int         `json:"start_column,omitempty" jsonschema:"one-based, in code points"`
	EndLine      int         `json:"end_line,omitempty" jsonschema:"one-based"`
	EndColumn    int         `json:"end_column,omitempty" jsonschema:"one-based, in code points; the range is half-open"`
	Symbol       string      `json:"symbol,omitempty" jsonschema:"the resolved symbol"`
	TargetSymbol string      `json:"target_symbol,omitempty" jsonschema:"the symbol a relation points to"`
	Confidence   float64     `json:"confidence" jsonschema:"a ranking number in [0, 1], not a probability"`
	Exact        bool        `json:"exact" jsonschema:"fresh compiler- or indexer-resolved evidence"`
	Stale        bool        `json:"stale" jsonschema:"from an index that no longer matches the source"`
	Declaration  bool        `json:"declaration,omitempty" jsonschema:"the declaration among references"`
	Excerpt      string      `json:"excerpt,omitempty" jsonschema:"the source at the location, or a summary, bounded"`
	Attributes   []attribute `json:"attributes,omitempty" jsonschema:"layer-specific facts, such as a resolved version"`
	Superseded   int         `json:"superseded,omitempty" jsonschema:"how many weaker records pointing at the same place were folded into this one"`
}

// An attribute is one layer-specific fact of a record.
type attribute struct {
	Name  string `json:"name" jsonschema:"the fact's name"`
	Value string `json:"value" jsonschema:"its value"`
}

// recordView returns r as a tool returns it.
func recordView(r evidence.Record) record {
	v := record{ID: r.ID(), Kind: string(r.Kind), Trust: r.Trust.String(), Provider: r.Provider,
		Provenance: string(r.Provenance), Path: r.Path, StartLine: r.StartLine, StartColumn: r.StartColumn,
		EndLine: r.EndLine, EndColumn: r.EndColumn, Symbol: clip(r.Symbol, 400), TargetSymbol: clip(r.TargetSymbol, 400),
		Confidence: r.Confidence, Exact: r.Exact, Stale: r.Stale,
		Excerpt: clip(r.Metadata.Excerpt, maxExcerpt), Superseded: len(r.Metadata.Superseded)}
	if r.Metadata.Attributes["declaration"] == "true" {
		v.Declaration = true
	}
	v.Attributes = attributeViews(r.Metadata.Attributes)
	return v
}

// attributeViews returns attrs sorted by name, each bounded.
func attributeViews(attrs map[string]string) []attribute {
	names := make([]string, 0, len(attrs))
	for k := range attrs {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []attribute
	for _, k := range names {
		out = append(out, attribute{Name: clip(k, 100), Value: clip(attrs[k], 300)})
	}
	return out
}

// A shared is the attributes every record of one layer carries alike.
type shared struct {
	Provider   string      `json:"provider" jsonschema:"the layer"`
	Attributes []attribute `json:"attributes" jsonschema:"the facts each of its records has, besides its own attributes"`
}

// sharedViews returns the attributes each layer's records share as a tool
// returns them, by layer name (nil when none is shared).
func sharedViews(s evidence.Shared) []shared {
	var out []shared
	for _, p := range slices.Sorted(maps.Keys(s)) {
		out = append(out, shared{Provider: clip(p, 100), Attributes: attributeViews(s[p])})
	}
	return out
}

// recordViews returns every record as a tool returns it (never nil).
func recordViews(recs []evidence.Record) []record {
	out := make([]record, 0, len(recs))
	for _, r := range recs {
		out = append(out, recordView(r))
	}
	return out
}

// A report is how one layer fared.
type report struct {
	Provider string   `json:"provider" jsonschema:"the layer"`
	State    string   `json:"state" jsonschema:"available, stale, unavailable or disabled"`
	Reason   string   `json:"reason,omitempty" jsonschema:"why the state is not plain available"`
	Guidance string   `json:"guidance,omitempty" jsonschema:"what to do about it, such as the command that builds the index"`
	Records  int      `json:"records" jsonschema:"how many records the layer contributed"`
	Dropped  []string `json:"dropped,omitempty" jsonschema:"records the layer returned that broke an invariant and were not used (the first few)"`
}

func reportViews(reps []evidence.Report) []report {
	out := make([]report, 0, len(reps))
	for _, r := range reps {
		v := report{Provider: r.Provider, State: string(r.State), Reason: clip(r.Reason, 300),
			Guidance: clip(r.Guidance, 300), Records: r.Records}
		if len(r.Dropped) > 0 {
			v.Dropped = clipList(r.Dropped, maxListed)
		}
		out = append(out, v)
	}
	return out
}

// unanswered returns the tool error for a question nothing answered while
// some layer could not be asked: the reasons, and what to do.
func unanswered(what string, reps []evidence.Report) error {
	var reasons, guidance []string
	for _, r := range reps {
		if r.State == evidence.Available {
			continue
		}
		reasons = append(reasons, fmt.Sprintf("%s is %s: %s", r.Provider, r.State, r.Reason))
		if r.Guidance != "" {
			guidance = append(guidance, r.Guidance)
		}
	}
	if len(reasons) == 0 {
		return nil
	}
	te := &toolError{Reason: "no " + what + " found, and " + joinSentences(reasons)}
	te.Guidance = joinSentences(guidance)
	if te.Guidance == "" {
		te.Guidance = "cortex doctor (cortex_doctor) says what each layer needs"
	}
	return te
}

func joinSentences(ss []string) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += "; "
		}
		out += s
	}
	return out
}

// knownErrors are the failures whose remedy is known.
var knownErrors = []struct {
	err      error
	guidance string
}{
	{index.ErrEmptyQuery, "give at least one word that is not a stopword"},
	{index.ErrNewerSchema, "a newer cortex wrote the local index; use that version, or delete .codecortex/index and run `cortex index`"},
	{structural.ErrInvalidPattern, "write one syntax node in the language's own syntax, with $X for one node and $$$ARGS for several, and give the language"},
	{history.ErrNoGit, "install git; the history tools read the repository through it"},
	{history.ErrGitTooOld, "install a newer git"},
	{history.ErrNotRepository, "history needs the project to be a git work tree (git init, or serve cortex from inside a clone)"},
	{history.ErrShallow, "fetch the full history: git fetch --unshallow"},
	{history.ErrUntrustedConfig, "the user reviews the repository's git configuration with `cortex trust --show` and, if it is theirs, trusts it with `cortex trust`; restart the server after"},
	{history.ErrBadConfig, "the user fixes the git configuration file the message names (git config --list --show-origin shows what git reads)"},
	{history.ErrOutside, "give a path inside the project root"},
	{history.ErrRevision, "give a commit, branch or tag that exists (git log --oneline lists commits)"},
	{validation.ErrNoCommands, "configure validation.commands in .codecortex/config.json (and trust it with `cortex trust`), or add a go.mod or tsconfig.json whose checks are detected"},
	{validation.ErrNoResults, "run cortex_validate (on the mutating surface) or `cortex validate` first"},
	{memory.ErrInvalid, "fix the field the message names and call again"},
	{memory.ErrNotFound, "cortex_recall lists the entries and their ids"},
}

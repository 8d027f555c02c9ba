package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/route"
	"github.com/codecortex/codecortex/trust"
)

// askJSON is what cortex ask --json prints: the route, the ranked records
// with the evidence record's own field names (the fields and attributes
// every record of a provider carries alike written once, in shared:
// evidence.Factor), the packed
// context, the reports and freshness; with --trace, the ranking trace. It
// is printed on one line: the budget bounds it.
type askJSON struct {
	Question   codecortex.Question   `json:"question"`
	Plan       route.Plan            `json:"plan"`
	Records    []evidence.Lean       `json:"records"`
	Shared     evidence.Defaults     `json:"shared,omitempty"`
	Omitted    map[string]int        `json:"omitted,omitempty"`
	Compacted  bool                  `json:"compacted,omitempty"`
	NeedBudget int                   `json:"need_budget,omitempty"`
	Context    contextJSON           `json:"context"`
	Reports    []evidence.Report     `json:"reports"`
	Freshness  codecortex.Freshness  `json:"freshness"`
	ElapsedMS  float64               `json:"elapsed_ms"`
	Trace      []evidence.TraceEntry `json:"trace,omitempty"`
}

// contextJSON is the packed context: its size and, with --trace, the
// prompt as the JSON it is (the records again, in the reader model's
// compact form).
type contextJSON struct {
	Prompt   json.RawMessage `json:"prompt,omitempty"`
	Budget   int             `json:"budget"`
	Used     int             `json:"used"`
	Included int             `json:"included"`
	Omitted  int             `json:"omitted"`
}

// runAsk is cortex ask "QUESTION": the main job. The question is routed,
// the layers the route names answer side by side, and their evidence comes
// back fused, ranked and packed into the budget.
func runAsk(ctx context.Context, c *cmd, args []string) int {
	c.argsUsage = `"QUESTION" [--budget TOKENS] [--trace]`
	budget := c.fs.Int("budget", codecortex.DefaultBudget, "the token `budget` of the whole answer (--json included); one too small for the first record says what it needs")
	trace := c.fs.Bool("trace", false, "show why each record ranked where it did")
	lsp := c.fs.Bool("lsp", false, "let definition, reference and implementation questions fall back to the language server of each file's language")
	intent := c.fs.String("intent", "", "say what the question asks instead of letting its words decide: "+intentList())
	pos, code, ok := c.parse(args, 1, -1)
	if !ok {
		return code
	}
	q := codecortex.Question{Text: strings.Join(pos, " "), Budget: *budget}
	if *intent != "" {
		q.Intent = route.Intent(*intent)
		if !q.Intent.Valid() {
			return c.usageError(fmt.Errorf("--intent %q: want one of %s", *intent, intentList()))
		}
	}
	if *budget < 1 {
		return c.usageError(fmt.Errorf("--budget %d: want a positive number of tokens", *budget))
	}
	p, err := c.openProject(false)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	opts := codecortex.Options{LanguageServer: *lsp}
	if w := c.progressOut(); w != nil {
		opts.Progress = func(s string) { fmt.Fprint(w, s) }
	}
	eng, err := codecortex.NewEngine(p.Project, opts)
	if err != nil {
		return c.fail(err)
	}
	defer eng.Close()
	stop := progress(c.progressOut(), "asking")
	ans, err := eng.Ask(ctx, q)
	stop()
	if err != nil {
		return c.usageError(err)
	}
	code = ExitOK
	if len(ans.Records) == 0 {
		code = ExitFail
	}
	if c.json != jsonOff {
		shared, recs := evidence.Factor(ans.Records)
		out := askJSON{Question: q, Plan: ans.Plan, Records: recs, Shared: shared, Omitted: ans.Omitted,
			Compacted: ans.Compacted, NeedBudget: ans.NeedBudget, Reports: ans.Reports,
			Freshness: ans.Freshness, ElapsedMS: float64(ans.Elapsed.Microseconds()) / 1000,
			Context: contextJSON{Budget: ans.Context.Budget, Used: ans.Context.Used,
				Included: ans.Context.Included, Omitted: ans.Context.Omitted}}
		if *trace {
			out.Trace = ans.Context.Trace
			out.Context.Prompt = json.RawMessage(ans.Context.Prompt)
			if len(out.Context.Prompt) == 0 {
				out.Context.Prompt = json.RawMessage("null")
			}
		}
		if err := c.writeCompactJSON(out); err != nil {
			return c.fail(err)
		}
		return code
	}
	printAsk(c, ans, *trace)
	return code
}

// printAsk prints an answer for people: the route and the plan's notes,
// then the records grouped by trust tier, strongest first, each with its
// location, provider and provenance and why it ranked there; then what the
// budget left out and the reports that matter (reportMatters); with -v,
// also the layers the route skipped and how long the answer took.
func printAsk(c *cmd, ans *codecortex.Answer, trace bool) {
	plan := ans.Plan
	var layers []string
	for _, s := range plan.Steps {
		layers = append(layers, string(s.Layer))
	}
	c.printf("%s (%s) → %s\n", plan.Intent, safe(plan.Cue), strings.Join(layers, ", "))
	if ans.Query.Symbol != "" {
		c.printf("looked up %s\n", safe(ans.Query.Symbol))
	}
	for _, n := range plan.Notes {
		c.printf("%s\n", safe(n))
	}
	why := map[string]evidence.TraceEntry{}
	for _, t := range ans.Context.Trace {
		why[t.ID] = t
	}
	byID := idsInRankOrder(ans.Records)
	tier := trust.Tier(0)
	for i, r := range ans.Records {
		if r.Trust != tier {
			tier = r.Trust
			c.printf("\n%s\n", tierHeading(tier))
		}
		loc := r.Location()
		if loc == "" {
			loc = "(no location)"
		}
		line := fmt.Sprintf("  %s  %s via %s", loc, r.Kind, r.Provenance)
		if r.Provider != string(r.Provenance) {
			line += " (" + r.Provider + ")"
		}
		if r.Stale {
			line += ", stale"
		}
		if ans.Query.Outgoing && r.TargetSymbol != "" {
			line += " → " + r.TargetSymbol // what the call calls
			if g := r.Metadata.Attributes["guess"]; g != "" {
				line += " (by its name alone, maybe " + g + ")"
			}
		}
		line += outsideNote(&r)
		c.printf("%s\n", safe(line))
		if s := recordSummary(r); s != "" {
			c.printf("      %s\n", safeLines(s))
		}
		if t, ok := why[byID[i]]; ok && (trace || !t.Included) {
			c.printf("      %s\n", safe(t.Reason()))
		}
	}
	switch {
	case len(ans.Records) == 0 && ans.NeedBudget > 0:
		c.printf("\nno record fits a budget of %d tokens: the first needs --budget %d\n", ans.Context.Budget, ans.NeedBudget)
	case len(ans.Records) == 0:
		c.printf("\nno evidence\n")
	}
	if n := omittedCount(ans.Omitted); n > 0 {
		c.printf("\n%s left out: %s\n", count(n, "record"), omittedReasons(ans.Omitted))
	}
	for _, rep := range ans.Reports {
		if !c.reportMatters(rep, len(ans.Records) == 0) {
			continue
		}
		msg := fmt.Sprintf("%s: %s", rep.Provider, rep.State)
		if rep.Reason != "" {
			msg += " — " + rep.Reason
		}
		c.note("%s", safe(msg))
		if rep.Guidance != "" {
			c.note("  → %s", safe(rep.Guidance))
		}
	}
	if c.verbose {
		for _, s := range plan.Skipped {
			c.note("skipped %s: %s", s.Layer, safe(s.Reason))
		}
		c.note("answered in %s", ans.Elapsed.Round(100_000))
	}
}

// idsInRankOrder gives each record the id Pack gave it in the prompt:
// its own id, with ~2, ~3… for records that share one, in rank order.
func idsInRankOrder(recs []evidence.Record) []string {
	seen := map[string]int{}
	out := make([]string, len(recs))
	for i := range recs {
		id := recs[i].ID()
		seen[id]++
		if n := seen[id]; n > 1 {
			id = fmt.Sprintf("%s~%d", id, n)
		}
		out[i] = id
	}
	return out
}

func tierHeading(t trust.Tier) string {
	switch t {
	case trust.Exact:
		return "exact — resolved by a compiler or indexer, fresh"
	case trust.NearExact:
		return "near_exact — resolved by a live language server"
	case trust.Structural:
		return "structural — parsed syntax, a manifest, or version-matched docs"
	case trust.InferredHigh:
		return "inferred_high — a strong relation, or exact evidence gone stale"
	case trust.Inferred:
		return "inferred — a heuristic relation"
	}
	return "weak — a lexical coincidence"
}

// recordSummary is one line of what a record says: its symbol's short
// name and its excerpt.
func recordSummary(r evidence.Record) string {
	var parts []string
	if r.Symbol != "" {
		parts = append(parts, shortSymbol(r.Symbol))
	}
	if ex := strings.TrimSpace(r.Metadata.Excerpt); ex != "" {
		if i := strings.IndexByte(ex, '\n'); i >= 0 {
			ex = ex[:i] + " …"
		}
		if r := []rune(ex); len(r) > 160 {
			ex = string(r[:160]) + "…"
		}
		parts = append(parts, ex)
	}
	return strings.Join(parts, "  ")
}

func intentList() string {
	var names []string
	for _, i := range route.Intents() {
		names = append(names, string(i))
	}
	return strings.Join(names, ", ")
}

func omittedCount(m map[string]int) int {
	n := 0
	for _, k := range m {
		n += k
	}
	return n
}

// omittedReasons lists the reasons records were left out, most first.
func omittedReasons(m map[string]int) string {
	reasons := make([]string, 0, len(m))
	for r := range m {
		reasons = append(reasons, r)
	}
	sort.Slice(reasons, func(i, j int) bool {
		if m[reasons[i]] != m[reasons[j]] {
			return m[reasons[i]] > m[reasons[j]]
		}
		return reasons[i] < reasons[j]
	})
	parts := make([]string, len(reasons))
	for i, r := range reasons {
		parts[i] = fmt.Sprintf("%d %s", m[r], r)
	}
	return strings.Join(parts, "; ")
}

package codecortex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/codecortex/codecortex/config"
	"github.com/codecortex/codecortex/depdocs"
	"github.com/codecortex/codecortex/depsource"
	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/graph"
	"github.com/codecortex/codecortex/history"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/memory"
	"github.com/codecortex/codecortex/precision"
	"github.com/codecortex/codecortex/route"
	"github.com/codecortex/codecortex/structural"
	"github.com/codecortex/codecortex/trust"
	"github.com/codecortex/codecortex/validation"
)

// Options tunes [Open]. The zero value composes every layer the project's
// configuration allows, with the user's trust store.
type Options struct {
	// Project says how the configuration is read and trusted.
	Project config.ProjectOptions
	// Providers replaces the provider of a layer (a host's own index, say)
	// or, with a nil value, removes it.
	Providers map[route.Layer]evidence.Provider
	// Extra providers are consulted on every question beside the routed
	// ones, but for what a symbol calls (an outgoing query, which a
	// provider that predates it would read as one for its callers).
	Extra []evidence.Provider
	// LanguageServer lets definition, reference and implementation
	// questions fall back to the language server (gopls by default) when
	// the precision index has no fresh answer. Off by default: a server
	// takes seconds to load a workspace.
	LanguageServer bool
	// Timeout bounds one question, every provider included; 0 means 10
	// seconds. A provider still running at the deadline becomes an
	// unavailable report; the others' evidence is answered.
	Timeout time.Duration
	// Budget is the default token budget of the packed context; 0 means
	// DefaultBudget.
	Budget int
	// Progress receives one line when a long task starts and ends (an index
	// generation); nil discards them.
	Progress func(string)
	// IndexProgress, when set, receives the local index's progress on a
	// long update, files done of the total, instead of Progress's lines.
	IndexProgress func(done, total int)
	// Author is who the host's user is, for the memories they remember;
	// empty leaves it to each call.
	Author string
	// NoGenerate never runs the precision index's generator, even when
	// the trusted configuration asks for it: a missing or stale index is
	// reported, not rebuilt (status commands and one-shot searches).
	NoGenerate bool
	// Builtin is the built-in structural engine to search with; nil makes
	// one with the layer's defaults (a parse cache kept warm between
	// searches, which a one-shot search has no use for).
	Builtin *structural.Builtin
}

// DefaultBudget is the packed context's token budget when neither the
// question nor the options give one.
const DefaultBudget = 4000

// An Engine answers questions about one project: it routes each, asks the
// layers the route names, and fuses, ranks and packs what they return. It
// is the one place the layers are composed: each is made once, lazily
// where opening costs time, and the front ends reach them through the
// engine's methods (see layers of the engine in engine_layers.go). It keeps
// loaded indexes and parse caches warm between questions, and is safe for
// concurrent use. Close releases it.
type Engine struct {
	project *config.Project
	opts    Options

	providers map[route.Layer]evidence.Provider
	closers   []func() error
	root      *contain.Root

	memory     *memory.Store
	scip       *precision.Provider
	lsp        *precision.LSPProvider // nil unless Options.LanguageServer
	structural *structural.Provider
	validation *validation.Provider
	docs       depdocs.DocsProvider
	deps       *depsource.Provider
	indexOpts  index.Options

	mu       sync.Mutex
	declared *declaredDeps

	// The layers opened on first use, each once (engine_layers.go).
	lazy lazyLayers
}

// Open opens the project at dir ("" is the working directory) and composes
// its layers as the configuration, judged for trust, allows.
func Open(dir string, opts Options) (*Engine, error) {
	p, err := config.OpenProject(dir, opts.Project)
	if err != nil {
		return nil, err
	}
	return NewEngine(p, opts)
}

// NewEngine composes the layers of an opened project. It reads and writes
// nothing: every index is opened by the first question or method that
// needs it.
func NewEngine(p *config.Project, opts Options) (*Engine, error) {
	root, err := contain.Open(p.Root)
	if err != nil {
		return nil, err
	}
	e := &Engine{project: p, opts: opts, root: root, providers: map[route.Layer]evidence.Provider{}}

	precisionEnabled := e.composePrecision(p, opts)
	sopts := p.StructuralOptions()
	if precisionEnabled {
		sopts.Symbols = e.scip
	}
	if opts.Builtin != nil {
		sopts.Builtin = opts.Builtin
	}
	e.structural = structural.New(sopts)
	e.providers[route.Structural] = e.structural
	iopts := p.IndexOptions()
	switch {
	case opts.IndexProgress != nil:
		iopts.Progress = opts.IndexProgress
	case opts.Progress != nil:
		iopts.Progress = indexProgress(opts.Progress)
	}
	e.indexOpts = iopts
	e.deps = e.newDepSource(iopts.MaxFileSize)
	// One local index serves the questions, the project graph and the
	// typed methods; the graph, which reads it, answers both the graph's
	// and the impact's layer, with the precision index's edges fused in.
	e.providers[route.LocalIndex] = lazyProvider{name: index.ProviderName, open: func() (evidence.Provider, error) {
		ix, err := e.Index()
		if err != nil {
			return nil, err
		}
		return ix.Provider(), nil
	}}
	graphs := lazyProvider{name: graph.ProviderName, open: func() (evidence.Provider, error) { return e.Graph() }}
	e.providers[route.Graph] = graphs
	e.providers[route.Impact] = graphs
	e.providers[route.Manifests] = p.ManifestProvider()
	e.docs = depdocs.NewDocs(p.DocsOptions())
	e.providers[route.DependencyDocs] = &depdocs.DocsEvidence{Dir: p.Root, Docs: e.docs}
	e.providers[route.History] = history.New(p.HistoryOptions())
	mem, err := memory.Open(p.MemoryOptions(opts.Author))
	if err != nil {
		root.Close()
		return nil, err
	}
	e.memory = mem
	e.closers = append(e.closers, mem.Close)
	e.providers[route.Memory] = mem
	// Validation answers from the results of the last run: a question
	// never runs the project's checks (cortex validate does).
	e.validation = validation.New(p.ValidationOptions())
	e.providers[route.Validation] = e.validation

	for l, prov := range opts.Providers {
		if prov == nil {
			delete(e.providers, l)
			continue
		}
		e.providers[l] = prov
	}
	return e, nil
}

// composePrecision makes the precision layer: the SCIP index provider and,
// with Options.LanguageServer, the language server it falls back to. It
// reports whether the configuration enables the layer.
func (e *Engine) composePrecision(p *config.Project, opts Options) bool {
	popts := p.PrecisionOptions()
	if opts.Progress != nil {
		popts.Progress = progressWriter(opts.Progress)
	}
	if opts.NoGenerate {
		popts.AutoGenerate = false
	}
	scip := precision.New(popts)
	e.closers = append(e.closers, scip.Close)
	e.scip = scip
	var pprov evidence.Provider = scip
	if opts.LanguageServer {
		e.lsp = precision.NewLSP(p.LSPOptions())
		e.closers = append(e.closers, e.lsp.Close)
		pprov = &precision.Fallback{Index: scip, Server: e.lsp}
	}
	e.providers[route.Precision] = pprov
	return !popts.Disabled
}

// Refresh brings the engine's indexes up to date with no time bound: the
// local index reads every changed file (a question gives it a budget, and
// what does not fit is answered as partial), and the precision index is
// loaded. A host calls it before a batch of questions, or in the
// background after Open; questions need not wait for it.
func (e *Engine) Refresh(ctx context.Context) error {
	ix, err := e.Index()
	if err != nil {
		return err
	}
	_, err = ix.Update(ctx)
	e.scip.Status(ctx)
	return err
}

// Project returns the project the engine answers about.
func (e *Engine) Project() *config.Project { return e.project }

// Close releases every layer: index files, language servers.
func (e *Engine) Close() error {
	errs := []error{e.lazy.close()}
	for _, c := range e.closers {
		errs = append(errs, c())
	}
	errs = append(errs, e.root.Close())
	return errors.Join(errs...)
}

// A Question is what a host asks: text, and any structure it already has.
type Question struct {
	// Text is the question in words, such as "who calls refresh_token?".
	Text string `json:"text,omitempty"`
	// Path, Line and Column name a position: root-relative path, one-based
	// line and code-point column.
	Path   string `json:"path,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	// Symbol is a name to look up (Name, Type.Method, pkg.Name).
	Symbol string `json:"symbol,omitempty"`
	// Pattern and Language are a structural pattern and its language.
	Pattern  string `json:"pattern,omitempty"`
	Language string `json:"language,omitempty"`
	// Intent, when valid, overrides what the text says it asks.
	Intent route.Intent `json:"intent,omitempty"`
	// Budget is the packed context's token budget; 0 means the engine's.
	Budget int `json:"budget,omitempty"`
}

// An Answer is a question's ranked evidence with its provenance.
type Answer struct {
	Question Question `json:"question"`
	// Plan is the route: the layers asked and why, and those skipped.
	Plan route.Plan `json:"plan"`
	// Query is what the providers were asked.
	Query evidence.Query `json:"query"`
	// Records are the fused evidence that answers the question, in rank
	// order: first what the question asked for (a definition of the name,
	// in the container and of the kind it names), then by strength. They
	// are as many as fit the budget with the rest of the answer in JSON,
	// where the fields and attributes every record of a provider carries
	// alike are written once, under "shared" (see MarshalJSON); here each
	// record has all of its own.
	Records []evidence.Record `json:"records"`
	// Omitted counts the records left out of Records, by reason: no room
	// in the budget, or not an answer to the question asked (a reference
	// when a definition answers it, a text match where the graph or an
	// index answers).
	Omitted map[string]int `json:"omitted,omitempty"`
	// Compacted reports that the route's reasons and the layers' guidance
	// were left out, to make room in the budget for the first record.
	Compacted bool `json:"compacted,omitempty"`
	// NeedBudget is, when records answer the question but not even the
	// first fits the budget, the budget (in tokens) it would fit in.
	NeedBudget int `json:"need_budget,omitempty"`
	// Context is the evidence packed into the budget for a reader model,
	// with the ranking trace kept apart.
	Context evidence.Context `json:"-"`
	// Reports are each asked provider's state, with reason and guidance.
	Reports []evidence.Report `json:"reports"`
	// Freshness says how current the evidence's sources are.
	Freshness Freshness `json:"freshness"`
	// Elapsed is how long the question took.
	Elapsed time.Duration `json:"elapsed_ns"`
}

// Freshness says how current each index behind an answer was.
type Freshness struct {
	// Precision is the precision index's state: "fresh", "stale",
	// "unavailable", "disabled", or "" when it was not asked.
	Precision string `json:"precision,omitempty"`
	// Stale lists the providers whose evidence came from an out-of-date
	// source, each marked stale in the records.
	Stale []string `json:"stale"`
}

// providersFor returns the providers that answer query for plan: those of
// its layers, each once, the dependency sources for a name a dependency
// may define, and the extra ones.
func (e *Engine) providersFor(plan route.Plan, query evidence.Query) []evidence.Provider {
	var providers []evidence.Provider
	asked := map[string]bool{}
	for _, l := range plan.Layers() {
		if p, ok := e.providers[l]; ok && !asked[p.Name()] {
			asked[p.Name()] = true // the graph answers two layers once
			providers = append(providers, p)
		}
	}
	switch plan.Intent {
	case route.IntentDefinition, route.IntentReferences, route.IntentCallers:
		if asksDependency(query.Symbol) {
			providers = append(providers, e.deps)
		}
	}
	if !query.Outgoing {
		// A host's provider written before outgoing questions would read
		// one as a question for the callers.
		providers = append(providers, e.opts.Extra...)
	}
	return providers
}

// Ask answers q: it routes the question, asks the layers the route names
// side by side under one deadline, and fuses, ranks and packs their
// evidence. It fails only when q is empty; a provider that is slow, fails
// or panics becomes a report in the answer.
func (e *Engine) Ask(ctx context.Context, q Question) (*Answer, error) {
	start := time.Now()
	if strings.TrimSpace(q.Text) == "" && q.Path == "" && q.Symbol == "" && q.Pattern == "" {
		return nil, errors.New("codecortex: an empty question")
	}
	timeout := e.opts.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// Every layer that reads the local index shares one walk of the tree.
	ctx = index.WithAsked(ctx, start)

	req := route.Request{Text: q.Text, Path: q.Path, Line: q.Line, Column: q.Column,
		Symbol: q.Symbol, Pattern: q.Pattern, Language: q.Language, Intent: q.Intent}
	plan := route.Route(req)
	switch plan.Intent {
	case route.IntentDependencyAPI, route.IntentMigration, route.IntentVersion:
		// Only a question about dependencies needs to know which the
		// project declares (reading every manifest and lockfile of a large
		// tree costs tens of milliseconds): route it again knowing them.
		req.Declared = e.declaredNames()
		plan = route.Route(req)
	}
	query := queryFor(q, plan)
	searchWords := false
	if q.Symbol == "" && plan.Search {
		var defined bool
		query.Symbol, defined = e.joinedName(ctx, plan)
		searchWords = !defined
	}
	if query.Path != "" && query.Line > 0 && query.Symbol == "" {
		// The name written at the position, for the layers that answer by
		// name (the local index) when no index resolves the position; the
		// precision layer still answers by position first.
		query.Symbol = e.identifierAt(query.Path, query.Line, query.Column)
	}
	if aboutName[plan.Intent] && query.Symbol != "" && query.Path == "" {
		e.followAlias(ctx, &plan, &query)
	}
	providers := e.providersFor(plan, query)
	recs, reports := evidence.Collect(ctx, query, providers, evidence.CollectOptions{Check: e.recordCheck})
	if plan.Intent == route.IntentImplementations {
		recs, reports = e.definitionInstead(ctx, &plan, &query, recs, reports)
	}
	if plan.Intent == route.IntentDefinition && len(recs) == 0 {
		recs = e.textInstead(ctx, &plan, query)
	}
	if p, ok := e.providers[route.LocalIndex]; ok && searchWords && strings.TrimSpace(q.Text) != "" {
		// No name is certain and none is defined: the question's words,
		// ranked, join.
		more, _ := evidence.Collect(ctx, evidence.Query{Text: q.Text}, []evidence.Provider{p},
			evidence.CollectOptions{Check: e.recordCheck})
		recs = append(recs, more...)
	}
	if e.memory != nil && plan.Intent != route.IntentMemory {
		// What the team wrote down about the places the answer cites.
		if attached, err := e.memory.Attach(ctx, recs); err == nil {
			recs = append(recs, attached...)
		}
	}
	budget := q.Budget
	if budget <= 0 {
		budget = e.opts.Budget
	}
	if budget <= 0 {
		budget = DefaultBudget
	}
	ans := &Answer{Question: q, Plan: plan, Query: query, Records: []evidence.Record{}, Reports: reports,
		Freshness: freshness(reports)}
	ans.fill(evidence.Fuse(recs), budget, e.sourceLines())
	ans.Elapsed = time.Since(start)
	return ans, nil
}

// aboutName are the intents whose answer is about the definitions a name
// names.
var aboutName = map[route.Intent]bool{route.IntentDefinition: true, route.IntentReferences: true,
	route.IntentCallers: true, route.IntentCallees: true, route.IntentImplementations: true, route.IntentTests: true}

// followAlias turns a question about a name the project defines nowhere
// but binds to a definition of another name (see aliasOf) into one about
// that name, whose uses through the alias are its uses: the plan's name
// and the query's symbol become it, and a note says where the alias is
// bound.
func (e *Engine) followAlias(ctx context.Context, plan *route.Plan, query *evidence.Query) {
	a, ok := e.aliasOf(ctx, query.Symbol)
	if !ok {
		return
	}
	plan.Notes = append(plan.Notes, fmt.Sprintf("The project defines no %s: %s:%d binds %s of %s to that name, so the answer is about %s.",
		a.As, a.Path, a.Line, a.Name, a.Module, a.Name))
	for i := range plan.Names {
		if plan.Names[i].Text == query.Symbol {
			plan.Names[i].Text, plan.Names[i].Base = a.Name, a.Name
		}
	}
	query.Symbol = a.Name
}

// aliasOf returns where the project binds name to a definition of another
// name (export { isFSA as isFluxStandardAction } from './createAction')
// when it defines nothing called name; ok is false when it does, when the
// bindings name several names, or one the project does not define (an
// outside package's), or when the engine has no local index.
func (e *Engine) aliasOf(ctx context.Context, name string) (index.Alias, bool) {
	if _, ok := e.providers[route.LocalIndex]; !ok {
		return index.Alias{}, false
	}
	ix, err := e.Index()
	if err != nil {
		return index.Alias{}, false
	}
	// The bindings first: most names have none, and then no lookup.
	aliases, _, err := ix.Aliases(ctx, name)
	if err != nil || len(aliases) == 0 || slices.ContainsFunc(aliases, func(a index.Alias) bool { return a.Name != aliases[0].Name }) {
		return index.Alias{}, false
	}
	if res, err := ix.Lookup(ctx, name); err != nil || len(res.Definitions) > 0 {
		return index.Alias{}, false
	}
	if res, err := ix.Lookup(ctx, aliases[0].Name); err != nil || len(res.Definitions) == 0 {
		return index.Alias{}, false
	}
	return aliases[0], true
}

// textInstead answers a definition question no layer found a definition
// for with the lines that write the name, what the project's text knows
// of it, and a note in the plan that says so; none when nothing writes it.
func (e *Engine) textInstead(ctx context.Context, plan *route.Plan, query evidence.Query) []evidence.Record {
	p, ok := e.providers[route.LocalIndex]
	if !ok || query.Symbol == "" {
		return nil
	}
	query.Kinds = []evidence.Kind{evidence.Reference}
	recs, _ := evidence.Collect(ctx, query, []evidence.Provider{p}, evidence.CollectOptions{Check: e.recordCheck})
	if len(recs) > 0 {
		plan.Notes = append(plan.Notes, fmt.Sprintf("No layer found a definition of %s: the lines that write it follow.", query.Symbol))
	}
	return recs
}

// definitionInstead answers an implementations question that found no
// implementation of a function or method with its definition: "the
// implementation of NewHead" is its body. The plan becomes a definition's
// and says why; the definition layers' reports replace their first ones.
func (e *Engine) definitionInstead(ctx context.Context, plan *route.Plan, query *evidence.Query,
	recs []evidence.Record, reports []evidence.Report) ([]evidence.Record, []evidence.Report) {
	if query.Symbol == "" || slices.ContainsFunc(recs, func(r evidence.Record) bool { return r.Kind == evidence.Implementation }) {
		return recs, reports
	}
	var providers []evidence.Provider
	for _, l := range []route.Layer{route.Precision, route.LocalIndex} {
		if p, ok := e.providers[l]; ok && slices.Contains(plan.Layers(), l) {
			providers = append(providers, p)
		}
	}
	dq := *query
	dq.Kinds = []evidence.Kind{evidence.Definition}
	defs, more := evidence.Collect(ctx, dq, providers, evidence.CollectOptions{Check: e.recordCheck})
	callable := func(r evidence.Record) bool {
		return r.Kind == evidence.Definition && family(recordKind(&r)) == "callable"
	}
	other := func(r evidence.Record) bool { return r.Kind == evidence.Definition && !callable(r) }
	if !slices.ContainsFunc(defs, callable) || slices.ContainsFunc(defs, other) {
		// A type nothing was found to extend stays unanswered, with the
		// graph's report: that is no knowledge that nothing does.
		return recs, reports
	}
	plan.Intent = route.IntentDefinition
	plan.Notes = append(plan.Notes, fmt.Sprintf("%s is a function or method that nothing was found to override: its definition, its body, answers.", query.Symbol))
	*query = dq
	for _, m := range more {
		if i := slices.IndexFunc(reports, func(r evidence.Report) bool { return r.Provider == m.Provider }); i >= 0 {
			reports[i] = m
		}
	}
	return append(recs, defs...), reports
}

// fill ranks the fused records for the question the plan understood and
// keeps, in rank order, those that answer it and fit the budget with the
// rest of the answer as JSON: the plan, reports and metadata count. The
// others are counted in Omitted, by reason; the context packs what was
// kept.
func (ans *Answer) fill(fused []evidence.Record, budget int, lines func(string) []string) {
	f := newFit(ans.Plan, ans.Query.Symbol, fused)
	f.lines = lines
	kept := fused[:0:0]
	for i := range fused {
		if why := f.leave(&fused[i]); why != "" {
			ans.omit(why)
			continue
		}
		kept = append(kept, fused[i])
	}
	ranked := evidence.RankFor(kept, f.class)
	for i := range ranked {
		ranked[i] = corroborated(ranked[i])
	}
	head, _ := json.Marshal(ans)
	room := budget*evidence.BytesPerToken - len(head) - answerSlack
	n := fitted(ranked, room, lines)
	if n == 0 && len(ranked) > 0 && ans.compact() {
		// The route's reasons and the layers' guidance make way for the
		// first record.
		head, _ = json.Marshal(ans)
		room = budget*evidence.BytesPerToken - len(head) - answerSlack
		n = fitted(ranked, room, lines)
	}
	if n == 0 && len(ranked) > 0 {
		one, _ := json.Marshal(ranked[:1])
		ans.NeedBudget = evidence.EstimateTokens(len(head)+len(one)+answerSlack) + 1
	}
	ans.Records = append(ans.Records, ranked[:n]...)
	for range ranked[n:] {
		ans.omit(leftBudget)
	}
	ans.Context = evidence.PackRanked(ans.Records, budget)
}

// compact leaves out what an answer says beside its records that the
// reader can do without when the budget holds no record otherwise: the
// route's reasons for its steps and skipped layers, and the layers'
// guidance. It reports whether it left anything out, and notes it in
// Compacted.
func (ans *Answer) compact() bool {
	left := false
	for _, steps := range [][]route.Step{ans.Plan.Steps, ans.Plan.FollowOn, ans.Plan.Skipped} {
		for i := range steps {
			left = left || steps[i].Reason != ""
			steps[i].Reason = ""
		}
	}
	for i := range ans.Reports {
		left = left || ans.Reports[i].Guidance != ""
		ans.Reports[i].Guidance = ""
	}
	ans.Compacted = ans.Compacted || left
	return left
}

// fitted returns how many of ranked, from the first, fit room bytes of
// the answer's JSON, and gives those it read their line of code. A first
// pass measures each record as what all of ranked share leaves of it
// ([evidence.Factor]); what only the records that fit share (the file of
// the overrides of one method, when one ranked last is in another) can
// leave room for more, which a second pass measures exactly, growing the
// count while the document of that many fits. The line of code is read
// only for the records tried: those past the first that does not fit are
// left unread in the common case, twice the extra ones at most otherwise.
func fitted(ranked []evidence.Record, room int, lines func(string) []string) int {
	read := 0
	readTo := func(k int) {
		for ; read < k; read++ {
			ranked[read] = codeExcerpt(ranked[read], lines)
		}
	}
	left := room
	shared, lean := evidence.Factor(ranked)
	if shared != nil {
		b, _ := json.Marshal(shared)
		left -= len(b) + len(`,"shared":`)
	}
	n := 0
	for n < len(ranked) {
		readTo(n + 1)
		lean[n].Metadata.Excerpt = ranked[n].Metadata.Excerpt
		b, err := json.Marshal(&lean[n])
		if err != nil || len(b)+1 > left {
			break
		}
		left -= len(b) + 1
		n++
	}
	// size is the bytes the first k records take in the document: their
	// lean records and what they share.
	size := func(k int) int {
		readTo(k)
		shared, lean := evidence.Factor(ranked[:k])
		b, _ := json.Marshal(lean)
		total := len(b)
		if shared != nil {
			s, _ := json.Marshal(shared)
			total += len(s) + len(`,"shared":`)
		}
		return total
	}
	// largest returns the largest count in [lo, hi) that fits, given
	// that lo fits and hi does not.
	largest := func(lo, hi int) int {
		for lo+1 < hi {
			if mid := (lo + hi) / 2; size(mid) <= room {
				lo = mid
			} else {
				hi = mid
			}
		}
		return lo
	}
	if n > 0 && size(n) > room {
		// What the first pass could not foresee: a record alone of its
		// provider is written whole.
		return largest(0, n)
	}
	for step := 1; n < len(ranked); step *= 2 {
		hi := min(n+step, len(ranked))
		if size(hi) > room {
			return largest(n, hi)
		}
		n = hi
	}
	return n
}

// MarshalJSON writes the answer with the fields and attributes that every
// record of a provider carries alike written once, in "shared" by provider
// ([evidence.Factor]), instead of in each record: the document the budget
// bounds.
func (ans Answer) MarshalJSON() ([]byte, error) {
	type plain Answer
	shared, lean := evidence.Factor(ans.Records)
	return json.Marshal(struct {
		plain
		Records []evidence.Lean   `json:"records"`
		Shared  evidence.Defaults `json:"shared,omitempty"`
	}{plain(ans), lean, shared})
}

// corroborated folds the weaker records r superseded that agree with it
// (the same kind of evidence at the same place, of no stronger tier while
// fresh: a text match and an index's reference of one call site) into the
// names of their providers,
// in r's corroborated_by attribute, so that an answer spends its budget on
// sites rather than on repeating them. Records that disagree (another kind
// or symbol) stay whole, as Fuse keeps them.
func corroborated(r evidence.Record) evidence.Record {
	sup := r.Metadata.Superseded
	if len(sup) == 0 {
		return r
	}
	var kept []evidence.Record
	var by []string
	for _, s := range sup {
		sameKind := s.Kind == r.Kind || s.Kind == evidence.Reference && r.Kind == evidence.Call || s.Kind == evidence.Call && r.Kind == evidence.Reference
		if sameKind && freshTier(&s) <= freshTier(&r) {
			if !slices.Contains(by, s.Provider) {
				by = append(by, s.Provider)
			}
			continue
		}
		kept = append(kept, s)
	}
	if len(by) == 0 {
		return r
	}
	attrs := maps.Clone(r.Metadata.Attributes)
	if attrs == nil {
		attrs = map[string]string{}
	}
	attrs["corroborated_by"] = strings.Join(by, ",")
	r.Metadata.Attributes, r.Metadata.Superseded = attrs, kept
	return r
}

// maxExcerpt bounds the line of code an excerpt quotes, in bytes.
const maxExcerpt = 200

// codeExcerpt gives a graph record, whose excerpt restates its symbols
// ("A calls B (depth 1, scope)"), and a project's use of a dependency,
// which has none, the line of code at its location instead: what the
// reader needs to see of a call site, and what its symbols, kind and
// attributes do not already say.
func codeExcerpt(r evidence.Record, lines func(string) []string) evidence.Record {
	use := r.Provider == depsource.ProviderName && !depsource.Outside(&r)
	if r.Provider != graph.ProviderName && !use || lines == nil || !r.HasLocation() || r.StartLine < 1 {
		return r
	}
	ls := lines(r.Path)
	if r.StartLine > len(ls) {
		return r
	}
	line := strings.TrimSpace(strings.TrimRight(ls[r.StartLine-1], "\r"))
	if line == "" || !utf8.ValidString(line) {
		return r
	}
	if len(line) > maxExcerpt {
		cut := maxExcerpt
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		line = line[:cut] + "…"
	}
	r.Metadata.Excerpt = line
	return r
}

// freshTier is the tier a record had while its source was fresh.
func freshTier(r *evidence.Record) trust.Tier {
	if r.Stale && r.Metadata.StaleFrom.Valid() {
		return r.Metadata.StaleFrom
	}
	return r.Trust
}

// OmittedForBudget is the reason Answer.Omitted counts the records that
// answer the question but did not fit the budget under.
const OmittedForBudget = "no room in the budget"

// leftBudget is why a record that answers the question was left out.
const leftBudget = OmittedForBudget

// answerSlack is room kept for what the answer's JSON gains after it is
// measured: the omitted counts and the elapsed time.
const answerSlack = 200

func (ans *Answer) omit(why string) {
	if ans.Omitted == nil {
		ans.Omitted = map[string]int{}
	}
	ans.Omitted[why]++
}

// joinedName picks the name a question of plain words asks about: the
// first name joined from its words ("scrape loop" → scrapeLoop) that the
// project defines, else the first name it wrote; defined says whether
// the project defines the name picked.
func (e *Engine) joinedName(ctx context.Context, plan route.Plan) (name string, defined bool) {
	for _, n := range plan.Names {
		if n.Origin != route.FromWords {
			name = n.Text
			break
		}
	}
	ix, err := e.Index()
	if err != nil {
		return name, false
	}
	for _, n := range plan.Names {
		if n.Origin != route.FromWords {
			continue
		}
		if res, err := ix.Lookup(ctx, n.Text); err == nil && len(res.Definitions) > 0 {
			return n.Text, true
		}
	}
	res, err := ix.Lookup(ctx, name)
	return name, err == nil && len(res.Definitions) > 0
}

// queryFor turns a question and its route into what providers are asked:
// the kinds the intent wants and the name, pattern or position it carries.
func queryFor(q Question, plan route.Plan) evidence.Query {
	query := evidence.Query{Text: q.Text, Path: q.Path, Line: q.Line, Column: q.Column,
		Symbol: q.Symbol, Pattern: plan.Pattern, Language: plan.Language}
	switch {
	case query.Symbol != "" || query.Path != "":
	case (plan.Intent == route.IntentVersion || plan.Intent == route.IntentDependencyAPI) && len(plan.Dependencies) > 0:
		// A question about a dependency names it: "ecosystem:name".
		query.Symbol = plan.Dependencies[0]
	case len(plan.Names) > 0:
		query.Symbol = plan.Names[0].Text
	}
	switch plan.Intent {
	case route.IntentDefinition:
		query.Kinds = []evidence.Kind{evidence.Definition}
	case route.IntentCallers:
		query.Kinds = []evidence.Kind{evidence.Reference, evidence.Call}
	case route.IntentTests:
		// A test file's import of the name says it tests it too.
		query.Kinds = []evidence.Kind{evidence.Reference, evidence.Call, evidence.Import}
	case route.IntentCallees:
		query.Kinds = []evidence.Kind{evidence.Call}
		query.Outgoing = true
	case route.IntentReferences:
		// An import of the name is a use of it too.
		query.Kinds = []evidence.Kind{evidence.Reference, evidence.Call, evidence.Import}
	case route.IntentImplementations:
		query.Kinds = []evidence.Kind{evidence.Implementation}
	case route.IntentStructural:
		query.Kinds = []evidence.Kind{evidence.StructuralMatch}
	case route.IntentVersion:
		query.Kinds = []evidence.Kind{evidence.Import}
	case route.IntentDependencyAPI:
		query.Kinds = []evidence.Kind{evidence.Documentation, evidence.Import}
	case route.IntentHistory:
		query.Kinds = []evidence.Kind{evidence.GitHistory}
		if query.Path == "" && len(plan.Files) > 0 {
			query.Path = plan.Files[0]
		}
	case route.IntentMemory:
		query.Kinds = []evidence.Kind{evidence.Memory}
	case route.IntentValidation:
		query.Kinds = []evidence.Kind{evidence.Validation}
	}
	return query
}

// sourceLines returns a reader of the project's files as lines, each file
// read at most once; a file that cannot be read, or is larger than
// maxIdentifierFile, reads as no lines.
func (e *Engine) sourceLines() func(string) []string {
	cache := map[string][]string{}
	return func(p string) []string {
		if ls, ok := cache[p]; ok {
			return ls
		}
		var ls []string
		if fi, err := e.root.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Size() <= maxIdentifierFile {
			if src, err := e.root.ReadFile(p); err == nil {
				ls = strings.Split(string(src), "\n")
			}
		}
		cache[p] = ls
		return ls
	}
}

// maxIdentifierFile bounds the file identifierAt reads.
const maxIdentifierFile = 4 << 20

// identifierAt returns the identifier written at a one-based line and
// code-point column of a file in the project, or "" when there is none.
func (e *Engine) identifierAt(p string, line, col int) string {
	fi, err := e.root.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxIdentifierFile {
		return ""
	}
	src, err := e.root.ReadFile(p)
	if err != nil {
		return ""
	}
	lines := strings.SplitN(string(src), "\n", line+1)
	if line > len(lines) {
		return ""
	}
	runes := []rune(strings.TrimRight(lines[line-1], "\r"))
	at := col - 1
	if at < 0 || at >= len(runes) || !isIdentRune(runes[at]) {
		return ""
	}
	start, end := at, at
	for start > 0 && isIdentRune(runes[start-1]) {
		start--
	}
	for end < len(runes) && isIdentRune(runes[end]) {
		end++
	}
	if unicode.IsDigit(runes[start]) {
		return ""
	}
	return string(runes[start:end])
}

// qualifiedAt returns the name written at a position with the qualifier
// written before it ("pflag.FlagSet" when the position is on FlagSet or on
// pflag), or the name alone when none is written.
func (e *Engine) qualifiedAt(p string, line, col int) string {
	name := e.identifierAt(p, line, col)
	if name == "" {
		return ""
	}
	src, err := e.root.ReadFile(p)
	if err != nil {
		return name
	}
	lines := strings.SplitN(string(src), "\n", line+1)
	if line > len(lines) {
		return name
	}
	runes := []rune(strings.TrimRight(lines[line-1], "\r"))
	start, end := col-1, col-1
	for start > 0 && isIdentRune(runes[start-1]) {
		start--
	}
	for end < len(runes) && isIdentRune(runes[end]) {
		end++
	}
	switch {
	case start >= 2 && runes[start-1] == '.' && isIdentRune(runes[start-2]):
		q := start - 1
		for q > 0 && isIdentRune(runes[q-1]) {
			q--
		}
		return string(runes[q:end])
	case end+1 < len(runes) && runes[end] == '.' && isIdentRune(runes[end+1]):
		n := end + 1
		for n < len(runes) && isIdentRune(runes[n]) {
			n++
		}
		return string(runes[start:n])
	}
	return name
}

func isIdentRune(r rune) bool {
	return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// freshness reads the providers' reports: which answered from a stale
// source, and the precision index's state.
func freshness(reports []evidence.Report) Freshness {
	f := Freshness{Stale: []string{}}
	for _, r := range reports {
		if r.State == evidence.StaleState {
			f.Stale = append(f.Stale, r.Provider)
		}
		if r.Provider == precision.Name {
			switch r.State {
			case evidence.Available:
				f.Precision = "fresh"
			default:
				f.Precision = string(r.State)
			}
		}
	}
	return f
}

// declaredDeps is the project's declared dependencies as the router wants
// them, with the manifests they came from and their modification times, so
// an edit to a manifest is noticed.
type declaredDeps struct {
	names []string
	deps  []depdocs.Dependency
	files map[string]time.Time
}

// declaredNames returns "ecosystem:name" for each dependency the project's
// manifests declare directly, scanning again when a manifest it read has
// changed.
func (e *Engine) declaredNames() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.scanDeps().names
}

func (d *declaredDeps) changed(root string) bool {
	for p, mt := range d.files {
		fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil || !fi.ModTime().Equal(mt) {
			return true
		}
	}
	return false
}

// indexProgress reports a long index update in a few lines: when it
// starts, at each tenth, and when it ends.
func indexProgress(say func(string)) func(done, total int) {
	last := -1
	return func(done, total int) {
		if total < 200 {
			return // quick: not worth a line
		}
		if tenth := done * 10 / total; tenth != last {
			last = tenth
			say(fmt.Sprintf("cortex: indexing %d of %d files\n", done, total))
		}
	}
}

// progressWriter adapts a line callback to an io.Writer.
type progressWriter func(string)

func (f progressWriter) Write(b []byte) (int, error) {
	f(string(b))
	return len(b), nil
}

package graph

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/seal"
	"github.com/codecortex/codecortex/trust"
)

// ProviderName is the name the graph answers as.
const ProviderName = "graph"

// An EdgeSource gives exact edges: reference records (Symbol and
// TargetSymbol the defining symbol, the location the use) and
// implementation records (Symbol the implementer, TargetSymbol what it
// implements), as the precision layer's Provider.Edges does.
type EdgeSource interface {
	Edges(ctx context.Context) (iter.Seq[evidence.Record], evidence.Report, error)
}

// Options configures a [Provider]. The zero value builds the graph of the
// working directory from its own index, without exact edges, and walks
// impact within the default bounds. New never modifies it.
type Options struct {
	// Dir is the project root; empty means the working directory (or the
	// Index's root when one is given).
	Dir string
	// Index is the local index to read; nil opens one (closed by Close).
	Index *index.Index
	// IndexOptions configure the index opened when Index is nil; its Dir
	// is Dir.
	IndexOptions index.Options
	// Exact, if set, gives exact edges to fuse in.
	Exact EdgeSource
	// CloseExact hands Exact to the provider: Close closes it too, when
	// it is an io.Closer (a precision.Provider is). Leave it false when
	// Exact is shared with others that close it.
	CloseExact bool
	// Depth and MaxNodes are the default bounds of an impact walk (see
	// Query).
	Depth    int
	MaxNodes int
}

// A Provider keeps a project's graph fresh with its index and answers
// impact from it. It is safe for concurrent use.
type Provider struct {
	opts Options

	mu    sync.Mutex
	ix    *index.Index
	own   bool
	graph *Graph
	fresh index.Freshness // of the last refresh
	// snapshot says how the last graph was had: "loaded" from the
	// snapshot, or why it was built.
	snapshot string
	// staleSize is the snapshot body size from which a question asked
	// after a few files changed reads a stale part of it (see
	// staleSnapshot): staleSnapshotSize, lowered by tests.
	staleSize int
}

// New returns a provider; nothing is read until the first question.
func New(opts Options) *Provider {
	return &Provider{opts: opts, ix: opts.Index, staleSize: staleSnapshotSize}
}

// Name returns ProviderName.
func (p *Provider) Name() string { return ProviderName }

// Close closes the index the provider opened, if any, and Exact when
// CloseExact hands it over. A question after Close opens them again.
func (p *Provider) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var errs []error
	if p.own && p.ix != nil {
		errs = append(errs, p.ix.Close())
		p.ix = nil
	}
	if c, ok := p.opts.Exact.(io.Closer); ok && p.opts.CloseExact {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

func (p *Provider) index() (*index.Index, error) {
	if p.ix != nil {
		return p.ix, nil
	}
	o := p.opts.IndexOptions
	o.Dir = p.opts.Dir
	ix, err := index.Open(o)
	if err != nil {
		return nil, err
	}
	p.ix, p.own = ix, true
	return ix, nil
}

// Graph returns the graph of the index as it is now: the index is
// refreshed first (within its budget), and the graph is built again only
// when the index changed since the last one. A process's first graph is
// read from the snapshot the last build left under .codecortex/ when the
// index has not changed since (see the snapshot's layout in snapshot.go).
func (p *Provider) Graph(ctx context.Context) (*Graph, error) {
	return p.graphFor(ctx, nil)
}

// graphFor returns the graph to answer a question from: the whole graph
// as Graph does, or, when part is set and there are no exact edges to
// fuse, the part of the snapshot that part reads (see partial.go), which
// is not kept: when the process holds no graph yet and the snapshot is of
// the index as it is now, or when the index changed since the graph held
// or the snapshot and staleSnapshot answers. A part that cannot be read
// (too large, corrupt) leaves the answer to the whole graph.
func (p *Provider) graphFor(ctx context.Context, part func(*snapView) (*Graph, error)) (*Graph, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	ix, err := p.index()
	if err != nil {
		return nil, err
	}
	if part != nil && p.opts.Exact != nil && p.exactOptions(ctx).Exact != nil {
		part = nil // exact edges are placed on the whole graph
	}
	if p.graph != nil {
		same, fr, err := ix.Current(ctx, p.graph.Version)
		if err != nil {
			return nil, err
		}
		p.fresh = fr
		if same {
			return p.graph, nil
		}
		// The graph held is of an earlier state: the snapshot answers as
		// for a process that holds none, and a part it reads leaves the
		// graph held for the questions that need it whole.
	}
	b, facts, err := p.fromSnapshot(ctx, ix, part)
	if err != nil {
		return nil, err
	}
	if b != nil && b.part {
		b.finish(BuildOptions{})
		return b.g, nil
	}
	if b == nil {
		b, _ = p.build(ix, facts) // a snapshot not written is said in p.snapshot
		facts = lazyFacts{}
	}
	b.finish(p.exactOptions(ctx))
	if ctx.Err() != nil {
		return nil, ctx.Err() // the exact edges may have stopped early
	}
	p.graph = b.g
	return b.g, nil
}

// Keep makes the snapshot that a process's first graph is read from (see
// Graph) current with the index, without holding the graph: a snapshot of
// the index as it is now is left as it is, once checked in full;
// otherwise the graph is built and its snapshot written. A batch command
// (cortex index) keeps the graph so for the questions that follow. The
// error says why the snapshot was not written; with an index that is not
// complete (Partial) there is nothing to keep.
func (p *Provider) Keep(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	ix, err := p.index()
	if err != nil {
		return err
	}
	if snap, err := p.snapshots(ix).read(); err != nil {
		p.snapshot = err.Error()
	} else {
		current, err := p.current(ctx, ix, snap)
		snap.close()
		if err != nil || current {
			return err
		}
	}
	var facts lazyFacts
	facts.Facts, facts.refs, err = ix.FactsLazy(ctx, "")
	if err != nil {
		return err
	}
	p.fresh = facts.Freshness
	_, err = p.build(ix, facts)
	return err
}

// current reports whether snap is of the index as it is now and checks
// in full (every chunk against its digest), and says in p.snapshot why
// not.
func (p *Provider) current(ctx context.Context, ix *index.Index, snap *sealedSnapshot) (bool, error) {
	same, fr, err := ix.Current(ctx, snap.version)
	if err != nil {
		return false, err
	}
	p.fresh = fr
	if !same {
		p.snapshot = "the index changed since the snapshot"
		return false, nil
	}
	if err := snap.verify(); err != nil {
		p.snapshot = err.Error()
		return false, nil
	}
	p.snapshot = "current"
	return true, nil
}

// build builds the graph of facts, read for this build alone (it drops
// each file's refs once resolved, and the snapshot is encoded without
// them), and writes its snapshot unless the index is partial. It
// returns the builder, unfinished, and why the snapshot was not written,
// which it also adds to p.snapshot: the next process builds again.
func (p *Provider) build(ix *index.Index, facts lazyFacts) (*builder, error) {
	partial := facts.Freshness.State == index.Partial
	b := buildBase(facts.Facts, facts.refs, p.layout(ix, facts.Files), true)
	if partial {
		return b, nil
	}
	err := p.snapshots(ix).write(b.g)
	if err != nil {
		p.snapshot += "; not written: " + err.Error()
	}
	return b, err
}

// layout reads the Go modules and the packages among the files.
func (p *Provider) layout(ix *index.Index, files []index.FileFacts) layout {
	var paths []string
	for _, f := range files {
		if base := path.Base(f.Path); base == "go.mod" || base == "package.json" {
			paths = append(paths, f.Path)
		}
	}
	var lay layout
	if len(paths) > 0 {
		if root, err := os.OpenRoot(ix.Dir()); err == nil {
			lay = layout{mods: ReadGoModules(root.FS(), paths), pkgs: ReadPackages(root.FS(), paths)}
			root.Close()
		}
	}
	return lay
}

// exactOptions asks the exact source, if any, for its edges.
func (p *Provider) exactOptions(ctx context.Context) BuildOptions {
	var bo BuildOptions
	if p.opts.Exact != nil {
		seq, rep, err := p.opts.Exact.Edges(ctx)
		switch {
		case err != nil:
			bo.ExactReport = "no exact edges: " + err.Error()
		default:
			bo.Exact = seq
			bo.ExactReport = string(rep.State)
			if rep.Reason != "" {
				bo.ExactReport += ": " + rep.Reason
			}
		}
	}
	return bo
}

// snapshots returns the store of the snapshot of ix's root, sealed with
// the index's sealer.
func (p *Provider) snapshots(ix *index.Index) snapStore {
	s := p.opts.IndexOptions.Seal
	if s == nil {
		s = seal.User()
	}
	return snapStore{root: ix.Dir(), seal: s, build: snapshotBuild()}
}

// Impact answers q from the graph as it is now, with the provider's
// default bounds where q gives none. While the index is partial (its
// refresh budget ran out), a note says so.
func (p *Provider) Impact(ctx context.Context, q Query) (*Impact, error) {
	if q.Depth == 0 {
		q.Depth = p.opts.Depth
	}
	if q.MaxNodes == 0 {
		q.MaxNodes = p.opts.MaxNodes
	}
	g, err := p.graphFor(ctx, func(v *snapView) (*Graph, error) { return v.impactPart(q) })
	if err != nil {
		return nil, err
	}
	im := g.Impact(q)
	p.mu.Lock()
	fr := p.fresh
	p.mu.Unlock()
	partialNote(im, fr)
	if sf := g.StaleFiles(); sf != nil {
		im.StaleFiles = sf
		im.Notes = append(im.Notes, staleNote(sf))
	}
	return im, nil
}

// staleNote says that an answer comes from the graph of an earlier state
// of the index, which files changed since.
func staleNote(files []string) string {
	shown := files[:min(len(files), 3)]
	more := ""
	if len(files) > len(shown) {
		more = fmt.Sprintf(" and %d more", len(files)-len(shown))
	}
	what, them := fmt.Sprintf("%d files", len(files)), "them"
	if len(files) == 1 {
		what, them = "1 file", "it"
	}
	return fmt.Sprintf("the project graph predates changes to %s (%s%s): what is in %s or uses %s is marked stale; "+
		"`cortex index` builds the graph again", what, strings.Join(shown, ", "), more, them, them)
}

// joinReason adds note to a report's reason.
func joinReason(reason, note string) string {
	if reason == "" {
		return note
	}
	return reason + "; " + note
}

// partialNote notes on im that the index it was walked from is partial,
// if it is.
func partialNote(im *Impact, fr index.Freshness) {
	if fr.State == index.Partial {
		im.Notes = append(im.Notes, fmt.Sprintf("the local index is partial (%d files not indexed as they are now): "+
			"callers in them may be missing; `cortex index` builds it whole", fr.PendingCount))
	}
}

// Gather answers an evidence query about a symbol (Query.Symbol) or a
// position (Query.Path and Line). Asked for implementations alone about
// a type: one record per subtype, at its definition (see
// [Graph.Subtypes]), or when nothing extends it, per type it extends or
// implements. Otherwise: one record for each site at which a direct
// caller uses what the query names (a recursive call included), and one
// for each deeper caller the impact walk reaches (none when the query
// asks for references or calls alone). A record's Symbol is the calling
// definition, its location the use, its kind the edge's (call,
// reference, type relation, implementation, import), its tier the edge's
// method's (exact for a fused precision edge, inferred_high for a use
// resolved through an import, a scope or the receiver's type, inferred
// for a name); the attribute "test" is "true" when the caller is a test.
// A base a definition extends or implements is a type relation or an
// implementation, or a reference when the query asks for references and
// not for those. Asked for references or calls by kind, it adds a record
// for each use of the name it resolved to another definition (see
// [Impact.Elsewhere]), marked with [OtherDefinitionAttribute]: where a
// text match of the name is no use of what was asked about.
func (p *Provider) Gather(ctx context.Context, q evidence.Query) (evidence.Response, error) {
	if err := ctx.Err(); err != nil {
		return evidence.Response{}, err
	}
	if q.Outgoing {
		if q.Symbol == "" && q.Path == "" {
			return evidence.Response{Report: evidence.Report{Provider: ProviderName, State: evidence.Available,
				Reason: "no symbol or position asked about"}}, nil
		}
		return p.callees(ctx, q)
	}
	if asksImplementations(q) && (q.Symbol != "" || q.Path != "") {
		resp, ok, err := p.implementations(ctx, q)
		if err != nil {
			return evidence.Response{}, graphUnavailable(err)
		}
		if ok {
			return resp, nil
		}
	}
	var t Target
	switch {
	case q.Symbol != "":
		t.Symbol = q.Symbol
	case q.Path != "":
		t.Path, t.StartLine = q.Path, q.Line
	default:
		return evidence.Response{Report: evidence.Report{Provider: ProviderName, State: evidence.Available,
			Reason: "no symbol or position asked about"}}, nil
	}
	gq := Query{Targets: []Target{t}}
	if len(q.Kinds) > 0 && !q.Wants(evidence.TypeRelation) &&
		(!q.Wants(evidence.Import) || q.Wants(evidence.Reference) || q.Wants(evidence.Call)) {
		// Asked for references, calls or imports of a name: the direct ones.
		gq.Depth = 1
	}
	// A question for the direct uses of a name, before the whole graph is
	// held, reads the part of the snapshot it walks (see partial.go) or,
	// when the index changed since the snapshot, only the files that
	// concern the name (see named.go).
	im, ok, err := p.partImpact(ctx, gq)
	if err == nil && !ok {
		im, ok, err = p.namedImpact(ctx, gq)
	}
	if err == nil && !ok {
		im, err = p.Impact(ctx, gq)
	}
	if err != nil {
		return evidence.Response{}, graphUnavailable(err)
	}
	resp := evidence.Response{Records: impactRecords(im, &q)}
	resp.Report = evidence.Report{Provider: ProviderName, State: evidence.Available}
	switch {
	case im.Truncated:
		resp.Report.Reason = fmt.Sprintf("the walk stopped at %d nodes", im.MaxNodes)
	case len(im.Affected) == 0:
		resp.Report.Reason = fmt.Sprintf("%s names nothing in the project graph", t)
	case len(im.Callers) == 0 && len(resp.Records) == 0 && len(im.Elsewhere) > 0:
		resp.Report.Reason = fmt.Sprintf("no use the project graph resolved names what %s names; "+
			"it resolved %d uses of the name to other definitions, and a use through a value whose type the syntax does not show stays unresolved",
			t, len(im.Elsewhere))
	case len(im.Callers) == 0 && len(resp.Records) == 0:
		resp.Report.Reason = fmt.Sprintf("nothing in the project graph uses what %s names", t)
	case len(resp.Records) == 0:
		resp.Report.Reason = fmt.Sprintf("what uses %s is not of the kinds asked for", t)
	}
	resp.Records = append(resp.Records, elsewhereRecords(im, &q)...)
	if len(im.StaleFiles) > 0 {
		resp.Report.Reason = joinReason(resp.Report.Reason, staleNote(im.StaleFiles))
	}
	return resp, nil
}

// graphUnavailable is the error of a graph that could not be read: the
// context's own error, else an unavailable layer.
func graphUnavailable(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return &evidence.UnavailableError{Reason: "the project graph could not be read",
		Guidance: "run `cortex index` to build the local index", Err: err}
}

// impactRecords returns the records of an impact that q asks for: one
// per site of each direct caller and of each target's use of a target,
// one per deeper caller (see Gather).
func impactRecords(im *Impact, q *evidence.Query) []evidence.Record {
	var out []evidence.Record
	type site struct {
		caller, path, to string
		line             int
	}
	seen := map[site]bool{}
	add := func(h Hit, v Via, depth int) {
		if v.Kind == Tests && v.Line > 0 {
			return // the use's own edge, from the test's definition, says it
		}
		if k := (site{h.Symbol, v.Path, v.To, v.Line}); v.Line > 0 {
			if seen[k] {
				return // a call and another use on one line
			}
			seen[k] = true
		}
		rec, ok := callerRecord(h, v, depth)
		if ok && !q.Wants(rec.Kind) && (rec.Kind == evidence.TypeRelation || rec.Kind == evidence.Implementation) &&
			q.Wants(evidence.Reference) && v.Method != MethodSet && !memberHit(h) {
			// A base named is a use of it too; an interface a Go type
			// satisfies by its methods is not named there, nor is the
			// method a member implements or overrides (a SCIP index
			// relates them at the member's own name).
			rec.Kind = evidence.Reference
			rec.Metadata.Attributes["edge"] = string(v.Kind)
		}
		if ok && q.Wants(rec.Kind) {
			out = append(out, rec)
		}
	}
	for _, h := range im.Affected {
		for _, v := range h.Sites { // recursive uses, uses of another target
			add(h, v, 1)
		}
	}
	for _, h := range im.Callers {
		switch {
		case len(h.Sites) > 0:
			for _, v := range h.Sites {
				add(h, v, h.Depth)
			}
		case h.Via != nil:
			add(h, *h.Via, h.Depth)
		}
	}
	return out
}

// OtherDefinitionAttribute is set to "true" on the records of uses of a
// name asked about that the graph resolved to another definition of the
// name (see [Impact.Elsewhere]): the symbol such a record targets is not
// the one asked about, and a text match at its place is not a use of it.
const OtherDefinitionAttribute = "other_definition"

// elsewhereRecords returns the records of the impact's uses resolved
// elsewhere, of the kinds q asks for.
func elsewhereRecords(im *Impact, q *evidence.Query) []evidence.Record {
	if len(q.Kinds) == 0 {
		return nil
	}
	var out []evidence.Record
	for _, o := range im.Elsewhere {
		rec, ok := callerRecord(Hit{Symbol: o.From}, o.Via, 1)
		if !ok || !q.Wants(rec.Kind) {
			continue
		}
		rec.Metadata.Excerpt = fmt.Sprintf("%s %s %s, not what was asked about (%s)", o.From, o.Kind, o.To, o.Method)
		rec.Metadata.Attributes[OtherDefinitionAttribute] = "true"
		out = append(out, rec)
	}
	return out
}

// memberHit reports whether h is a type's member rather than a type (or,
// in JavaScript and Python, a top-level function or variable that may be
// a class).
func memberHit(h Hit) bool { return h.Container != "" && !typeKinds[h.Kind] }

// recordKinds map edge kinds to evidence kinds.
var recordKinds = map[EdgeKind]evidence.Kind{
	Calls: evidence.Call, References: evidence.Reference, Inherits: evidence.TypeRelation,
	Implements: evidence.Implementation, Imports: evidence.Import, Tests: evidence.Reference,
}

// callerRecord is the evidence record of caller h's use v, depth edges
// from a target: located at the use. Its attributes say the depth, the
// method, whether the caller is a test, and the edge's kind where the
// record's kind does not say it (the impact's risk, one figure for every
// site, is the impact's, not a site's).
func callerRecord(h Hit, v Via, depth int) (evidence.Record, bool) {
	if v.Path == "" {
		return evidence.Record{}, false
	}
	fresh := v.Method.Tier()
	conf := map[trust.Tier]float64{trust.Exact: 1, trust.InferredHigh: 0.8, trust.Inferred: 0.5}[fresh] / float64(depth)
	line, col := v.Line, v.Column
	if line < 1 {
		line, col = 1, 1
	}
	rec := evidence.Record{Kind: recordKinds[v.Kind], Provider: ProviderName, Provenance: v.Method.Provenance(), Trust: fresh,
		Path: v.Path, StartLine: line, StartColumn: col, EndLine: line, EndColumn: col + max(v.Span, 0),
		Symbol: h.Symbol, TargetSymbol: v.To, Confidence: conf, Exact: fresh == trust.Exact,
		Metadata: evidence.Metadata{
			Excerpt:    fmt.Sprintf("%s %s %s (depth %d, %s)", h.Symbol, v.Kind, v.To, depth, v.Method),
			Attributes: map[string]string{"depth": strconv.Itoa(depth), "method": string(v.Method)},
		}}
	if h.Test {
		rec.Metadata.Attributes["test"] = "true"
	}
	if v.Line < 1 {
		rec.EndColumn = 1
	}
	if v.Method == Exact && v.Kind != Implements {
		// The precision index says reference, not call: keep its kind, so
		// that the graph's record of the same site fuses with the precision
		// layer's without changing what it says (the edge kind the syntax
		// gave stays in the attributes).
		rec.Kind = evidence.Reference
	}
	if rec.Kind != recordKinds[v.Kind] || v.Kind == Tests {
		// The edge says what the kind does not.
		rec.Metadata.Attributes["edge"] = string(v.Kind)
	}
	if v.Stale {
		rec = evidence.MarkStale(rec)
	}
	return rec, true
}

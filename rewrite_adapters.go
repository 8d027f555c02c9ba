package codecortex

import (
	"context"
	"fmt"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/graph"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/precision"
	"github.com/codecortex/codecortex/rewrite"
	"github.com/codecortex/codecortex/trust"
)

// The engine's layers adapted to the small interfaces a rewrite consults
// (rewrite.Options), here in the composition so that the rewrite opens no
// layer of its own and the read path (graph) never imports the mutation
// path (rewrite). The engine's structural search and validation are a
// rewrite.Matcher and a rewrite.Validator as they are; the project graph
// and the indexes need the adapters below. None is an io.Closer: the
// engine that made the layers closes them, not the rewriter.

// graphAnalyzer is the Analyzer of the rewrite impact reports the project
// graph makes.
const graphAnalyzer = "project graph"

// graphImpact adapts the project graph to the rewrite's [rewrite.Impact].
type graphImpact struct{ g *graph.Provider }

// Analyze makes the graph a [rewrite.Impact]: the changed files' own analysis
// ([rewrite.LocalImpact]: the definitions the edits touch, those they
// remove, the tests beside them), with the callers of the touched
// definitions from the graph, the tests that reach them, and the risk the
// graph gives when it is higher. When the graph cannot be read, the local
// report is returned with a note saying so.
func (g graphImpact) Analyze(ctx context.Context, req rewrite.ImpactRequest) (*rewrite.ImpactReport, error) {
	rep, err := rewrite.LocalImpact{}.Analyze(ctx, req)
	if err != nil {
		return nil, err
	}
	var q graph.Query
	for _, f := range req.Files {
		for _, s := range f.Spans {
			b := s.Old
			if req.Stage == rewrite.StageAfter {
				b = s.New
			}
			q.Targets = append(q.Targets, graph.Target{Path: f.Path, StartLine: max(b.StartLine, 1), EndLine: max(b.EndLine, b.StartLine, 1)})
		}
	}
	im, err := g.g.Impact(ctx, q)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		rep.Notes = append(rep.Notes, "project graph unavailable, callers in other files not counted: "+err.Error())
		return rep, nil
	}
	rep.Analyzer = graphAnalyzer
	rep.Basis = fmt.Sprintf("the definitions the edits touch, parsed from the changed files (structural); their callers "+
		"in the project graph to depth %d (%d exact, %d inferred_high, %d inferred edges); tests that reach them and "+
		"test files by naming convention; uses the graph could not resolve are not counted", im.Depth,
		im.Mix.Exact, im.Mix.InferredHigh, im.Mix.Inferred)
	for _, h := range im.Callers {
		if h.Test || h.Via == nil {
			continue
		}
		rep.Symbols = append(rep.Symbols, rewrite.AffectedSymbol{Path: h.Path, Name: h.Name, Kind: h.Kind, Container: h.Container,
			Exported: h.Exported, Line: h.Line, Tier: h.Tier,
			Why: fmt.Sprintf("%s %s, %d step(s) from the change (%s)", h.Via.Kind, h.Via.To, h.Depth, h.Via.Method)})
	}
	have := map[string]bool{}
	for _, t := range rep.Tests {
		have[t.Path] = true
	}
	for _, t := range im.Tests {
		if !have[t.Path] {
			have[t.Path] = true
			rep.Tests = append(rep.Tests, rewrite.AffectedTest{Path: t.Path, Tier: t.Tier, Why: t.Why})
		}
	}
	rep.Exact += im.Mix.Exact
	rep.Inferred += im.Mix.InferredHigh + im.Mix.Inferred
	if im.Risk > rep.Risk {
		rep.Risk, rep.RiskReason = im.Risk, "graph: "+im.RiskReason
	}
	if im.Truncated {
		rep.Notes = append(rep.Notes, fmt.Sprintf("the graph walk stopped at %d nodes", im.MaxNodes))
	}
	rep.Tier = trust.Inferred
	return rep, nil
}

var _ rewrite.Impact = graphImpact{}

// engineReindexer adapts the engine's local index and precision index to
// the rewrite's [rewrite.Reindexer]: after an apply, the local index is
// brought up to date when the project has one (none is created), and the
// precision index is regenerated through its generator when the trusted
// configuration has one (and the engine may run it), reported stale with
// guidance otherwise.
type engineReindexer struct{ e *Engine }

// Reindex refreshes the engine's indexes after paths were replaced.
func (x engineReindexer) Reindex(ctx context.Context, paths []string) rewrite.Reindex {
	rep := rewrite.Reindex{Notes: []string{fmt.Sprintf("%d files changed; the structural parse cache is keyed by content", len(paths))}}
	rep.Index, rep.IndexReason = x.refreshIndex(ctx)
	rep.Precision = x.precisionReport(ctx)
	return rep
}

// refreshIndex brings the engine's local index up to date and says how
// that went.
func (x engineReindexer) refreshIndex(ctx context.Context) (state, reason string) {
	if !hasIndex(x.e.project.Root) {
		return rewrite.IndexNone, "the project has no local index (" + index.StorageDir + "); nothing to refresh"
	}
	ix, err := x.e.Index()
	if err != nil {
		return rewrite.IndexFailed, err.Error()
	}
	fr, err := ix.Refresh(ctx)
	switch {
	case err != nil:
		return rewrite.IndexFailed, err.Error()
	case fr.State == index.Fresh:
		return rewrite.IndexRefreshed, fmt.Sprintf("%d files reindexed", fr.Indexed)
	default:
		return rewrite.IndexPartial, fmt.Sprintf("%d changed files are not indexed yet (cortex index finishes)", fr.PendingCount)
	}
}

// precisionReport is the engine's precision index's state after the
// change, regenerated first when its options say so.
func (x engineReindexer) precisionReport(ctx context.Context) evidence.Report {
	rep := evidence.Report{Provider: precision.Name}
	if x.e.project.PrecisionOptions().Disabled {
		rep.State, rep.Reason = evidence.Disabled, "the precision index is disabled"
		return rep
	}
	st := x.e.scip.Status(ctx)
	rep.State, rep.Reason, rep.Guidance = st.State, st.Reason, st.Guidance
	return rep
}

var _ rewrite.Reindexer = engineReindexer{}

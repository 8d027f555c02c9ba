package codecortex

import (
	"context"
	"fmt"

	"github.com/codecortex/codecortex/graph"
	"github.com/codecortex/codecortex/rewrite"
	"github.com/codecortex/codecortex/trust"
)

// graphAnalyzer is the Analyzer of the rewrite impact reports the project
// graph makes.
const graphAnalyzer = "project graph"

// graphImpact adapts the project graph to the rewrite's [rewrite.Impact],
// here in the composition so that the read path (graph) never imports the
// mutation path (rewrite). It is no io.Closer: the engine that made the
// graph closes it, not the rewriter.
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

package mcp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/codecortex/codecortex/rewrite"
	"github.com/codecortex/codecortex/structural"
)

// rewriter returns the engine's rewriter. Opening it writes nothing: an
// apply a crash interrupted is recovered by the next apply, on the
// mutating surface.
func (s *Server) rewriter() (*rewrite.Rewriter, error) { return s.engine.Rewriter() }

// previewParams are cortex_rewrite_preview's arguments.
type previewParams struct {
	Pattern  string   `json:"pattern" minLength:"1" maxLength:"4096" jsonschema:"the code to change, as cortex_structural_search takes"`
	Template string   `json:"template" maxLength:"4096" jsonschema:"what each match becomes, such as 'new_api(ctx, $$$ARGS)'"`
	Language string   `json:"language" enum:"$languages" jsonschema:"the pattern's language"`
	Paths    []string `json:"paths,omitempty" maxItems:"64" maxLength:"1024" jsonschema:"files, directories or globs; absent: the whole project"`
	Budget   int      `json:"budget,omitempty" minimum:"500" maximum:"10000" default:"4000" jsonschema:"token budget"`
}

// previewResult is what cortex_rewrite_preview and cortex_rewrite_show
// return.
type previewResult struct {
	ID           string        `json:"id" jsonschema:"the preview's id, which cortex_rewrite_apply takes"`
	Expires      string        `json:"expires" jsonschema:"when the preview can no longer be applied, RFC 3339"`
	Files        int           `json:"files" jsonschema:"how many files it changes"`
	Matches      int           `json:"matches" jsonschema:"how many matches it rewrites (the outermost of nested ones)"`
	SkippedInner int           `json:"skipped_inner" jsonschema:"matches inside another match, not rewritten"`
	ChangedBytes int64         `json:"changed_bytes" jsonschema:"bytes removed plus bytes inserted"`
	Impact       impactView    `json:"impact" jsonschema:"what the change touches before it is made"`
	Diffs        []previewDiff `json:"diffs" jsonschema:"each file's unified diff"`
	Notes        []string      `json:"notes" jsonschema:"what else the preview says"`
	Omitted      omission      `json:"omitted" jsonschema:"the diffs the budget left out"`
}

type previewDiff struct {
	Path string `json:"path" jsonschema:"the file, relative to the project root"`
	Diff string `json:"diff" jsonschema:"its unified diff"`
}

type impactView struct {
	Analyzer string   `json:"analyzer" jsonschema:"what computed it"`
	Symbols  []string `json:"symbols" jsonschema:"the symbols the change touches"`
	Tests    []string `json:"tests" jsonschema:"the tests to run"`
	Risk     float64  `json:"risk" jsonschema:"0 (none) to 1 (high): a ranking of risk, not a probability"`
	Reason   string   `json:"reason,omitempty" jsonschema:"why the risk is what it is"`
}

func answerRewritePreview(ctx context.Context, s *Server, in previewParams) (previewResult, error) {
	r, err := s.rewriter()
	if err != nil {
		return previewResult{}, err
	}
	p, err := s.engine.PreviewRewrite(ctx, rewrite.Request{Pattern: in.Pattern, Template: in.Template, Language: structural.Language(in.Language), Paths: in.Paths})
	if err != nil {
		return previewResult{}, err
	}
	return previewView(p, pendingNotes(r), in.Budget), nil
}

// pendingNotes says which journals wait for recovery, and which are
// foreign and never will be.
func pendingNotes(r *rewrite.Rewriter) []string {
	var out []string
	for _, j := range r.Pending() {
		if j.Foreign {
			out = append(out, j.Journal+" is a rewrite journal this user's cortex did not write (shipped with the repository?): it is never recovered; the user may remove it with: "+j.Remove)
		} else {
			out = append(out, "the apply "+j.TxID+" was interrupted: the next apply recovers it first (or `cortex rewrite recover`)")
		}
	}
	return out
}

// showParams are cortex_rewrite_show's arguments.
type showParams struct {
	ID     string `json:"id" minLength:"1" maxLength:"64" pattern:"^[0-9a-f]+$" jsonschema:"a preview's id"`
	Budget int    `json:"budget,omitempty" minimum:"500" maximum:"10000" default:"4000" jsonschema:"token budget"`
}

func answerRewriteShow(ctx context.Context, s *Server, in showParams) (previewResult, error) {
	r, err := s.rewriter()
	if err != nil {
		return previewResult{}, err
	}
	p, err := s.engine.ShowRewrite(in.ID)
	if err != nil {
		return previewResult{}, err
	}
	return previewView(p, pendingNotes(r), in.Budget), nil
}

func previewView(p *rewrite.Preview, notes []string, budget int) previewResult {
	out := previewResult{ID: p.ID, Expires: p.Expires.UTC().Format(time.RFC3339), Files: len(p.Files), Matches: p.Matches,
		SkippedInner: p.SkippedInner, ChangedBytes: p.ChangedBytes, Notes: append(append([]string{}, p.Notes...), notes...), Diffs: []previewDiff{},
		Impact: impactView{Symbols: []string{}, Tests: []string{}}}
	if im := p.Impact; im != nil {
		out.Impact.Analyzer, out.Impact.Risk, out.Impact.Reason = im.Analyzer, im.Risk, im.RiskReason
		for _, sym := range im.Symbols {
			name := sym.Name
			if sym.Container != "" {
				name = sym.Container + "." + name
			}
			out.Impact.Symbols = append(out.Impact.Symbols, fmt.Sprintf("%s %s (%s:%d)", sym.Kind, name, sym.Path, sym.Line))
		}
		for _, t := range im.Tests {
			out.Impact.Tests = append(out.Impact.Tests, t.Path)
		}
	}
	diffs := make([]previewDiff, 0, len(p.Files))
	for _, f := range p.Files {
		diffs = append(diffs, previewDiff{Path: f.Path, Diff: f.Diff})
	}
	f := newFitter(budget, out)
	out.Diffs = take(f, diffs)
	out.Omitted = f.done("more files change than the budget shows; cortex_rewrite_show with a larger budget, or cortex rewrite show ID, shows them")
	return out
}

// applyParams are cortex_rewrite_apply's arguments.
type applyParams struct {
	ID string `json:"id" minLength:"1" maxLength:"64" pattern:"^[0-9a-f]+$" jsonschema:"a preview's id"`
}

// applyResult is cortex_rewrite_apply's result.
type applyResult struct {
	Outcome        string   `json:"outcome" jsonschema:"applied, completed, refused, rolled_back, rollback_incomplete or conflict"`
	FilesChanged   int      `json:"files_changed" jsonschema:"how many files now hold the new content"`
	MatchesApplied int      `json:"matches_applied" jsonschema:"how many matches were rewritten"`
	Rollback       string   `json:"rollback,omitempty" jsonschema:"what the rollback did, when one ran"`
	Validation     string   `json:"validation,omitempty" jsonschema:"the validation run's outcome after the change"`
	NewDiagnostics []string `json:"new_diagnostics,omitempty" jsonschema:"diagnostics after the change that the run before it did not report"`
	ResidualRisk   float64  `json:"residual_risk" jsonschema:"the risk after the change: 1 when validation failed"`
	Problems       []string `json:"problems" jsonschema:"every problem met, a partial failure included"`
}

func answerRewriteApply(ctx context.Context, s *Server, in applyParams) (applyResult, error) {
	if s.opts.Principal == "" || surfaceOf(ctx) != Mutating {
		return applyResult{}, &toolError{Reason: "cortex_rewrite_apply is served on the mutating surface only, with a principal",
			Guidance: "the operator starts cortex mcp with --mutating --principal NAME", Err: ErrNoPrincipal}
	}
	res, err := s.engine.ApplyRewrite(ctx, in.ID, rewrite.Authorization{Principal: s.opts.Principal, Via: "mcp"})
	if res == nil {
		if err == nil {
			err = errors.New("the rewrite returned no result")
		}
		return applyResult{}, err
	}
	out := applyResult{Outcome: string(res.Outcome), FilesChanged: res.FilesChanged, MatchesApplied: res.MatchesApplied,
		Validation: res.Validation.Status, ResidualRisk: res.ResidualRisk, Problems: append([]string{}, res.Problems...)}
	for i, d := range res.Validation.New {
		if i == 20 {
			out.NewDiagnostics = append(out.NewDiagnostics, fmt.Sprintf("and %d more", len(res.Validation.New)-20))
			break
		}
		out.NewDiagnostics = append(out.NewDiagnostics, fmt.Sprintf("%s:%d:%d: %s", d.Path, d.Line, d.Column, d.Message))
	}
	if rb := res.Rollback; rb.Attempted {
		out.Rollback = fmt.Sprintf("after %s: %d files restored, %d not (complete: %v)", rb.Cause, len(rb.Restored), len(rb.Unrestored), rb.Complete)
		out.Problems = append(out.Problems, rb.Problems...)
	}
	if err != nil && len(out.Problems) == 0 {
		out.Problems = append(out.Problems, err.Error())
	}
	return out, nil
}

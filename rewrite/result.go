package rewrite

import (
	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/structural"
	"github.com/codecortex/codecortex/validation"
)

// A Request is a structural rewrite: every match of Pattern, in the files
// of Language under Paths, replaced by Template.
type Request struct {
	// Pattern is an ast-grep style pattern, such as "old_api($$$ARGS)".
	Pattern string `json:"pattern"`
	// Template is the replacement; every metavariable it names must be one
	// the pattern binds.
	Template string `json:"template"`
	// Language is the pattern's language; a rewrite needs one.
	Language structural.Language `json:"language"`
	// Paths are files, directories or globs relative to the project root;
	// empty means the whole project.
	Paths []string `json:"paths,omitempty"`
}

// Authorization is the caller's explicit permission to mutate the
// project: who authorizes, as the host knows them. The CLI passes the
// user it runs as once --yes is given; an MCP host passes the principal
// its mutation policy admitted.
type Authorization struct {
	// Principal names who authorizes the apply; required.
	Principal string `json:"principal"`
	// Via names the front end it came through, such as "cli" or "mcp".
	Via string `json:"via,omitempty"`
	// SkipValidation runs no validation after this apply, as
	// Options.SkipValidation does for every apply; the result says so.
	SkipValidation bool `json:"skip_validation,omitempty"`
}

// A Result is what an apply did. Outcome says whether the files were
// replaced; everything after the replacement (reindex, validation,
// residual impact) is reported as it went, failures included: a result
// never hides a partial failure.
type Result struct {
	PreviewID string  `json:"preview_id"`
	TxID      string  `json:"tx_id,omitempty"`
	Principal string  `json:"principal"`
	Outcome   Outcome `json:"outcome"`
	// Files are the files of the transaction with their SHA-256 before
	// and after (After equals Before for a file rolled back).
	Files []AuditFile `json:"files"`
	// FilesChanged and MatchesApplied count what the project now holds:
	// zero unless Outcome is Applied.
	FilesChanged   int `json:"files_changed"`
	MatchesApplied int `json:"matches_applied"`
	// SkippedInner is how many nested matches the preview left to their
	// outer match's rewrite.
	SkippedInner int `json:"skipped_inner"`
	// Rollback says whether replacing failed and what was restored.
	Rollback Rollback `json:"rollback"`
	// Reindex is what was brought up to date after the change.
	Reindex Reindex `json:"reindex"`
	// Validation is the validation run after the change.
	Validation ValidationReport `json:"validation"`
	// ImpactBefore is the preview's estimate; ImpactAfter the analysis of
	// the files as written.
	ImpactBefore *ImpactReport `json:"impact_before,omitempty"`
	ImpactAfter  *ImpactReport `json:"impact_after,omitempty"`
	// ResidualRisk is ImpactAfter's risk, or 1 when validation failed.
	ResidualRisk float64 `json:"residual_risk"`
	// Problems are the failures after the replacement that did not undo
	// it: a reindex, an impact analysis or an audit append that failed, a
	// journal that could not be removed.
	Problems []string `json:"problems,omitempty"`
	// Recovered are interrupted applies this apply found and recovered
	// before it began.
	Recovered []Recovery `json:"recovered,omitempty"`
}

// OK reports whether the apply replaced every file, validation did not
// fail and nothing after the replacement went wrong.
func (r *Result) OK() bool {
	return r.Outcome == Applied && r.Validation.Status != ValidationFailed && r.Validation.Status != ValidationError && len(r.Problems) == 0
}

// Rollback says whether a failed replacement was undone.
type Rollback struct {
	// Attempted says replacing failed and a rollback ran.
	Attempted bool `json:"attempted"`
	// Complete says every file has its old content again. The outcome is
	// RolledBack only when, besides, nothing is left to clean up (no
	// replacement file beside a target, no journal).
	Complete bool `json:"complete"`
	// Restored are the files that had their new content and got their old
	// content back; Unrestored those that could not (the journal is kept
	// and the next Recover or apply restores them).
	Restored   []string `json:"restored,omitempty"`
	Unrestored []string `json:"unrestored,omitempty"`
	// Cause is the failure that started the rollback.
	Cause string `json:"cause,omitempty"`
	// Journal is where the journal is kept, when it could not be removed.
	Journal  string   `json:"journal,omitempty"`
	Problems []string `json:"problems,omitempty"`
}

// Reindex is what an apply brought up to date.
type Reindex struct {
	// Index is the local index's state after the refresh:
	// [IndexRefreshed], [IndexPartial] (some changed files still
	// pending), [IndexNone] (the project has no local index),
	// [IndexFailed], or [IndexSkipped] (the rewriter has no [Reindexer]).
	Index       string `json:"index"`
	IndexReason string `json:"index_reason,omitempty"`
	// Precision is the precision index's report after the change:
	// available (regenerated through its generator), stale (with the
	// guidance to regenerate it), unavailable, or disabled (switched off,
	// or no [Reindexer]).
	Precision evidence.Report `json:"precision"`
	// Notes say what else was refreshed.
	Notes []string `json:"notes,omitempty"`
}

// The validation statuses.
const (
	ValidationPassed  = "passed"
	ValidationFailed  = "failed"
	ValidationSkipped = "skipped"
	ValidationError   = "error"
)

// ValidationReport is the validation run after an apply.
type ValidationReport struct {
	// Status is "passed", "failed", "skipped" (by the host, or no
	// commands) or "error" (the commands could not run).
	Status  string              `json:"status"`
	Reason  string              `json:"reason,omitempty"`
	Outcome *validation.Outcome `json:"outcome,omitempty"`
	// Before is the validation run before the change, with
	// Options.ValidateBefore; nil without it, or when it could not run.
	Before *validation.Outcome `json:"before,omitempty"`
	// Compared says New and Fixed were computed: both runs ran.
	Compared bool `json:"compared,omitempty"`
	// New are the diagnostics after the change that the run before did
	// not report, and Fixed those before it that are gone, each compared
	// by tool, path, code, message and failing test (lines and columns
	// aside, since a change moves them).
	New   []validation.Diagnostic `json:"new,omitempty"`
	Fixed []validation.Diagnostic `json:"fixed,omitempty"`
}

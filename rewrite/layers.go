package rewrite

import (
	"context"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/structural"
	"github.com/codecortex/codecortex/validation"
)

// The layers a rewrite consults are small interfaces, so that the host
// that composes the layers (the codecortex engine, or a host of its own)
// gives each once, and a rewrite never opens one beside it. [Impact]
// estimates what a rewrite affects (impact.go); the others are below.

// A Matcher finds a pattern's structural matches and turns them into
// edits (step 2). [*structural.Provider] is one; a host's own is checked
// by rewritetest.TestMatcher.
type Matcher interface {
	// Search answers a structural request. An answer without structural
	// matches (a fallback's lexical hits) never drives a rewrite, and an
	// invalid pattern is an error (structural.ErrInvalidPattern).
	Search(ctx context.Context, req structural.Request) (*structural.Answer, error)
	// Rewrite returns the edits that rewrite every structural match of ans
	// with template, checked to leave files that still parse.
	Rewrite(ctx context.Context, ans *structural.Answer, template string) ([]structural.Edit, error)
}

// A Reindexer brings what indexes a project up to date after an apply
// replaced files (step 9): a local index, a precision index. It reports
// what it did, failures included; a failed refresh never undoes the apply.
type Reindexer interface {
	// Reindex refreshes the indexes after paths (relative to the project
	// root, slash-separated) were replaced.
	Reindex(ctx context.Context, paths []string) Reindex
}

// A Validator runs the project's checks after an apply (step 10).
// [*validation.Provider] is one.
type Validator interface {
	// Run runs the checks; an error matching validation.ErrNoCommands
	// means the project has none, and the apply reports validation as
	// skipped.
	Run(ctx context.Context) (*validation.Outcome, error)
}

var (
	_ Matcher   = (*structural.Provider)(nil)
	_ Validator = (*validation.Provider)(nil)
)

// The states of [Reindex].Index.
const (
	IndexRefreshed = "refreshed"
	IndexPartial   = "partial"
	IndexNone      = "none"
	IndexFailed    = "failed"
	IndexSkipped   = "skipped"
)

// noReindex is the report of an apply without a [Reindexer].
func noReindex() Reindex {
	const why = "no reindexer was given (rewrite.Options.Reindexer): nothing was refreshed"
	return Reindex{Index: IndexSkipped, IndexReason: why,
		Precision: evidence.Report{Provider: "precision", State: evidence.Disabled, Reason: why}}
}

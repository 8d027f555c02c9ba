package rewritetest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/rewrite"
	"github.com/codecortex/codecortex/rewrite/rewritetest"
	"github.com/codecortex/codecortex/structural"
	"github.com/codecortex/codecortex/syntax"
	"github.com/codecortex/codecortex/trust"
)

// The minimal impact analysis keeps the contract.
func TestLocalImpact(t *testing.T) {
	rewritetest.TestImpact(t, rewrite.LocalImpact{})
}

// badImpact breaks it in every way Check looks for.
type badImpact struct{}

func (badImpact) Analyze(ctx context.Context, req rewrite.ImpactRequest) (*rewrite.ImpactReport, error) {
	return &rewrite.ImpactReport{Stage: "sometime", Risk: 1.5, Tier: trust.Tier(99),
		Symbols: []rewrite.AffectedSymbol{{Path: "../outside.go", Name: "X", Tier: trust.Structural}},
		Tests:   []rewrite.AffectedTest{{Path: "missing_test.go", Tier: trust.Inferred}}, Exact: -1}, nil
}

// panicky panics.
type panicky struct{}

func (panicky) Analyze(context.Context, rewrite.ImpactRequest) (*rewrite.ImpactReport, error) {
	panic("boom")
}

func TestCheckFindsBreaches(t *testing.T) {
	errs := rewritetest.Check(context.Background(), badImpact{}, t.TempDir())
	var all []string
	for _, e := range errs {
		all = append(all, e.Error())
	}
	text := strings.Join(all, "\n")
	for _, want := range []string{"name its analyzer", "stage", "risk 1.5", "tier", "negative counts", "symbol X path", "missing_test.go is not in the project"} {
		if !strings.Contains(text, want) {
			t.Errorf("Check did not find %q:\n%s", want, text)
		}
	}
	if errs := rewritetest.Check(context.Background(), panicky{}, t.TempDir()); len(errs) != 3 || !strings.Contains(errs[0].Error(), "panicked: boom") {
		t.Errorf("a panicking Analyze: %v", errs)
	}
}

// The structural provider keeps the matcher's contract, with its engine
// and without one (every answer a fallback, which a rewrite refuses).
func TestStructuralMatcher(t *testing.T) {
	if !syntax.Available {
		t.Skip("the built-in structural engine needs cgo")
	}
	rewritetest.TestMatcher(t, structural.New(structural.Options{}))
	rewritetest.TestMatcher(t, structural.New(structural.Options{Disabled: true}))
}

// badMatcher breaks the matcher's contract: a match whose bytes are not
// its text, an edit whose old text is not the file's, and structural
// matches for a pattern that does not parse.
type badMatcher struct{}

func (badMatcher) Search(_ context.Context, req structural.Request) (*structural.Answer, error) {
	m := structural.Match{Path: "pkg/calc.go", Text: "old(1)", Range: structural.Range{StartByte: 0, EndByte: 6}}
	return &structural.Answer{Pattern: req.Pattern, Structural: &structural.Result{Matches: []structural.Match{m}}}, nil
}

func (badMatcher) Rewrite(context.Context, *structural.Answer, string) ([]structural.Edit, error) {
	return []structural.Edit{{Path: "pkg/calc.go", StartByte: 0, EndByte: 7, Old: "package", New: "new(1)"},
		{Path: "pkg/calc.go", StartByte: 3, EndByte: 4, Old: "k", New: "x"}}, nil
}

// panickyMatcher panics.
type panickyMatcher struct{ badMatcher }

func (panickyMatcher) Search(context.Context, structural.Request) (*structural.Answer, error) {
	panic("boom")
}

func TestCheckMatcherFindsBreaches(t *testing.T) {
	errs := rewritetest.CheckMatcher(context.Background(), badMatcher{}, t.TempDir())
	var all []string
	for _, e := range errs {
		all = append(all, e.Error())
	}
	text := strings.Join(all, "\n")
	for _, want := range []string{`match "old(1)" at bytes 0-6`, "edits at bytes 0 and 3 overlap", "does not parse gave 1 structural matches"} {
		if !strings.Contains(text, want) {
			t.Errorf("CheckMatcher did not find %q:\n%s", want, text)
		}
	}
	if errs := rewritetest.CheckMatcher(context.Background(), panickyMatcher{}, t.TempDir()); len(errs) != 2 || !strings.Contains(errs[0].Error(), "Search panicked: boom") {
		t.Errorf("a panicking Search: %v", errs)
	}
}

package rewritetest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/rewrite"
	"github.com/codecortex/codecortex/rewrite/rewritetest"
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

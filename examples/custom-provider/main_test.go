package main

import (
	"context"
	"testing"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/evidence/evidencetest"
	"github.com/codecortex/codecortex/trust"
)

// The template's providers keep the evidence contract, as a host's own
// providers should; this is the call a host makes from its tests.
func TestProvidersConform(t *testing.T) {
	q := evidence.Query{Text: "what is left to do?"}
	evidencetest.TestProvider(t, todoProvider{root: "testdata/repo"}, "testdata/repo", q)
	evidencetest.TestProvider(t, grepProvider{root: "testdata/repo", word: "TODO"}, "testdata/repo", q)
}

// Both providers point at the two TODO comments: fusion keeps the memory
// records (inferred) and files the lexical hits (weak) under superseded.
func TestFusion(t *testing.T) {
	recs, _ := evidence.Collect(context.Background(), evidence.Query{},
		[]evidence.Provider{todoProvider{"testdata/repo"}, grepProvider{"testdata/repo", "TODO"}}, evidence.CollectOptions{})
	fused := evidence.Fuse(recs)
	if len(recs) != 4 || len(fused) != 2 {
		t.Fatalf("%d records fused into %d, want 4 into 2", len(recs), len(fused))
	}
	for _, r := range fused {
		if r.Provider != "todo" || r.Trust != trust.Inferred || len(r.Metadata.Superseded) != 1 || r.Metadata.Superseded[0].Provider != "grep" {
			t.Errorf("fused %s: %s %s, superseded %v", r.Location(), r.Provider, r.Trust, r.Metadata.Superseded)
		}
	}
}

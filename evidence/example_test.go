package evidence_test

import (
	"fmt"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/trust"
)

// A record says how it was established; Validate enforces the invariants
// written on the type.
func ExampleRecord_Validate() {
	r := evidence.Record{
		Kind: evidence.Definition, Provider: "scip", Provenance: trust.PrecisionIndex,
		Trust: trust.Exact, Exact: true, Confidence: 1,
		Path: "auth/service.go", StartLine: 12, StartColumn: 6, EndLine: 12, EndColumn: 17,
	}
	fmt.Println(r.Validate())

	r.Stale = true // an out-of-date index cannot also be exact
	fmt.Println(r.Validate())

	fmt.Println(evidence.MarkStale(evidence.Record{
		Kind: evidence.Definition, Provider: "scip", Provenance: trust.PrecisionIndex,
		Trust: trust.Exact, Exact: true, Confidence: 1,
	}).Trust)
	// Output:
	// <nil>
	// evidence: exact: exact and stale are both set: stale evidence cannot be exact
	// evidence: trust: stale evidence cannot claim the exact tier (it reads as inferred_high)
	// inferred_high
}

// Two providers point at the same location: fusion keeps the stronger and
// files the weaker under metadata.superseded; packing fills a hard budget.
func ExampleFuse() {
	at := func(provider string, m trust.Method, tier trust.Tier) evidence.Record {
		return evidence.Record{
			Kind: evidence.Reference, Provider: provider, Provenance: m, Trust: tier,
			Exact: tier == trust.Exact, Confidence: 0.9,
			Path: "api/client.go", StartLine: 40, StartColumn: 9, EndLine: 40, EndColumn: 22,
		}
	}
	fused := evidence.Fuse([]evidence.Record{
		at("grep", trust.Lexical, trust.Weak),
		at("scip", trust.PrecisionIndex, trust.Exact),
	})
	kept := fused[0]
	fmt.Println(len(fused), kept.Provider, kept.Trust)
	fmt.Println("superseded:", kept.Metadata.Superseded[0].Provider, kept.Metadata.Superseded[0].Trust)
	// Output:
	// 1 scip exact
	// superseded: grep weak
}

// Pack turns ranked evidence into compact JSON for a reader model, within a
// hard token budget, and keeps the reasons in a trace outside the prompt.
func ExamplePack() {
	recs := []evidence.Record{{
		Kind: evidence.Definition, Provider: "scip", Provenance: trust.PrecisionIndex,
		Trust: trust.Exact, Exact: true, Confidence: 1,
		Path: "auth/service.go", StartLine: 12, StartColumn: 6, EndLine: 12, EndColumn: 17,
		Metadata: evidence.Metadata{Excerpt: "type AuthService struct"},
	}, {
		Kind: evidence.Reference, Provider: "grep", Provenance: trust.Lexical,
		Trust: trust.Weak, Confidence: 0.3,
		Path: "README.md", StartLine: 3, StartColumn: 1, EndLine: 3, EndColumn: 12,
		Metadata: evidence.Metadata{Excerpt: "AuthService handles logins and tokens for every client"},
	}}
	ctx := evidence.Pack(recs, 60)
	fmt.Println(string(ctx.Prompt))
	fmt.Printf("used %d of %d tokens, %d included, %d omitted\n", ctx.Used, ctx.Budget, ctx.Included, ctx.Omitted)
	fmt.Println(ctx.Trace[1].Reason())
	// Output:
	// {"evidence":[{"id":"ea8e447829147","kind":"definition","trust":"exact","via":"precision-index","loc":"auth/service.go:12:6-12:17","excerpt":"type AuthService struct"}],"omitted":1}
	// used 60 of 60 tokens, 1 included, 1 omitted
	// #2 ee951054b933d score 0.0250: weak, confidence 0.30, from grep, omitted: budget
}

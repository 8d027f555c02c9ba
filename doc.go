// Package codecortex is an evidence layer for coding agents: it answers a
// question about a repository by combining several kinds of evidence and
// says, for every result, how that result was established. The rule is
// evidence before confidence.
//
// # The data path
//
// A question travels one way through the packages, never back:
//
//		question → route → providers → fuse → rank → pack
//
//	  - trust fixes what each kind of evidence may claim: six [trust.Tier]s
//	    from exact to weak, the ceiling of each production [trust.Method], and
//	    the ranking [trust.Score]. The tier is what an agent should read; the
//	    score only orders results and fills budgets.
//	  - route classifies which optional layers a question should consult and
//	    records why on the route plan. Local layers are proposed freely; the
//	    remote documentation layer only for questions about a third-party
//	    dependency; mutation is never routed automatically.
//	  - Providers answer the routed [evidence.Query]. Each implements
//	    [evidence.Provider] and emits [evidence.Record]s: one typed record for
//	    every layer, with kind, provider, provenance, tier, a one-based
//	    code-point location, resolved symbols, confidence, exact and stale.
//	    [evidence.Collect] runs them side by side; a provider that fails,
//	    panics or breaks the record's invariants becomes an [evidence.Report]
//	    in the answer, never an aborted request.
//	  - [evidence.Fuse] keeps the strongest record at each location and files
//	    the weaker ones under metadata.superseded; [evidence.Rank] orders by
//	    score with a deterministic tie-break; [evidence.Pack] fills a hard
//	    token budget with compact JSON for the reader model and keeps the
//	    ranking reasons in a trace outside the prompt.
//
// # The layers
//
// Three optional layers add stronger evidence above the always-available
// local behaviour; each reports unavailable, with a reason, rather than
// failing:
//
//   - precision reads compiler- and indexer-produced SCIP indexes and answers
//     definitions, references and implementations exactly, by symbol
//     identity; a live language server adds near_exact answers.
//   - depdocs reads manifests and lockfiles of six ecosystems, keeps the
//     declared constraint and the resolved version apart, and asks an
//     optional documentation provider for the resolved version only.
//   - structural matches code by syntax with ast-grep-compatible patterns,
//     and rewrite turns matches into guarded, previewed, atomic migrations.
//
// # Safety
//
// Every subprocess runs with a resolved absolute executable, an explicit
// argument vector, a timeout and an output cap; every path is resolved
// inside the project root; every secret is redacted from diagnostics. These
// mechanisms live in internal packages; the cortex command (cmd/cortex) and
// the programs under examples/ show how a host composes the public ones.
//
// The package evidence/evidencetest checks a host's own provider against the
// contract from the host's tests.
package codecortex

// Package evidence gives every layer of CodeCortex one typed record to emit,
// and the steps that turn many providers' records into a ranked, budgeted
// context for a reader model.
//
// # The record
//
// A [Record] says what was found (its [Kind]), where (a root-relative path and
// a one-based, half-open range in Unicode code points), about which resolved
// symbol, and how it was established: the provider that produced it, the
// [trust.Method] it used, the [trust.Tier] that method allows, a confidence in
// [0, 1], and whether it is exact (fresh compiler/indexer evidence) or stale
// (from an index that no longer matches the source). [Record.Validate]
// enforces the invariants written on the type; exact and stale can never both
// be set, and no record may claim a tier above its method's ceiling.
//
// # Providers
//
// A host program supplies evidence by implementing [Provider]. [Collect] runs
// providers side by side and turns every failure, panic or invalid record
// into a [Report] in the answer rather than an aborted request. The package
// evidencetest checks a provider's conformance from the host's own tests.
//
// # Fuse, rank, pack
//
// The data path is question → route → providers → [Fuse] → [Rank] → [Pack]:
//
//   - Fuse keeps, for every location, the strongest record and stores the
//     weaker ones whole under metadata.superseded, so conflicts stay visible.
//     Its result does not depend on input order.
//   - Rank orders records by [trust.Score] with a deterministic tie-break;
//     RankFor first sorts them by how well each answers the question asked
//     (a class the caller gives), then as Rank within a class.
//   - Pack (or PackRanked, which keeps the caller's order) fills a hard
//     token budget with compact JSON for the reader model and keeps ranking
//     reasons and diagnostics in a separate trace.
//   - ShareAttributes lifts the attributes every record of a provider
//     carries alike out of the records, for an answer that writes them
//     once ([Shared]); Factor lifts the fields they share as well (kind,
//     provenance, tier, target, confidence: a page of call sites writes
//     them once, [Defaults]), and [Defaults.Expand] gives the records back.
package evidence

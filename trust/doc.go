// Package trust gives every piece of evidence a categorical strength, the
// ceiling a production method may claim, and the score that orders results.
//
// # Tiers
//
// A [Tier] says how a result was established, from strongest to weakest:
//
//	exact          a fresh compiler/indexer-resolved occurrence
//	near_exact     a live language-server resolution
//	structural     a parsed-syntax match, or version-matched documentation
//	inferred_high  a strong graph relationship, or exact evidence now marked stale
//	inferred       a heuristic cross-file relationship
//	weak           a lexical coincidence
//
// The tier is what agents should read.
//
// # Ceilings
//
// The ceiling belongs to the [Method], not to the provider that uses it: only
// an index produced by a compiler or language analyser may claim exact, an
// AST match is structural however confident the engine is, and retrieved
// documentation is evidence about a dependency's API rather than an exact
// resolution of a repository symbol. [Clamp] lowers a claim to its method's
// ceiling; a provider may lower its own tier, never raise it.
//
// # Scores
//
// [Score] maps a tier, a confidence in [0, 1] and a staleness flag to a
// number used only to order results and to fill a token budget. It is a
// ranking device, not a calibrated probability. Fresh tiers occupy disjoint
// bands, so confidence orders records within a tier and never across tiers.
// Stale scores are the fresh score multiplied by [StaleFactor], which is
// derived, not chosen: it lies strictly below the weakest fresh structural
// score divided by the highest score any record can reach, so stale exact
// evidence never outranks fresh structural evidence at any confidence pairing,
// while stale records stay ordered among themselves.
package trust

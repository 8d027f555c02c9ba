// Package codecortex is an evidence layer for coding agents: it answers a
// question about a repository by combining several kinds of evidence and
// says, for every result, how that result was established. The rule is
// evidence before confidence.
//
// This package composes the layers for a host program. [Open] opens a
// project: package config reads its configuration
// (.codecortex/config.json) with diagnostics, judges whether it is
// trusted ([config.OpenProject]), and maps each section onto the public
// options of the layer it configures ([config.Project.PrecisionOptions],
// [config.Project.StructuralOptions] and the rest); the getters open
// nothing. The [Engine] is the one place the layers are composed:
// [NewEngine] makes each once and opens those that cost time on first use,
// and a host reaches them through it — [Engine.Ask] for a question in
// words, typed methods for the rest ([Engine.Locate], [Engine.Callers],
// [Engine.Search], [Engine.Symbols], [Engine.Impact], [Engine.HistoryOf],
// [Engine.Dependencies], [Engine.Docs], [Engine.Recall], [Engine.Remember],
// [Engine.Validate], [Engine.PreviewRewrite], [Engine.ApplyRewrite],
// [Engine.Rename], [Engine.Status]) and the layers
// themselves ([Engine.Index], [Engine.Graph], [Engine.History],
// [Engine.Memory], [Engine.Rewriter], …). The cortex command's CLI and MCP
// server (cmd/cortex) are two thin front ends of one engine: they map
// arguments and format results, and answer one question with the same
// records.
//
// This package re-exports nothing of package config: a host that reads,
// trusts or revokes a configuration, or composes layers by hand, imports
// config itself, and gives [Open] a [config.ProjectOptions] (in
// [Options].Project) or [NewEngine] the [config.Project] it opened.
//
// # The data path
//
// A question travels one way through the packages, never back:
//
//	question → route → providers → fuse → rank → pack
//
// Along the way:
//
//   - route reads the question (a position, a symbol, a pattern, words)
//     and plans the layers that can answer it, each with a reason; it does
//     no I/O and never plans a mutation.
//   - trust fixes what each kind of evidence may claim: six [trust.Tier]s
//     from exact to weak, the ceiling of each production [trust.Method], and
//     the ranking [trust.Score]. The tier is what an agent should read; the
//     score only orders results and fills budgets.
//   - Providers answer an [evidence.Query]: a position, a symbol name, a
//     structural pattern, or text. Each implements [evidence.Provider] and
//     emits [evidence.Record]s: one typed record for every layer, with
//     kind, provider, provenance, tier, a one-based code-point location,
//     resolved symbols, confidence, exact and stale. [evidence.Collect] runs
//     them side by side; a provider that fails, panics or breaks the
//     record's invariants becomes an [evidence.Report] in the answer, never
//     an aborted request.
//   - [evidence.Fuse] keeps the strongest record at each location and files
//     the weaker ones under metadata.superseded; [evidence.Rank] orders by
//     score with a deterministic tie-break; [evidence.Pack] fills a hard
//     token budget with compact JSON for the reader model and keeps the
//     ranking reasons in a trace outside the prompt.
//
// [Open] (or [NewEngine] over an opened [Project]) runs that whole path
// behind one call: [Engine.Ask] takes a question in words, with an
// optional position, symbol or pattern, asks route for a plan of the
// layers that can answer it, runs them side by side under one deadline,
// fuses, ranks and packs, and returns the records with the route, each
// layer's state and the index's freshness. The cortex command's ask, the
// MCP server and examples/compose-all are hosts of this one call;
// examples/compose-by-hand runs the same path with layers a host composes
// itself.
//
// # The layers
//
// Every layer is an [evidence.Provider] whose options have a zero value
// that works, and each reports unavailable, with a reason, rather than
// failing. Without any of the optional ones a question is still answered:
// the local index (package index) parses every file it reads with the
// grammars of package syntax, keeps definitions (package symbols) and
// structure-aware chunks in SQLite FTS5 under .codecortex/, and brings
// them up to date before each query. Three optional layers add stronger
// evidence:
//
//   - precision reads compiler- and indexer-produced SCIP indexes and answers
//     definitions, references and implementations exactly, by symbol
//     identity, for a position or a name; a live language server adds
//     near_exact answers.
//   - depdocs reads manifests and lockfiles of six ecosystems, keeps the
//     declared constraint and the resolved version apart, locates each at
//     the line that records it, and asks an optional documentation provider
//     for the resolved version only; depsource reads a dependency's own
//     definitions ([Engine.DependencySource], and ask and def for a name
//     such as pflag.FlagSet) from the copy the project uses (the Go module
//     cache, node_modules, site-packages, Cargo's registry) after checking
//     it is the locked version, as records marked outside the project.
//   - structural matches code by syntax with ast-grep-compatible patterns
//     and previews rewrites; without an engine it falls back to labelled
//     lexical and symbol search.
//
// The context layers add what the code alone does not say: graph (the
// project's imports, calls, references, inheritance and tests as edges
// resolved from the local index, each with its method and trust tier,
// exact edges from a precision index fused in; impact: callers, tests and
// risk of a change), history (git commits, blame and pull requests),
// memory (the team's conventions, decisions, gotchas and failures, with
// decay and digests) and validation (the project's checks, run only when
// asked). The rewrite package is the one path that changes files: a
// guarded transaction from preview to an explicit apply, with impact,
// validation and a journal that recovers a crash; [Engine.Rewriter] opens
// it, with the engine's graph estimating impact. [Engine.Rename] plans a
// rename by meaning (the symbol's references from a SCIP index or a
// language server, conflicts refused at their location) and stores it as
// such a preview.
//
// # Trust and safety
//
// A repository's configuration is untrusted input. What it asks to run (an
// ast-grep binary, an index generator, a language server) or to send (an
// API key to a documentation endpoint) is withheld until the user trusts
// that exact file ([config.TrustStore], cortex trust) or the host vouches
// for it ([config.ProjectOptions]); everything else in it applies at once.
// The repository's own git configuration is judged apart
// ([config.Trust].Git): the settings of it that could make git run a
// program, read a file or fetch and that no override switches off keep the
// history layer from running git until their digest is trusted
// ([config.TrustStore.TrustGit], the same cortex trust), and
// [config.Project.HistoryOptions] says so to the layer.
//
// Every subprocess runs with a resolved absolute executable, an explicit
// argument vector, a timeout and an output cap; every path is resolved
// inside the project root; every secret is redacted from diagnostics.
// These mechanisms live in internal packages and never appear in an
// exported signature.
//
// The package evidence/evidencetest checks a host's own provider against the
// contract from the host's tests.
package codecortex

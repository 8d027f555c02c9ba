// Package route turns a question about a repository into a plan: the layers
// the engine should consult, in order, each with the one-sentence reason it
// was proposed, and the names, files and pattern the question carries.
//
// The package is pure: [Route] reads only the [Request] it is given (no
// files, no network, no clock) and imports only the standard library, so the
// same request always gets the same [Plan].
//
// # What the caller gets
//
// A [Plan] says which [Intent] the router recognised and the Cue that
// decided it (the words, such as "who calls", or the structure, such as a
// pasted pattern or a position). Its Steps are the layers to run for the
// answer, the preferred first and fallbacks after; its Skipped list names
// every optional layer that was not proposed, with the reason. Names are the
// symbol names the request mentions (the request's Symbol, backticked code,
// words shaped like code such as AuthService, refresh_token, Type.Method,
// pkg.Name or Vec::new, a capitalised word in mid-sentence such as "the
// Fuse function", and the word in a name slot such as "where is main
// defined"), each split into qualifier and base; Files are file paths in
// the text; Pattern (and, for a migration, Replacement) is a structural
// pattern the request carries or pastes inline; Dependencies are the
// declared dependencies the question names. FollowOn, for a migration only,
// holds impact analysis, a rewrite preview and validation.
//
// # Layers
//
// Three layers are optional: [Precision], [DependencyDocs] and [Structural].
// The router proposes each only for a stated reason. The local layers
// ([LocalIndex], [History], [Graph], [Impact], [Memory], [Validation],
// [Manifests]) are always allowed and proposed freely: a definition question
// goes to precision with the local symbol index as its fallback; a history
// question goes to git history alone. Every plan holds at least one local
// layer, so an installation with no optional layer still gets an answer.
// The specification's table holds:
//
//	"Where is AuthService defined?"                        precision
//	"Who calls refresh_token?"                             precision
//	"What changed in this file?"                           none (history answers it)
//	"Is this method deprecated in our installed version?"  dependency documentation
//	"Find all usages of this old API shape."               structural
//	"Migrate all old API calls to the new shape."          precision + dependency + structural,
//	                                                       then impact, preview, validation
//
// # Dependencies
//
// The remote documentation layer is proposed only for a question about a
// dependency's API (deprecations, changelogs, documentation) or a migration,
// and only when the question concerns a dependency the repository declares,
// which the caller lists in Request.Declared:
//
//   - a question naming a declared dependency (react, cobra for
//     github.com/spf13/cobra, or the qualifier of react.useEffect) concerns
//     that one;
//   - a question naming only libraries that are not declared ("is lodash
//     deprecated" when lodash is not declared) does not, and the skip reason
//     says which library it named;
//   - a question naming no library but speaking of one ("in our installed
//     version", "the dependency", "the old API") concerns a declared
//     dependency it does not name: the engine picks it from the symbol's
//     import. This is how the table's "Is this method deprecated in our
//     installed version?" is routed to the documentation layer;
//   - with Declared empty, no question concerns a declared dependency, and
//     the layer is never proposed.
//
// A question about which version is in use is answered by the manifests,
// locally, without documentation.
//
// # Mutation
//
// No plan changes the repository. A migration is planned up to a [Preview],
// which records the match set and file hashes; applying it needs the
// preview's id and explicit authorization, which no plan carries, and no
// [Layer] stands for it. A request that asks to apply gets a note saying so.
//
// # Text
//
// Classification is deterministic and explainable: a table of cue phrases
// per intent, matched over the question's words. A phrase inside a longer
// one that matched is the longer one's ("do we call" in "where do we call
// X" asks for callers); of the rest, a fixed priority decides (a
// migration, then a dependency's API, a version, history, a code shape,
// implementations, what a symbol calls, its callers, references, impact,
// validation, tests, memory, a definition, and a search when nothing
// matches). A capitalised word in mid-sentence is read as a name, never as
// a cue ("subtypes of Shape" asks for implementations, not a code shape).
//
// # What the plan understood
//
// Each [Name] says what the question told of it beyond its spelling: a
// member named in words ("the Refresh method of AuthService", "method
// flush on Writer") is the qualified name AuthService.Refresh, and a kind
// word beside a name ("the Querier interface", "class CGI") is its Kind.
// The engine ranks by them: the definition in the container named, of the
// kind named, first. A request's
// valid Intent overrides the text. Only the first [MaxText] bytes of the text
// are read, and every pass over them is linear, so routing time is bounded
// whatever the input.
package route

// Package graph gives a project's symbol and file graph, built from the
// local index and kept fresh with it, and answers impact questions from
// it: what a change to these files, lines or symbols affects, who calls
// it, which tests to run, and how risky it is.
//
// # Edges
//
// [Build] reads what the index holds about every file ([index.Facts]):
// definitions, imports and the names each definition uses. Imports are
// resolved to repository files where the language allows (Go packages of
// the module, TypeScript and JavaScript relative imports with .js standing
// for .ts, Python modules and packages); uses are resolved to definitions
// as calls, references and inheritance; test files that use a definition,
// and test files named after a source file, give tests edges. Every
// [Edge] carries its [Method] and the trust tier the method allows: a use
// resolved through an import or within its own file or package is
// inferred_high, a unique name across the project or one of a few
// candidates is inferred.
//
// In Go, a plain name names a top-level definition of its file or
// package (never a method: the predeclared string is not a method named
// string); a selected name (c.Find, c.Root().Find) names a member by its
// name, and one selected without a call does not name a method (flag.Usage
// is a field of another module's type more often than a method value).
// TestGoplsOracle checks the callers so found against gopls references.
//
// Exact edges from a precision index ([Options.Exact], such as the
// precision layer's Provider.Edges) are fused in: an inferred edge the
// index confirms becomes exact, and the index's other edges are added.
//
// # Impact and cycles
//
// [Graph.Impact] starts from targets (a file, a line range, a symbol) and
// walks incoming edges breadth first, each node once, to at most
// [DefaultDepth] steps and [DefaultMaxNodes] nodes, saying when it stopped
// early. It reports the affected symbols, their callers with the edge each
// was reached by, the tests to run, a risk score and the mix of exact and
// inferred edges behind the answer (exact edges weigh more in the risk).
// [Graph.Cycles] reports strongly connected components, found by an
// iterative Tarjan walk.
//
// # Provider
//
// [Provider] keeps one graph per state of the index, rebuilt only when the
// index changed. A build leaves a snapshot of the graph under
// .codecortex/graph/, sealed for this user and project root (package
// seal), and a new process whose index has not changed since reads it
// instead of reading every file's facts and resolving them; a snapshot
// that does not check, of another build, or of another state of the index
// is ignored and the graph built again. It serves impact as an
// [github.com/codecortex/codecortex/evidence.Provider] named "graph", and
// as a [github.com/codecortex/codecortex/rewrite.Impact] for rewrites.
package graph

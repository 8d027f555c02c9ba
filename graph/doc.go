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
// for .ts and imports of a package.json's name from the project, Python
// modules and packages); uses are resolved to definitions
// as calls, references and inheritance; test files that use a definition,
// and test files named after a source file, give tests edges. Every use
// is its own edge, at its own line (two calls in one function are two
// edges), and a definition that calls itself has an edge to itself. Every
// [Edge] carries its [Method] and the trust tier the method allows: a use
// resolved through an import, within its own file or package, or by the
// receiver's type is inferred_high, a unique name across the project or
// one of a few candidates is inferred.
//
// A method is resolved by its receiver's type where the syntax shows it:
// self, this, cls or Self (by the language) and a Go method's receiver
// name stand for the class holding the use, as does a bare call in a
// method of Ruby, Java, C#, Kotlin or C++; the class's own members are
// looked up, then its bases' by name (from the uses that extend or
// embed). A member a project class does not define, used through the
// object itself, is not another class's. A member selected from an
// expression whose type the syntax does not show ([symbols.Ref.Selected])
// is found by its name; a plain name never names a method or a field in
// Python, JavaScript, TypeScript, Rust or Go. In TypeScript, an untyped
// parameter of a function written as an object literal's member m has
// the types the project's declarations of m give it (several select the
// member they share), and a name an object pattern takes from a typed
// value ({ getState }: Api) is that type's member. Named imports are followed
// through the modules that re-export them (export * from, a package's
// __init__.py); a qualifier that names a module file (Rust's
// unicode::f) names its top-level definitions. Definitions in Rust's
// test module (mod tests) are tests, like those in test files.
//
// In Go, a plain name names a top-level definition of its file or
// package (never a method: the predeclared string is not a method named
// string); a selected name (c.Find, c.Root().Find) names a member by its
// name, and one selected without a call does not name a method (flag.Usage
// is a field of another module's type more often than a method value).
// Where the code shows the type of what a name is selected from, the
// member is that type's, or none of the project's for a type from
// elsewhere: a parameter, a receiver or a struct field by its declared
// type; a local variable or a call by what the extractor read
// ([symbols.Ref.Type]), a named type or a function's or method's first
// result as its head declares it (r := NewRouter(), NewRouter().Host());
// a loop's variable as an element of the slice, array or map it ranges
// over, as the declaration of a parameter, a field (promoted from an
// embedded struct too) or a package variable writes it, or the head of
// the function or method whose result it ranges over.
// TestGoplsOracle checks the callers so found against gopls references.
//
// # Type relations
//
// A base a definition declares (see the symbols package, # Bases) becomes
// an [Inherits] edge from the type that declares it (the innermost type
// holding it; for a Rust impl, the type it is for, or the file when the
// project defines no such type) to the type it names, [Implements] when
// that is an interface or a trait. A base resolves through an import, the
// file, the scope its language shares, then by name among the project's
// types (and JavaScript's and Python's top-level values); a qualified base
// only to a type its qualifier may name (a container, package, directory
// or file of that name), so that another library's type of the same name
// is not taken for the project's.
//
// Go has no declared implementations: a Go named type (not an interface)
// implements an interface of the project, an [Implements] edge of method
// [MethodSet] at inferred_high, when it has every method the interface asks
// for, by name and numbers of parameters and results, and by result types
// where both write them plainly (unnamed, no function type, neither side
// generic), compared without package qualifiers. A type's methods are those
// declared with receiver T or *T, and those promoted from the types it
// embeds; an interface asks for its own methods and those of the interfaces
// it embeds. The predeclared error and common interfaces of the standard
// library (io.Reader, fmt.Stringer, flag.Value, http.ResponseWriter and a
// few more) count with their methods; another embedded interface of another
// module is satisfied only by a type that embeds it too, and an interface
// embedding something unknown matches nothing. Parameter types are not
// checked, nor result types otherwise, nor whether a value or a pointer
// receiver is needed (T and *T count as one type): a type whose methods
// have the right names and counts is taken to implement the interface. Each
// interface is indexed under its rarest method name, so that each type is
// checked only against the interfaces asking for a method it has.
//
// [Graph.Subtypes] answers what extends or implements a type, the direct
// subtypes first: of a class, its subclasses and theirs; of an interface,
// every type that implements it, through the interfaces that extend it and
// the classes implementing those. The [Provider] answers a question for implementations alone with
// one record per subtype, at the subtype's name (a Rust impl at the impl),
// or, for a type nothing extends, per type it extends or implements.
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
// It also lists the uses of a target's name it resolved, by what the
// syntax shows or a precision index, to another definition of that name
// ([Impact.Elsewhere]): a text match there is a use of something else,
// which lets a caller of the graph leave such matches out of an answer.
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
// that does not check or of another build is ignored and the graph built
// again, as is one of another state of the index (but see below).
// [Provider.Keep] makes that snapshot current without holding the graph,
// as a batch command that indexes for later questions wants. A
// provider's build reads the uses left encoded ([index.Index.FactsLazy])
// and decodes each file's as it resolves them, so that it holds the
// decoded uses of one file per CPU rather than the whole project's. Asked
// who uses a definition, the provider answers one record per site of each
// direct caller (the calling definition as Symbol, the use as location,
// [Hit.Sites]), recursive calls included, marked "test" when the caller is
// a test; it serves impact as an
// [github.com/codecortex/codecortex/evidence.Provider] named "graph", and
// as a [github.com/codecortex/codecortex/rewrite.Impact] for rewrites.
//
// A question for the direct uses of a name, asked before the provider
// holds a graph and without exact edges to fuse, is answered from a graph
// of the files that concern the name ([index.Index.FactsNamed]): those
// that define, use or import it, and what resolving those uses looks at
// (the types a use is selected from and their bases, renamed and
// re-exported imports); its records are the whole graph's. A name one of
// whose definitions is a Go interface is answered from the whole graph,
// whose method sets say what implements it.
//
// A supertype the project does not define has no node in the graph: for
// a Go standard library interface (fmt.Stringer, io.Reader, error,
// http.Handler...) the build matches every Go type's method set against
// those it knows, and for any other base (Python's Exception,
// models.Model, React.Component) it keeps the types that name it, so that
// "what implements fmt.Stringer?" and "what subclasses Exception?" are
// answered as for a project type. A Go call through a value of one of
// those interfaces (rw.WriteHeader(…) of an http.ResponseWriter) is a
// use, at method-set, of the methods of that name of the types of its
// own package that implement it, as gopls counts it; a question about
// such a method's name is answered from the whole graph.
//
// Asked the other way, what a function or method calls (an outgoing
// query), the provider reads the edges out of it from the snapshot's part
// and the calls written in its body from the index ([index.Index.FactsOf]):
// one record per call, in a closure too but not in a function nested in
// it, naming what the graph resolved it to at the edge's tier, or, where
// it did not (the standard library, a member of a value whose type it
// does not know, matched by name alone), the callee as written, at the
// parse's structural tier, with the guess by name in an attribute. A Go
// builtin or conversion is no call. TestGoplsCallees checks the answer
// against gopls' call hierarchy.
//
// Implementations and impact asked after a few files changed, on a graph
// that takes seconds to build (a large snapshot), are answered from the
// snapshot's part they walk rather than after building the graph again:
// the snapshot keeps each file's content hash, and every node and edge in
// a file changed since, or ending in one, is marked stale, so that its
// records fall a tier and the report names the files ([Graph.StaleFiles]).
// `cortex index` builds the graph again.
package graph

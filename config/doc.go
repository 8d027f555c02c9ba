// Package config reads a project's configuration (.codecortex/config.json)
// with diagnostics, judges whether it is trusted, and maps it onto each
// layer's public options.
//
// # Reading
//
// [Parse] decodes a file's bytes into a [Config]. Every section is
// optional; a malformed one falls back to its defaults with an error
// [Diagnostic] while the others apply, and an unknown key or section is a
// warning. [OpenProject] reads the file of a project root (at most
// [MaxSize] bytes, a regular file only) and returns a [Project]: the
// configuration as the file asks for it, the effective one, the
// diagnostics, and how it was judged. It fails only when the root is not
// a readable directory; a broken file is a diagnostic and the defaults.
// [FindRoot] finds the root a command started in a subdirectory means.
//
// # Trust
//
// A repository's configuration is untrusted input. What it asks to run (an
// ast-grep binary, an index generator, a language server, validation
// commands) or to send (an API key to a documentation endpoint) is
// withheld from [Project].Config until the user trusts that exact file;
// everything else in it applies at once. [TrustStore] keeps the user's
// records outside every repository: [TrustStore.Trusted] says whether a
// configuration is trusted, [TrustStore.Trust] trusts it and
// [TrustStore.Revoke] withdraws trust. A host or a CI job that vouches for
// the repository says so in [ProjectOptions] (a [TrustMode], or a pinned
// digest). The repository's git configuration is judged apart
// ([Trust].Git, [TrustStore.TrustGit]).
//
// # The layers' options
//
// A [Project] maps its effective configuration onto each layer's public
// options: [Project.PrecisionOptions], [Project.LSPOptions],
// [Project.StructuralOptions], [Project.IndexOptions],
// [Project.GraphOptions], [Project.DocsOptions], [Project.HistoryOptions],
// [Project.MemoryOptions], [Project.ValidationOptions] and
// [Project.RewriteOptions]. The getters open nothing and never name a
// program or an endpoint the user has not trusted. The root package's
// engine (codecortex.NewEngine) composes the layers from them; a host that
// composes layers by hand uses them directly.
//
// This package imports the layer packages and never the root package; no
// layer imports it.
package config

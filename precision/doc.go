// Package precision gives exact answers to position questions — what is
// defined here, what references this, what implements this — from a SCIP
// index of the repository, resolved by symbol identity and never by name.
//
// # Reading
//
// [Load] reads an index with the streaming visitor of the SCIP Go bindings,
// one document at a time, and builds lookup tables once: occurrences per
// document ordered by position, symbol → definitions and references, a
// reverse index of implementations (a relationship with is_implementation
// sits on the implementing symbol) and symbol information. Local symbols
// ("local N") are scoped to their document, because every indexer restarts
// them per file; scip-python's locals that break the symbol grammar, such as
// "local 38(x)", are tolerated. Documents repeated under one path (as
// scip-typescript writes them for each tsconfig project) are merged. Any
// occurrence that is not a definition is a reference, whatever its other
// roles (scip-typescript writes role 0, scip-go ReadAccess).
//
// # Positions
//
// Indexes count columns in the code unit their indexer used. The document's
// position_encoding is honoured when set; when it is unset (as in every
// index scip-go v0.1.26, scip-typescript 0.4.0 and scip-python 0.6.6 write)
// the encoding comes from a table of measured tool behaviour
// ([ResolveEncoding]): scip-go writes UTF-8 bytes, scip-typescript and
// scip-python UTF-16 code units. An unknown tool is assumed to write code
// points, and its records are not exact. Everything is converted at the
// boundary: a [Location] is one-based, half-open, in code points, so a caret
// at a range's end column belongs to the next token.
//
// # Answers
//
// [Provider.Gather] answers about the symbol at a position, or about a
// name. Its answers follow gopls's: a reference answer includes the
// declaration, marked ([IsDeclaration]; [WithoutDeclarations] leaves it
// out), and a method's references include calls through the interface
// methods it implements (in its own package only, for an interface of
// another module) and calls of the methods implementing it; a function's
// include the uses of the names a module binds to it (const { f } =
// require('./m')). An
// implementation answer goes both ways: what implements an interface, and
// what a concrete type implements ([RelationAttribute] says which). A name
// ("ExecuteC", "Command.Find", "cobra.Command") is looked up by symbol
// identity ([Index.LookupName]); an ambiguous one answers every candidate,
// each record naming its package, never a guess. A position or name
// without an answer gets a report that says why: the file is not in the
// project, the position is past its end, the index does not hold the file,
// or nothing is there.
//
// # Unavailable, never broken
//
// No index, an unreadable, truncated or empty one, an unsupported protocol
// version or a document path that breaks the protocol make the [Provider]
// return an [evidence.UnavailableError] naming the reason, and the other
// layers carry on. Documents whose paths climb out of the root (scip-go
// writes generated test files under the build cache as "../../...") are
// dropped, counted and never served. A corrupt index never panics the
// loader (see FuzzLoad).
//
// # Snapshots
//
// Parsing a large index takes a large share of a short-lived process, so
// the first [Provider] to load an index writes a snapshot of what it loaded
// under [SnapshotDir] (with a .gitignore that ignores it), and a later
// process reads the snapshot instead: a flat, checksummed file of the
// loaded tables, read in one pass. A snapshot is used only for the very
// file it was written for — the same index path, size, modification time
// and digest of its first and last 64 KiB — and by the same build of this
// package; otherwise the index is parsed and the snapshot rewritten.
// Snapshots are written to a temporary file and renamed, so a reader never
// sees part of one and concurrent processes may race to write one. A
// snapshot is outside input: every length, index, range and order in it is
// checked, and one that is damaged or fails its checksum is parsed around
// and rewritten, never served (see FuzzSnapshot). The answers are the same
// either way; [Status] says which way the index was read, and
// [Options.NoSnapshot] turns snapshots off. Staleness is checked on every
// request whichever way the index was read.
//
// # Freshness
//
// An index is fresh only when this user's cortex vouches for it: a sources
// manifest under [SourcesDir], sealed with the user's key (package seal,
// [Options.Seal]), names the index file's size, time and SHA-256. The
// generator writes one, and [Provider.Accept] writes one for an index the
// user made another way; any other index — one that came with the
// repository — is served as stale, its records marked foreign
// ([OriginAttribute]). Snapshots carry the index's digest and a seal too.
// Every served document is stat-ed on every request, never sampled and never
// hashed (see [Staleness]). A stale index still answers: its records are
// marked with [evidence.MarkStale] and the report carries the exact command
// that rebuilds the index. With auto-generation configured, a missing,
// unusable or stale index is regenerated through the safe subprocess helper
// first: the generator writes a temporary file that replaces the index only
// once it loads, and one generation runs at a time per project, across
// processes ([LockPath]).
//
// # Edges
//
// [Provider.Edges] lists the edges the index proves — reference site →
// defining symbol, implementation → what it implements — as exact records
// for the graph and impact layers.
//
// # Live language servers
//
// [LSPProvider] asks language servers over stdio when no fresh index
// answers; its records are near_exact, never exact. A file goes to the
// server of its language ([LSPLanguageOf]): gopls for Go,
// pyright-langserver (or basedpyright-langserver) for Python,
// typescript-language-server for TypeScript and JavaScript, rust-analyzer
// and clangd when they are on PATH, or whatever [LSPOptions].Servers
// names. Each server is started on the first question about a file of its
// language and reused until Close, so a long-lived host (the MCP server)
// keeps one per language. A question opens its file on the server first
// (some servers answer only about open documents). References include the
// declaration, marked; definitions, references and implementations are
// answered by position or by name. [LSPProvider.Rename] asks for a
// rename's edits (textDocument/rename) and returns them by file, in code
// points, checked to lie inside the root and not to overlap; it writes
// nothing. [LSPProvider.Servers] reports each server (found, version,
// state) without starting any. Every wait is bounded ([LSPOptions]), the
// server's answers are bounded and checked (see FuzzLSPMessages,
// FuzzWorkspaceEdit), and a server that is missing, exits or does not
// answer in time is reported with its reason while the other languages'
// servers carry on.
//
// Servers differ, and the provider irons out what it must: pyright
// answers from the files it has listed only once it says it has listed
// them, so its first question waits for that; its references without the
// declaration leave out the import asked about rather than the
// declaration, so its declarations are read from its definition answer;
// typescript-language-server is asked to answer from its semantic server
// (its syntax server, used while the project loads, knows only the open
// files) and to rename a symbol where it is declared, not only the
// importing file's alias. Where the servers' answers still differ from a
// SCIP index's (a parameter's definition spanning its annotation, `new C()`
// counted as a reference of the class), the tests record each difference
// and why.
package precision

// Package index gives a project a local, persistent index that answers
// "where is X defined?" and ranked text searches with no precision index
// and no network, and is brought up to date with the files on disk before
// every answer.
//
// # Layers
//
// The index is a SQLite database (FTS5, through the pure-Go driver
// modernc.org/sqlite) under .codecortex/index of the project. It holds:
//
//   - files: path, language, size, mtime and the SHA-256 of the content;
//   - symbols and imports, as an extractor ([Options.Extract]) reads them
//     from each file: name, kind, container, package, signature, exported
//     flag, the range of the name and of the whole definition;
//   - chunks, cut around the outermost functions, classes and types (with
//     the comments above them), oversized ones cut at their inner
//     definitions or in windows, and the rest in line windows that overlap
//     a little; each records code or prose, the chunker version and the
//     symbol it is aligned to;
//   - a full-text index over the chunks that matches their text plus the
//     identifier sub-tokens they spell ([SubTokens]: validateSession also
//     matches "validate session", HTTPServer "http server"), bounded and
//     without repeats. The text itself is not stored: every excerpt is read
//     from the file on disk.
//
// Without an extractor the index is text only: line windows, no symbols.
//
// # Identity
//
// An index belongs to an [Identity]: repository, worktree, branch and
// commit, read from git's own files (HEAD, refs, packed-refs, the .git file
// of a linked worktree) without running git; a detached HEAD and a
// directory outside git are identities too. Each identity has its own
// database, so results from one branch never reach another. A new identity
// starts as a copy of the most recently used database, every file in it
// marked unverified: the refresh checks each against the disk (size and
// mtime) and reindexes only those that differ, so a checkout or a commit
// costs the files it changed. Until a copied file is checked it answers
// nothing. Switching back reuses the branch's database. At most
// [Options.KeepIndexes] databases are kept, never the active one.
//
// # Freshness
//
// Every query first walks the tree (honouring .gitignore files, never
// following a symbolic link, leaving out binaries and files over
// [Options.MaxFileSize]), compares size and mtime with the stored rows,
// hashes only what changed, reindexes changed and new files and drops
// deleted ones, most recently modified first, within [Options.Budget]. A
// file indexed again keeps the rows of its unchanged symbols and of its
// chunks whose text is unchanged; only the rest is matched again. What
// does not fit is reported in the answer's [Freshness] as partial, with the
// pending files; an edited pending file still answers, marked stale, and a
// file never indexed for this identity does not. The queries of one
// question ([WithAsked]: the moment it was asked) share one walk begun
// after that moment.
//
// When more files changed than a budget can index (a new clone, a large
// checkout) and the query names something ([Index.Lookup] a name,
// [Index.Search] its words, any query the names [WithNames] put in its
// context), the refresh is focused ([Focus]): it reads every changed
// file once for those names, as a text search would (ignoring case,
// through the same walk, within the same size limit, leaving binaries
// out), and indexes only the files that mention one, those that look like
// they define it first, and after them the files that re-export modules
// wholesale (export * from, pub use m::*), through which an import of the
// name may go; the others stay pending, and the answer's
// [Freshness] says which files were read and how many are not indexed
// yet. [Index.Update] indexes everything, giving way to the queries of
// other goroutines on the same Index while it works; [Index.UpdateWhile]
// lets its caller query the rows written while the update finishes (its
// secondary indexes, the merge of its full-text index). A directory's entries are
// read again only when its mtime changed (the listings are kept in the
// database for the next process), and on Linux an open Index learns of
// changes from inotify, walking the whole tree when it cannot tell and at
// least every two seconds. A timestamp too close to the moment it was read
// is not trusted. A refresh that finds nothing to do records the
// database's generation (a count of its writes) and a digest of the files
// it walked, with their sizes and mtimes: a later process whose walk has
// the same digest, the database still at that generation, knows the index
// is current without comparing row by row, and runs its query while it
// walks, keeping the answer only when the record holds.
//
// # Concurrency and damage
//
// The database runs in WAL mode: readers see the last committed state
// while a writer works. One process writes at a time, under an advisory
// lock on .codecortex/index/lock; a query that cannot get it within its
// budget answers from what is committed and says so. A transaction holds
// whole files. Databases are built under a temporary name and linked into
// place, so a database file always has its schema. The schema is versioned
// ([SchemaVersion]): a database written by a newer version is refused with
// a [*SchemaError] and never modified; an older one is rebuilt. A damaged
// database (garbage, truncated, or failing PRAGMA quick_check, which
// [Index.Update] runs in full) is rebuilt, and the answer's diagnostics say
// so. An Index is safe for concurrent use.
//
// # Provenance
//
// A database under .codecortex/index may have arrived with the repository.
// The index therefore acts only on databases it can show this user made
// for this project (see package seal and [Options.Seal]): an identity's
// database file is named by an HMAC of the project root and the
// identity's key under the user's key, so that nothing shipped can sit
// where the index will look, and carries a random nonce and a seal over
// the root, its name, the nonce and the schema version. Before SQLite
// reads any table, the file and those SQLite keeps beside it (-wal, -shm,
// -journal) must be plain files, and the rows of sqlite_schema exactly
// those the index creates; every connection runs with trusted_schema off
// and in defensive mode. A database that fails any of this is foreign: it
// is removed without being read, the identity's index is rebuilt (seeded
// from one of ours if there is one), and the answer's diagnostics name
// the file. Removed rather than set aside: it holds nothing that cannot be
// read again from the tree, keeping it would only keep a planted file in
// the way (and its disk space), and what the repository shipped is still
// in the repository. The seal covers who made a database, not its rows:
// checking those would cost a read of the whole file at every start.
//
// # Queries
//
// [Index.Lookup] finds definitions by name, with "Type.Method",
// "package.Name" and case-insensitive fallbacks. [Index.Search] ranks
// chunks by BM25 with the query expanded by the same sub-token splitter:
// chunks defining a name the query spells first, then chunks of a symbol
// whose name holds a query word, then the rest. [Index.Outline] lists the
// definitions under a path. [Provider] serves both as an
// [github.com/codecortex/codecortex/evidence.Provider] named "local-index":
// definitions as structural evidence from the symbol index, text hits as
// weak lexical evidence.
//
// For the project graph, [Index.Facts] gives every file's definitions,
// imports and uses ([Index.FactsLazy] the same with the uses left
// encoded, for a [RefDecoder] to decode a file at a time), and
// [Index.FactsNamed] those of the files that
// define, use or import one name and of the files its caller asks for
// next: the index keeps, for each file, the names its uses name.
package index

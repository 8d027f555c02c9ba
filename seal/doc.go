// Package seal lets a layer prove, later, that a file under .codecortex/ was
// written by this user's CodeCortex and not shipped with the repository.
//
// Everything that arrives with a repository is input: a committed rewrite
// journal, a SCIP index, an index database, a cache entry or a memory entry
// may have been written by anyone. Where a layer acts on what it wrote
// earlier (recovers a journal, serves an index as fresh, reads a cache), it
// seals what it writes and checks the seal when it reads: a [Sealer] returns
// an HMAC-SHA256 of the bytes that matter, under a key that lives outside
// every repository, and a file whose seal does not check is foreign.
//
// # The key
//
// A [KeyStore] keeps the user's key, 32 random bytes, in
// $XDG_CONFIG_HOME/codecortex/seal.key (or $HOME/.config/codecortex/seal.key),
// readable by the user alone: a key file that others may read is refused,
// as ssh refuses such a private key. The key is created the first time
// something is sealed; before that, nothing verifies. Deleting it makes every
// sealed file foreign, which is always safe: each layer then rebuilds what
// it can and labels the rest.
//
// [User] is the sealer for that default key, and the one a layer's zero
// Options use. A host that keeps its own key passes a [Key] from [NewKey].
//
// # What a seal binds
//
// A seal binds a purpose (which kind of file, so a seal of one kind cannot
// be replayed as another) and any number of parts, each length-prefixed so
// that no two lists of parts share a seal. Callers include the project root
// among the parts where a file only makes sense in one project.
package seal

// Package memory keeps a project's and a team's knowledge as durable,
// auditable entries a caller can remember, recall, forget and verify, and
// serves them as evidence whose confidence decays with age.
//
// # Entries
//
// An [Entry] is a convention, a decision, a gotcha or a failure: a text,
// the reason for it, a [Scope] (paths and symbols it is about; empty for
// the whole project), an author and a time. Its Digest is the SHA-256 of
// its canonical content ([Entry.Canonical]), and its ID derives from the
// digest ([IDFor]), so an entry cannot change without becoming another
// entry, and a changed file is detected.
//
// # Decay
//
// Confidence starts at 1 and halves every half-life ([Decay]): conventions
// never decay, decisions have a half-life of 180 days, gotchas and
// failures of 90 days. Below [StaleBelow] (30 %) an entry is flagged
// stale: still recalled, ranked lower, and marked so that it is checked
// before it is relied on. [Options].Now sets the clock.
//
// # Storage
//
// A [Store] keeps the memory of a project root ([Options].Dir, "" is the
// working directory) under .codecortex/memory, apart from any index, in a
// form a team commits and reviews: one indented JSON file per entry,
// entries/<id>.json, and an append-only audit log, audit.log, one JSON
// line per remember or forget (id, digest, type, who, when and, for a
// forget, why; never the text). Several goroutines and processes may
// write at once without losing an entry: each entry file is written to a
// temporary file and renamed into place, and each audit line is appended
// with one write of at most 4096 bytes to a file opened for appending.
//
// [Store.Remember] stores an entry; [Store.Recall] finds entries by words,
// path, symbol and type, ranked by how well they match times their decayed
// confidence; [Store.Forget] purges one and leaves an audit line;
// [Store.Verify] checks every digest, id and file name and the audit log,
// and reports a tampered file. Recall keeps the entries in memory and
// reads only the files added since its last call.
//
// # Evidence
//
// The Store is an evidence.Provider: a query's path, symbol or words find
// the memories that match, as records of kind memory, provenance memory
// and tier inferred, with the decayed confidence and a "decay" attribute
// of "fresh" or "stale" ([Store.Record]). [Store.Attach] returns the
// memories whose scope covers the locations and symbols an answer cites,
// for the engine to add to that answer.
package memory

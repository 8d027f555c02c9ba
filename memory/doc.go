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
// line per remember, accept or forget (id, digest, type, who, when, for a
// forget why, and the writer's seal; never the text). Several goroutines and processes may
// write at once without losing an entry: each entry file is written to a
// temporary file and renamed into place, and each audit line is appended
// with one write of at most 4096 bytes to a file opened for appending.
//
// [Store.Remember] stores an entry; [Store.Recall] finds entries by words,
// path, symbol and type, ranked by how well they match times their
// confidence; [Store.Forget] purges one and leaves an audit line;
// [Store.Accept] records this user's review of one; [Store.Verify] checks
// every digest, id and file name and the audit log, reports a tampered
// file, and lists the entries this user has not reviewed. Recall keeps the entries in memory and
// reads only the files added since its last call.
//
// # Review
//
// The entries and the audit log are committed and shared, so a cloned
// repository may hold entries nobody on this machine wrote, with any
// author, any date and any text, and audit lines to match them. Neither
// the entry nor an audit line proves who wrote it; what does is a seal:
// every audit line this user's cortex writes carries an HMAC under the
// user's key, kept outside every repository ([Options].Seal; see package
// seal). An entry is reviewed ([Review]) when a line sealed under this
// user's key remembers it (this user remembered it through cortex) or
// accepts it ([Store.Accept], cortex memory accept ID: this user read it
// and vouches for it). Every other entry is supplied with the repository
// and unreviewed, whatever its author or its audit lines say: a
// teammate's entry too, until this user accepts it. Its confidence is
// scaled by [UnreviewedFactor], so that it never outranks a reviewed entry
// of the same type and age that matches as well; its record says
// "review": "unreviewed" and "provenance": "repository", and quotes what
// the entry holds as data ([Store.Record]). A date in the future is
// clamped to now, for decay and display. [Store.Verify] lists the
// unreviewed entries and counts the audit lines not sealed by this user.
//
// A seal binds the line (operation, id, digest, type, who, when, why),
// not the project root: a review is of an entry's content, which its
// digest fixes, so it holds in a fresh clone of the same repository. A
// sealed line copied into another repository reviews there only the same
// content this user reviewed.
//
// # Evidence
//
// The Store is an evidence.Provider: a query's path, symbol or words find
// the memories that match, as records of kind memory, provenance memory
// and tier inferred, with the match's confidence, a "decay" attribute of
// "fresh" or "stale" and a "review" attribute ([Store.Record]).
// [Store.Attach] returns the memories whose scope covers the locations and
// symbols an answer cites, for the engine to add to that answer.
package memory

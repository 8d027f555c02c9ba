// Package rewrite turns structural matches, or a host's own edits, into
// guarded changes to a project: never one opaque destructive call, but a
// preview that is stored, shown and then applied by id with a principal's
// explicit authorization, in a transaction that either replaces every file
// or none.
//
// # The lifecycle
//
// [Rewriter.Preview] (steps 1 to 5) and [Rewriter.Apply] (steps 6 to 12)
// run the specification's twelve steps, each one function of
// transaction.go, in order:
//
//  1. the request is parsed and checked: the template may name only
//     metavariables the pattern binds (structural.ErrTemplate);
//  2. structural search finds the matches ([Matcher]): an invalid pattern
//     is an error (structural.ErrInvalidPattern), never zero matches; only
//     the outermost of nested matches is rewritten ([Preview].SkippedInner
//     counts the others), and every rewritten file must still parse;
//  3. the limits are enforced: files, matches and changed bytes, each a
//     [*LimitError] naming the limit and the figure;
//  4. the impact is estimated ([Impact]; [LocalImpact] by default, which
//     reads the changed files alone and says so; a host's own Impact, such
//     as a project graph's, is checked by rewritetest.TestImpact);
//  5. the preview is persisted under [PreviewDir] with the SHA-256 of every
//     file it read, each file's unified diff and edits, the counts, the
//     impact and its expiry;
//  6. apply needs the preview's id (unknown: [ErrUnknownPreview]; expired:
//     [ErrExpired]), an [Authorization] naming a principal
//     ([ErrUnauthorized]) and a configuration that permits it
//     ([ErrApplyDisabled]);
//  7. under the project's apply lock, every file is read again and
//     compared with the preview's hash: a file edited, deleted or replaced
//     by a link since is a [*ChangedError] or [*PathError], and nothing is
//     written;
//  8. the files are replaced atomically (see Crash safety); any failure
//     restores every original, and the [Result] says what was rolled back;
//  9. the project's indexes are refreshed ([Reindexer]);
//  10. validation runs ([Validator]); with [Options].ValidateBefore it
//     ran before step 8 too, and the report says which diagnostics are
//     new and which were fixed;
//  11. the impact is analysed again on the files as written;
//  12. the result reports the files changed with their hashes, the matches
//     applied, the validation outcome and the rollback state, failures
//     included, and an event is appended to the audit log ([AuditLog]).
//
// [Rewriter.PreviewEdits] makes a preview from a host's own edits, with the
// same checks and steps 3 to 12.
//
// # The layers it consults
//
// A rewrite opens no other layer: the host gives it small interfaces in
// [Options], each optional. A [Matcher] finds the matches (nil: a
// structural provider with the default options); an [Impact] estimates
// what the change affects (nil: [LocalImpact]); a [Reindexer] refreshes
// the indexes after an apply (nil: nothing is refreshed, and the result
// says so); a [Validator] runs the project's checks (nil: the commands
// validation.Detect proposes). Package rewritetest checks a host's own
// Matcher and Impact. The codecortex engine's rewriter
// (codecortex.Engine.Rewriter) is given the engine's own structural
// search, project graph, local and precision indexes, and validation, so
// that one process holds one of each.
//
// # Crash safety
//
// Step 8 keeps a journal under [JournalDir]: the original contents,
// synced, then a journal naming every file with its hashes and mode,
// synced and renamed into place; only then is each new content written
// beside its file and synced, and renamed over it; once every rename and
// directory is synced, a commit marker is written; a transaction that
// ended is retired by renaming its journal (done or undone) before it is
// removed. A process that dies at any moment leaves a journal that the
// next [Rewriter.Apply] (or [Rewriter.Recover], cortex rewrite recover)
// resolves to all old contents or all new ones, never a mix; opening,
// showing and previewing recover nothing. A committed transaction
// whose files are all new is finished, any other is rolled back from the
// saved originals. A file that is neither its old nor its new content
// (edited after the crash) is left alone and reported, and its journal
// kept under [UnresolvedDir]. Every recovery is audited.
//
// Previews, journals and audit lines are sealed with the user's key
// (package seal, [Options.Seal]): a journal shipped with a repository is
// never recovered ([Rewriter.Pending] and [Rewriter.Recover] report it
// with the command that removes it, as [Foreign]), a planted preview is
// neither shown nor applied, and a forged audit line is marked
// [AuditEvent.Foreign]. Applies in one
// project exclude each other through an advisory lock that the kernel
// releases when its holder dies; the file operations go through a small
// internal interface that the tests fail one operation at a time.
//
// # Paths
//
// A rewrite touches only regular files inside the project root, reached
// through no symbolic link and with no other hard link, outside .git and
// .codecortex. Everything the package writes besides them lives under
// [StateDir], which holds a .gitignore that ignores it.
package rewrite

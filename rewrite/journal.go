package rewrite

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/codecortex/codecortex/internal/flock"
	"github.com/codecortex/codecortex/internal/fsx"
	"github.com/codecortex/codecortex/seal"
	"github.com/codecortex/codecortex/structural"
)

// The journal of one transaction lives in JournalDir/<txid>/:
//
//	originals     the original contents, one after another, synced
//	journal.json  what the transaction does (journalDoc), synced and
//	              renamed into place after originals
//	committed     created, and its directory synced, once every file
//	              is renamed and every renamed directory synced
//
// Replacement files are written beside their targets, as
// .cortex-rewrite-<txid>-<n>, only once journal.json is durable, and
// renamed over the targets only then. A transaction that ended (applied,
// or rolled back in full) has its directory renamed to <txid>.done or
// <txid>.undone in one step before it is removed. So a crash at any
// moment leaves one of: no journal.json (nothing in the tree was
// touched), journal.json without committed (some targets may be new:
// recovery restores them all to old), committed (every target is new:
// recovery finishes, or restores all if one is not), or a retired
// directory (the ending is known: recovery removes it). A rollback removes
// the commit marker, durably, before it restores anything.
const (
	journalName   = "journal.json"
	originalsName = "originals"
	committedName = "committed"
	// JournalFormat names the journal document's format.
	JournalFormat = "codecortex.rewrite.journal/1"
	tempPrefix    = ".cortex-rewrite-"
)

// journalDoc is journal.json.
type journalDoc struct {
	Format    string        `json:"format"`
	TxID      string        `json:"tx_id"`
	PreviewID string        `json:"preview_id"`
	Principal string        `json:"principal"`
	Via       string        `json:"via,omitempty"`
	Started   time.Time     `json:"started"`
	Files     []journalFile `json:"files"`
	// Seal is the seal (package seal) of the project root and the rest
	// of the document: recovery acts only on a journal whose seal checks,
	// so a journal shipped with a repository is never recovered.
	Seal string `json:"seal"`
}

// purposeJournal is what a journal's seal is for.
const purposeJournal = "codecortex.rewrite.journal/1"

// sealed returns the bytes a journal's seal covers: the document without
// its seal, as JSON.
func (j journalDoc) sealed() []byte {
	j.Seal = ""
	b, err := json.Marshal(j)
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	return b
}

// sealJournal sets j's seal.
func (r *Rewriter) sealJournal(j *journalDoc) error {
	s, err := r.opts.sealer().Seal(purposeJournal, j.sealed())
	if err != nil {
		return fmt.Errorf("rewrite: sealing the journal: %w", err)
	}
	j.Seal = s
	return nil
}

// ours reports whether j was written by this user's cortex for this
// project.
func (r *Rewriter) ours(j *journalDoc) bool {
	return r.opts.sealer().Verify(j.Seal, purposeJournal, j.sealed())
}

// journalFile is one target of a transaction.
type journalFile struct {
	Path string `json:"path"`
	// Temp holds the new content until it is renamed over Path.
	Temp string      `json:"temp"`
	Mode fs.FileMode `json:"mode"`
	// Before and After are the SHA-256 of the old and new contents.
	Before string `json:"before"`
	After  string `json:"after"`
	// Offset and Size locate the old content in originals.
	Offset int64 `json:"offset"`
	Size   int64 `json:"size"`
}

// restoreTemp is where a rollback writes an original before renaming it
// back over its file.
func (f *journalFile) restoreTemp() string { return f.Temp + "-restore" }

func parseJournal(b []byte) (*journalDoc, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var j journalDoc
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("rewrite: journal: %w", err)
	}
	if j.Format != JournalFormat {
		return nil, fmt.Errorf("rewrite: journal: format %q, want %q", j.Format, JournalFormat)
	}
	if !validID(j.TxID) {
		return nil, fmt.Errorf("rewrite: journal: malformed transaction id %q", j.TxID)
	}
	var end int64
	for i, f := range j.Files {
		if err := checkRel(f.Path); err != nil {
			return nil, fmt.Errorf("rewrite: journal: file %d: %v", i, err)
		}
		if stateName(f.Path) {
			return nil, fmt.Errorf("rewrite: journal: file %d: %q is CodeCortex's or git's own state, which no rewrite changes", i, f.Path)
		}
		if err := checkRel(f.Temp); err != nil || path.Dir(f.Temp) != path.Dir(f.Path) || !isTemp(path.Base(f.Temp)) {
			return nil, fmt.Errorf("rewrite: journal: file %d: bad temporary name %q", i, f.Temp)
		}
		if !validHash(f.Before) || !validHash(f.After) || f.Offset != end || f.Size < 0 {
			return nil, fmt.Errorf("rewrite: journal: file %d: malformed", i)
		}
		end += f.Size
	}
	return &j, nil
}

func isTemp(name string) bool {
	return len(name) > len(tempPrefix) && name[:len(tempPrefix)] == tempPrefix
}

// testHook, set only by tests, is told when a transaction begins and ends
// replacing files.
var testHook func(event string)

// A txn is one transaction in progress.
type txn struct {
	doc     journalDoc
	dir     string   // JournalDir/<txid>
	old     [][]byte // original contents, by file
	new     [][]byte
	edits   [][]structural.Edit
	renamed int // targets renamed so far
	// durable is set once journal.json is in place.
	durable bool
}

// writeTxn runs the transaction: originals and journal, then the new
// contents beside their targets, then the renames, then the commit
// marker. On failure it rolls back and says how far it got.
func (r *Rewriter) writeTxn(ctx context.Context, t *txn) (rb Rollback, err error) {
	if testHook != nil {
		testHook("replace-begin")
		defer testHook("replace-end")
	}
	if err = r.prepareTxn(t); err == nil {
		err = r.commitTxn(ctx, t)
	}
	if err == nil {
		return Rollback{}, nil
	}
	return r.rollbackTxn(t, err), err
}

// prepareTxn writes the journal and the replacement files; nothing in the
// tree is renamed yet.
func (r *Rewriter) prepareTxn(t *txn) error {
	if err := r.ensureState(); err != nil {
		return err
	}
	if err := r.fs.MkdirAll(t.dir, 0o700); err != nil {
		return err
	}
	if err := r.fs.SyncDir(JournalDir); err != nil {
		return err
	}
	var all []byte
	for _, b := range t.old {
		all = append(all, b...)
	}
	if err := fsx.WriteFile(r.fs, path.Join(t.dir, originalsName), all, 0o600); err != nil {
		return err
	}
	if err := r.sealJournal(&t.doc); err != nil {
		return err
	}
	b, err := json.MarshalIndent(t.doc, "", "  ")
	if err != nil {
		return err
	}
	if err := fsx.ReplaceFile(r.fs, path.Join(t.dir, journalName), path.Join(t.dir, journalName+".tmp"), b, 0o600); err != nil {
		return err
	}
	t.durable = true
	for i := range t.doc.Files {
		f := &t.doc.Files[i]
		if err := fsx.WriteFile(r.fs, f.Temp, t.new[i], f.Mode); err != nil {
			return err
		}
	}
	return nil
}

// commitTxn renames every replacement over its target, makes the renames
// durable and marks the transaction committed.
func (r *Rewriter) commitTxn(ctx context.Context, t *txn) error {
	for i := range t.doc.Files {
		if err := ctx.Err(); err != nil && t.renamed == 0 {
			return err
		}
		f := &t.doc.Files[i]
		if err := r.fs.Rename(f.Temp, f.Path); err != nil {
			return err
		}
		t.renamed++
	}
	for _, d := range dirsOf(t.doc.Files) {
		if err := r.fs.SyncDir(d); err != nil {
			return err
		}
	}
	if err := fsx.WriteFile(r.fs, path.Join(t.dir, committedName), []byte(t.doc.TxID+"\n"), 0o600); err != nil {
		return err
	}
	return r.fs.SyncDir(t.dir)
}

// rollbackTxn undoes a failed transaction: the commit marker goes first,
// then every target that has its new content gets its original back
// (written beside it and renamed, as the new content was), the
// replacement files are removed and, once all that worked, the journal.
// What it could not do is in the returned Rollback; the journal then stays
// for recovery.
func (r *Rewriter) rollbackTxn(t *txn, cause error) Rollback {
	rb := Rollback{Attempted: true, Cause: cause.Error(), Restored: []string{}}
	if !t.durable {
		// Nothing in the tree was touched; the journal is incomplete.
		rb.Complete = true
		if err := r.removeJournal(t.dir); err != nil {
			rb.Journal = t.dir
			rb.Problems = append(rb.Problems, "the incomplete journal could not be removed (the next Recover or apply removes it): "+err.Error())
		}
		return rb
	}
	clean := true
	if err := r.uncommit(t.dir); err != nil {
		clean = false
		rb.Problems = append(rb.Problems, "removing the commit marker: "+err.Error())
	}
	for i := range t.doc.Files {
		f := &t.doc.Files[i]
		if i >= t.renamed {
			if err := r.fs.Remove(f.Temp); err != nil && !errors.Is(err, fs.ErrNotExist) {
				rb.Problems = append(rb.Problems, "removing "+f.Temp+": "+err.Error())
				clean = false
			}
			if r.fileState(f) != "new" { // a failed rename may still have happened
				continue
			}
		}
		if err := r.restore(f, t.old[i]); err != nil {
			rb.Unrestored = append(rb.Unrestored, f.Path)
			rb.Problems = append(rb.Problems, "restoring "+f.Path+": "+err.Error())
			continue
		}
		rb.Restored = append(rb.Restored, f.Path)
	}
	rb.Complete = len(rb.Unrestored) == 0
	if rb.Complete && clean {
		if err := r.retireJournal(t.dir, RolledBack); err == nil {
			return rb
		} else {
			rb.Problems = append(rb.Problems, "the journal could not be removed (the next Recover or apply removes it): "+err.Error())
		}
	}
	rb.Journal = t.dir
	return rb
}

// restore puts original back in f.Path atomically, with f's mode.
func (r *Rewriter) restore(f *journalFile, original []byte) error {
	tmp := f.restoreTemp()
	if err := r.fs.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return fsx.ReplaceFile(r.fs, f.Path, tmp, original, f.Mode)
}

// retireJournal ends a transaction's journal: it renames the directory
// to <txid>.done (every file new) or <txid>.undone (every file old) in one
// atomic step, so that a crash or a failure afterwards leaves no doubt
// about how the transaction ended, then removes it.
func (r *Rewriter) retireJournal(dir string, end Outcome) error {
	suffix := doneSuffix
	if end != Completed && end != Applied {
		suffix = undoneSuffix
	}
	retired := dir + suffix
	if err := r.fs.Rename(dir, retired); err != nil {
		return err
	}
	if err := r.fs.SyncDir(JournalDir); err != nil {
		return err
	}
	return r.removeJournal(retired)
}

// The suffixes of a retired journal's directory.
const (
	doneSuffix   = ".done"
	undoneSuffix = ".undone"
)

// removeJournal removes a journal directory and what it holds.
func (r *Rewriter) removeJournal(dir string) error {
	for _, name := range []string{journalName, committedName, journalName + ".tmp", originalsName} {
		if err := r.fs.Remove(path.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if err := r.fs.Remove(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return r.fs.SyncDir(JournalDir)
}

// uncommit removes the commit marker of the journal in dir durably.
func (r *Rewriter) uncommit(dir string) error {
	if err := r.fs.Remove(path.Join(dir, committedName)); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	return r.fs.SyncDir(dir)
}

// dirsOf returns the distinct directories of the files, sorted.
func dirsOf(files []journalFile) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range files {
		d := path.Dir(f.Path)
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	sort.Strings(out)
	return out
}

// A Recovery is what recovering one interrupted apply found and did.
type Recovery struct {
	TxID      string `json:"tx_id"`
	PreviewID string `json:"preview_id,omitempty"`
	Principal string `json:"principal,omitempty"`
	// Found says how far the apply had got: "no journal yet" (it died
	// before its journal was complete: nothing in the tree was touched),
	// "journal" (replacing had begun, not finished) or "committed" (every
	// file was replaced).
	Found string `json:"found"`
	// Outcome is RolledBack (every file old), Completed (every file new)
	// or Conflict (a file is neither; see Conflicts).
	Outcome Outcome `json:"outcome"`
	// Restored are the files put back to their old content.
	Restored []string `json:"restored,omitempty"`
	// Conflicts are files that are neither their old nor their new content
	// (edited or deleted since the crash); they were left as they are.
	Conflicts []string `json:"conflicts,omitempty"`
	// Files are the transaction's files, After being each file's digest
	// as the recovery left it ("" when it is missing).
	Files []AuditFile `json:"files,omitempty"`
	// Journal is where the journal was kept, for a conflict.
	Journal string   `json:"journal,omitempty"`
	Notes   []string `json:"notes,omitempty"`
}

// Recover finds the journals of interrupted applies and brings each
// transaction's files to all old or all new: a committed transaction
// whose files are all new is finished; any other is rolled back, every
// file that has its new content getting its old content back. A file that
// is neither (edited since the crash) is left as it is and reported, and
// that journal is moved to UnresolvedDir. Each recovery is appended to the
// audit log. Recover takes the apply lock; while another process holds it,
// it returns ErrBusy and touches nothing.
func (r *Rewriter) Recover(ctx context.Context) ([]Recovery, error) {
	if !r.hasJournal() {
		if _, err := r.fs.Lstat(JournalDir); err == nil {
			return nil, r.linkedJournalDir() // nil for an empty directory
		}
		return nil, nil
	}
	release, err := r.lock()
	if err != nil {
		return nil, err
	}
	defer release()
	return r.recoverLocked(ctx)
}

// recoverLocked is Recover with the lock held.
func (r *Rewriter) recoverLocked(ctx context.Context) ([]Recovery, error) {
	if !r.stateIsReal(JournalDir) {
		if _, err := r.fs.Lstat(JournalDir); errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, r.linkedJournalDir()
	}
	ents, err := r.fs.ReadDir(JournalDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("rewrite: reading %s: %w", JournalDir, err)
	}
	var out []Recovery
	var errs []error
	for _, e := range ents {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		name := e.Name()
		if !e.IsDir() {
			continue
		}
		if id, end, ok := retired(name); ok {
			// The transaction had ended; only the clean-up was cut short.
			rec := Recovery{TxID: id, Found: "ended, journal not yet removed", Outcome: end}
			if err := r.removeJournal(path.Join(JournalDir, name)); err != nil {
				errs = append(errs, fmt.Errorf("rewrite: removing the journal %s: %w", name, err))
			}
			out = append(out, rec)
			continue
		}
		if !validID(name) {
			continue
		}
		rec, err := r.recoverOne(path.Join(JournalDir, name), name)
		out = append(out, rec)
		if err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return out, fmt.Errorf("%w: %w", ErrUnrecovered, errors.Join(errs...))
	}
	return out, nil
}

// recoverOne recovers the transaction whose journal is in dir.
func (r *Rewriter) recoverOne(dir, txid string) (Recovery, error) {
	rec := Recovery{TxID: txid}
	b, err := r.fs.ReadFile(path.Join(dir, journalName))
	if errors.Is(err, fs.ErrNotExist) {
		// Died before the journal was complete: no replacement file was
		// written and nothing renamed.
		rec.Found, rec.Outcome = "no journal yet", RolledBack
		if err := r.removeJournal(dir); err != nil {
			return rec, fmt.Errorf("rewrite: removing the incomplete journal %s: %w", dir, err)
		}
		return rec, nil
	}
	if err != nil {
		return rec, fmt.Errorf("rewrite: reading the journal %s: %w", dir, err)
	}
	j, err := parseJournal(b)
	if err == nil && !r.ours(j) {
		err = seal.ErrForeign
	}
	if err != nil {
		// A journal this user's cortex wrote is always whole and sealed
		// (it is renamed into place): this one came from elsewhere.
		return foreignJournal(dir, txid, err), nil
	}
	rec.PreviewID, rec.Principal, rec.Found = j.PreviewID, j.Principal, "journal"
	olds, err := r.savedOriginals(dir, j)
	if err != nil {
		return rec, r.keepUnresolved(&rec, dir, err)
	}
	_, cerr := r.fs.Lstat(path.Join(dir, committedName))
	committed := cerr == nil
	if committed {
		rec.Found = "committed"
	}
	// What each file holds now: "old", "new", "missing" or "other".
	states := make([]string, len(j.Files))
	allNew := true
	for i, f := range j.Files {
		states[i] = r.fileState(&f)
		allNew = allNew && states[i] == "new"
	}
	r.removeTemps(&rec, j)
	var restoreErrs []error
	if committed && allNew {
		rec.Outcome = Completed
	} else if restoreErrs, err = r.rollBackFiles(&rec, dir, j, olds, states, committed); err != nil {
		return rec, err
	}
	rec.Files = r.recoveredFiles(j, states)
	if len(restoreErrs) > 0 {
		// The journal stays where it is: the next recovery tries again.
		return rec, fmt.Errorf("rewrite: recovering %s: %w", txid, errors.Join(restoreErrs...))
	}
	return rec, r.closeRecovery(&rec, dir, j)
}

// savedOriginals returns the original content of each file of the
// journal j in dir, checked against its hash.
func (r *Rewriter) savedOriginals(dir string, j *journalDoc) ([][]byte, error) {
	originals, err := r.fs.ReadFile(path.Join(dir, originalsName))
	if err != nil {
		return nil, fmt.Errorf("reading the originals: %w", err)
	}
	olds := make([][]byte, len(j.Files))
	for i, f := range j.Files {
		if f.Offset+f.Size > int64(len(originals)) || sha(originals[f.Offset:f.Offset+f.Size]) != f.Before {
			return nil, fmt.Errorf("the saved original of %s is damaged", f.Path)
		}
		olds[i] = originals[f.Offset : f.Offset+f.Size]
	}
	return olds, nil
}

// removeTemps removes the replacement and restore files the transaction
// may have left beside its targets; one that cannot be removed is a note.
func (r *Rewriter) removeTemps(rec *Recovery, j *journalDoc) {
	for _, f := range j.Files {
		for _, tmp := range []string{f.Temp, f.restoreTemp()} {
			if err := r.fs.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
				rec.Notes = append(rec.Notes, "could not remove "+tmp+": "+err.Error())
			}
		}
	}
}

// rollBackFiles puts every file that has its new content back to its old
// content (olds), after removing the commit marker of a transaction
// marked committed; a file that is neither is a conflict, left alone.
// states are updated as files are restored. The restores that failed are
// returned apart from an error that stops the recovery.
func (r *Rewriter) rollBackFiles(rec *Recovery, dir string, j *journalDoc, olds [][]byte, states []string, committed bool) ([]error, error) {
	rec.Outcome = RolledBack
	if committed {
		rec.Notes = append(rec.Notes, "the transaction was marked committed but not every file had its new content; every file was put back to its old content")
		if err := r.uncommit(dir); err != nil {
			return nil, fmt.Errorf("rewrite: recovering %s: removing the commit marker: %w", rec.TxID, err)
		}
	}
	var restoreErrs []error
	for i := range j.Files {
		f := &j.Files[i]
		switch states[i] {
		case "new":
			if err := r.restore(f, olds[i]); err != nil {
				restoreErrs = append(restoreErrs, fmt.Errorf("restoring %s: %w", f.Path, err))
				continue
			}
			states[i] = "old"
			rec.Restored = append(rec.Restored, f.Path)
		case "missing", "other":
			rec.Conflicts = append(rec.Conflicts, f.Path)
		}
	}
	return restoreErrs, nil
}

// recoveredFiles returns the journal's files with the hash each holds
// after the recovery, as states say.
func (r *Rewriter) recoveredFiles(j *journalDoc, states []string) []AuditFile {
	var out []AuditFile
	for i, f := range j.Files {
		af := AuditFile{Path: f.Path, Before: f.Before}
		switch states[i] {
		case "old":
			af.After = f.Before
		case "new":
			af.After = f.After
		case "other":
			if b, err := r.fs.ReadFile(f.Path); err == nil {
				af.After = sha(b)
			}
		}
		out = append(out, af)
	}
	return out
}

// closeRecovery audits the recovery and retires the journal in dir; a
// recovery with conflicts keeps its journal under UnresolvedDir instead.
func (r *Rewriter) closeRecovery(rec *Recovery, dir string, j *journalDoc) error {
	ev := AuditEvent{Time: r.opts.now().UTC(), Action: "recover", Principal: j.Principal, Via: j.Via,
		PreviewID: j.PreviewID, TxID: j.TxID, Outcome: rec.Outcome, Files: rec.Files, Validation: "not run",
		Reason: "an apply was interrupted (" + rec.Found + ")"}
	if len(rec.Conflicts) > 0 {
		rec.Outcome, ev.Outcome = Conflict, Conflict
		ev.Reason += fmt.Sprintf("; %d files are neither their old nor their new content and were left as they are", len(rec.Conflicts))
		err := r.keepUnresolved(rec, dir, fmt.Errorf("files changed since the interrupted apply: %v", rec.Conflicts))
		_ = r.appendAudit(ev)
		return err
	}
	if rec.Outcome != Completed || !r.audited(j.TxID) {
		if err := r.appendAudit(ev); err != nil {
			return err
		}
	}
	if err := r.retireJournal(dir, rec.Outcome); err != nil {
		return fmt.Errorf("rewrite: removing the journal %s: %w", dir, err)
	}
	return nil
}

// linkedJournalDir returns the error for a journal directory reached
// through a symbolic link (or not a directory), nil for a real one.
func (r *Rewriter) linkedJournalDir() error {
	if r.stateIsReal(JournalDir) {
		return nil
	}
	return fmt.Errorf("rewrite: %s, or a directory above it, is a symbolic link or not a directory: nothing in it is recovered; remove it", JournalDir)
}

// foreignJournal is the recovery of a journal that this user's cortex did
// not write: nothing is done, and it says how to remove it.
func foreignJournal(dir, txid string, why error) Recovery {
	reason := "it was not written by this user's cortex (shipped with the repository, or made elsewhere)"
	if !errors.Is(why, seal.ErrForeign) {
		reason = "it cannot be read as a journal of this cortex (" + cut(why.Error(), 160) + ")"
	}
	return Recovery{TxID: txid, Found: "journal", Outcome: Foreign, Journal: dir,
		Notes: []string{"nothing was recovered from " + dir + ": " + reason + "; remove it with: rm -r -- " + dir}}
}

// A PendingJournal is the journal of an apply that no recovery has dealt
// with yet, as [Rewriter.Pending] finds it.
type PendingJournal struct {
	TxID string `json:"tx_id"`
	// Journal is its directory, relative to the project root.
	Journal string `json:"journal"`
	// Foreign reports a journal this user's cortex did not write (or that
	// cannot be read as one): it is never recovered, and Remove says how
	// to remove it.
	Foreign bool   `json:"foreign"`
	Remove  string `json:"remove,omitempty"`
}

// Pending lists the journals under JournalDir that a recovery would look
// at, without recovering anything or taking the lock: the journals of
// interrupted applies of this user, which [Rewriter.Recover] (or the next
// apply) recovers, and foreign ones, which nothing recovers.
func (r *Rewriter) Pending() []PendingJournal {
	if !r.hasJournal() {
		return nil
	}
	ents, err := r.fs.ReadDir(JournalDir)
	if err != nil {
		return nil
	}
	var out []PendingJournal
	for _, e := range ents {
		if !e.IsDir() || !validID(e.Name()) {
			continue
		}
		dir := path.Join(JournalDir, e.Name())
		b, err := r.fs.ReadFile(path.Join(dir, journalName))
		if errors.Is(err, fs.ErrNotExist) {
			continue // died before its journal was whole: nothing to recover
		}
		pj := PendingJournal{TxID: e.Name(), Journal: dir}
		j, err := parseJournal(b)
		if err != nil || !r.ours(j) {
			pj.Foreign, pj.Remove = true, "rm -r -- "+dir
		}
		out = append(out, pj)
	}
	return out
}

// retired reports whether name is a retired journal's directory, and how
// its transaction ended.
func retired(name string) (id string, end Outcome, ok bool) {
	if id, ok := strings.CutSuffix(name, doneSuffix); ok && validID(id) {
		return id, Completed, true
	}
	if id, ok := strings.CutSuffix(name, undoneSuffix); ok && validID(id) {
		return id, RolledBack, true
	}
	return "", "", false
}

// fileState says what f.Path holds: its "old" content, its "new" one,
// nothing ("missing") or something else ("other").
func (r *Rewriter) fileState(f *journalFile) string {
	fi, err := r.fs.Lstat(f.Path)
	if err != nil {
		return "missing"
	}
	if !fi.Mode().IsRegular() {
		return "other"
	}
	b, err := r.fs.ReadFile(f.Path)
	if err != nil {
		return "other"
	}
	switch sha(b) {
	case f.Before:
		return "old"
	case f.After:
		return "new"
	}
	return "other"
}

// keepUnresolved moves a journal that cannot be recovered out of the way,
// to UnresolvedDir, so that applies can go on, and says where it is.
func (r *Rewriter) keepUnresolved(rec *Recovery, dir string, cause error) error {
	if rec.Outcome == "" {
		rec.Outcome = Conflict
	}
	dst := path.Join(UnresolvedDir, path.Base(dir)+"-"+strconv.FormatInt(r.opts.now().Unix(), 10))
	if err := r.fs.MkdirAll(UnresolvedDir, 0o700); err == nil {
		if err := r.fs.Rename(dir, dst); err == nil {
			rec.Journal = dst
			return fmt.Errorf("rewrite: transaction %s: %w; its journal is kept in %s", rec.TxID, cause, dst)
		}
	}
	rec.Journal = dir
	return fmt.Errorf("rewrite: transaction %s: %w; its journal is kept in %s", rec.TxID, cause, dir)
}

// lock takes the project's apply lock, or fails with ErrBusy.
func (r *Rewriter) lock() (release func(), err error) {
	if err := r.ensureState(); err != nil {
		return nil, err
	}
	f, err := r.osfs.OpenLock(lockFile)
	if err != nil {
		return nil, fmt.Errorf("rewrite: lock: %w", err)
	}
	ok, err := flock.TryLock(f)
	if err != nil || !ok {
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("rewrite: lock: %w", err)
		}
		return nil, ErrBusy
	}
	return func() { _ = flock.Unlock(f); f.Close() }, nil
}

package rewrite

// The rewrite transaction, top to bottom: Preview runs steps 1 to 5 (and
// PreviewEdits steps 3 to 5 for a host's own edits), Apply steps 6 to 12.
// Each step is one function below, in order.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/structural"
	"github.com/codecortex/codecortex/validation"
)

// Preview computes the rewrite req asks for and stores it as a preview,
// changing nothing in the project: the request is checked (an invalid
// pattern is an error, never zero matches; the template may use only
// metavariables the pattern binds), structural search finds the matches
// (only the outermost of nested matches is rewritten), the rewritten files
// must parse, the limits are enforced, the impact is estimated, and the
// preview is persisted with the SHA-256 of every file it read and its
// expiry. Apply it with [Rewriter.Apply] and its ID.
func (r *Rewriter) Preview(ctx context.Context, req Request) (*Preview, error) {
	req, err := r.parseRequest(req) // 1
	if err != nil {
		return nil, err
	}
	edits, skipped, err := r.matchSet(ctx, req) // 2
	if err != nil {
		return nil, err
	}
	src := Source{Kind: SourcePattern, Pattern: req.Pattern, Template: req.Template, Language: req.Language, Paths: req.Paths}
	return r.previewChanges(ctx, src, edits, skipped, nil)
}

// PreviewEdits stores a preview of a host's own edits, as [Preview] does
// for a pattern. Every edit's Path is a clean slash-separated path
// relative to the root, naming a regular file inside it; Old is what the
// file holds at [StartByte, EndByte); Range may be left zero (it is
// computed). Edits of one file must not overlap, and a file of a language
// the syntax floor parses must still parse after them (files of other
// languages are not checked, and the preview's notes say so).
// description is kept with the preview. Steps 3 to 5 then run as for a
// pattern.
func (r *Rewriter) PreviewEdits(ctx context.Context, description string, edits []structural.Edit) (*Preview, error) {
	edits, notes, err := r.checkHostEdits(ctx, edits)
	if err != nil {
		return nil, err
	}
	return r.previewChanges(ctx, Source{Kind: SourceEdits, Description: description}, edits, 0, notes)
}

// previewChanges runs steps 3 to 5 over edits.
func (r *Rewriter) previewChanges(ctx context.Context, src Source, edits []structural.Edit, skipped int, notes []string) (*Preview, error) {
	cs, err := r.changeSet(edits)
	if err != nil {
		return nil, err
	}
	if err := checkLimits(r.opts.Limits.withDefaults(), cs); err != nil { // 3
		return nil, err
	}
	impact, note := r.impactBefore(ctx, cs) // 4
	now := r.opts.now().UTC()
	p := &Preview{Format: PreviewFormat, ID: newID(), Created: now, Expires: now.Add(r.opts.ttl()), Source: src,
		Matches: cs.matches, SkippedInner: skipped, ChangedBytes: cs.bytes, Impact: impact,
		Notes: append(append(notes, cs.notes...), note...)}
	for _, c := range cs.changes {
		p.Files = append(p.Files, c.file)
	}
	if err := r.persistPreview(p); err != nil { // 5
		return nil, err
	}
	return p, nil
}

// Apply applies the stored preview id, authorized by auth: the preview
// must exist and not have expired, auth must name a principal and the
// configuration must permit applying. Under the project's apply lock
// (ErrBusy while another process holds it), every file's SHA-256 is
// checked against the preview (a file changed or deleted since aborts
// before anything is written), then the files are replaced atomically
// with a journal of the originals, so that a failure restores every
// original and a crash is recovered by the next apply or Recover; then the indexes
// are refreshed, validation runs and the impact is analysed again. Every
// call appends an event to the audit log.
//
// A refusal returns a nil Result and an error saying why. A failed
// replacement returns the Result, whose Rollback says what was restored,
// and an error matching ErrApplyFailed. Otherwise the error is nil and the
// Result reports the rest, failures included (see [Result.OK]).
func (r *Rewriter) Apply(ctx context.Context, id string, auth Authorization) (*Result, error) {
	p, err := r.authorize(id, auth) // 6
	if err != nil {
		return nil, r.refuse(id, auth, err)
	}
	release, err := r.lock()
	if err != nil {
		return nil, r.refuse(id, auth, err)
	}
	defer release()
	recs, err := r.recoverLocked(ctx)
	if err != nil {
		return nil, r.refuse(id, auth, fmt.Errorf("%w; cortex rewrite recover reports it", err))
	}
	before := r.validateBefore(ctx, auth.SkipValidation)
	t, err := r.verifyFiles(p, auth) // 7
	if err != nil {
		return nil, r.refuse(id, auth, err)
	}
	res := &Result{PreviewID: p.ID, TxID: t.doc.TxID, Principal: auth.Principal, SkippedInner: p.SkippedInner,
		ImpactBefore: p.Impact, Recovered: recs}
	if rb, err := r.replaceFiles(ctx, t); err != nil { // 8
		r.failed(res, t, rb)
		return res, fmt.Errorf("%w: %w", ErrApplyFailed, err)
	}
	res.Outcome, res.FilesChanged, res.MatchesApplied = Applied, len(p.Files), p.Matches
	res.Reindex = r.reindex(ctx, t)                       // 9
	res.Validation = r.validate(ctx, auth.SkipValidation) // 10
	res.Validation.compare(before)
	res.ImpactAfter, res.ResidualRisk = r.impactAfter(ctx, t, res) // 11
	r.finish(res, t, auth)                                         // 12
	return res, nil
}

// Step 1: parseRequest checks the request before anything is searched: a
// pattern, a language, a template using only metavariables the pattern
// binds, and paths inside the root. Whether the pattern compiles is the
// Matcher's to say, in step 2: it knows its engine.
func (r *Rewriter) parseRequest(req Request) (Request, error) {
	if strings.TrimSpace(req.Pattern) == "" {
		return req, fmt.Errorf("%w: no pattern", ErrInvalidRequest)
	}
	if req.Language == "" {
		return req, fmt.Errorf("%w: a rewrite needs the pattern's language", ErrInvalidRequest)
	}
	lang, err := structural.ParseLanguage(string(req.Language))
	if err != nil {
		return req, fmt.Errorf("%w: %w", ErrInvalidRequest, err)
	}
	req.Language = lang
	if err := structural.CheckTemplate(req.Pattern, req.Template); err != nil {
		return req, err
	}
	var paths []string
	for _, p := range req.Paths {
		if strings.ContainsAny(p, "*?[") {
			if path.IsAbs(p) || path.Clean(p) == ".." || strings.HasPrefix(path.Clean(p), "../") {
				return req, &PathError{Path: p, Reason: "a glob must be relative to the project root and stay inside it"}
			}
			paths = append(paths, p)
			continue
		}
		rel, err := r.root.Rel(p)
		if err != nil {
			reason := "is not a valid path"
			if errors.Is(err, contain.ErrEscape) {
				reason = "escapes the project root"
			}
			return req, &PathError{Path: p, Reason: reason, Err: err}
		}
		paths = append(paths, rel)
	}
	req.Paths = paths
	return req, nil
}

// Step 2: matchSet searches the pattern and computes its edits through
// the Matcher (an invalid pattern is its error): only structural matches
// (a fallback's lexical hits never drive a rewrite),
// the outermost of nested ones, with rewritten files that still parse.
// skipped counts the inner matches left to their outer match.
func (r *Rewriter) matchSet(ctx context.Context, req Request) (edits []structural.Edit, skipped int, err error) {
	lim := r.opts.Limits.withDefaults()
	sreq := structural.Request{Root: r.dir, Pattern: req.Pattern, Language: req.Language, Paths: req.Paths,
		Limits: structural.Limits{MaxMatches: max(structural.DefaultMaxMatches, 4*lim.MaxMatches)}}
	ans, err := r.opts.Matcher.Search(ctx, sreq)
	if err != nil {
		return nil, 0, err
	}
	if ans.Structural == nil {
		return nil, 0, fmt.Errorf("%w: %s", ErrNotStructural, ans.Report.Reason)
	}
	if res := ans.Structural; res.Truncated {
		if len(res.Matches) >= sreq.Limits.MaxMatches {
			return nil, 0, &LimitError{Limit: LimitMatches, Max: int64(lim.MaxMatches), Got: int64(len(res.Matches))}
		}
		return nil, 0, fmt.Errorf("%w: the search stopped early (%s); narrow the paths", ErrInvalidRequest, strings.Join(res.Notes, "; "))
	}
	if len(ans.Structural.Matches) == 0 {
		return nil, 0, fmt.Errorf("%w: the pattern matched nothing", ErrNoChanges)
	}
	edits, err = r.opts.Matcher.Rewrite(ctx, ans, req.Template)
	if err != nil {
		return nil, 0, err
	}
	return edits, len(ans.Structural.Matches) - len(edits), nil
}

// checkHostEdits checks a host's edits as step 1 checks a request: each
// in a safe file, matching it, not overlapping another; and, where the
// language is known, leaving the file parsable.
func (r *Rewriter) checkHostEdits(ctx context.Context, edits []structural.Edit) ([]structural.Edit, []string, error) {
	if len(edits) == 0 {
		return nil, nil, fmt.Errorf("%w: no edits", ErrNoChanges)
	}
	out := make([]structural.Edit, 0, len(edits))
	var parsable []structural.Edit
	unchecked := map[string]bool{}
	for _, e := range edits {
		if _, err := r.checkPath(e.Path); errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("%w: %s does not exist (an edit changes a file that is there)", ErrInvalidRequest, e.Path)
		} else if err != nil {
			return nil, nil, err
		}
		if e.StartByte < 0 || e.EndByte < e.StartByte || len(e.Old) != e.EndByte-e.StartByte {
			return nil, nil, fmt.Errorf("%w: an edit of %s has bytes %d-%d and %d bytes of old text", ErrInvalidRequest, e.Path, e.StartByte, e.EndByte, len(e.Old))
		}
		out = append(out, e)
		lang := e.Language
		if lang == "" {
			lang, _ = structural.LanguageOf(e.Path)
		}
		if lang != "" {
			e.Language = lang
			parsable = append(parsable, e)
		} else {
			unchecked[e.Path] = true
		}
	}
	var notes []string
	switch err := structural.CheckEdits(ctx, r.dir, parsable, "(the host's edits)"); {
	case errors.Is(err, structural.ErrUnavailable):
		notes = append(notes, "the rewritten files' syntax was not checked: "+err.Error())
	case err != nil:
		return nil, nil, err
	}
	for _, p := range sortedKeys(unchecked) {
		notes = append(notes, p+": syntax not checked (a language the syntax floor does not parse)")
	}
	return out, notes, nil
}

// A change is one file of a change set.
type change struct {
	file          File
	before, after []byte
	spans         []Span
}

// A changeSet is what a rewrite changes, file by file.
type changeSet struct {
	changes []change
	matches int
	bytes   int64
	notes   []string
}

// changeSet reads each edited file (checking it is a regular file inside
// the root reached through no link), applies its edits in memory and
// records the file's hashes, mode and diff. Edits that change nothing are
// dropped; a rewrite that changes nothing is ErrNoChanges.
func (r *Rewriter) changeSet(edits []structural.Edit) (*changeSet, error) {
	byFile := map[string][]structural.Edit{}
	unchanged := 0
	for _, e := range edits {
		if e.Old == e.New {
			unchanged++
			continue
		}
		byFile[e.Path] = append(byFile[e.Path], e)
	}
	cs := &changeSet{}
	if unchanged > 0 {
		cs.notes = append(cs.notes, fmt.Sprintf("%d matches are left as they are: their replacement is the code they hold", unchanged))
	}
	for _, p := range sortedKeys(byFile) {
		fi, err := r.checkPath(p)
		if err != nil {
			return nil, err
		}
		src, err := r.fs.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("rewrite: %w", err)
		}
		es := byFile[p]
		sort.SliceStable(es, func(i, j int) bool { return es[i].StartByte < es[j].StartByte })
		for i := range es {
			if i > 0 && es[i].StartByte < es[i-1].EndByte {
				return nil, fmt.Errorf("%w: edits of %s overlap at byte %d", ErrInvalidRequest, p, es[i].StartByte)
			}
			if es[i].Range == (structural.Range{}) && es[i].EndByte <= len(src) {
				es[i].Range = rangeOf(src, es[i].StartByte, es[i].EndByte)
			}
		}
		out, err := structural.ApplyEdits(src, es)
		if err != nil {
			return nil, fmt.Errorf("%w (the file changed while the preview was computed, or an edit does not match it)", err)
		}
		diff, err := unifiedDiff(p, src, es)
		if err != nil {
			return nil, err
		}
		c := change{before: src, after: out, spans: spansOf(src, out, es),
			file: File{Path: p, Mode: fileMode(fi), SHA256: sha(src), NewSHA256: sha(out), Size: int64(len(src)), Diff: diff, Edits: es}}
		cs.changes = append(cs.changes, c)
		cs.matches += len(es)
		for _, e := range es {
			cs.bytes += int64(len(e.Old) + len(e.New))
		}
	}
	if len(cs.changes) == 0 {
		return nil, fmt.Errorf("%w: every replacement is the code it replaces", ErrNoChanges)
	}
	return cs, nil
}

// Step 3: checkLimits refuses a rewrite larger than a limit, naming the
// limit and the figure.
func checkLimits(lim Limits, cs *changeSet) error {
	switch {
	case len(cs.changes) > lim.MaxFiles:
		return &LimitError{Limit: LimitFiles, Max: int64(lim.MaxFiles), Got: int64(len(cs.changes))}
	case cs.matches > lim.MaxMatches:
		return &LimitError{Limit: LimitMatches, Max: int64(lim.MaxMatches), Got: int64(cs.matches)}
	case cs.bytes > lim.MaxBytes:
		return &LimitError{Limit: LimitBytes, Max: lim.MaxBytes, Got: cs.bytes}
	}
	return nil
}

// Step 4: impactBefore estimates the impact before the change. A failing
// analysis is a note on the preview, never a failed preview.
func (r *Rewriter) impactBefore(ctx context.Context, cs *changeSet) (*ImpactReport, []string) {
	req := ImpactRequest{Dir: r.dir, Stage: StageBefore}
	for _, c := range cs.changes {
		req.Files = append(req.Files, FileChange{Path: c.file.Path, Before: c.before, After: c.after, Spans: c.spans})
	}
	rep, err := r.opts.Impact.Analyze(ctx, req)
	if err != nil {
		return nil, []string{"impact analysis failed: " + err.Error()}
	}
	return rep, nil
}

// Step 5: persistPreview stores the preview under PreviewDir.
func (r *Rewriter) persistPreview(p *Preview) error {
	if err := p.Validate(); err != nil {
		return err
	}
	return r.storePreview(p)
}

// Step 6: authorize refuses an apply without a principal, one the
// configuration does not permit, and an unknown or expired preview.
func (r *Rewriter) authorize(id string, auth Authorization) (*Preview, error) {
	if strings.TrimSpace(auth.Principal) == "" {
		return nil, fmt.Errorf("%w: apply needs the principal who authorizes it (the CLI asks for --yes)", ErrUnauthorized)
	}
	if r.opts.DenyApply {
		return nil, ErrApplyDisabled
	}
	p, err := r.loadPreview(id)
	if err != nil {
		return nil, err
	}
	if now := r.opts.now(); p.Expired(now) {
		return nil, fmt.Errorf("%w: preview %s expired at %s; preview again", ErrExpired, p.ID, p.Expires.Format("2006-01-02 15:04:05Z07:00"))
	}
	return p, nil
}

// Step 7: verifyFiles re-reads every file of the preview, under the lock,
// and refuses the apply if one was edited, deleted, replaced by a link or
// is otherwise not what the preview was computed from. It computes the new
// contents and checks them (and their diffs) against the preview.
func (r *Rewriter) verifyFiles(p *Preview, auth Authorization) (*txn, error) {
	txid := newID()
	t := &txn{dir: path.Join(JournalDir, txid), doc: journalDoc{Format: JournalFormat, TxID: txid, PreviewID: p.ID,
		Principal: auth.Principal, Via: auth.Via, Started: r.opts.now().UTC()}}
	var offset int64
	for i, f := range p.Files {
		fi, err := r.checkPath(f.Path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &ChangedError{Path: f.Path, Want: f.SHA256, Deleted: true}
		}
		if err != nil {
			return nil, err
		}
		src, err := r.fs.ReadFile(f.Path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &ChangedError{Path: f.Path, Want: f.SHA256, Deleted: true}
		}
		if err != nil {
			return nil, fmt.Errorf("rewrite: %w", err)
		}
		if got := sha(src); got != f.SHA256 {
			return nil, &ChangedError{Path: f.Path, Want: f.SHA256, Got: got}
		}
		out, err := structural.ApplyEdits(src, f.Edits)
		if err != nil || sha(out) != f.NewSHA256 {
			return nil, fmt.Errorf("%w: the edits of %s do not give the content the preview recorded", ErrCorruptPreview, f.Path)
		}
		if diff, err := unifiedDiff(f.Path, src, f.Edits); err != nil || diff != f.Diff {
			return nil, fmt.Errorf("%w: the diff of %s is not the one its edits make", ErrCorruptPreview, f.Path)
		}
		t.old, t.new, t.edits = append(t.old, src), append(t.new, out), append(t.edits, f.Edits)
		t.doc.Files = append(t.doc.Files, journalFile{Path: f.Path, Temp: path.Join(path.Dir(f.Path), fmt.Sprintf("%s%s-%d", tempPrefix, txid, i)),
			Mode: fileMode(fi), Before: f.SHA256, After: f.NewSHA256, Offset: offset, Size: int64(len(src))})
		offset += int64(len(src))
	}
	return t, nil
}

// Step 8: replaceFiles replaces the files atomically: originals in a
// synced journal, new contents written and synced beside their targets,
// then renamed over them, then the commit marker. Any failure restores
// every original (see writeTxn).
func (r *Rewriter) replaceFiles(ctx context.Context, t *txn) (Rollback, error) {
	return r.writeTxn(ctx, t)
}

// Step 9: reindex asks the [Reindexer] to refresh what indexes the
// changed files (the local index, the precision index); without one,
// nothing is refreshed and the report says so. The structural parse cache
// is keyed by content and needs nothing.
func (r *Rewriter) reindex(ctx context.Context, t *txn) Reindex {
	if r.opts.Reindexer == nil {
		return noReindex()
	}
	paths := make([]string, len(t.doc.Files))
	for i, f := range t.doc.Files {
		paths[i] = f.Path
	}
	return r.opts.Reindexer.Reindex(ctx, paths)
}

// Step 10: validate runs the project's checks through the [Validator].
func (r *Rewriter) validate(ctx context.Context, skip bool) ValidationReport {
	if r.opts.SkipValidation || skip {
		return ValidationReport{Status: ValidationSkipped, Reason: "the host skipped validation"}
	}
	o, err := r.opts.Validator.Run(ctx)
	switch {
	case errors.Is(err, validation.ErrNoCommands):
		return ValidationReport{Status: ValidationSkipped, Reason: "there are no validation commands for this project"}
	case err != nil && o == nil:
		return ValidationReport{Status: ValidationError, Reason: err.Error()}
	case err != nil:
		return ValidationReport{Status: ValidationError, Reason: err.Error(), Outcome: o}
	case o.Passed:
		return ValidationReport{Status: ValidationPassed, Outcome: o}
	}
	var failed []string
	for _, res := range o.Results {
		if !res.Passed {
			failed = append(failed, res.Name)
		}
	}
	return ValidationReport{Status: ValidationFailed, Reason: "failed: " + strings.Join(failed, ", "), Outcome: o}
}

// validateBefore runs the validation on the files as they are, before
// step 8 replaces them, when Options.ValidateBefore asks for it and
// validation will run after; nil otherwise, or when it could not run.
func (r *Rewriter) validateBefore(ctx context.Context, skip bool) *validation.Outcome {
	if !r.opts.ValidateBefore || r.opts.SkipValidation || skip {
		return nil
	}
	o, err := r.opts.Validator.Run(ctx)
	if err != nil {
		return nil
	}
	return o
}

// diagnosticKey is what compares a diagnostic before and after a change:
// everything but its line and column, which the change may move.
type diagnosticKey struct {
	tool, path, code, message, pkg, test string
}

func keyOf(d *validation.Diagnostic) diagnosticKey {
	return diagnosticKey{d.Tool, d.Path, d.Code, d.Message, d.Package, d.Test}
}

// compare fills New and Fixed from the run before and the report's own
// run, counting repeated diagnostics as many times as they occur.
func (v *ValidationReport) compare(before *validation.Outcome) {
	if before == nil || v.Outcome == nil {
		return
	}
	v.Before, v.Compared = before, true
	count := func(o *validation.Outcome) map[diagnosticKey]int {
		m := map[diagnosticKey]int{}
		for _, res := range o.Results {
			for i := range res.Diagnostics {
				m[keyOf(&res.Diagnostics[i])]++
			}
		}
		return m
	}
	was, now := count(before), count(v.Outcome)
	for _, res := range v.Outcome.Results {
		for _, d := range res.Diagnostics {
			if k := keyOf(&d); was[k] > 0 {
				was[k]--
			} else {
				v.New = append(v.New, d)
			}
		}
	}
	for _, res := range before.Results {
		for _, d := range res.Diagnostics {
			if k := keyOf(&d); now[k] > 0 {
				now[k]--
			} else {
				v.Fixed = append(v.Fixed, d)
			}
		}
	}
}

// Step 11: impactAfter analyses the files as written; the residual risk
// is its risk, or 1 when validation failed.
func (r *Rewriter) impactAfter(ctx context.Context, t *txn, res *Result) (*ImpactReport, float64) {
	req := ImpactRequest{Dir: r.dir, Stage: StageAfter}
	for i, f := range t.doc.Files {
		req.Files = append(req.Files, FileChange{Path: f.Path, Before: t.old[i], After: t.new[i], Spans: spansOf(t.old[i], t.new[i], t.edits[i])})
	}
	rep, err := r.opts.Impact.Analyze(ctx, req)
	if err != nil {
		res.Problems = append(res.Problems, "impact analysis after the change failed: "+err.Error())
		return nil, 1
	}
	if res.Validation.Status == ValidationFailed {
		return rep, 1
	}
	return rep, rep.Risk
}

// Step 12: finish appends the audit event and removes the journal; a
// failure of either is a problem in the result, not a failed apply.
func (r *Rewriter) finish(res *Result, t *txn, auth Authorization) {
	for _, f := range t.doc.Files {
		res.Files = append(res.Files, AuditFile{Path: f.Path, Before: f.Before, After: f.After})
	}
	ev := AuditEvent{Time: r.opts.now().UTC(), Action: "apply", Principal: auth.Principal, Via: auth.Via,
		PreviewID: res.PreviewID, TxID: t.doc.TxID, Outcome: Applied, Files: res.Files, Validation: res.Validation.Status}
	if err := r.appendAudit(ev); err != nil {
		res.Problems = append(res.Problems, err.Error()+" (the journal is kept; the next Recover or apply appends the event)")
		return
	}
	if err := r.retireJournal(t.dir, Applied); err != nil {
		res.Problems = append(res.Problems, "the journal could not be removed (the next Recover or apply removes it): "+err.Error())
	}
}

// failed fills the result of a failed replacement and audits it.
func (r *Rewriter) failed(res *Result, t *txn, rb Rollback) {
	res.Rollback = rb
	res.Outcome = RolledBack
	if !rb.Complete || rb.Journal != "" {
		res.Outcome = RollbackIncomplete
	}
	res.Validation = ValidationReport{Status: ValidationSkipped, Reason: "nothing was applied"}
	unrestored := map[string]bool{}
	for _, p := range rb.Unrestored {
		unrestored[p] = true
	}
	for _, f := range t.doc.Files {
		af := AuditFile{Path: f.Path, Before: f.Before, After: f.Before}
		if unrestored[f.Path] {
			af.After = f.After
		}
		res.Files = append(res.Files, af)
	}
	ev := AuditEvent{Time: r.opts.now().UTC(), Action: "apply", Principal: res.Principal, Via: t.doc.Via,
		PreviewID: res.PreviewID, TxID: t.doc.TxID, Outcome: res.Outcome, Reason: rb.Cause, Files: res.Files, Validation: "not run"}
	if err := r.appendAudit(ev); err != nil {
		res.Rollback.Problems = append(res.Rollback.Problems, err.Error())
	}
}

// refuse audits a refused apply and returns err.
func (r *Rewriter) refuse(id string, auth Authorization, err error) error {
	_ = r.appendAudit(AuditEvent{Time: r.opts.now().UTC(), Action: "apply", Principal: auth.Principal, Via: auth.Via,
		PreviewID: id, Outcome: Refused, Reason: err.Error()})
	return err
}

// stateName reports whether the clean relative path p is in, or is, a
// directory that holds CodeCortex's or git's own state: any element named
// .codecortex or .git, in any case (a nested repository's .git/config or
// hooks are no less dangerous, and a file system may fold case).
func stateName(p string) bool {
	for _, e := range strings.Split(p, "/") {
		if strings.EqualFold(e, ".git") || strings.EqualFold(e, ".codecortex") {
			return true
		}
	}
	return false
}

// dependencyCopy reports whether p lies in a directory where a package
// manager installs dependencies' copies: any element named node_modules,
// site-packages or dist-packages. The package manager owns those files;
// an edit there is lost on the next install and changes no dependency.
func dependencyCopy(p string) bool {
	for _, e := range strings.Split(p, "/") {
		switch e {
		case "node_modules", "site-packages", "dist-packages":
			return true
		}
	}
	return false
}

// checkPath returns the file information of p after checking that it is
// a clean path inside the root, reached through no symbolic link, and a
// regular file with no other hard link (renaming over it would leave the
// other names with the old content). A missing file is fs.ErrNotExist.
func (r *Rewriter) checkPath(p string) (fs.FileInfo, error) {
	if _, err := r.root.Rel(p); err != nil {
		reason := "is not a valid path"
		if errors.Is(err, contain.ErrEscape) {
			reason = "escapes the project root"
		}
		return nil, &PathError{Path: p, Reason: reason, Err: err}
	}
	if err := checkRel(p); err != nil {
		return nil, &PathError{Path: p, Reason: "is not a clean path relative to the project root"}
	}
	if stateName(p) {
		return nil, &PathError{Path: p, Reason: "is CodeCortex's or git's own state"}
	}
	if dependencyCopy(p) {
		return nil, &PathError{Path: p, Reason: "is in a dependency's installed copy (node_modules, site-packages), not the project's own code"}
	}
	elems := strings.Split(p, "/")
	for i := range elems {
		q := strings.Join(elems[:i+1], "/")
		fi, err := r.fs.Lstat(q)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
			return nil, &PathError{Path: p, Reason: "cannot be checked", Err: err}
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			if q == p {
				return nil, &PathError{Path: p, Reason: "is a symbolic link (a rewrite replaces regular files only)"}
			}
			return nil, &PathError{Path: p, Reason: "is reached through the symbolic link " + q}
		}
		if q != p {
			continue
		}
		if !fi.Mode().IsRegular() {
			return nil, &PathError{Path: p, Reason: "is not a regular file"}
		}
		if linkCount(fi) > 1 {
			return nil, &PathError{Path: p, Reason: "has other hard links, which would keep the old content"}
		}
		return fi, nil
	}
	return nil, &PathError{Path: p, Reason: "is not a file"}
}

// fileMode returns the mode bits a rewritten file keeps.
func fileMode(fi fs.FileInfo) fs.FileMode {
	return fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
}

// spansOf returns the spans of edits (sorted) in both versions; without
// edits, the one span where before and after differ.
func spansOf(before, after []byte, edits []structural.Edit) []Span {
	if len(edits) == 0 {
		if bytes.Equal(before, after) {
			return nil
		}
		pre := 0
		for pre < len(before) && pre < len(after) && before[pre] == after[pre] {
			pre++
		}
		suf := 0
		for suf < len(before)-pre && suf < len(after)-pre && before[len(before)-1-suf] == after[len(after)-1-suf] {
			suf++
		}
		return []Span{{Old: byteRange(before, pre, len(before)-suf), New: byteRange(after, pre, len(after)-suf)}}
	}
	var out []Span
	delta := 0
	for _, e := range edits {
		ns := e.StartByte + delta
		out = append(out, Span{Old: byteRange(before, e.StartByte, e.EndByte), New: byteRange(after, ns, ns+len(e.New))})
		delta += len(e.New) - (e.EndByte - e.StartByte)
	}
	return out
}

func byteRange(src []byte, start, end int) ByteRange {
	last := end
	if end > start {
		last = end - 1
	}
	return ByteRange{Start: start, End: end, StartLine: 1 + bytes.Count(src[:start], []byte("\n")), EndLine: 1 + bytes.Count(src[:last], []byte("\n"))}
}

// rangeOf returns the range of bytes [start, end) of src: one-based lines
// and code-point columns.
func rangeOf(src []byte, start, end int) structural.Range {
	pos := func(off int) (int, int) {
		line := 1 + bytes.Count(src[:off], []byte("\n"))
		ls := bytes.LastIndexByte(src[:off], '\n') + 1
		return line, 1 + utf8.RuneCount(src[ls:off])
	}
	sl, sc := pos(start)
	el, ec := pos(end)
	return structural.Range{StartLine: sl, StartColumn: sc, EndLine: el, EndColumn: ec, StartByte: start, EndByte: end}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

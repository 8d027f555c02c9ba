package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/rewrite"
	"github.com/codecortex/codecortex/structural"
)

// rewriteUsage is the argument usage of cortex rewrite.
const rewriteUsage = `preview -p PATTERN -r TEMPLATE -l LANG [PATH...] | show ID | apply ID --yes [--no-validate] | recover`

// runRewrite is cortex rewrite: a guarded structural rewrite in two
// steps, a stored preview and an explicit apply, with recovery of an
// apply that was interrupted.
//
//	cortex rewrite preview -p PATTERN -r TEMPLATE -l LANG [PATH...]
//	cortex rewrite show ID
//	cortex rewrite apply ID --yes
//	cortex rewrite recover
func runRewrite(ctx context.Context, c *cmd, args []string) int {
	c.argsUsage = rewriteUsage
	pattern := c.fs.String("p", "", "preview: the ast-grep style `pattern`, such as 'old_api($$$ARGS)'")
	c.fs.StringVar(pattern, "pattern", "", "same as -p")
	template := c.fs.String("r", "", "preview: the replacement `template`; it may name only metavariables the pattern binds")
	c.fs.StringVar(template, "rewrite", "", "same as -r")
	lang := c.fs.String("l", "", "preview: the pattern's `language` ("+languageList()+")")
	c.fs.StringVar(lang, "lang", "", "same as -l")
	yes := c.fs.Bool("yes", false, "apply: authorize the change, as the user cortex runs as ($CODECORTEX_AUTHOR or the login name)")
	noValidate := c.fs.Bool("no-validate", false, "apply: do not run the validation commands after the change")
	pos, code, ok := c.parse(args, 1, -1)
	if !ok {
		return code
	}
	sub, rest := pos[0], pos[1:]
	// Each flag belongs to one subcommand.
	owner := map[string]string{"p": "preview", "pattern": "preview", "r": "preview", "rewrite": "preview", "l": "preview", "lang": "preview",
		"yes": "apply", "no-validate": "apply"}
	var misplaced error
	c.fs.Visit(func(f *flag.Flag) {
		if o, ok := owner[f.Name]; ok && o != sub && misplaced == nil {
			misplaced = fmt.Errorf("-%s is a flag of cortex rewrite %s, not of %s", f.Name, o, sub)
		}
	})
	if misplaced != nil {
		return c.usageError(misplaced)
	}
	switch sub {
	case "preview":
		return rewritePreview(ctx, c, *pattern, *template, *lang, rest)
	case "show":
		if len(rest) != 1 {
			return c.usageError(errors.New("show takes one preview ID"))
		}
		return rewriteShow(c, rest[0])
	case "apply":
		if len(rest) != 1 {
			return c.usageError(errors.New("apply takes one preview ID"))
		}
		if !*yes {
			return c.usageError(fmt.Errorf("apply changes files: review the preview (cortex rewrite show %s), then pass --yes to authorize it as %s", rest[0], c.author()))
		}
		return rewriteApply(ctx, c, rest[0], *noValidate)
	case "recover":
		if len(rest) != 0 {
			return c.usageError(fmt.Errorf("recover takes no arguments, got %q", rest))
		}
		return rewriteRecover(ctx, c)
	}
	return c.usageError(fmt.Errorf("unknown subcommand %q (want preview, show, apply or recover)", sub))
}

// rewriteEngine returns the project's engine with its rewriter opened,
// which recovers nothing by opening: journals waiting for recovery, and
// foreign ones that never will be, are reported on standard error.
func (c *cmd) rewriteEngine(p *project) (*codecortex.Engine, error) {
	eng, err := p.engine(codecortex.Options{})
	if err != nil {
		return nil, err
	}
	r, err := eng.Rewriter()
	if err != nil {
		return nil, err
	}
	for _, j := range r.Pending() {
		c.note("cortex: %s", safe(rewritePendingLine(j)))
	}
	return eng, nil
}

// rewritePendingLine says in a sentence what a pending journal is and what
// to do about it.
func rewritePendingLine(j rewrite.PendingJournal) string {
	if j.Foreign {
		return fmt.Sprintf("%s is a rewrite journal your cortex did not write (shipped with the repository?): it is never recovered; remove it with: %s", j.Journal, j.Remove)
	}
	return fmt.Sprintf("the apply %s was interrupted: `cortex rewrite recover` (or the next apply) brings its files back to all old or all new", j.TxID)
}

// rewriteFailure returns the exit code for a rewrite error: 2 for what
// the user got wrong on the command line (a pattern, a template, a
// language, a path, an unknown preview), 1 for a refusal or a failure.
func (c *cmd) rewriteFailure(err error) int {
	var pathErr *rewrite.PathError
	switch {
	case errors.Is(err, structural.ErrInvalidPattern), errors.Is(err, structural.ErrTemplate),
		errors.Is(err, rewrite.ErrInvalidRequest), errors.Is(err, rewrite.ErrUnknownPreview),
		errors.As(err, &pathErr) && strings.Contains(pathErr.Reason, "escapes"):
		return c.usageError(err)
	}
	return c.fail(err)
}

func rewritePreview(ctx context.Context, c *cmd, pattern, template, lang string, args []string) int {
	switch {
	case pattern == "":
		return c.usageError(errors.New("preview needs -p PATTERN"))
	case lang == "":
		return c.usageError(errors.New("preview needs -l LANG: a rewrite is made in one language"))
	}
	l, err := structural.ParseLanguage(lang)
	if err != nil {
		return c.usageError(err)
	}
	p, err := c.openProject(false)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	paths, err := p.rels(args)
	if err != nil {
		return c.finish(err)
	}
	eng, err := c.rewriteEngine(p)
	if err != nil {
		return c.fail(err)
	}
	stop := progress(c.progressOut(), "previewing")
	pv, err := eng.PreviewRewrite(ctx, rewrite.Request{Pattern: pattern, Template: template, Language: l, Paths: paths})
	stop()
	if errors.Is(err, rewrite.ErrNoChanges) {
		if c.json != jsonOff {
			c.writeError(err, ExitFail)
		} else {
			c.note("cortex: %s", safe(err.Error()))
		}
		return ExitFail
	}
	if err != nil {
		return c.rewriteFailure(err)
	}
	if c.json != jsonOff {
		if err := c.writeJSON(pv); err != nil {
			return c.fail(err)
		}
		return ExitOK
	}
	printRewritePreview(c, pv)
	c.printf("apply it with: cortex rewrite apply %s --yes\n", pv.ID)
	return ExitOK
}

// rewriteShowJSON is what cortex rewrite show prints with --json.
type rewriteShowJSON struct {
	*rewrite.Preview
	Expired bool `json:"expired"`
}

func rewriteShow(c *cmd, id string) int {
	p, err := c.openProject(false)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	eng, err := c.rewriteEngine(p)
	if err != nil {
		return c.fail(err)
	}
	pv, err := eng.ShowRewrite(id)
	if err != nil {
		return c.rewriteFailure(err)
	}
	expired := pv.Expired(time.Now())
	if c.json != jsonOff {
		if err := c.writeJSON(rewriteShowJSON{pv, expired}); err != nil {
			return c.fail(err)
		}
		return ExitOK
	}
	printRewritePreview(c, pv)
	if expired {
		c.printf("this preview has expired: preview again to apply it\n")
	}
	return ExitOK
}

// printRewritePreview prints a preview's diffs, counts, impact and expiry.
func printRewritePreview(c *cmd, pv *rewrite.Preview) {
	for _, f := range pv.Files {
		for _, l := range strings.SplitAfter(f.Diff, "\n") {
			if l == "" {
				continue
			}
			c.printf("%s\n", safe(clip(strings.TrimSuffix(l, "\n"))))
		}
	}
	c.printf("\n")
	src := pv.Source
	switch src.Kind {
	case rewrite.SourcePattern:
		c.printf("rewrite %s → %s (%s)\n", safe(src.Pattern), safe(src.Template), src.Language)
	default:
		c.printf("edits: %s\n", safe(src.Description))
	}
	nested := ""
	if pv.SkippedInner > 0 {
		nested = fmt.Sprintf("; %s nested in another left to the outer one's rewrite", count(pv.SkippedInner, "match"))
	}
	c.printf("%s in %s, %d changed bytes%s\n", count(pv.Matches, "match"), count(len(pv.Files), "file"), pv.ChangedBytes, nested)
	if im := pv.Impact; im != nil {
		printRewriteImpact(c, "impact", im)
	}
	for _, n := range pv.Notes {
		c.printf("note: %s\n", safe(n))
	}
	c.printf("preview %s, made %s, expires %s\n", pv.ID, pv.Created.Local().Format(time.DateTime), pv.Expires.Local().Format(time.DateTime))
}

// printRewriteImpact prints an impact report in a few lines.
func printRewriteImpact(c *cmd, what string, im *rewrite.ImpactReport) {
	c.printf("%s: risk %.2f (%s; %s: %s)\n", what, im.Risk, im.Tier, safe(im.Analyzer), safe(im.RiskReason))
	var syms []string
	for _, s := range im.Symbols {
		name := s.Name
		if s.Container != "" {
			name = s.Container + "." + name
		}
		syms = append(syms, fmt.Sprintf("%s:%d %s %s", s.Path, s.Line, s.Kind, name))
	}
	if len(syms) > 0 {
		c.printf("  symbols touched: %s\n", safe(strings.Join(rewriteLimitList(syms, 10), ", ")))
	}
	var removed []string
	for _, s := range im.Removed {
		removed = append(removed, fmt.Sprintf("%s:%d %s %s", s.Path, s.Line, s.Kind, s.Name))
	}
	if len(removed) > 0 {
		c.printf("  symbols removed: %s\n", safe(strings.Join(rewriteLimitList(removed, 10), ", ")))
	}
	var tests []string
	for _, t := range im.Tests {
		tests = append(tests, t.Path)
	}
	if len(tests) > 0 {
		c.printf("  tests: %s\n", safe(strings.Join(rewriteLimitList(tests, 10), ", ")))
	}
	c.printf("  basis: %s\n", safe(im.Basis))
}

// rewriteLimitList keeps the first n items and says how many more there are.
func rewriteLimitList(items []string, n int) []string {
	if len(items) <= n {
		return items
	}
	return append(items[:n:n], fmt.Sprintf("and %d more", len(items)-n))
}

// rewriteApplyJSON is what cortex rewrite apply prints with --json: the result,
// and the error when the apply failed after it began.
type rewriteApplyJSON struct {
	*rewrite.Result
	Error string `json:"error,omitempty"`
}

func rewriteApply(ctx context.Context, c *cmd, id string, noValidate bool) int {
	p, err := c.openProject(false)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	eng, err := c.rewriteEngine(p)
	if err != nil {
		return c.fail(err)
	}
	stop := progress(c.progressOut(), "applying")
	res, err := eng.ApplyRewrite(ctx, id, rewrite.Authorization{Principal: c.author(), Via: "cli", SkipValidation: noValidate})
	stop()
	if res == nil {
		return c.rewriteFailure(err)
	}
	code := ExitOK
	if err != nil || !res.OK() {
		code = ExitFail
	}
	if c.json != jsonOff {
		out := rewriteApplyJSON{Result: res}
		if err != nil {
			out.Error = err.Error()
		}
		if werr := c.writeJSON(out); werr != nil {
			return c.fail(werr)
		}
		return code
	}
	printRewriteResult(c, res)
	if err != nil {
		c.note("cortex: %s", safe(err.Error()))
	}
	return code
}

// printRewriteResult prints what an apply did, failures first among equals.
func printRewriteResult(c *cmd, res *rewrite.Result) {
	for _, rec := range res.Recovered {
		if rec.Outcome == rewrite.Foreign {
			c.printf("%s\n", safe(rewriteRecoveryLine(rec)))
			continue
		}
		c.printf("recovered first: %s\n", safe(rewriteRecoveryLine(rec)))
	}
	switch res.Outcome {
	case rewrite.Applied:
		c.printf("applied preview %s as %s (transaction %s): %s in %s\n", res.PreviewID, safe(res.Principal), res.TxID,
			count(res.MatchesApplied, "match"), count(res.FilesChanged, "file"))
	default:
		c.printf("apply of preview %s FAILED and was %s: nothing was applied\n", res.PreviewID, res.Outcome)
		rb := res.Rollback
		c.printf("  cause: %s\n", safe(rb.Cause))
		if len(rb.Restored) > 0 {
			c.printf("  restored: %s\n", safe(strings.Join(rb.Restored, ", ")))
		}
		if len(rb.Unrestored) > 0 {
			c.printf("  NOT restored yet: %s (the journal in %s is kept; cortex rewrite recover finishes)\n", safe(strings.Join(rb.Unrestored, ", ")), safe(rb.Journal))
		}
		for _, pr := range rb.Problems {
			c.printf("  problem: %s\n", safe(pr))
		}
	}
	for _, f := range res.Files {
		c.printf("  %s  sha256 %s → %s\n", safe(f.Path), rewriteShortHash(f.Before), rewriteShortHash(f.After))
	}
	if res.Outcome != rewrite.Applied {
		return
	}
	rx := res.Reindex
	c.printf("reindex: local index %s", rx.Index)
	if rx.IndexReason != "" {
		c.printf(" (%s)", safe(rx.IndexReason))
	}
	c.printf("; precision index %s", rx.Precision.State)
	if rx.Precision.Reason != "" {
		c.printf(" (%s)", safe(rx.Precision.Reason))
	}
	c.printf("\n")
	if rx.Precision.Guidance != "" {
		c.printf("  → %s\n", safe(rx.Precision.Guidance))
	}
	v := res.Validation
	c.printf("validation: %s", v.Status)
	if v.Reason != "" {
		c.printf(" (%s)", safe(v.Reason))
	}
	c.printf("\n")
	if v.Outcome != nil {
		for _, r := range v.Outcome.Results {
			state := "passed"
			if !r.Passed {
				state = "FAILED"
			}
			c.printf("  %s: %s\n", safe(r.Name), state)
			for i, d := range r.Diagnostics {
				if i == 5 {
					c.printf("    … %d more\n", len(r.Diagnostics)-5)
					break
				}
				c.printf("    %s:%d:%d: %s\n", safe(d.Path), d.Line, d.Column, safe(d.Message))
			}
		}
	}
	printValidationDelta(c, v)
	if im := res.ImpactAfter; im != nil {
		printRewriteImpact(c, "impact after", im)
	}
	c.printf("residual risk: %.2f\n", res.ResidualRisk)
	for _, pr := range res.Problems {
		c.printf("PROBLEM: %s\n", safe(pr))
	}
}

// printValidationDelta says which diagnostics the change brought and
// which it fixed, when validation ran before the change too.
func printValidationDelta(c *cmd, v rewrite.ValidationReport) {
	if !v.Compared {
		return
	}
	c.printf("compared with the validation before the change: %s new, %s fixed\n", count(len(v.New), "diagnostic"), count(len(v.Fixed), "diagnostic"))
	for i, d := range v.New {
		if i == 10 {
			c.printf("    … %d more\n", len(v.New)-10)
			break
		}
		c.printf("  new %s:%d:%d: %s\n", safe(d.Path), d.Line, d.Column, safe(d.Message))
	}
}

// rewriteShortHash abbreviates a SHA-256.
func rewriteShortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	if h == "" {
		return "(missing)"
	}
	return h
}

// rewriteRecoveryLine says in a sentence what recovering one transaction did.
func rewriteRecoveryLine(rec rewrite.Recovery) string {
	s := fmt.Sprintf("recovered the interrupted apply %s", rec.TxID)
	if rec.PreviewID != "" {
		s += fmt.Sprintf(" of preview %s", rec.PreviewID)
	}
	s += fmt.Sprintf(" (%s): %s", rec.Found, rec.Outcome)
	switch rec.Outcome {
	case rewrite.RolledBack:
		s += fmt.Sprintf(", every file has its old content (%d restored)", len(rec.Restored))
	case rewrite.Completed:
		s += ", every file has its new content"
	case rewrite.Conflict:
		s += fmt.Sprintf(", %s changed since and left as it is: %s; journal kept in %s", count(len(rec.Conflicts), "file"), strings.Join(rec.Conflicts, ", "), rec.Journal)
	case rewrite.Foreign:
		return fmt.Sprintf("did not recover %s: %s", rec.Journal, strings.Join(rec.Notes, "; "))
	}
	return s
}

// rewriteRecoverJSON is what cortex rewrite recover prints with --json.
type rewriteRecoverJSON struct {
	Recovered []rewrite.Recovery `json:"recovered"`
	Error     string             `json:"error,omitempty"`
}

func rewriteRecover(ctx context.Context, c *cmd) int {
	p, err := c.openProject(true)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	eng, err := p.engine(codecortex.Options{})
	if err != nil {
		return c.fail(err)
	}
	r, err := eng.Rewriter()
	if err != nil {
		return c.fail(err)
	}
	recs, err := r.Recover(ctx)
	out := rewriteRecoverJSON{Recovered: recs}
	if out.Recovered == nil {
		out.Recovered = []rewrite.Recovery{}
	}
	code := ExitOK
	if err != nil {
		code = ExitFail
		out.Error = err.Error()
	}
	if c.json != jsonOff {
		if werr := c.writeJSON(out); werr != nil {
			return c.fail(werr)
		}
		return code
	}
	if len(recs) == 0 && err == nil {
		c.printf("nothing to recover: no apply was interrupted\n")
	}
	for _, rec := range recs {
		c.printf("%s\n", safe(rewriteRecoveryLine(rec)))
		if rec.Outcome == rewrite.Foreign {
			continue // its notes are in the line
		}
		for _, n := range rec.Notes {
			c.printf("  note: %s\n", safe(n))
		}
	}
	if err != nil {
		c.note("cortex: %s", safe(err.Error()))
	}
	return code
}

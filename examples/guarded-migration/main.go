// Command guarded-migration is a template for a host program that changes
// code the guarded way: it previews a structural migration (every call of
// an old API rewritten to a new one), shows the diff and the estimated
// impact, and applies it only when asked, as a named principal, with the
// project's limits, expiry and allow_apply honoured, every file's hash
// re-verified, and the files replaced all at once or not at all. A host
// may bring its own edits too: -note adds a line to a changelog through
// the same preview and apply.
//
//	go run ./examples/guarded-migration -C DIR -p 'old_api($$$A)' -r 'new_api($$$A)' -l go
//	go run ./examples/guarded-migration -C DIR -apply ID -as alice
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/rewrite"
	"github.com/codecortex/codecortex/structural"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "guarded-migration:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("guarded-migration", flag.ContinueOnError)
	dir := fs.String("C", ".", "the project root")
	pattern := fs.String("p", "", "the pattern to migrate, such as 'old_api($$$A)'")
	template := fs.String("r", "", "its replacement, such as 'new_api($$$A)'")
	lang := fs.String("l", "go", "the pattern's language")
	note := fs.String("note", "", "also add this line to CHANGELOG.md: a host's own edit, previewed with the migration's")
	apply := fs.String("apply", "", "apply the preview with this id")
	as := fs.String("as", "", "who authorizes the apply (required with -apply)")
	if err := fs.Parse(args); err != nil {
		return err
	}

	// The engine composes the project's layers once, from its
	// configuration judged for trust, and its rewriter honours the
	// structural section (max_rewrite_*, preview_ttl_seconds, allow_apply)
	// and consults the engine's layers: structural search for the matches,
	// the project graph for the impact (the changed files alone without a
	// local index), the local and precision indexes to refresh after an
	// apply, and the configured validation. A host that composes the
	// layers itself passes its own to rewrite.Open in rewrite.Options
	// (Matcher, Impact, Reindexer, Validator).
	eng, err := codecortex.Open(*dir, codecortex.Options{})
	if err != nil {
		return err
	}
	defer eng.Close()
	r, err := eng.Rewriter()
	if err != nil {
		return err
	}
	// Opening changes nothing: an apply that was interrupted (the process
	// died while replacing files) is recovered by the next apply, or by
	// Recover; a journal shipped with the repository never is.
	for _, j := range r.Pending() {
		if j.Foreign {
			fmt.Fprintf(out, "%s was not written by your cortex and is never recovered; remove it: %s\n", j.Journal, j.Remove)
		} else {
			fmt.Fprintf(out, "the interrupted apply %s is recovered before the next apply\n", j.TxID)
		}
	}

	if *apply != "" {
		return applyPreview(ctx, r, *apply, *as, out)
	}
	if *pattern == "" {
		return errors.New("give -p PATTERN -r TEMPLATE to preview, or -apply ID -as NAME to apply")
	}
	pv, err := r.Preview(ctx, rewrite.Request{Pattern: *pattern, Template: *template, Language: structural.Language(*lang)})
	if err != nil {
		return err
	}
	show(out, pv)
	if *note != "" {
		// A host's own edit: append a line to the changelog. It gets its
		// own preview, hashed, limited and applied the same way.
		nv, err := r.PreviewEdits(ctx, "changelog entry", []structural.Edit{appendLine(r.Dir(), "CHANGELOG.md", *note)})
		if err != nil {
			return err
		}
		show(out, nv)
	}
	return nil
}

// appendLine returns the edit that appends line to the file name of the
// root (creating nothing: the file must exist).
func appendLine(root, name, line string) structural.Edit {
	b, _ := os.ReadFile(filepath.Join(root, name))
	at := len(b)
	text := line + "\n"
	if at > 0 && b[at-1] != '\n' {
		text = "\n" + text
	}
	return structural.Edit{Path: name, StartByte: at, EndByte: at, New: text}
}

// show prints a preview: its diff, counts, impact and id.
func show(out io.Writer, pv *rewrite.Preview) {
	for _, f := range pv.Files {
		fmt.Fprint(out, f.Diff)
	}
	fmt.Fprintf(out, "%d matches in %d files (%d nested matches left to their outer match)\n", pv.Matches, len(pv.Files), pv.SkippedInner)
	if im := pv.Impact; im != nil {
		var syms []string
		for _, s := range im.Symbols {
			syms = append(syms, s.Path+":"+s.Name)
		}
		fmt.Fprintf(out, "impact: risk %.2f, %s; symbols %s; %d test files (%s)\n", im.Risk, im.Tier, strings.Join(syms, ", "), len(im.Tests), im.Analyzer)
	}
	for _, n := range pv.Notes {
		fmt.Fprintln(out, "note:", n)
	}
	fmt.Fprintf(out, "preview %s expires %s\n", pv.ID, pv.Expires.Format(time.RFC3339))
}

// applyPreview applies a preview as the principal who; a failure is
// reported with what was rolled back, never hidden.
func applyPreview(ctx context.Context, r *rewrite.Rewriter, id, who string, out io.Writer) error {
	res, err := r.Apply(ctx, id, rewrite.Authorization{Principal: who, Via: "guarded-migration"})
	if res == nil {
		return err // refused: nothing was written
	}
	fmt.Fprintf(out, "%s: %d matches in %d files\n", res.Outcome, res.MatchesApplied, res.FilesChanged)
	for _, f := range res.Files {
		fmt.Fprintf(out, "  %s %.12s → %.12s\n", f.Path, f.Before, f.After)
	}
	if err != nil {
		fmt.Fprintf(out, "rollback: complete %v, restored %v, not restored %v\n", res.Rollback.Complete, res.Rollback.Restored, res.Rollback.Unrestored)
		return err
	}
	fmt.Fprintf(out, "reindex: local index %s, precision %s\n", res.Reindex.Index, res.Reindex.Precision.State)
	fmt.Fprintf(out, "validation: %s %s\n", res.Validation.Status, res.Validation.Reason)
	fmt.Fprintf(out, "residual risk: %.2f\n", res.ResidualRisk)
	for _, pr := range res.Problems {
		fmt.Fprintln(out, "problem:", pr)
	}
	if !res.OK() {
		return errors.New("applied, but not cleanly: see above")
	}
	return nil
}

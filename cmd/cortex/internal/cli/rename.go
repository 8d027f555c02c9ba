package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/trust"
)

// runRename is cortex rename SYMBOL NEWNAME: a rename by meaning, planned
// from the symbol's references at the strongest tier a source has and
// stored as a guarded rewrite preview, applied with cortex rewrite apply
// ID --yes. A conflict refuses it before anything is written; --json
// prints the plan (id, edits by file with their tiers, conflicts,
// candidates) as one document either way.
func runRename(ctx context.Context, c *cmd, args []string) int {
	c.argsUsage = "FILE:LINE:COL|NAME NEWNAME"
	allowInferred := c.fs.Bool("allow-inferred", false, "rename from name matches when no SCIP index or language server knows the symbol; every such edit is marked inferred")
	useLSP := c.fs.Bool("lsp", false, "when the index has no fresh answer, ask the language server of each file's language (gopls, pyright-langserver, typescript-language-server, ... or as configured); its edits are near_exact")
	pos, code, ok := c.parse(args, 2, 2)
	if !ok {
		return code
	}
	file, line, col, isPos, err := parsePosition(pos[0])
	if err != nil {
		return c.usageError(err)
	}
	p, err := c.openProject(false)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	req := codecortex.RenameRequest{NewName: pos[1], AllowInferred: *allowInferred}
	if req.Target, err = p.target(pos[0], file, line, col, isPos); err != nil {
		return c.finish(err)
	}
	eng, err := c.lspEngine(p, *useLSP)
	if err != nil {
		return c.fail(err)
	}
	if _, err := c.rewriteEngine(p); err != nil {
		return c.fail(err)
	}
	stop := progress(c.progressOut(), "planning the rename")
	plan, err := eng.Rename(ctx, req)
	stop()
	return c.renameAnswer(plan, err)
}

// renameAnswer prints a rename's plan and returns the exit code: 0 for a
// stored preview, 1 for a refusal, 2 for a target that names nothing.
func (c *cmd) renameAnswer(plan *codecortex.RenamePlan, err error) int {
	if errors.Is(err, codecortex.ErrBadTarget) {
		return c.usageError(err)
	}
	if err != nil && !errors.Is(err, codecortex.ErrRenameRefused) {
		return c.fail(err)
	}
	if c.json != jsonOff {
		if werr := c.writeJSON(plan); werr != nil {
			return c.fail(werr)
		}
	} else {
		printRenamePlan(c, plan)
	}
	if err != nil {
		if c.json == jsonOff {
			c.note("cortex: %s", safe(err.Error()))
		}
		return ExitFail
	}
	return ExitOK
}

// printRenamePlan prints the preview (diffs, impact, the edits' tiers) or
// the conflicts and candidates that refused it.
func printRenamePlan(c *cmd, plan *codecortex.RenamePlan) {
	for _, k := range plan.Candidates {
		c.printf("candidate %s:%d:%d %s (%s)\n", k.Path, k.Line, k.Column, safe(shortSymbol(k.Symbol)), k.Tier)
	}
	for _, x := range plan.Conflicts {
		at := ""
		if x.Path != "" {
			at = fmt.Sprintf("%s:%d:%d: ", x.Path, x.Line, x.Column)
		}
		c.printf("conflict %s%s: %s\n", at, x.Kind, safe(x.Reason))
	}
	if plan.Guidance != "" {
		c.printf("→ %s\n", safe(plan.Guidance))
	}
	if plan.Preview == nil {
		return
	}
	printRewritePreview(c, plan.Preview)
	tiers := map[trust.Tier]int{}
	for _, f := range plan.Files {
		for _, ed := range f.Edits {
			tiers[ed.Tier]++
			if ed.Inferred {
				c.printf("inferred edit %s:%d:%d (%s): check it\n", f.Path, ed.Line, ed.Column, ed.Tier)
			}
		}
	}
	c.printf("rename %s → %s (%s): %s, evidence", safe(plan.OldName), safe(plan.NewName), safe(shortSymbol(plan.Symbol)), count(plan.Edits(), "edit"))
	for _, t := range []trust.Tier{trust.Exact, trust.NearExact, trust.Structural, trust.InferredHigh, trust.Inferred, trust.Weak} {
		if tiers[t] > 0 {
			c.printf(" %d %s", tiers[t], t)
		}
	}
	c.printf("\napply it with: cortex rewrite apply %s --yes\n", plan.ID)
}

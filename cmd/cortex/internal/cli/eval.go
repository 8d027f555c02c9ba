package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/cmd/cortex/internal/eval"
)

// runEval is cortex eval FIXTURE: it asks every question of a frozen
// fixture and scores the answers; it exits 1 below the fixture's gate.
func runEval(ctx context.Context, c *cmd, args []string) int {
	c.argsUsage = "FIXTURE.json"
	pos, code, ok := c.parse(args, 1, 1)
	if !ok {
		return code
	}
	fh, err := os.Open(pos[0])
	if err != nil {
		return c.usageError(err)
	}
	f, err := eval.Parse(fh)
	fh.Close()
	if err != nil {
		return c.usageError(err)
	}
	p, err := c.openProject(false)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	eng, err := codecortex.NewEngine(p.Project, codecortex.Options{})
	if err != nil {
		return c.fail(err)
	}
	defer eng.Close()
	res, err := eval.Run(ctx, eng, f)
	if err != nil {
		return c.fail(err)
	}
	code = ExitOK
	if !res.Passed {
		code = ExitFail
	}
	if c.json != jsonOff {
		if err := c.writeJSON(res); err != nil {
			return c.fail(err)
		}
		return code
	}
	c.printf("%s: %d questions\n", safe(res.Name), res.Cases)
	c.printf("top-1 accuracy  %5.1f%%  (gate %.0f%%)\n", 100*res.Top1, 100*res.Gate.Top1)
	c.printf("top-3 recall    %5.1f%%  (gate %.0f%%)\n", 100*res.Top3, 100*res.Gate.Top3)
	c.printf("tier accuracy   %5.1f%%  (gate %.0f%%)\n", 100*res.Tier, 100*res.Gate.Tier)
	c.printf("tokens          %d used of %d budgeted; the files cited hold %d\n", res.TokensUsed, res.TokensBudget, res.TokensCited)
	for _, f := range res.Failures {
		rank := "absent"
		if f.Rank > 0 {
			rank = fmt.Sprintf("rank %d", f.Rank)
		}
		c.printf("\nmiss: %s\n  want %s (%s)\n  got  %s\n  why  %s\n", safe(f.Question), safe(f.Want), rank, safe(f.Got), safe(f.Why))
	}
	if res.Passed {
		c.printf("\npassed\n")
	} else {
		c.printf("\nbelow the gate\n")
	}
	return code
}

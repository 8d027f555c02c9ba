package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/codecortex/codecortex"
)

// runMap is cortex map [PATH]: the repository's most used definitions, by
// file, within a token budget.
func runMap(ctx context.Context, c *cmd, args []string) int {
	c.argsUsage = "[PATH]"
	budget := c.fs.Int("budget", codecortex.DefaultMapBudget, "the whole map's token `budget`")
	format := c.fs.String("format", codecortex.MapText, "`form` to print: text, json or mermaid (a flowchart of the map's files)")
	focus := c.fs.String("focus", "", "more `files` or directories to lean the rank toward, separated by commas")
	pos, code, ok := c.parse(args, 0, 1)
	if !ok {
		return code
	}
	if *budget < 1 {
		return c.usageError(fmt.Errorf("--budget %d: want a positive number of tokens", *budget))
	}
	if c.json != jsonOff {
		*format = codecortex.MapJSON
	}
	p, err := c.openProject(false)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	req := codecortex.MapRequest{Budget: *budget, Format: *format}
	if len(pos) == 1 {
		if req.Path, err = p.rel(pos[0]); err != nil {
			return c.finish(err)
		}
	}
	for _, f := range strings.Split(*focus, ",") {
		if f = strings.TrimSpace(f); f != "" {
			rel, err := p.rel(f)
			if err != nil {
				return c.finish(err)
			}
			req.Focus = append(req.Focus, rel)
		}
	}
	eng, stop, err := c.indexEngine(p, true)
	if err != nil {
		return c.fail(err)
	}
	m, err := eng.Map(ctx, req)
	stop()
	if errors.Is(err, codecortex.ErrMapFormat) || errors.Is(err, codecortex.ErrMapBudget) {
		return c.usageError(err)
	}
	if err != nil {
		return c.fail(err)
	}
	if req.Format == codecortex.MapJSON {
		if err := c.writeCompactJSON(m); err != nil {
			return c.fail(err)
		}
		return ExitOK
	}
	for _, ln := range strings.SplitAfter(string(m.Render()), "\n") {
		if ln != "" {
			c.printf("%s\n", safe(strings.TrimSuffix(ln, "\n")))
		}
	}
	return ExitOK
}

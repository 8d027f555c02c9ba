package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/graph"
)

// runImpact is cortex impact FILE[:LINE[-LINE]]|SYMBOL... or --since REV:
// what a change to those files, lines or symbols (or what changed since a
// commit) affects, from the project graph: the definitions touched, their
// callers within --depth, the tests to run, a risk score and the mix of
// exact and inferred edges behind it.
func runImpact(ctx context.Context, c *cmd, args []string) int {
	c.argsUsage = "FILE[:LINE[-LINE]]|SYMBOL... | --since REV"
	since := c.fs.String("since", "", "what changed since the commit `rev` (work tree and untracked files included) is the change")
	depth := c.fs.Int("depth", graph.DefaultDepth, fmt.Sprintf("follow callers at most `n` edges away (at most %d)", graph.MaxDepth))
	maxNodes := c.fs.Int("max-nodes", graph.DefaultMaxNodes, "visit at most `n` definitions and files")
	format := c.fs.String("format", "text", fmt.Sprintf("`form` to print: text, json or mermaid (a flowchart of the changed, their callers and the tests, at most %d nodes)", graph.DefaultMermaidNodes))
	pos, code, ok := c.parse(args, 0, -1)
	if !ok {
		return code
	}
	switch *format {
	case "text", "mermaid":
	case "json":
		if c.json == jsonOff {
			c.json = jsonOn
		}
	default:
		return c.usageError(fmt.Errorf("--format %q: want text, json or mermaid", *format))
	}
	if len(pos) == 0 && *since == "" {
		return c.usageError(errors.New("name a file, a line range, a symbol, or --since REV"))
	}
	if *depth < 1 || *depth > graph.MaxDepth || *maxNodes < 1 {
		return c.usageError(fmt.Errorf("--depth must be 1 to %d and --max-nodes at least 1", graph.MaxDepth))
	}
	p, err := c.openProject(false)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	var q graph.Query
	q.Depth, q.MaxNodes = *depth, *maxNodes
	for _, a := range pos {
		file, start, end, err := parseLineRange(a)
		if err != nil {
			return c.usageError(err)
		}
		if rel, err := p.rel(file); err == nil {
			if fi, err := os.Stat(filepath.Join(p.Root, filepath.FromSlash(rel))); err == nil && !fi.IsDir() {
				q.Targets = append(q.Targets, graph.Target{Path: rel, StartLine: start, EndLine: end})
				continue
			}
		}
		if start > 0 || strings.ContainsAny(a, `/\`) {
			return c.usageError(fmt.Errorf("%s: no such file in the project", a))
		}
		q.Targets = append(q.Targets, graph.Target{Symbol: a})
	}
	eng, err := p.engine(codecortex.Options{})
	if err != nil {
		return c.fail(err)
	}
	im, err := eng.Impact(ctx, q, *since)
	if err != nil {
		return c.fail(err)
	}
	switch {
	case c.json != jsonOff:
		if err := c.writeJSON(im); err != nil {
			return c.fail(err)
		}
	case *format == "mermaid":
		c.printf("%s", im.Mermaid(0))
	default:
		printImpact(c, im)
	}
	if len(im.Affected) == 0 && len(q.Targets) > 0 {
		return ExitFail
	}
	return ExitOK
}

// printImpact prints an impact for people.
func printImpact(c *cmd, im *graph.Impact) {
	c.printf("risk %.3f (%s)\n", im.Risk, safe(im.RiskReason))
	c.printf("edges behind the callers: %d exact, %d inferred_high, %d inferred\n", im.Mix.Exact, im.Mix.InferredHigh, im.Mix.Inferred)
	c.printf("\naffected (%d):\n", len(im.Affected))
	for _, h := range im.Affected {
		if h.Line == 0 { // a file as a whole: no definition of it changed
			c.printf("  %s  file\n", safe(h.Path))
			continue
		}
		c.printf("  %s:%d  %s %s\n", safe(h.Path), h.Line, h.Kind, safe(qualified(h)))
	}
	c.printf("\ncallers (%d, depth ≤ %d):\n", len(im.Callers), im.Depth)
	for _, h := range im.Callers {
		v := h.Via
		c.printf("  %d  %s:%d  %s %s  %s %s [%s, %s]\n", h.Depth, safe(v.Path), v.Line, h.Kind, safe(qualified(h)),
			v.Kind, safe(v.To), v.Method, v.Tier)
	}
	c.printf("\ntests to run (%d):\n", len(im.Tests))
	for _, t := range im.Tests {
		name := t.Path
		if t.Symbol != "" {
			name = t.Symbol
		}
		c.printf("  %s  (%s, %s)\n", safe(name), safe(t.Why), t.Tier)
	}
	if len(im.Cycles) > 0 {
		c.printf("\ncycles among them (%d):\n", len(im.Cycles))
		for _, cy := range im.Cycles {
			c.printf("  %s\n", safe(strings.Join(cy.Nodes, " ⇄ ")))
		}
	}
	if im.Truncated {
		c.note("cortex: the walk stopped at %d nodes (--max-nodes)", im.MaxNodes)
	}
	for _, u := range im.Unresolved {
		c.note("cortex: %s names nothing in the project graph", safe(u))
	}
	for _, n := range im.Notes {
		c.note("cortex: %s", safe(n))
	}
}

func qualified(h graph.Hit) string {
	if h.Container != "" {
		return strings.TrimLeft(h.Container, "*&") + "." + h.Name
	}
	return h.Name
}

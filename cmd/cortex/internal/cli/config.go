package cli

import (
	"context"

	"github.com/codecortex/codecortex/config"
)

// configJSON is what cortex config --json prints.
type configJSON struct {
	Root        string              `json:"root"`
	File        string              `json:"file"`
	Config      config.Config       `json:"config"`
	Trust       config.Trust        `json:"trust"`
	APIKeySet   bool                `json:"api_key_set"`
	Diagnostics []config.Diagnostic `json:"diagnostics"`
}

func runConfig(ctx context.Context, c *cmd, args []string) int {
	c.argsUsage = ""
	if _, code, ok := c.parse(args, 0, 0); !ok {
		return code
	}
	p, err := c.openProject(true)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	keyEnv := p.Config.DependencyDocs.APIKeyEnv
	out := configJSON{p.Root, config.File, p.Config, p.Trust, c.Getenv(keyEnv) != "", p.Diagnostics}
	if out.Diagnostics == nil {
		out.Diagnostics = []config.Diagnostic{}
	}
	if c.json != jsonOff {
		if err := c.writeJSON(out); err != nil {
			return c.fail(err)
		}
		return exitForDiagnostics(p.Diagnostics)
	}
	c.printf("# effective configuration of %s (from %s, defaults where absent)\n", safe(out.Root), config.File)
	if err := c.writeJSON(out.Config); err != nil {
		return c.fail(err)
	}
	state := "not set"
	if out.APIKeySet {
		state = "set (value redacted)"
	}
	c.printf("# %s: %s\n", keyEnv, state)
	c.printf("# trust: %s\n", safe(p.Trust.Reason))
	for _, w := range p.Trust.Withheld {
		c.printf("#   withheld: %s\n", safe(w))
	}
	for _, d := range p.Diagnostics {
		c.printf("# %s\n", safe(d.String()))
	}
	return exitForDiagnostics(p.Diagnostics)
}

// exitForDiagnostics fails when a section (or the file) fell back to defaults.
func exitForDiagnostics(diags []config.Diagnostic) int {
	for _, d := range diags {
		if d.Severity == config.SeverityError {
			return ExitFail
		}
	}
	return ExitOK
}

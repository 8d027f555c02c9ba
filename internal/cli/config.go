package cli

import (
	"context"
	"fmt"

	"github.com/codecortex/codecortex/internal/config"
)

func runConfig(ctx context.Context, e *Env, args []string) int {
	fs, asJSON := flags(e, "config", "")
	if code, ok := parseN(fs, args, 0, 0); !ok {
		return code
	}
	p, err := openProject(e)
	if err != nil {
		return fail(e, nil, err)
	}
	defer p.Close()
	keySet := e.Getenv(p.cfg.DependencyDocs.APIKeyEnv) != ""
	out := struct {
		Root        string              `json:"root"`
		File        string              `json:"file"`
		Config      config.Config       `json:"config"`
		APIKeySet   bool                `json:"api_key_set"`
		Diagnostics []config.Diagnostic `json:"diagnostics"`
	}{p.root.Dir(), config.File, p.cfg, keySet, p.diags}
	if out.Diagnostics == nil {
		out.Diagnostics = []config.Diagnostic{}
	}
	if *asJSON {
		if err := writeJSON(e.Stdout, p.red, out); err != nil {
			return fail(e, p.red, err)
		}
	} else {
		fmt.Fprintf(e.Stdout, "# effective configuration of %s (from %s, defaults where absent)\n", out.Root, config.File)
		if err := writeJSON(e.Stdout, p.red, out.Config); err != nil {
			return fail(e, p.red, err)
		}
		state := "not set"
		if keySet {
			state = "set (value redacted)"
		}
		fmt.Fprintf(e.Stdout, "# %s: %s\n", p.cfg.DependencyDocs.APIKeyEnv, state)
		for _, d := range p.diags {
			fmt.Fprintln(e.Stdout, "# "+p.red.String(d.String()))
		}
	}
	return exitForDiagnostics(p.diags)
}

// exitForDiagnostics fails when a section (or the file) fell back to defaults.
func exitForDiagnostics(diags []config.Diagnostic) int {
	for _, d := range diags {
		if d.Severity == config.Error {
			return ExitFail
		}
	}
	return ExitOK
}

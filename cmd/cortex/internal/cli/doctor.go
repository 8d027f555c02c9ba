package cli

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/config"
)

// A layerStatus is one line of cortex doctor: the engine's status of a
// layer.
type layerStatus = codecortex.LayerStatus

// Layer states as cortex doctor prints them.
const (
	stateAvailable          = codecortex.StateAvailable
	stateStale              = codecortex.StateStale
	stateUnavailable        = codecortex.StateUnavailable
	stateDisabled           = codecortex.StateDisabled
	stateCredentialsMissing = codecortex.StateCredentialsMissing
)

// doctorJSON is what cortex doctor --json prints.
type doctorJSON struct {
	Root        string              `json:"root"`
	Layers      []layerStatus       `json:"layers"`
	Trust       config.Trust        `json:"trust"`
	Diagnostics []config.Diagnostic `json:"config_diagnostics"`
}

// runDoctor reports every layer, as the engine sees it (the same status
// cortex_doctor gives an agent). Its exit code says whether anything can
// be fixed, so scripts can gate on it: 1 when the configuration has an
// error or a layer needs a fix (see codecortex.LayerStatus.FixNeeded), 0
// otherwise, also when an optional layer is off.
func runDoctor(ctx context.Context, c *cmd, args []string) int {
	if _, code, ok := c.parse(args, 0, 0); !ok {
		return code
	}
	p, err := c.openProject(true)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	out := doctorJSON{Root: p.Root, Trust: p.Trust, Diagnostics: p.Diagnostics}
	code := exitForDiagnostics(p.Diagnostics)
	eng, err := p.engine(codecortex.Options{NoGenerate: true})
	if err != nil {
		return c.fail(err)
	}
	for _, st := range eng.Status(ctx) {
		if st.Layer == "precision intelligence" {
			st.Guidance = doctorPrecisionGuidance(p, st)
		}
		if st.FixNeeded {
			code = ExitFail
		}
		out.Layers = append(out.Layers, st)
	}
	if out.Diagnostics == nil {
		out.Diagnostics = []config.Diagnostic{}
	}
	if c.json != jsonOff {
		if err := c.writeJSON(out); err != nil {
			return c.fail(err)
		}
		return code
	}
	c.printf("project root  %s\n\n", safe(p.Root))
	for _, l := range out.Layers {
		line := fmt.Sprintf("%-24s %s", l.Layer, l.State)
		if l.Reason != "" {
			line += " — " + l.Reason
		}
		c.printf("%s\n", safe(line))
		for _, k := range sortedKeys(l.Details) {
			c.printf("%24s %s: %s\n", "", k, safe(l.Details[k]))
		}
		if l.Guidance != "" {
			c.printf("%24s → %s\n", "", safe(l.Guidance))
		}
	}
	c.printf("\n")
	switch {
	case len(p.Diagnostics) == 0:
		c.printf("configuration  %s: ok (defaults where absent)\n", config.File)
	default:
		c.printf("configuration  %s:\n", config.File)
		for _, d := range p.Diagnostics {
			c.printf("  %s\n", safe(d.String()))
		}
	}
	c.printf("trust          %s\n", safe(p.Trust.Reason))
	for _, w := range p.Trust.Withheld {
		c.printf("  withheld: %s\n", safe(w))
	}
	c.printf("git config     %s\n", safe(p.Trust.Git.Reason))
	var fix []string
	for _, l := range out.Layers {
		if l.FixNeeded {
			fix = append(fix, l.Layer)
		}
	}
	if exitForDiagnostics(p.Diagnostics) != ExitOK {
		fix = append(fix, "the configuration")
	}
	if len(fix) > 0 {
		c.printf("\nto fix         %s (see → above)\n", strings.Join(fix, ", "))
	} else {
		c.printf("\nnothing to fix\n")
	}
	return code
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// doctorPrecisionGuidance points a precision layer that needs an index to
// the command that makes one here, cortex index --precision, unless the
// configuration names its own generator.
func doctorPrecisionGuidance(p *project, ls layerStatus) string {
	switch {
	case len(p.Config.PrecisionIndex.GeneratorCommand) > 0:
		return ls.Guidance
	case strings.HasPrefix(ls.Details["origin"], "foreign"):
		return "if you made this index yourself, vouch for it: cortex precision-status --accept; otherwise rebuild it: cortex index --precision"
	case ls.State == stateStale || ls.State == stateUnavailable:
		return "run: cortex index --precision"
	}
	return ls.Guidance
}

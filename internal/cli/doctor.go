package cli

import (
	"context"
	"fmt"
	"sort"

	"github.com/codecortex/codecortex/internal/config"
)

// A layerStatus is one line of cortex doctor: a layer's state and why.
type layerStatus struct {
	Layer    string `json:"layer"`
	State    string `json:"state"`
	Reason   string `json:"reason,omitempty"`
	Guidance string `json:"guidance,omitempty"`
	// Details are facts about the layer, such as the index path.
	Details map[string]string `json:"details,omitempty"`
}

// Layer states as cortex doctor prints them.
const (
	stateAvailable          = "available"
	stateStale              = "stale"
	stateUnavailable        = "unavailable"
	stateDisabled           = "disabled"
	stateCredentialsMissing = "credentials missing"
)

// layerChecks lists each optional layer's check, one file each. A check
// never touches repository code.
var layerChecks = []struct {
	name  string
	check func(ctx context.Context, e *Env, p *project) layerStatus
}{
	{"precision intelligence", checkPrecision},
	{"dependency docs", checkDependencyDocs},
	{"structural engine", checkStructural},
}

func runDoctor(ctx context.Context, e *Env, args []string) int {
	fs, asJSON := flags(e, "doctor", "")
	if code, ok := parseN(fs, args, 0, 0); !ok {
		return code
	}
	p, err := openProject(e)
	if err != nil {
		return fail(e, nil, err)
	}
	defer p.Close()
	var layers []layerStatus
	for _, lc := range layerChecks {
		st := lc.check(ctx, e, p)
		st.Layer = lc.name
		layers = append(layers, st)
	}
	diags := p.diags
	if diags == nil {
		diags = []config.Diagnostic{}
	}
	if *asJSON {
		out := struct {
			Root        string              `json:"root"`
			Layers      []layerStatus       `json:"layers"`
			Diagnostics []config.Diagnostic `json:"config_diagnostics"`
		}{p.root.Dir(), layers, diags}
		if err := writeJSON(e.Stdout, p.red, out); err != nil {
			return fail(e, p.red, err)
		}
		return exitForDiagnostics(diags)
	}
	w := e.Stdout
	fmt.Fprintf(w, "project root  %s\n\n", p.root.Dir())
	for _, l := range layers {
		line := fmt.Sprintf("%-24s %s", l.Layer, l.State)
		if l.Reason != "" {
			line += " — " + l.Reason
		}
		fmt.Fprintln(w, p.red.String(line))
		for _, k := range sortedKeys(l.Details) {
			fmt.Fprintln(w, p.red.String(fmt.Sprintf("%24s %s: %s", "", k, l.Details[k])))
		}
		if l.Guidance != "" {
			fmt.Fprintln(w, p.red.String(fmt.Sprintf("%24s → %s", "", l.Guidance)))
		}
	}
	fmt.Fprintln(w)
	if len(diags) == 0 {
		fmt.Fprintf(w, "configuration  %s: ok (defaults where absent)\n", config.File)
	} else {
		fmt.Fprintf(w, "configuration  %s:\n", config.File)
		for _, d := range diags {
			fmt.Fprintln(w, "  "+p.red.String(d.String()))
		}
	}
	return exitForDiagnostics(diags)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

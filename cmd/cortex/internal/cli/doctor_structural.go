package cli

import (
	"context"
	"strings"

	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/structural"
)

// checkStructural reports the structural engine: the configured external
// ast-grep or the built-in one. A configured binary is located on the
// PATH but never run: doctor runs no program a configuration names, so its
// version is checked by the first search that uses it, not here.
func checkStructural(ctx context.Context, c *cmd, p *project) layerStatus {
	opts := p.StructuralOptions()
	if opts.Disabled {
		return layerStatus{State: stateDisabled, Reason: "structural.enabled is false; search falls back to lexical matches"}
	}
	if opts.Command != "" {
		st := layerStatus{Details: map[string]string{
			"engine": "ast-grep (structural.command)", "command": opts.Command,
			"verified_version": structural.AstGrepVersion,
		}}
		path, err := safeexec.LookPath(opts.Command)
		if err != nil {
			st.State = stateUnavailable
			st.Reason = err.Error()
			st.Guidance = "install ast-grep " + structural.AstGrepVersion + " or set structural.command to null for the built-in engine"
			return st
		}
		st.Details["path"] = path
		st.State = stateAvailable
		st.Reason = "found, version not checked here: doctor runs no program a configuration names; each search checks it is ast-grep " + structural.AstGrepVersion + " before trusting its output"
		return st
	}
	b := structural.NewBuiltin(structural.BuiltinOptions{})
	if err := b.Available(); err != nil {
		return layerStatus{State: stateUnavailable, Reason: err.Error() + "; search falls back to lexical matches",
			Guidance: "build cortex with CGO_ENABLED=1, or set structural.command to an ast-grep " + structural.AstGrepVersion + " binary"}
	}
	st := layerStatus{State: stateAvailable, Details: map[string]string{
		"engine": "tree-sitter (built in)", "languages": languageList(),
	}}
	if cmd := p.Requested.Structural.Command; cmd != nil && p.Config.Structural.Command == nil {
		st.Details["structural.command"] = *cmd + " (withheld: the configuration is not trusted)"
	}
	return st
}

// languageList names the languages the built-in engine of this build has.
func languageList() string {
	var langs []string
	for _, l := range structural.Languages() {
		langs = append(langs, string(l))
	}
	return strings.Join(langs, ", ")
}

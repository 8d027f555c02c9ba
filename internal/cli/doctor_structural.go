package cli

import (
	"context"
	"errors"
	"strings"

	"github.com/codecortex/codecortex/structural"
)

// checkStructural reports the structural engine: the configured external
// ast-grep (which must be the verified version) or the built-in one.
func checkStructural(ctx context.Context, e *Env, p *project) layerStatus {
	if !p.cfg.Structural.Enabled {
		return layerStatus{State: stateDisabled, Reason: "structural.enabled is false; search falls back to lexical matches"}
	}
	if cmd := p.cfg.Structural.Command; cmd != nil {
		a := structural.NewAstGrep(structural.AstGrepOptions{Command: *cmd})
		path, version, err := a.Check(ctx)
		st := layerStatus{Details: map[string]string{
			"engine": "ast-grep (structural.command)", "command": *cmd,
			"verified_version": structural.AstGrepVersion,
		}}
		if path != "" {
			st.Details["path"] = path
		}
		if version != "" {
			st.Details["installed_version"] = version
		}
		switch {
		case err == nil:
			st.State = stateAvailable
		case errors.Is(err, structural.ErrVersionMismatch):
			st.State = stateUnavailable
			st.Reason = "ast-grep " + version + " is installed, but only " + structural.AstGrepVersion + " is verified; its output is not trusted"
			st.Guidance = "install the verified build: npm install @ast-grep/cli@" + structural.AstGrepVersion + ", or set structural.command to null for the built-in engine"
		default:
			st.State = stateUnavailable
			st.Reason = err.Error()
			st.Guidance = "install ast-grep " + structural.AstGrepVersion + " or set structural.command to null for the built-in engine"
		}
		return st
	}
	b := structural.NewBuiltin(structural.BuiltinOptions{})
	if err := b.Available(); err != nil {
		return layerStatus{State: stateUnavailable, Reason: err.Error() + "; search falls back to lexical matches",
			Guidance: "build cortex with CGO_ENABLED=1, or set structural.command to an ast-grep " + structural.AstGrepVersion + " binary"}
	}
	var langs []string
	for _, l := range structural.Languages() {
		langs = append(langs, string(l))
	}
	return layerStatus{State: stateAvailable, Details: map[string]string{
		"engine": "tree-sitter (built in)", "languages": strings.Join(langs, ", "),
	}}
}

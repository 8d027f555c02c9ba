package cli

import (
	"context"
)

// checkStructural reports the structural engine.
func checkStructural(ctx context.Context, e *Env, p *project) layerStatus {
	if !p.cfg.Structural.Enabled {
		return layerStatus{State: stateDisabled, Reason: "structural.enabled is false; search falls back to lexical matches"}
	}
	return layerStatus{State: stateUnavailable, Reason: "this build of cortex has no structural engine yet; search falls back to lexical matches"}
}

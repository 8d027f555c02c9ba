package cli

import (
	"context"
)

// checkPrecision reports the precision layer. Until the SCIP reader lands it
// can only say whether an index is there.
func checkPrecision(ctx context.Context, e *Env, p *project) layerStatus {
	if !p.cfg.PrecisionIndex.Enabled {
		return layerStatus{State: stateDisabled, Reason: "precision_index.enabled is false"}
	}
	path, found := p.cfg.IndexPath(p.root.FS())
	st := layerStatus{State: stateUnavailable, Details: map[string]string{"index": path}}
	if !found {
		st.Reason = "no precision index found"
		st.Guidance = "generate a SCIP index (for Go: scip-go) at " + path
		return st
	}
	st.Reason = "an index exists, but this build of cortex has no SCIP reader yet"
	return st
}

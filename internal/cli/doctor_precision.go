package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/codecortex/codecortex/evidence"
)

// checkPrecision reports the precision layer as available, stale,
// unavailable or disabled, with the reason. It loads the index and stats
// the indexed documents; it never reads or runs repository code (a
// configured generator is not run by doctor).
func checkPrecision(ctx context.Context, e *Env, p *project) layerStatus {
	if !p.cfg.PrecisionIndex.Enabled {
		return layerStatus{State: stateDisabled, Reason: "precision_index.enabled is false"}
	}
	prov := precisionProvider(e, p)
	prov.DisableGeneration()
	defer prov.Close()
	st := prov.Status(ctx)
	ls := layerStatus{Reason: st.Reason, Guidance: st.Guidance, Details: map[string]string{"index": st.IndexPath}}
	switch st.State {
	case evidence.Available:
		ls.State = stateAvailable
	case evidence.StaleState:
		ls.State = stateStale
	case evidence.Disabled:
		ls.State = stateDisabled
	default:
		ls.State = stateUnavailable
	}
	if st.Loaded {
		ls.Details["indexer"] = strings.TrimSpace(st.Metadata.Tool + " " + st.Metadata.ToolVersion)
		ls.Details["documents"] = fmt.Sprintf("%d (%d dropped outside the root)", st.Stats.Documents, len(st.Dropped))
		ls.Details["symbols"] = strconv.Itoa(st.Stats.Symbols)
	}
	return ls
}

package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/evidence"
)

// checkPrecision reports the precision layer as available, stale,
// unavailable or disabled, with the reason. It loads the index and stats
// the indexed documents; it never runs the configured generator or
// language server.
func checkPrecision(ctx context.Context, c *cmd, p *project) layerStatus {
	if p.PrecisionOptions().Disabled {
		return layerStatus{State: stateDisabled, Reason: "precision_index.enabled is false"}
	}
	eng, err := p.engine(codecortex.Options{NoGenerate: true})
	if err != nil {
		return layerStatus{State: stateUnavailable, Reason: err.Error()}
	}
	st := eng.Precision().Status(ctx)
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
	if cmd := p.Config.PrecisionIndex.LanguageServer; len(cmd) > 0 {
		ls.Details["language server"] = strings.Join(cmd, " ") + " (not started by doctor)"
	}
	if p.Config.PrecisionIndex.AutoGenerate {
		ls.Details["generator"] = strings.Join(p.Config.PrecisionIndex.GeneratorCommand, " ") + " (auto_generate; not run by doctor)"
	}
	return ls
}

package cli

import (
	"context"

	"github.com/codecortex/codecortex/depdocs"
)

// checkDependencyDocs reports the documentation provider: disabled by
// default, credentials missing when enabled without a key, available
// otherwise. It makes no network request.
func checkDependencyDocs(ctx context.Context, c *cmd, p *project) layerStatus {
	opts := p.DocsOptions()
	a := depdocs.CheckDocs(opts)
	switch a.State {
	case depdocs.DocsDisabled:
		return layerStatus{State: stateDisabled, Reason: a.Reason}
	case depdocs.DocsNoCredentials:
		return layerStatus{State: stateCredentialsMissing, Reason: a.Reason, Guidance: "export " + opts.KeyEnv + "=<your key>"}
	case depdocs.DocsAvailable:
	default:
		return layerStatus{State: stateUnavailable, Reason: a.Reason}
	}
	base := opts.BaseURL
	if base == "" {
		base = depdocs.DefaultContext7URL
	}
	return layerStatus{State: stateAvailable, Details: map[string]string{"provider": base, "cache": depdocs.CacheDir,
		"api key": "from " + opts.KeyEnv}}
}

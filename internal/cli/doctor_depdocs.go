package cli

import (
	"context"

	"github.com/codecortex/codecortex/depdocs"
)

// checkDependencyDocs reports the documentation provider: disabled by
// default, credentials missing when enabled without a key, available
// otherwise. It makes no network request.
func checkDependencyDocs(ctx context.Context, e *Env, p *project) layerStatus {
	d := p.cfg.DependencyDocs
	a := depdocs.CheckConfig(d, e.Getenv)
	switch a.State {
	case depdocs.DocsDisabled:
		return layerStatus{State: stateDisabled, Reason: a.Reason}
	case depdocs.DocsNoCredentials:
		return layerStatus{State: stateCredentialsMissing, Reason: a.Reason, Guidance: "export " + d.APIKeyEnv + "=<your key>"}
	}
	base := d.BaseURL
	if base == "" {
		base = depdocs.DefaultContext7URL
	}
	return layerStatus{State: stateAvailable, Details: map[string]string{"provider": base, "cache": depdocs.CacheDir,
		"api key": "from " + d.APIKeyEnv}}
}

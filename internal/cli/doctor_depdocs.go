package cli

import (
	"context"
)

// checkDependencyDocs reports the documentation provider: disabled by
// default, credentials missing when enabled without a key.
func checkDependencyDocs(ctx context.Context, e *Env, p *project) layerStatus {
	d := p.cfg.DependencyDocs
	if !d.Enabled {
		return layerStatus{State: stateDisabled, Reason: "dependency_docs.enabled is false (the default: it is the only network access)"}
	}
	if e.Getenv(d.APIKeyEnv) == "" {
		return layerStatus{State: stateCredentialsMissing, Reason: "environment variable " + d.APIKeyEnv + " is not set",
			Guidance: "export " + d.APIKeyEnv + "=<your key>"}
	}
	return layerStatus{State: stateUnavailable, Reason: "this build of cortex has no documentation provider yet"}
}

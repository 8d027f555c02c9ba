package depdocs

import (
	"context"
	"time"

	"github.com/codecortex/codecortex/internal/config"
	"github.com/codecortex/codecortex/internal/contain"
)

// DocsAvailable is the provider's configuration state when it can be
// asked; it is never the state of a Resolution.
const DocsAvailable DocsState = "available"

// Availability is the documentation provider's state as cortex doctor
// reports it: available, credentials missing, or disabled.
type Availability struct {
	State  DocsState // DocsAvailable, DocsNoCredentials or DocsDisabled
	Reason string
}

// Available reports whether the provider can be asked.
func (a Availability) Available() bool { return a.State == DocsAvailable }

// CheckConfig says whether documentation can be fetched under cfg, reading
// the key only from the configured environment variable (through getenv).
func CheckConfig(cfg config.DependencyDocs, getenv func(string) string) Availability {
	switch {
	case !cfg.Enabled:
		return Availability{DocsDisabled, "dependency_docs.enabled is false (the default: it is the only network access)"}
	case getenv(cfg.APIKeyEnv) == "":
		return Availability{DocsNoCredentials, "environment variable " + cfg.APIKeyEnv + " is not set"}
	}
	return Availability{DocsAvailable, ""}
}

// NewProvider returns the documentation provider configured for the
// project in root: disabled, a provider that answers "credentials missing",
// or the Context7 client behind the on-disk cache.
func NewProvider(root *contain.Root, cfg config.DependencyDocs, getenv func(string) string) DocsProvider {
	a := CheckConfig(cfg, getenv)
	switch a.State {
	case DocsDisabled:
		return Disabled{Reason: a.Reason}
	case DocsNoCredentials:
		return DocsProviderFunc(func(_ context.Context, req DocsRequest) (Resolution, error) {
			return unavailable(req, DocsNoCredentials, a.Reason), nil
		})
	}
	client := NewContext7(Context7Options{BaseURL: cfg.BaseURL, APIKey: getenv(cfg.APIKeyEnv)})
	ttl := time.Duration(cfg.CacheTTLSeconds) * time.Second
	if cfg.CacheTTLSeconds == 0 {
		ttl = time.Nanosecond // a zero TTL means never fresh
	}
	return NewCache(root, client, CacheOptions{TTL: ttl, ServeStale: cfg.ServeStaleWhenOffline})
}

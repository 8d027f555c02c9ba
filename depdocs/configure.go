package depdocs

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/codecortex/codecortex/internal/redact"

	"github.com/codecortex/codecortex/seal"
)

// DocsOptions configures the documentation provider of a project, as the
// dependency_docs section of .codecortex/config.json describes it; a host
// maps its own settings onto it. The zero value is disabled: documentation
// is the only network access, so it is off unless asked for. Callees never
// modify it.
type DocsOptions struct {
	// Enabled switches documentation on.
	Enabled bool
	// Dir is the project root, under whose .codecortex/cache the answers
	// are kept; "" means the working directory.
	Dir string
	// BaseURL is the provider's API address; "" means DefaultContext7URL.
	// It must be https://, or http:// to a loopback address (a test
	// server): the key never crosses a network in clear text.
	BaseURL string
	// APIKey is the key itself, which the host reads from the environment
	// variable it was configured with; "" means the credentials are
	// missing. It is sent only to BaseURL, never stored in any form, and
	// masked in every answer, reason and error.
	APIKey string
	// KeyEnv names the environment variable the key was read from; it is
	// used in messages only.
	KeyEnv string
	// CacheTTL is how long a cached answer is fresh; 0 means 24 hours. A
	// negative value means never fresh: every call asks the provider, and
	// the cache answers only when ServeStale is set and the provider cannot.
	CacheTTL time.Duration
	// ServeStale lets an expired cached answer respond, marked stale, when
	// the provider cannot be reached.
	ServeStale bool
	// Timeout bounds one whole documentation call, retries and waits
	// included; 0 means DefaultDocsTimeout.
	Timeout time.Duration
	// Seal proves which cached answers this user's cortex stored (see
	// [CacheOptions]); nil means seal.User.
	Seal seal.Sealer
}

// DefaultDocsTimeout bounds one documentation call when no timeout is
// configured.
const DefaultDocsTimeout = 10 * time.Second

// DocsAvailable is the provider's configuration state when it can be
// asked; it is never the state of a Resolution.
const DocsAvailable DocsState = "available"

// Availability is the documentation provider's state as cortex doctor
// reports it: available, disabled, credentials missing, or unavailable
// (a configuration that is refused, with the reason).
type Availability struct {
	State  DocsState // DocsAvailable, DocsDisabled, DocsNoCredentials or DocsUnavailable
	Reason string
}

// Available reports whether the provider can be asked.
func (a Availability) Available() bool { return a.State == DocsAvailable }

// ErrInsecureEndpoint is matched by the refusal of a provider address
// that is neither https:// nor http:// to a loopback address (or is not an
// absolute URL); no request is sent to it.
var ErrInsecureEndpoint = errors.New("the documentation provider's address must be https:// (or http:// to a loopback address)")

// checkEndpoint refuses an address the key may not be sent to. The error
// names the address by scheme and host only.
func checkEndpoint(base string) error {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return fmt.Errorf("%w: %q is not an absolute http(s) URL", ErrInsecureEndpoint, redact.New().String(base))
	}
	where := u.Scheme + "://" + u.Host
	switch {
	case u.User != nil:
		return fmt.Errorf("%w: %s carries credentials in the URL", ErrInsecureEndpoint, where)
	case u.RawQuery != "" || u.Fragment != "":
		return fmt.Errorf("%w: %s has a query or fragment", ErrInsecureEndpoint, where)
	case strings.EqualFold(u.Scheme, "https"):
		return nil
	case strings.EqualFold(u.Scheme, "http") && isLoopback(u.Hostname()):
		return nil
	case strings.EqualFold(u.Scheme, "http"):
		return fmt.Errorf("%w: refusing to send the API key in clear text to %s", ErrInsecureEndpoint, where)
	}
	return fmt.Errorf("%w: scheme %q", ErrInsecureEndpoint, u.Scheme)
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// CheckDocs says whether documentation can be fetched with opts, without
// sending anything: disabled, an address that is refused (unavailable,
// with the reason), credentials missing, or available.
func CheckDocs(opts DocsOptions) Availability {
	if !opts.Enabled {
		return Availability{DocsDisabled, "dependency_docs.enabled is false (the default: it is the only network access)"}
	}
	if err := checkEndpoint(firstNonEmpty(opts.BaseURL, DefaultContext7URL)); err != nil {
		return Availability{DocsUnavailable, redact.New(opts.APIKey).String(err.Error())}
	}
	if opts.APIKey == "" {
		if opts.KeyEnv != "" {
			return Availability{DocsNoCredentials, "environment variable " + opts.KeyEnv + " is not set"}
		}
		return Availability{DocsNoCredentials, "no API key was given"}
	}
	return Availability{DocsAvailable, ""}
}

// NewDocs returns the documentation provider opts describe: one that
// answers disabled, credentials missing or unavailable (with the reason
// [CheckDocs] gives, sending nothing), or the Context7 client behind the
// project's on-disk [Cache].
func NewDocs(opts DocsOptions) DocsProvider {
	a := CheckDocs(opts)
	switch a.State {
	case DocsDisabled:
		return Disabled{Reason: a.Reason}
	case DocsUnavailable:
		return DocsProviderFunc(func(_ context.Context, req DocsRequest) (Resolution, error) {
			return unavailable(req, a.State, a.Reason), ErrInsecureEndpoint
		})
	case DocsNoCredentials:
		return DocsProviderFunc(func(_ context.Context, req DocsRequest) (Resolution, error) {
			return unavailable(req, a.State, a.Reason), nil
		})
	}
	client := NewContext7(Context7Options{BaseURL: opts.BaseURL, APIKey: opts.APIKey, Timeout: opts.Timeout})
	return NewCache(opts.Dir, client, CacheOptions{TTL: opts.CacheTTL, ServeStale: opts.ServeStale, Secrets: []string{opts.APIKey}, Seal: opts.Seal})
}

package depdocs

import (
	"context"
	"errors"
	"time"
)

// DocsState is the outcome of a documentation request.
type DocsState string

// The states. Only Exact and Fallback carry documentation; the others say
// why there is none, and nothing is ever made up in their place.
const (
	// DocsExact is documentation for the resolved version, pinned to a
	// label the provider publishes.
	DocsExact DocsState = "exact"
	// DocsFallback is documentation that is not version-exact (the
	// provider publishes no label for the resolved version, so its default
	// branch answered).
	DocsFallback DocsState = "fallback"
	// DocsPending means the provider accepted the library but has not
	// finished preparing it.
	DocsPending DocsState = "pending"
	// DocsUnavailable means no documentation, with the reason.
	DocsUnavailable DocsState = "unavailable"
	// DocsDisabled means the provider is switched off by configuration.
	DocsDisabled DocsState = "disabled"
	// DocsNoCredentials means the provider is enabled without its key.
	DocsNoCredentials DocsState = "credentials missing"
)

// A DocsRequest asks for documentation of one dependency. Only Name,
// Version and Question leave the machine.
type DocsRequest struct {
	Ecosystem Ecosystem
	Name      string
	// Version is the resolved version (not the declared constraint).
	Version string
	// Question is the user's question; empty asks for an overview.
	Question string
	// Source is where the dependency comes from; local, git, path and
	// replaced dependencies are never sent.
	Source Source
}

// A Resolution is the answer to a DocsRequest, always with a state.
//
// Invariants: Content is empty unless State is exact or fallback; Exact is
// true exactly when State is exact; Label is set when Exact.
type Resolution struct {
	Library string    `json:"library"`
	Version string    `json:"version,omitempty"`
	State   DocsState `json:"state"`
	// Reason says why the answer is not exact documentation.
	Reason string `json:"reason,omitempty"`
	// LibraryID is the provider's id for the library, as requested
	// (pinned, such as "/vercel/next.js/v15.1.8", when exact).
	LibraryID string `json:"library_id,omitempty"`
	// Label is the provider's published label matched to Version.
	Label string `json:"label,omitempty"`
	Exact bool   `json:"exact"`
	// Content is the documentation text.
	Content   string    `json:"content,omitempty"`
	FetchedAt time.Time `json:"fetched_at,omitzero"`
	// Cached is set when the answer came from the local cache; Stale when
	// that entry was past its time to live (served because the provider
	// could not be reached).
	Cached bool `json:"cached,omitempty"`
	Stale  bool `json:"stale,omitempty"`
}

// ErrInvalidResolution is matched by every Resolution.Validate failure.
var ErrInvalidResolution = errors.New("invalid documentation resolution")

// Validate checks the invariants written on [Resolution].
func (r *Resolution) Validate() error {
	switch r.State {
	case DocsExact, DocsFallback, DocsPending, DocsUnavailable, DocsDisabled, DocsNoCredentials:
	default:
		return errors.Join(ErrInvalidResolution, errors.New("unknown state "+string(r.State)))
	}
	hasDocs := r.State == DocsExact || r.State == DocsFallback
	if r.Content != "" && !hasDocs {
		return errors.Join(ErrInvalidResolution, errors.New("content on a "+string(r.State)+" resolution"))
	}
	if r.Exact != (r.State == DocsExact) {
		return errors.Join(ErrInvalidResolution, errors.New("exact flag disagrees with state "+string(r.State)))
	}
	if r.Exact && r.Label == "" {
		return errors.Join(ErrInvalidResolution, errors.New("exact without a matched label"))
	}
	return nil
}

// A DocsProvider returns documentation for a dependency. It always
// returns a Resolution with a state; the error is only for a caller that
// wants the cause (it is already summarized, redacted, in Reason).
type DocsProvider interface {
	Docs(ctx context.Context, req DocsRequest) (Resolution, error)
}

// unavailable builds an unavailable resolution.
func unavailable(req DocsRequest, state DocsState, reason string) Resolution {
	return Resolution{Library: req.Name, Version: req.Version, State: state, Reason: reason}
}

// Disabled is the provider of a project whose dependency docs are off: it
// answers every request disabled.
type Disabled struct{ Reason string }

// Docs implements [DocsProvider].
func (d Disabled) Docs(_ context.Context, req DocsRequest) (Resolution, error) {
	reason := d.Reason
	if reason == "" {
		reason = "dependency_docs.enabled is false"
	}
	return unavailable(req, DocsDisabled, reason), nil
}

// DocsProviderFunc adapts a function to [DocsProvider].
type DocsProviderFunc func(context.Context, DocsRequest) (Resolution, error)

// Docs implements [DocsProvider].
func (f DocsProviderFunc) Docs(ctx context.Context, req DocsRequest) (Resolution, error) {
	return f(ctx, req)
}

// Package depdocstest checks that a documentation provider keeps the
// contract of depdocs.DocsProvider; hosts call it from their own tests.
package depdocstest

import (
	"context"
	"testing"
	"time"

	"github.com/codecortex/codecortex/depdocs"
)

// TestProvider asks p for documentation in the situations every provider
// must handle and checks each answer:
//   - every Resolution validates (a state; content only for exact and
//     fallback; exact exactly with a matched label);
//   - a local, git, path or replaced dependency gets no documentation;
//   - a cancelled request returns within a few seconds and without
//     documentation it did not already hold.
func TestProvider(t *testing.T, p depdocs.DocsProvider) {
	t.Helper()
	requests := []depdocs.DocsRequest{
		{Ecosystem: depdocs.NPM, Name: "next", Version: "15.1.8", Question: "app router", Source: depdocs.Registry},
		{Ecosystem: depdocs.PyPI, Name: "requests", Question: "sessions", Source: depdocs.Registry},
		{Ecosystem: depdocs.Go, Name: "golang.org/x/tools", Version: "v0.48.0", Source: depdocs.Replaced},
		{Ecosystem: depdocs.NPM, Name: "mylib", Version: "1.0.0", Source: depdocs.Path},
		{Ecosystem: depdocs.Cargo, Name: "serde", Version: "1.0.228", Source: depdocs.Git},
	}
	for _, req := range requests {
		r, _ := p.Docs(context.Background(), req)
		if err := r.Validate(); err != nil {
			t.Errorf("%s %s: %v", req.Name, req.Version, err)
		}
		if req.Source.Local() && r.Content != "" {
			t.Errorf("%s (%s): documentation for a local dependency", req.Name, req.Source)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done := make(chan depdocs.Resolution, 1)
	go func() {
		r, _ := p.Docs(ctx, depdocs.DocsRequest{Ecosystem: depdocs.NPM, Name: "cancelled-lib", Version: "9.9.9", Source: depdocs.Registry})
		done <- r
	}()
	select {
	case r := <-done:
		if err := r.Validate(); err != nil {
			t.Errorf("cancelled: %v", err)
		}
		if r.Content != "" && !r.Cached {
			t.Errorf("cancelled request returned fresh documentation")
		}
	case <-time.After(5 * time.Second):
		t.Error("a cancelled request did not return within 5 seconds")
	}
}

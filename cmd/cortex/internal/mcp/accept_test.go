package mcp

import (
	"context"
	"testing"

	"github.com/codecortex/codecortex/precision"
)

// acceptIndex vouches for the project's precision index, as the user who
// generated it does (cortex precision-status --accept).
func acceptIndex(t testing.TB, dir string) {
	t.Helper()
	p := precision.New(precision.Options{Dir: dir, NoSnapshot: true})
	defer p.Close()
	if _, err := p.Accept(context.Background()); err != nil {
		t.Fatalf("accepting the index: %v", err)
	}
}

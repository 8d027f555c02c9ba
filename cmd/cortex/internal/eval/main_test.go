package eval

import (
	"context"
	"os"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/precision"
)

// TestMain keeps the tests away from the user's seal key and trust store.
func TestMain(m *testing.M) {
	cleanup := testtool.IsolateUserConfig()
	code := m.Run()
	cleanup()
	os.Exit(code)
}

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

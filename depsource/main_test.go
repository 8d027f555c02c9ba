package depsource

import (
	"os"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
)

// TestMain keeps the tests away from the user's configuration.
func TestMain(m *testing.M) {
	cleanup := testtool.IsolateUserConfig()
	code := m.Run()
	cleanup()
	os.Exit(code)
}

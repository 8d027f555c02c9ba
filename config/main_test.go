package config

import (
	"os"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
)

// TestMain keeps the tests away from the user's seal key and trust store.
func TestMain(m *testing.M) {
	cleanup := testtool.IsolateUserConfig()
	code := m.Run()
	cleanup()
	os.Exit(code)
}

package gen

import (
	"os"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
)

// TestMain keeps the tests away from the user's seal key and trust store.
func TestMain(m *testing.M) {
	cleanup := testtool.IsolateUserConfig()
	code := m.Run()
	if tinyOnce.dir != "" {
		os.RemoveAll(tinyOnce.dir)
	}
	cleanup()
	os.Exit(code)
}

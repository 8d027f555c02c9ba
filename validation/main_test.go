package validation

import (
	"os"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
)

// TestMain keeps the tests away from the user's seal key. The helper
// program the tests run (TestHelperProgram, which exits from within its
// test) reads no configuration and makes no directory to leave behind.
func TestMain(m *testing.M) {
	if os.Getenv("VALIDATION_HELPER") == "1" {
		os.Exit(m.Run())
	}
	cleanup := testtool.IsolateUserConfig()
	code := m.Run()
	cleanup()
	os.Exit(code)
}

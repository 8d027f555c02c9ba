package testtool

import (
	"fmt"
	"os"
	"path/filepath"
)

// IsolateUserConfig points XDG_CONFIG_HOME at a new temporary directory
// for the rest of the test binary, so that the user's seal key and trust
// store are never read or written by tests; call it from TestMain and run
// the returned function when the tests end. A process the tests start
// inherits the same directory, and so the same seal key. When the variable
// already names a directory made by an enclosing test binary, it is kept.
// The cleanup also removes the fixtures [Fixture] built.
func IsolateUserConfig() (cleanup func()) {
	if os.Getenv(isolatedEnv) != "" {
		return removeFixtures
	}
	dir, err := os.MkdirTemp("", "cortex-test-config-")
	if err != nil {
		panic(fmt.Sprintf("testtool: %v", err))
	}
	// The go command finds its environment file under the same
	// directory: it keeps reading the developer's (caches, GOFLAGS).
	if os.Getenv("GOENV") == "" {
		if cfg, err := os.UserConfigDir(); err == nil {
			os.Setenv("GOENV", filepath.Join(cfg, "go", "env"))
		}
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	os.Setenv(isolatedEnv, dir)
	return func() {
		removeFixtures()
		os.RemoveAll(dir)
		os.Unsetenv(isolatedEnv)
	}
}

// isolatedEnv marks a process whose XDG_CONFIG_HOME is already isolated.
const isolatedEnv = "CODECORTEX_TEST_CONFIG_ISOLATED"

package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMain points the user's configuration directory at a temporary one,
// so that what the commands seal (memory's audit lines) is sealed under a
// key made there, never in the real home.
func TestMain(m *testing.M) {
	home, err := os.MkdirTemp("", "cli-home-")
	if err != nil {
		panic(err)
	}
	// HOME stays, and the go command the validation tests run keeps
	// reading its own environment file: its caches and settings are the
	// developer's.
	if os.Getenv("GOENV") == "" {
		if dir, err := os.UserConfigDir(); err == nil {
			os.Setenv("GOENV", filepath.Join(dir, "go", "env"))
		}
	}
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}

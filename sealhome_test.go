package codecortex

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMain points the user's configuration directory at a temporary one,
// so that what the layers seal (memory's audit lines) is sealed under a
// key made there, never in the real home. HOME stays, and the go command
// keeps reading its own environment file.
func TestMain(m *testing.M) {
	home, err := os.MkdirTemp("", "codecortex-home-")
	if err != nil {
		panic(err)
	}
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

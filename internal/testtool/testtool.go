// Package testtool finds the outside tools that tests compare against
// (scip-go, gopls, ast-grep, npm, git...). Outside CI a missing tool skips the
// test with a message that says how to install it; in CI (CI=true) it fails
// the test, because .ci/run installs every tool the tests need.
package testtool

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/codecortex/codecortex/internal/safeexec"
)

// InCI reports whether the tests run in CI.
func InCI() bool { return os.Getenv("CI") == "true" }

// Require returns the absolute path of the named tool. When the tool is
// missing it skips the test outside CI and fails it in CI; install says how
// to get it.
func Require(t testing.TB, name, install string) string {
	t.Helper()
	p, err := safeexec.LookPath(name)
	if err == nil {
		return p
	}
	if InCI() {
		t.Fatalf("%s is required in CI but not installed (%v); .ci/run must install it: %s", name, err, install)
	}
	t.Skipf("%s not installed; install it to run this test: %s", name, install)
	return ""
}

// WriteTree writes files (slash-separated relative path → content) into a
// new temporary directory, creating parent directories, and returns it.
func WriteTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	WriteFiles(t, dir, files)
	return dir
}

// WriteFiles writes files (slash-separated relative path → content) under
// dir, creating parent directories.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

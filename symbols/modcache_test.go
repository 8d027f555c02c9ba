package symbols

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
)

// moduleDir returns the directory of module@version in the module cache,
// downloading it through the module proxy when it is missing. Without
// the go command or the network it skips the test outside CI and fails it
// in CI.
func moduleDir(t testing.TB, modVersion string) string {
	t.Helper()
	goCmd := testtool.Require(t, "go", "install Go from https://go.dev/dl/")
	cmd := exec.Command(goCmd, "mod", "download", "-json", modVersion)
	cmd.Dir = t.TempDir() // outside this module: nothing of its go.mod or go.sum changes
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); err != nil || jerr != nil || info.Dir == "" {
		msg := strings.TrimSpace(info.Error)
		if msg == "" && err != nil {
			msg = err.Error()
		}
		if testtool.InCI() {
			t.Fatalf("go mod download %s: %s", modVersion, msg)
		}
		t.Skipf("go mod download %s: %s", modVersion, msg)
	}
	return info.Dir
}

// sourceFiles returns the files under dir whose names end with one of
// exts, sorted, skipping testdata and vendor directories.
func sourceFiles(t testing.TB, dir string, exts ...string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != dir && (n == "testdata" || n == "vendor" || n == "node_modules" || strings.HasPrefix(n, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		for _, e := range exts {
			if strings.HasSuffix(p, e) {
				out = append(out, p)
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

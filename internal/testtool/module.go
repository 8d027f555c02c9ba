package testtool

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/codecortex/codecortex/internal/safeexec"
)

// Cobra is the real module several tests read: an interface, its
// implementations and implementations of outside interfaces, in tests and
// in the package.
const Cobra = "github.com/spf13/cobra@v1.10.2"

// ModuleDir returns the module cache directory of module@version,
// downloading it through the module proxy when it is missing. The
// directory is read-only: copy it (see [ModuleCopy]) before writing.
func ModuleDir(t testing.TB, moduleAtVersion string) string {
	t.Helper()
	gobin := Require(t, "go", "install Go")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	res, err := safeexec.Run(ctx, safeexec.Invocation{Path: gobin, Args: []string{"mod", "download", "-json", moduleAtVersion},
		Dir: t.TempDir(), Env: safeexec.Environ("HOME", "PATH", "GOPATH", "GOMODCACHE", "GOPROXY", "GOFLAGS", "GOCACHE", "GONOSUMDB", "GONOSUMCHECK", "GOSUMDB", "GOTOOLCHAIN")})
	var mod struct{ Dir, Error string }
	if jerr := json.Unmarshal(res.Stdout, &mod); err != nil || jerr != nil || mod.Dir == "" {
		t.Fatalf("go mod download %s: %v %s %s", moduleAtVersion, err, mod.Error, res.Stderr)
	}
	return mod.Dir
}

// ModuleCopy copies module@version from the module cache into a new
// temporary directory, writable, and returns it.
func ModuleCopy(t testing.TB, moduleAtVersion string) string {
	t.Helper()
	dir := t.TempDir()
	CopyTree(t, ModuleDir(t, moduleAtVersion), dir)
	return dir
}

// CopyTree copies the directories and regular files under src to dst,
// writable by the owner.
func CopyTree(t testing.TB, src, dst string) {
	t.Helper()
	if err := Copy(src, dst); err != nil {
		t.Fatal(err)
	}
}

// Copy is [CopyTree] for code that has no test to fail, such as a
// [Fixture]'s build.
func Copy(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
}

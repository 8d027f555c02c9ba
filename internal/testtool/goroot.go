package testtool

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/codecortex/codecortex/internal/safeexec"
)

// GOROOT returns the root of the Go installation that the go command on
// the PATH uses (go env GOROOT), where tests find the standard library's
// sources to parse. runtime.GOROOT, deprecated, names the root the test
// binary was built with, which need not be on this machine. Without a go
// command the test skips, or fails in CI.
func GOROOT(t testing.TB) string {
	t.Helper()
	Require(t, "go", "install Go")
	root, err := goroot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

var goroot = sync.OnceValues(func() (string, error) {
	gobin, err := safeexec.LookPath("go")
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := safeexec.Run(ctx, safeexec.Invocation{Path: gobin, Args: []string{"env", "GOROOT"}, Dir: os.TempDir(),
		Env: safeexec.Environ("HOME", "PATH", "GOROOT", "GOTOOLCHAIN", "GOENV", "GOCACHE", "GOPATH",
			"USERPROFILE", "LOCALAPPDATA", "APPDATA", "SystemRoot")})
	if err != nil {
		return "", fmt.Errorf("go env GOROOT: %w: %s", err, res.Stderr)
	}
	root := strings.TrimSpace(string(res.Stdout))
	if root == "" {
		return "", errors.New("go env GOROOT printed nothing")
	}
	return root, nil
})

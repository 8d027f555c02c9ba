package precision

import (
	"context"
	"time"

	"github.com/codecortex/codecortex/internal/safeexec"
)

// generatorEnv are the variables the index generator inherits: what Go,
// Node and Python toolchains need to find themselves and their caches.
var generatorEnv = []string{
	"PATH", "HOME", "TMPDIR", "USER", "LANG",
	"GOPATH", "GOCACHE", "GOMODCACHE", "GOFLAGS", "GOPROXY", "GOROOT", "GOTOOLCHAIN", "GONOSUMDB", "GOPRIVATE",
	"NODE_PATH", "NODE_OPTIONS", "VIRTUAL_ENV", "PYTHONPATH",
}

func lookPath(name string) (string, error) { return safeexec.LookPath(name) }

func runGenerator(ctx context.Context, exe string, args []string, dir string, timeout time.Duration) (safeexec.Result, error) {
	return safeexec.Run(ctx, safeexec.Invocation{
		Path: exe, Args: args, Dir: dir,
		Env:     safeexec.Environ(generatorEnv...),
		Timeout: timeout,
	})
}

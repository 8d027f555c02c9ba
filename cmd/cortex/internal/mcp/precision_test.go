package mcp

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
)

// TestPositionToolsExact indexes the fixture with scip-go and asks
// cortex_navigate by position and by name: the answers are exact, the
// declaration among references is marked and can be left out, and
// implementations go both ways.
func TestPositionToolsExact(t *testing.T) {
	scipGo := testtool.Require(t, "scip-go", "bash .ci/install-precision.sh")
	dir := fixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	res, err := safeexec.Run(ctx, safeexec.Invocation{Path: scipGo, Args: []string{"--output", "index.scip"}, Dir: dir,
		Env: safeexec.Environ("PATH", "HOME", "GOPATH", "GOMODCACHE", "GOCACHE", "GOFLAGS", "GOPROXY", "GOTOOLCHAIN")})
	if err != nil {
		t.Fatalf("scip-go: %v\n%s", err, res.Stderr)
	}
	acceptIndex(t, dir)
	s := newServer(t, dir, Options{})
	cs := connect(t, s, ReadOnly)
	type loc struct {
		Path        string
		Line        int
		Trust       string
		Declaration bool
	}
	locs := func(out positionResult) []loc {
		var ls []loc
		for _, r := range out.Records {
			if r.Trust == "exact" {
				ls = append(ls, loc{r.Path, r.StartLine, r.Trust, r.Declaration})
			}
		}
		return ls
	}
	for _, tc := range []struct {
		name string
		tool string
		args map[string]any
		want []loc
	}{
		{"definition at a position", "cortex_navigate", map[string]any{"relation": "definition", "path": "main.go", "line": 13, "column": 12},
			[]loc{{"cart/cart.go", 15, "exact", false}}},
		{"definition by name", "cortex_navigate", map[string]any{"relation": "definition", "symbol": "Cart.Total"},
			[]loc{{"cart/cart.go", 15, "exact", false}}},
		{"references with the declaration", "cortex_navigate", map[string]any{"relation": "references", "path": "cart/cart.go", "line": 15, "column": 16},
			[]loc{{"cart/cart.go", 15, "exact", true}, {"main.go", 13, "exact", false}}},
		{"references without the declaration", "cortex_navigate", map[string]any{"relation": "references", "path": "cart/cart.go", "line": 15, "column": 16, "include_declaration": false},
			[]loc{{"main.go", 13, "exact", false}}},
		{"implementations of an interface", "cortex_navigate", map[string]any{"relation": "implementations", "symbol": "Store"},
			[]loc{{"cart/cart.go", 9, "exact", false}}},
		{"interfaces of a type", "cortex_navigate", map[string]any{"relation": "implementations", "path": "cart/cart.go", "line": 9, "column": 6},
			[]loc{{"cart/cart.go", 4, "exact", false}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := decode[positionResult](t, tc.tool, call(t, cs, tc.tool, tc.args))
			got := locs(out)
			// The first exact records, in rank order, are the answer.
			if diff := cmp.Diff(tc.want, got[:min(len(got), len(tc.want))]); diff != "" || len(got) == 0 {
				t.Errorf("exact records (-want +got):\n%s\nall: %+v", diff, out.Records)
			}
		})
	}
}

package mcp

import (
	"context"
	"encoding/json"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
)

// TestNavigateAnswersAsTheOldTools asks cortex_navigate, and the tool of
// the same relation, the same questions (by name and by position, answered
// and not, arguments refused included), without a precision index and
// with one, and checks that the two give the same result: the same JSON,
// or the same error but for the tool's name.
func TestNavigateAnswersAsTheOldTools(t *testing.T) {
	questions := []struct {
		tool string
		args map[string]any
	}{
		{"cortex_definition", map[string]any{"symbol": "Cart.Add"}},
		{"cortex_definition", map[string]any{"symbol": "Total", "budget": 500}},
		{"cortex_definition", map[string]any{"path": "main.go", "line": 6, "column": 4}},
		{"cortex_definition", map[string]any{"path": "main.go", "line": 13, "column": 12}},
		{"cortex_definition", map[string]any{"symbol": "NoSuchName"}},
		{"cortex_definition", map[string]any{"path": "main.go", "line": 6}},
		{"cortex_definition", map[string]any{"path": "main.go", "line": 6, "column": 4, "symbol": "Add"}},
		{"cortex_definition", map[string]any{"path": "../outside.go", "line": 1, "column": 1}},
		{"cortex_references", map[string]any{"symbol": "Total"}},
		{"cortex_references", map[string]any{"symbol": "Total", "include_declaration": false}},
		{"cortex_references", map[string]any{"path": "cart/cart.go", "line": 15, "column": 16}},
		{"cortex_references", map[string]any{"path": "cart/cart.go", "line": 15, "column": 16, "include_declaration": false}},
		{"cortex_references", map[string]any{"symbol": "Add", "budget": 500}},
		{"cortex_implementations", map[string]any{"symbol": "Store"}},
		{"cortex_implementations", map[string]any{"path": "cart/cart.go", "line": 9, "column": 6}},
		{"cortex_implementations", map[string]any{}},
	}
	relation := map[string]string{"cortex_definition": "definition", "cortex_references": "references",
		"cortex_implementations": "implementations"}
	setups := []struct {
		name  string
		index bool
	}{{"no precision index", false}, {"a scip-go index", true}}
	for _, setup := range setups {
		t.Run(setup.name, func(t *testing.T) {
			dir := fixture(t)
			if setup.index {
				scipGo := testtool.Require(t, "scip-go", "bash .ci/install-precision.sh")
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
				defer cancel()
				res, err := safeexec.Run(ctx, safeexec.Invocation{Path: scipGo, Args: []string{"--output", "index.scip"}, Dir: dir,
					Env: safeexec.Environ("PATH", "HOME", "GOPATH", "GOMODCACHE", "GOCACHE", "GOFLAGS", "GOPROXY", "GOTOOLCHAIN")})
				if err != nil {
					t.Fatalf("scip-go: %v\n%s", err, res.Stderr)
				}
				acceptIndex(t, dir)
			}
			cs := connect(t, newServer(t, dir, Options{}), ReadOnly)
			answered := 0
			for _, q := range questions {
				b, _ := json.Marshal(q.args)
				t.Run(q.tool+" "+string(b), func(t *testing.T) {
					old := call(t, cs, q.tool, q.args)
					args := maps.Clone(q.args)
					args["relation"] = relation[q.tool]
					got := call(t, cs, "cortex_navigate", args)
					if old.IsError != got.IsError {
						t.Fatalf("%s error %v: %s\ncortex_navigate error %v: %s", q.tool, old.IsError, text(old), got.IsError, text(got))
					}
					if old.IsError {
						want := strings.Replace(text(old), q.tool+" failed", "cortex_navigate failed", 1)
						if diff := cmp.Diff(want, text(got)); diff != "" {
							t.Errorf("error (-%s +cortex_navigate):\n%s", q.tool, diff)
						}
						return
					}
					answered++
					var a, b any
					json.Unmarshal([]byte(text(old)), &a)
					json.Unmarshal([]byte(text(got)), &b)
					if diff := cmp.Diff(a, b); diff != "" {
						t.Errorf("result (-%s +cortex_navigate):\n%s", q.tool, diff)
					}
				})
			}
			if answered == 0 {
				t.Errorf("no question was answered: the comparison compared errors only")
			}
		})
	}
}

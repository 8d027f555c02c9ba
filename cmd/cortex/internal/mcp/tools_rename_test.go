package mcp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
)

// TestRenameTool renames through cortex_rename on the mutating surface,
// as cortex rename does: a rename onto a taken name is refused with its
// location and nothing written; a method an interface call reaches is
// refused; a free one is previewed with exact edits, and
// cortex_rewrite_apply applies the preview.
func TestRenameTool(t *testing.T) {
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
	s := newServer(t, dir, Options{Principal: "ada"})
	cs := connect(t, s, Mutating)
	before, _ := os.ReadFile(filepath.Join(dir, "cart", "cart.go"))

	taken := decode[renameResult](t, "", call(t, cs, "cortex_rename", map[string]any{"target": "Cart.Total", "new_name": "Empty"}))
	if !taken.Refused || taken.ID != "" || len(taken.Conflicts) == 0 || taken.Conflicts[0].Kind != "declared" || taken.Conflicts[0].Path != "cart/cart.go" {
		t.Errorf("a rename onto Cart.Empty: %+v", taken)
	}
	related := decode[renameResult](t, "", call(t, cs, "cortex_rename", map[string]any{"target": "Cart.Add", "new_name": "Put"}))
	if !related.Refused || len(related.Conflicts) == 0 || related.Conflicts[0].Kind != "related" {
		t.Errorf("a rename of a method called through an interface: %+v", related)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "cart", "cart.go")); string(after) != string(before) {
		t.Fatal("a refused rename changed cart.go")
	}

	ok := decode[renameResult](t, "", call(t, cs, "cortex_rename", map[string]any{"target": "cart/cart.go:15:16", "new_name": "Size"}))
	if ok.Refused || ok.ID == "" || ok.Tier != "exact" || len(ok.Diffs) != 2 || len(ok.Files) != 2 {
		t.Fatalf("rename Cart.Total: %+v", ok)
	}
	got := decode[applyResult](t, "", call(t, cs, "cortex_rewrite_apply", map[string]any{"id": ok.ID}))
	if got.Outcome != "applied" || got.MatchesApplied != 2 {
		t.Fatalf("apply: %+v", got)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "main.go")); !strings.Contains(string(b), "c.Size()") {
		t.Errorf("main.go after the rename:\n%s", b)
	}
}

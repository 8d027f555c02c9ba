package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/internal/testtool"
)

// TestMain keeps the cortex the example starts away from the user's seal
// key: it inherits a temporary configuration directory.
func TestMain(m *testing.M) {
	cleanup := testtool.IsolateUserConfig()
	code := m.Run()
	cleanup()
	os.Exit(code)
}

func TestAsk(t *testing.T) {
	dir := testtool.WriteTree(t, map[string]string{
		"go.mod":       "module example.com/shop\n\ngo 1.22\n",
		"cart/cart.go": "package cart\n\n// Cart holds items.\ntype Cart struct{ items []string }\n\n// Add puts an item in the cart.\nfunc (c *Cart) Add(item string) { c.items = append(c.items, item) }\n",
	})
	// The real cortex, built from this module as a user builds it.
	gobin := testtool.Require(t, "go", "install Go")
	cortex := filepath.Join(t.TempDir(), "cortex")
	build := exec.Command(gobin, "build", "-o", cortex, "./cmd/cortex")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/cortex: %v\n%s", err, out)
	}
	cmd := exec.Command(cortex, "mcp", "-C", dir)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out bytes.Buffer
	if err := run(ctx, &out, cmd, "where is Cart.Add defined?", 2000); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, want := range []string{"cortex_ask", "intent: definition"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

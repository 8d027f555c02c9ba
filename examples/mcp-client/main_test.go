package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/internal/cli"
	"github.com/codecortex/codecortex/internal/testtool"
)

// asCortex makes the test binary run as cortex, so the example starts the
// real `cortex mcp` without a separate build.
const asCortex = "CODECORTEX_TEST_RUN_AS_CORTEX"

func TestMain(m *testing.M) {
	if os.Getenv(asCortex) == "1" {
		os.Exit(cli.Main())
	}
	// The cortex the example starts inherits a temporary configuration
	// directory, and with it a seal key that is never the user's.
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
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "mcp", "-C", dir)
	cmd.Env = append(os.Environ(), asCortex+"=1")
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

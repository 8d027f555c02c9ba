package main

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/evidence/evidencetest"
	"github.com/codecortex/codecortex/internal/testtool"
)

// TestMain keeps the tests away from the user's configuration and seal
// key.
func TestMain(m *testing.M) {
	cleanup := testtool.IsolateUserConfig()
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// shop is a small project with a CODEOWNERS file whose last matching line
// wins.
var shop = map[string]string{
	"go.mod":             "module example.com/shop\n\ngo 1.22\n",
	"cart/cart.go":       "package cart\n\n// Cart holds items.\ntype Cart struct{ items []string }\n\n// Add puts an item in the cart.\nfunc (c *Cart) Add(item string) { c.items = append(c.items, item) }\n",
	"main.go":            "package main\n\nimport \"example.com/shop/cart\"\n\nfunc main() {\n\tvar c cart.Cart\n\tc.Add(\"apple\")\n}\n",
	".github/CODEOWNERS": "# owners\n*       @shop/all\n/cart/  @shop/cart\n",
}

func TestOwnedBy(t *testing.T) {
	tests := []struct {
		pat, path string
		want      bool
	}{
		{"*", "a/b.go", true},
		{"*.go", "a/b.go", true},
		{"*.go", "a/b.py", false},
		{"docs", "docs/x.md", true},
		{"docs", "a/docs/x.md", true},
		{"docs/", "a/docs", false}, // a file named docs is no directory
		{"/cart/", "cart/cart.go", true},
		{"/cart/", "x/cart/cart.go", false},
		{"cart/*.go", "cart/cart.go", true},
		{"cart/*.go", "cart/sub/cart.go", false}, // a star stays in its directory
		{"/cart", "cart/sub/cart.go", true},
		{"/main.go", "main.go", true},
		{"/main.go", "cmd/main.go", false},
	}
	for _, tt := range tests {
		if got := ownedBy(tt.pat, tt.path); got != tt.want {
			t.Errorf("ownedBy(%q, %q) = %v, want %v", tt.pat, tt.path, got, tt.want)
		}
	}
}

// The provider keeps the evidence contract, as a host's own provider
// should; this is the call a host makes from its tests.
func TestOwnersConforms(t *testing.T) {
	dir := testtool.WriteTree(t, shop)
	evidencetest.TestProvider(t, owners{root: dir}, dir,
		evidence.Query{Path: "cart/cart.go", Line: 4, Column: 6}, evidence.Query{Path: "main.go"}, evidence.Query{Text: "who owns this?"})
	recs, err := owners{root: dir}.Gather(context.Background(), evidence.Query{Path: "cart/cart.go"})
	if err != nil || len(recs.Records) != 1 || recs.Records[0].StartLine != 3 || recs.Records[0].Metadata.Excerpt != "cart/cart.go is owned by @shop/cart" {
		t.Errorf("the owners of cart/cart.go: %+v, %v; want line 3 (the last that matches)", recs.Records, err)
	}
	empty := testtool.WriteTree(t, map[string]string{"main.go": "package main\n"})
	if _, err := (owners{root: empty}).Gather(context.Background(), evidence.Query{Path: "main.go"}); err == nil {
		t.Error("without CODEOWNERS: no error, want unavailable")
	}
}

// The host asks the engine, with no index and no network: the owners of
// the file a position names join the engine's layers' evidence.
func TestRun(t *testing.T) {
	dir := testtool.WriteTree(t, shop)
	var out, diag strings.Builder
	err := run(context.Background(), []string{"-C", dir, "-pos", "main.go:7:4", "-text", "where is Cart.Add defined?"}, &out, &diag)
	if err != nil {
		t.Fatalf("%v\n%s%s", err, out.String(), diag.String())
	}
	for _, want := range []string{
		"question: main.go:7:4",
		"owners: available, 1 records",
		"main.go is owned by @shop/all",
		"question: where is Cart.Add defined?",
		"local-index: available",
		`"symbol":"cart.Cart.Add"`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

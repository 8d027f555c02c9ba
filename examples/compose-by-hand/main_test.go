package main

import (
	"context"
	"os"
	"strings"
	"testing"

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

// The layers composed by hand answer a position and a question in words
// on a small project with no index, no precision index and no network:
// the route names its steps with their reasons, the local index finds
// the definition the question names, and the optional layers say why
// they are off.
func TestRun(t *testing.T) {
	dir := testtool.WriteTree(t, map[string]string{
		"go.mod":       "module example.com/shop\n\ngo 1.22\n",
		"cart/cart.go": "package cart\n\n// Cart holds items.\ntype Cart struct{ items []string }\n\n// Add puts an item in the cart.\nfunc (c *Cart) Add(item string) { c.items = append(c.items, item) }\n",
		"main.go":      "package main\n\nimport \"example.com/shop/cart\"\n\nfunc main() {\n\tvar c cart.Cart\n\tc.Add(\"apple\")\n}\n",
	})
	var out, diag strings.Builder
	err := run(context.Background(), []string{"-C", dir, "-pos", "main.go:7:4", "-text", "where is Cart.Add defined?"}, &out, &diag)
	if err != nil {
		t.Fatalf("%v\n%s%s", err, out.String(), diag.String())
	}
	// Both questions find Add's definition: the position through the
	// identifier written there.
	if n := strings.Count(out.String(), `"symbol":"cart.Cart.Add"`); n != 2 {
		t.Errorf("Add's definition is in %d answers, want 2:\n%s", n, out.String())
	}
	for _, want := range []string{
		"question: main.go:7:4",
		"question: where is Cart.Add defined?",
		"route: definition",
		"  step precision: ",
		"  step local-index: ",
		"precision: unavailable",
		"local-index: available",
		`"symbol":"cart.Cart.Add"`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestIdentifierAt(t *testing.T) {
	dir := testtool.WriteTree(t, map[string]string{"a.go": "package a\n\nvar héllo_2 = x.Y\n"})
	tests := []struct {
		path      string
		line, col int
		want      string
	}{
		{"a.go", 3, 5, "héllo_2"},
		{"a.go", 3, 11, "héllo_2"}, // the last code point of the name
		{"a.go", 3, 12, ""},        // a space
		{"a.go", 3, 17, "Y"},
		{"a.go", 9, 1, ""},
		{"../a.go", 1, 1, ""}, // outside the project
	}
	for _, tt := range tests {
		if got := identifierAt(dir, tt.path, tt.line, tt.col); got != tt.want {
			t.Errorf("identifierAt(%s:%d:%d) = %q, want %q", tt.path, tt.line, tt.col, got, tt.want)
		}
	}
}

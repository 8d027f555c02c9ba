package codecortex

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/route"
)

// cartProject is a small Go project without a precision index: main
// calls Cart.Add on lines 7 and 8.
func cartProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range map[string]string{
		"go.mod":       "module example.com/shop\n\ngo 1.22\n",
		"cart/cart.go": "package cart\n\n// Cart holds items.\ntype Cart struct{ items []string }\n\n// Add puts an item in the cart.\nfunc (c *Cart) Add(item string) { c.items = append(c.items, item) }\n",
		"main.go":      "package main\n\nimport \"example.com/shop/cart\"\n\nfunc main() {\n\tvar c cart.Cart\n\tc.Add(\"apple\")\n\tc.Add(\"pear\")\n}\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Without a precision index, Callers answers from the project graph: one
// record per call site, naming the caller and what it calls, declaration
// left out; by a position, the name written there is looked up, and said
// so.
func TestCallers(t *testing.T) {
	e := openEngine(t, cartProject(t), Options{})
	ctx := context.Background()
	for _, target := range []Target{{Symbol: "Cart.Add"}, {Path: "main.go", Line: 7, Column: 4}} {
		ans, err := e.Callers(ctx, target)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range ans.Records {
			got = append(got, r.Location())
			if r.Provider != "graph" || !strings.Contains(r.Symbol, "main") || !strings.Contains(r.TargetSymbol, "Add") {
				t.Errorf("Callers(%+v): record %+v is not main's call of Add from the graph", target, r)
			}
		}
		if want := []string{"main.go:7:4-7:7", "main.go:8:4-8:7"}; !slices.Equal(got, want) {
			t.Errorf("Callers(%+v) = %v, want %v", target, got, want)
		}
		if target.Symbol == "" && ans.ByName != "Add" {
			t.Errorf("Callers(%+v): ByName %q, want Add", target, ans.ByName)
		}
	}
}

// Search and Symbols answer from the engine's local index.
func TestSearchAndSymbols(t *testing.T) {
	e := openEngine(t, cartProject(t), Options{})
	ctx := context.Background()
	res, err := e.Search(ctx, SearchQuery{Text: "apple"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || res.Hits[0].Path != "main.go" {
		t.Errorf("Search(apple) = %+v, want main.go first", res.Hits)
	}
	out, err := e.Symbols(ctx, SymbolsQuery{Path: "cart"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range out.Definitions {
		names = append(names, d.Path+" "+d.Name)
	}
	if want := []string{"cart/cart.go Cart", "cart/cart.go items", "cart/cart.go Add"}; !slices.Equal(names, want) {
		t.Errorf("Symbols(cart) = %v, want %v", names, want)
	}
}

// A path or line the project does not have is the asker's mistake, a
// TargetError, never an empty answer; it is refused before git or an
// index is opened.
func TestQueriesRefuseBadTargets(t *testing.T) {
	e := openEngine(t, cartProject(t), Options{})
	ctx := context.Background()
	for name, ask := range map[string]func() error{
		"callers past the end": func() error {
			_, err := e.Callers(ctx, Target{Path: "main.go", Line: 11, Column: 1})
			return err
		},
		"symbols of no such path": func() error {
			_, err := e.Symbols(ctx, SymbolsQuery{Path: "nosuch"})
			return err
		},
		"symbols outside the project": func() error {
			_, err := e.Symbols(ctx, SymbolsQuery{Path: "../x"})
			return err
		},
		"blame past the end": func() error {
			_, err := e.HistoryOf(ctx, HistoryQuery{Path: "main.go", StartLine: 11})
			return err
		},
		"blame of no such file": func() error {
			_, err := e.HistoryOf(ctx, HistoryQuery{Path: "nosuch.go", StartLine: 1})
			return err
		},
		"an end line alone": func() error {
			_, err := e.HistoryOf(ctx, HistoryQuery{Path: "main.go", EndLine: 3})
			return err
		},
		"lines backwards": func() error {
			_, err := e.HistoryOf(ctx, HistoryQuery{Path: "main.go", StartLine: 3, EndLine: 2})
			return err
		},
	} {
		var te *TargetError
		if err := ask(); !errors.Is(err, ErrBadTarget) || !errors.As(err, &te) {
			t.Errorf("%s: %v, want a TargetError", name, err)
		}
	}
	// A line in the file is no mistake, whatever the records.
	if _, err := e.Callers(ctx, Target{Path: "main.go", Line: 9, Column: 1}); err != nil {
		t.Errorf("callers at the last line: %v", err)
	}
}

// What a function calls is asked of the project graph alone: one record
// per call in its body, with the plan saying so. var c cart.Cart shows
// c's type, so c.Add names Cart.Add as a member of it, not as a guess by
// name.
func TestAskCallees(t *testing.T) {
	e := openEngine(t, cartProject(t), Options{})
	ans, err := e.Ask(context.Background(), Question{Text: "what does main call?"})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Plan.Intent != route.IntentCallees || !ans.Query.Outgoing {
		t.Fatalf("plan %s, outgoing %v: want callees", ans.Plan.Intent, ans.Query.Outgoing)
	}
	var got []string
	for _, r := range ans.Records {
		got = append(got, r.Location()+" "+r.TargetSymbol+" "+r.Metadata.Attributes["guess"])
		if r.Provider != "graph" || !strings.Contains(r.Symbol, "main") {
			t.Errorf("record %+v is not main's call from the graph", r)
		}
	}
	if want := []string{"main.go:7:4-7:7 cart/cart.go#Cart.Add ", "main.go:8:4-8:7 cart/cart.go#Cart.Add "}; !slices.Equal(got, want) {
		t.Errorf("what does main call? %v, want %v", got, want)
	}
}

// "The implementation of" a method nothing overrides is its definition:
// the plan becomes a definition's and says why.
func TestAskImplementationOfAFunction(t *testing.T) {
	e := openEngine(t, cartProject(t), Options{})
	ans, err := e.Ask(context.Background(), Question{Text: "show me the implementation of Cart.Add"})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Plan.Intent != route.IntentDefinition || len(ans.Plan.Notes) == 0 {
		t.Fatalf("plan %s, notes %q: want a definition, and why", ans.Plan.Intent, ans.Plan.Notes)
	}
	if len(ans.Records) == 0 || ans.Records[0].Location() != "cart/cart.go:7:16-7:19" {
		t.Errorf("records %v, want Cart.Add's definition first", ans.Records)
	}
}

package mcp

import (
	"strings"
	"testing"
)

// TestNavigateArguments: cortex_navigate needs a relation it knows, and a
// position or a name, and refuses anything else before it asks a layer.
// (Its answers were checked equal to those of cortex_definition,
// cortex_references and cortex_implementations, which it replaced, by
// TestNavigateAnswersAsTheOldTools in the history of this file.)
func TestNavigateArguments(t *testing.T) {
	cs := connect(t, newServer(t, fixture(t), Options{}), ReadOnly)
	for _, tc := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"no relation", map[string]any{"symbol": "Cart.Add"}, `missing properties: ["relation"]`},
		{"an unknown relation", map[string]any{"relation": "ancestors", "symbol": "Cart.Add"}, "enum"},
		{"neither position nor name", map[string]any{"relation": "definition"}, "no complete position and no symbol"},
		{"both position and name", map[string]any{"relation": "references", "path": "main.go", "line": 6, "column": 4, "symbol": "Add"},
			"both a position and a symbol"},
		{"a position without a column", map[string]any{"relation": "implementations", "path": "main.go", "line": 6}, "no complete position"},
		{"a name with a space", map[string]any{"relation": "definition", "symbol": "Cart Add"}, "pattern"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, cs, "cortex_navigate", tc.args)
			if !res.IsError || !strings.Contains(text(res), tc.want) || !strings.HasPrefix(text(res), "cortex_navigate failed") {
				t.Errorf("got error=%v %q, want a cortex_navigate error mentioning %q", res.IsError, text(res), tc.want)
			}
		})
	}
}

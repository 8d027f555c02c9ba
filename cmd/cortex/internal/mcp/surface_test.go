package mcp

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOutputSchemasListedOnRequest: tools/list names no output schema
// unless Options.OutputSchemas asks for them, and then every tool's, the
// schema its results are checked against.
func TestOutputSchemasListedOnRequest(t *testing.T) {
	dir := fixture(t)
	for _, listed := range []bool{false, true} {
		s := newServer(t, dir, Options{Principal: "ada", OutputSchemas: listed})
		built, err := s.builtTools()
		if err != nil {
			t.Fatal(err)
		}
		res, err := connect(t, s, Mutating).ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string]builtTool{}
		for _, bt := range built {
			byName[bt.tool.Name] = bt
		}
		if len(res.Tools) != len(built) {
			t.Fatalf("%d tools listed, %d built", len(res.Tools), len(built))
		}
		for _, tl := range res.Tools {
			switch {
			case !listed && tl.OutputSchema != nil:
				t.Errorf("%s: an output schema listed without OutputSchemas", tl.Name)
			case listed:
				var got, want any
				remarshal(t, tl.OutputSchema, &got)
				remarshal(t, byName[tl.Name].out.Schema(), &want)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s: the listed output schema is not the one its results are checked against (-checked +listed):\n%s", tl.Name, diff)
				}
			}
		}
	}
}

// remarshal decodes the JSON of v into out.
func remarshal(t *testing.T, v, out any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
}

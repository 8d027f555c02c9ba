package mcp

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/evidence"
)

// Bounds of what tools/list costs an agent: every tool definition sits in
// its context window on every turn.
const (
	// maxToolsList bounds the tools/list result, in bytes of JSON, on
	// either surface.
	maxToolsList = 16 << 10
	// maxToolBytes bounds one tool's definition, so that no tool takes
	// the room of several.
	maxToolBytes = 2 << 10
)

// TestToolsListSize lists the tools on each surface as a client receives
// them and checks the result's size, in bytes of JSON, and each tool's; it
// logs the sizes with a token estimate (evidence.EstimateTokens, three
// bytes a token, which errs high: o200k_base counts four and a quarter to
// four and a half bytes a token on this JSON; scripts/bench-mcp-tools.sh
// counts them with real tokenizers).
func TestToolsListSize(t *testing.T) {
	s := newServer(t, fixture(t), Options{Principal: "ada"})
	for _, surface := range []Surface{ReadOnly, Mutating} {
		t.Run(surface.String(), func(t *testing.T) {
			res, err := connect(t, s, surface).ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("tools/list: %d tools, %d bytes, about %d tokens", len(res.Tools), len(b), evidence.EstimateTokens(len(b)))
			if len(b) > maxToolsList {
				t.Errorf("tools/list is %d bytes, over %d", len(b), maxToolsList)
			}
			for _, tl := range res.Tools {
				tb, _ := json.Marshal(tl)
				t.Logf("  %-26s %5d bytes, about %4d tokens", tl.Name, len(tb), evidence.EstimateTokens(len(tb)))
				if len(tb) > maxToolBytes {
					t.Errorf("%s: its definition is %d bytes, over %d", tl.Name, len(tb), maxToolBytes)
				}
			}
		})
	}
}

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

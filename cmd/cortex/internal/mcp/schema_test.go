package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/codecortex/codecortex"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// listedSchemas returns every tool's input and output schema as a client
// reads them from tools/list on the mutating surface (which has every
// tool), output schemas listed.
func listedSchemas(t *testing.T) map[string][2]map[string]any {
	t.Helper()
	s := newServer(t, fixture(t), Options{Principal: "ada", OutputSchemas: true})
	res, err := connect(t, s, Mutating).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][2]map[string]any{}
	for _, tl := range res.Tools {
		var pair [2]map[string]any
		for i, sch := range []any{tl.InputSchema, tl.OutputSchema} {
			b, err := json.Marshal(sch)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &pair[i]); err != nil {
				t.Fatalf("%s: %v", tl.Name, err)
			}
		}
		if strings.TrimSpace(tl.Description) == "" || tl.Annotations == nil {
			t.Errorf("%s: no description or annotations", tl.Name)
		}
		out[tl.Name] = pair
	}
	return out
}

// TestSchemasStrict checks every tool's input schema, recursively, as a
// client receives it: additionalProperties false on every object, one
// type per schema and never null, required fields listed, a description
// on every property; and the output schemas likewise (descriptions
// aside).
func TestSchemasStrict(t *testing.T) {
	schemas := listedSchemas(t)
	if len(schemas) != len(readOnlyTools)+len(mutatingOnly) {
		t.Fatalf("%d tools listed", len(schemas))
	}
	for name, pair := range schemas {
		if p := StrictProblems(pair[0], true); len(p) > 0 {
			t.Errorf("%s input schema:\n  %s", name, strings.Join(p, "\n  "))
		}
		if p := StrictProblems(pair[1], false); len(p) > 0 {
			t.Errorf("%s output schema:\n  %s", name, strings.Join(p, "\n  "))
		}
	}
}

// TestSchemasBounded checks that every input has bounds: integers a
// minimum and a maximum, strings a length or an enum, arrays a length;
// and that every tool but doctor takes a budget within MaxBudget.
func TestSchemasBounded(t *testing.T) {
	for name, pair := range listedSchemas(t) {
		props, _ := pair[0]["properties"].(map[string]any)
		for pname, p := range props {
			ps := p.(map[string]any)
			check := func(ps map[string]any, at string) {
				switch ps["type"] {
				case "integer":
					if ps["minimum"] == nil || ps["maximum"] == nil {
						t.Errorf("%s.%s: an integer without minimum and maximum", name, at)
					}
				case "string":
					if ps["maxLength"] == nil && ps["enum"] == nil {
						t.Errorf("%s.%s: a string without maxLength or enum", name, at)
					}
				}
			}
			check(ps, pname)
			if ps["type"] == "array" {
				if ps["maxItems"] == nil {
					t.Errorf("%s.%s: an array without maxItems", name, pname)
				}
				check(ps["items"].(map[string]any), pname+"[]")
			}
		}
		b, hasBudget := props["budget"].(map[string]any)
		switch {
		case name == "cortex_doctor" || name == "cortex_remember" || name == "cortex_rewrite_apply" || name == "cortex_rename":
		case name == "cortex_map" && hasBudget && b["default"] == float64(codecortex.DefaultMapBudget):
			// A map's default is an outline's size, not an answer's.
		case !hasBudget:
			t.Errorf("%s: no budget", name)
		case b["maximum"] != float64(MaxBudget) || b["default"] != float64(DefaultBudget) || b["minimum"] != float64(MinBudget):
			t.Errorf("%s: budget %v, want %d..%d default %d", name, b, MinBudget, MaxBudget, DefaultBudget)
		}
	}
}

// TestStrictifyRemovesNullUnions shows what the schemas would be without
// strictify: the generator writes ["null", "array"] for a slice, which
// some hosts reject.
func TestStrictifyRemovesNullUnions(t *testing.T) {
	raw, err := jsonschema.For[recallParams](nil)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := schemaDoc(raw)
	if err != nil {
		t.Fatal(err)
	}
	if p := StrictProblems(doc, false); !containsText(p, `type [null array] is not a single type`) {
		t.Fatalf("the generator no longer writes a null union for a slice; problems: %q", p)
	}
	strict, err := schemaFor(reflect.TypeFor[recallParams](), enumSets())
	if err != nil {
		t.Fatal(err)
	}
	sdoc, _ := schemaDoc(strict)
	if p := StrictProblems(sdoc, true); len(p) > 0 {
		t.Errorf("strict schema: %q", p)
	}
	types := sdoc["properties"].(map[string]any)["types"].(map[string]any)
	want := map[string]any{"type": "array", "maxItems": float64(4), "description": "only memories of these types",
		"items": map[string]any{"type": "string", "enum": []any{"convention", "decision", "gotcha", "failure"}}}
	if diff := cmp.Diff(want, types); diff != "" {
		t.Errorf("types (-want +got):\n%s", diff)
	}
}

func containsText(ss []string, sub string) bool {
	for _, s := range ss {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// probeParams are the arguments of the test-only probe tool.
type probeParams struct {
	Word  string   `json:"word" minLength:"1" maxLength:"10" jsonschema:"a word"`
	Count int      `json:"count,omitempty" minimum:"1" maximum:"5" default:"2" jsonschema:"a count"`
	Tags  []string `json:"tags,omitempty" maxItems:"2" enum:"a|b" jsonschema:"tags"`
	Panic bool     `json:"panic,omitempty" jsonschema:"panic in the handler"`
}

type probeResult struct {
	Word  string   `json:"word" jsonschema:"the word"`
	Count int      `json:"count" jsonschema:"the count"`
	Tags  []string `json:"tags" jsonschema:"the tags"`
}

// probe returns a client of a server offering the probe tool, and the
// count of the handler's runs.
func probe(t *testing.T) (*sdk.ClientSession, *atomic.Int32) {
	t.Helper()
	s := newServer(t, fixture(t), Options{})
	var runs atomic.Int32
	bt, err := tool(func(ctx context.Context, s *Server, in probeParams) (probeResult, error) {
		runs.Add(1)
		if in.Panic {
			var m map[string]int
			//lint:ignore SA5000 the handler panics on purpose, with a runtime error
			m["boom"]++ // a nil map: a real panic
		}
		return probeResult{Word: in.Word, Count: in.Count, Tags: append([]string{}, in.Tags...)}, nil
	})(s, toolDef{name: "probe", desc: "a probe"})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := s.MCP(ReadOnly)
	if err != nil {
		t.Fatal(err)
	}
	srv.AddTool(bt.tool, bt.handler)
	return connectServer(t, srv), &runs
}

// TestArgumentsRejectedBeforeTheHandler sends malformed arguments: each
// is a tool error naming the problem, and the handler never runs.
func TestArgumentsRejectedBeforeTheHandler(t *testing.T) {
	cs, runs := probe(t)
	for _, tc := range []struct {
		name string
		args any
		want string
	}{
		{"unknown field", map[string]any{"word": "hi", "colour": "red"}, `additional properties ["colour"]`},
		{"wrong type", map[string]any{"word": 42}, "type"},
		{"wrong type of an item", map[string]any{"word": "hi", "tags": []any{1}}, "type"},
		{"missing required", map[string]any{"count": 1}, `missing properties: ["word"]`},
		{"over the maximum", map[string]any{"word": "hi", "count": 6}, "maximum"},
		{"too long", map[string]any{"word": "abcdefghijkl"}, "maxLength"},
		{"not in the enum", map[string]any{"word": "hi", "tags": []any{"c"}}, "enum"},
		{"too many items", map[string]any{"word": "hi", "tags": []any{"a", "b", "a"}}, "maxItems"},
		{"null for a list", map[string]any{"word": "hi", "tags": nil}, "type"},
		{"a fraction for an integer", map[string]any{"word": "hi", "count": 1.5}, "integer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, cs, "probe", tc.args)
			if !res.IsError || !strings.Contains(text(res), tc.want) || !strings.Contains(text(res), "What to do") {
				t.Errorf("got error=%v %q, want a tool error mentioning %q", res.IsError, text(res), tc.want)
			}
		})
	}
	if n := runs.Load(); n != 0 {
		t.Errorf("the handler ran %d times on malformed arguments", n)
	}
	out := decode[probeResult](t, "probe", call(t, cs, "probe", map[string]any{"word": "hi"}))
	if diff := cmp.Diff(probeResult{Word: "hi", Count: 2, Tags: []string{}}, out, cmp.Comparer(func(a, b []string) bool {
		return len(a) == len(b) && fmt.Sprint(a) == fmt.Sprint(b)
	})); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
}

// TestPanicIsAToolError makes a handler panic: the call is a tool error
// with the reason, and the server goes on answering.
func TestPanicIsAToolError(t *testing.T) {
	cs, runs := probe(t)
	res := call(t, cs, "probe", map[string]any{"word": "hi", "panic": true})
	if !res.IsError || !strings.Contains(text(res), "internal error") || !strings.Contains(text(res), "nil map") {
		t.Errorf("got %v %q", res.IsError, text(res))
	}
	decode[probeResult](t, "probe after a panic", call(t, cs, "probe", map[string]any{"word": "again"}))
	if runs.Load() != 2 {
		t.Errorf("%d runs", runs.Load())
	}
}

// TestNilSliceIsNeverNull: a handler that returns a nil slice is caught by
// the output schema rather than sending null.
func TestNilSliceIsNeverNull(t *testing.T) {
	s := newServer(t, fixture(t), Options{})
	bt, err := tool(func(ctx context.Context, s *Server, in probeParams) (probeResult, error) {
		return probeResult{Word: in.Word}, nil // Tags nil: a bug
	})(s, toolDef{name: "nil_probe", desc: "returns null"})
	if err != nil {
		t.Fatal(err)
	}
	srv, _ := s.MCP(ReadOnly)
	srv.AddTool(bt.tool, bt.handler)
	res := call(t, connectServer(t, srv), "nil_probe", map[string]any{"word": "hi"})
	if !res.IsError || !strings.Contains(text(res), "output schema") {
		t.Errorf("a null list was sent: %v %q", res.IsError, text(res))
	}
}

package evidence

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/trust"
	"github.com/google/go-cmp/cmp"
)

type jsonSchema struct {
	Type                 string                 `json:"type"`
	Enum                 []string               `json:"enum"`
	Required             []string               `json:"required"`
	Properties           map[string]*jsonSchema `json:"properties"`
	AdditionalProperties any                    `json:"additionalProperties"`
	Ref                  string                 `json:"$ref"`
	Items                *jsonSchema            `json:"items"`
	Defs                 map[string]*jsonSchema `json:"$defs"`
	DependentRequired    map[string][]string    `json:"dependentRequired"`
}

// The published schema must describe the Go type exactly: the same
// properties, the same required set, matching JSON types, and enums that list
// every kind, tier and method the code knows.
func TestSchemaMatchesRecord(t *testing.T) {
	b, err := os.ReadFile("../docs/evidence.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var s jsonSchema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if s.AdditionalProperties != false || s.Defs["metadata"].AdditionalProperties != false {
		t.Error("the schema must reject unknown properties")
	}
	checkStruct(t, "record", reflect.TypeFor[Record](), &s, s.Defs)

	var kinds, tiers, methods []string
	for _, k := range Kinds() {
		kinds = append(kinds, string(k))
	}
	for _, tr := range trust.Tiers() {
		tiers = append(tiers, tr.String())
	}
	for _, m := range trust.Methods() {
		methods = append(methods, string(m))
	}
	for name, want := range map[string][]string{"kind": kinds, "trust": tiers, "provenance": methods} {
		if diff := cmp.Diff(sorted(want), sorted(s.Properties[name].Enum)); diff != "" {
			t.Errorf("%s enum (-code +schema):\n%s", name, diff)
		}
	}
	if diff := cmp.Diff(sorted(tiers), sorted(s.Defs["metadata"].Properties["stale_from"].Enum)); diff != "" {
		t.Errorf("stale_from enum (-code +schema):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"start_line", "start_column", "end_line", "end_column"}, s.DependentRequired["path"]); diff != "" {
		t.Errorf("a path requires its positions (-want +schema):\n%s", diff)
	}
}

func checkStruct(t *testing.T, where string, typ reflect.Type, s *jsonSchema, defs map[string]*jsonSchema) {
	t.Helper()
	var fields, required []string
	for f := range typ.Fields() {
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			t.Fatalf("%s.%s has no JSON name", where, f.Name)
		}
		fields = append(fields, name)
		if !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero") {
			required = append(required, name)
		}
		prop, ok := s.Properties[name]
		if !ok {
			t.Errorf("%s: field %s (%s) missing from the schema", where, name, f.Name)
			continue
		}
		if prop.Ref != "" {
			prop = defs[strings.TrimPrefix(prop.Ref, "#/$defs/")]
			if prop == nil {
				t.Errorf("%s.%s: dangling $ref", where, name)
				continue
			}
		}
		checkType(t, where+"."+name, f.Type, prop, defs)
	}
	var props []string
	for p := range s.Properties {
		props = append(props, p)
	}
	if diff := cmp.Diff(sorted(fields), sorted(props)); diff != "" {
		t.Errorf("%s properties (-go +schema):\n%s", where, diff)
	}
	if diff := cmp.Diff(sorted(required), sorted(s.Required)); diff != "" {
		t.Errorf("%s required (-go +schema):\n%s", where, diff)
	}
}

func checkType(t *testing.T, where string, typ reflect.Type, s *jsonSchema, defs map[string]*jsonSchema) {
	t.Helper()
	if len(s.Enum) > 0 {
		if typ.Kind() != reflect.String && !typ.Implements(reflect.TypeFor[interface{ MarshalText() ([]byte, error) }]()) {
			t.Errorf("%s: enum in the schema but %s in Go", where, typ)
		}
		return
	}
	want := map[reflect.Kind]string{
		reflect.String: "string", reflect.Int: "integer", reflect.Float64: "number",
		reflect.Bool: "boolean", reflect.Struct: "object", reflect.Map: "object", reflect.Slice: "array",
	}[typ.Kind()]
	if s.Type != want {
		t.Errorf("%s: schema type %q, Go %s wants %q", where, s.Type, typ, want)
	}
	switch typ.Kind() {
	case reflect.Struct:
		checkStruct(t, where, typ, s, defs)
	case reflect.Slice:
		if s.Items == nil || (typ.Elem() == reflect.TypeFor[Record]() && s.Items.Ref != "#") {
			t.Errorf("%s: array items must refer to the record schema", where)
		}
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// A record survives a JSON round trip unchanged.
func TestRecordJSONRoundTrip(t *testing.T) {
	r := MarkStale(goodRecord())
	r.Metadata.Excerpt = "type AuthService struct"
	r.Metadata.Attributes = map[string]string{"encoding": "utf-8"}
	weaker := goodRecord()
	weaker.Provenance, weaker.Trust, weaker.Exact = trust.Lexical, trust.Weak, false
	r.Metadata.Superseded = []Record{weaker}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"start_line":12`, `"trust":"inferred_high"`, `"stale_from":"exact"`, `"superseded":[`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("encoding lacks %s: %s", key, b)
		}
	}
	var back Record
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r, back); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

// Decoding outside input never panics, and a record that decodes and
// validates round-trips, scores inside [0, MaxScore] and packs within budget.
func FuzzDecodeRecord(f *testing.F) {
	seed, _ := json.Marshal(goodRecord())
	f.Add(seed)
	stale, _ := json.Marshal(MarkStale(goodRecord()))
	f.Add(stale)
	f.Add([]byte(`{"kind":"reference","provider":"p","provenance":"lexical","trust":"weak","confidence":0.5,"exact":false,"stale":false}`))
	f.Add([]byte(`{"kind":"definition","trust":"exact","exact":true,"stale":true,"confidence":1e999}`))
	f.Add([]byte(`{"metadata":{"superseded":[{"metadata":{"superseded":[{}]}}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var r Record
		if json.Unmarshal(data, &r) != nil {
			return
		}
		if r.Validate() != nil {
			return
		}
		if r.Exact && r.Stale {
			t.Fatal("a valid record is exact and stale")
		}
		if r.Trust > r.Provenance.Ceiling() {
			t.Fatal("a valid record exceeds its method's ceiling")
		}
		if s := r.Score(); !(s >= 0 && s <= trust.MaxScore) {
			t.Fatalf("score %v", s)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var back Record
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if back.Validate() != nil || back.ID() != r.ID() {
			t.Fatal("round trip changed a valid record")
		}
		ctx := Pack([]Record{r, back}, 200)
		if EstimateTokens(len(ctx.Prompt)) > 200 {
			t.Fatal("budget exceeded")
		}
	})
}

package mcp

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/google/jsonschema-go/jsonschema"
)

// decoders decode a tool's arguments into its parameter struct, for every
// tool.
var decoders = []struct {
	t      reflect.Type
	decode func(raw json.RawMessage, res *jsonschema.Resolved) (any, error)
}{
	{reflect.TypeFor[askParams](), decoderOf[askParams]},
	{reflect.TypeFor[navigateParams](), decoderOf[navigateParams]},
	{reflect.TypeFor[searchParams](), decoderOf[searchParams]},
	{reflect.TypeFor[symbolsParams](), decoderOf[symbolsParams]},
	{reflect.TypeFor[structuralParams](), decoderOf[structuralParams]},
	{reflect.TypeFor[depsParams](), decoderOf[depsParams]},
	{reflect.TypeFor[docsParams](), decoderOf[docsParams]},
	{reflect.TypeFor[doctorParams](), decoderOf[doctorParams]},
	{reflect.TypeFor[historyParams](), decoderOf[historyParams]},
	{reflect.TypeFor[recallParams](), decoderOf[recallParams]},
	{reflect.TypeFor[rememberParams](), decoderOf[rememberParams]},
	{reflect.TypeFor[validateParams](), decoderOf[validateParams]},
	{reflect.TypeFor[renameParams](), decoderOf[renameParams]},
}

func decoderOf[T any](raw json.RawMessage, res *jsonschema.Resolved) (any, error) {
	return decodeArgs[T](raw, res)
}

// FuzzDecodeArgs feeds arbitrary bytes to every tool's argument decoder:
// it never panics, and arguments it accepts decode to the same value when
// sent again. An empty list and an absent one are the same value: a field
// that may be left out drops an empty list when encoded, and every tool
// reads the two alike.
func FuzzDecodeArgs(f *testing.F) {
	for _, seed := range []string{
		`{}`, `null`, `[]`, `"x"`, `{"question":"where is X?"}`, `{"symbol":"Cart.Add","budget":500}`, `{"relation":"references","symbol":"A","include_declaration":false}`,
		`{"path":"a.go","line":1,"column":2}`, `{"query":"a b","limit":3,"content":"code"}`,
		`{"pattern":"$X($$$A)","language":"go","paths":["a"]}`, `{"types":["decision"],"limit":100}`,
		`{"type":"gotcha","text":"t","paths":["a/b"],"symbols":["S"]}`, `{"budget":1e400}`, `{"line":-1}`,
		`{"since":"-x"}`, `{"target":"a.go:1:2","new_name":"b"}`, `{"question":"\u0000"}`, `{"a":{"b":[1,{"c":null}]}}`,
	} {
		f.Add([]byte(seed))
	}
	resolved := make([]*jsonschema.Resolved, len(decoders))
	for i, d := range decoders {
		s, err := schemaFor(d.t, enumSets())
		if err != nil {
			f.Fatal(err)
		}
		if resolved[i], err = s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true}); err != nil {
			f.Fatal(err)
		}
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		for i, d := range decoders {
			v, err := d.decode(raw, resolved[i])
			if err != nil {
				if _, ok := err.(*toolError); !ok {
					t.Errorf("%s: a %T, not a tool error: %v", d.t, err, err)
				}
				continue
			}
			again, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			w, err := d.decode(again, resolved[i])
			if err != nil {
				t.Errorf("%s: accepted %q, then refused its own encoding %s: %v", d.t, raw, again, err)
				continue
			}
			if diff := cmp.Diff(v, w, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s: %q decoded to a different value when sent again (-first +second):\n%s", d.t, raw, diff)
			}
		}
	})
}

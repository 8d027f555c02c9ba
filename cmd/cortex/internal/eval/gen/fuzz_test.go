package gen

import (
	"bytes"
	"encoding/json"
	"testing"
	"testing/fstest"

	"github.com/scip-code/scip/bindings/go/scip"
	"google.golang.org/protobuf/proto"
)

func FuzzReadSCIP(f *testing.F) {
	idx := &scip.Index{
		Metadata: &scip.Metadata{ToolInfo: &scip.ToolInfo{Name: "t", Version: "1"}},
		Documents: []*scip.Document{{
			RelativePath: "a.go",
			Occurrences: []*scip.Occurrence{
				{Range: []int32{0, 5, 6}, Symbol: "scip-go gomod m v `m`/F().", SymbolRoles: int32(scip.SymbolRole_Definition)},
				{Range: []int32{1, 0, 1}, Symbol: "scip-go gomod m v `m`/F()."},
				{Range: []int32{2, 5, 6}, Symbol: "scip-go gomod m v `m`/T#", SymbolRoles: int32(scip.SymbolRole_Definition)},
			},
			Symbols: []*scip.SymbolInformation{{
				Symbol:        "scip-go gomod m v `m`/T#",
				Relationships: []*scip.Relationship{{Symbol: "scip-go gomod m v `m`/I#", IsImplementation: true}},
			}},
		}},
	}
	seed, err := proto.Marshal(idx)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte{})
	src := fstest.MapFS{"a.go": {Data: []byte("func F() {}\nF()\ntype T struct{}\n")}}
	f.Fuzz(func(t *testing.T, b []byte) {
		tr, err := ReadSCIP(bytes.NewReader(b), src)
		if err != nil {
			return
		}
		for _, d := range tr.Defs {
			if !validPath(d.Path) || d.Line < 1 || !askable[d.Kind] {
				t.Fatalf("definition %+v", d)
			}
		}
		for _, r := range tr.Refs {
			if !validPath(r.Path) || r.Line < 1 {
				t.Fatalf("reference %+v", r)
			}
		}
	})
}

func FuzzParseSuite(f *testing.F) {
	f.Add([]byte(`{"name":"n","corpus":"c","language":"go","version":"v","oracle":"o","seed":1,"cases":[{"question":"where is F?","expect":{"path":"a.go","line":3},"kind":"definition","name":"F","sites":[{"path":"a.go","line":3}]}]}`))
	f.Add([]byte(`{"cases":[{"question":"q","expect":{"path":""},"kind":"absent","name":"x","sites":null}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseSuite(bytes.NewReader(b))
		if err != nil {
			return
		}
		again, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseSuite(bytes.NewReader(again)); err != nil {
			t.Fatalf("a parsed suite does not parse again: %v\n%s", err, again)
		}
	})
}

package evidence

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// TestPropFactor: expanding what Factor wrote gives back the records it
// was given, also through JSON, and the lean document is never longer
// than the records written whole.
func TestPropFactor(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := rapid.SliceOfN(genAttributed(), 0, 12).Draw(t, "records")
		// Make pages: records of a provider often agree on their fields.
		if len(in) > 1 && rapid.Bool().Draw(t, "page") {
			for i := range in {
				in[i].Kind, in[i].Provenance, in[i].Trust = in[0].Kind, in[0].Provenance, in[0].Trust
				in[i].Confidence, in[i].Exact, in[i].Stale = in[0].Confidence, in[0].Exact, in[0].Stale
				in[i].TargetSymbol = in[0].TargetSymbol
				if rapid.Bool().Draw(t, "one place") {
					in[i].Path, in[i].Symbol = in[0].Path, in[0].Symbol
				}
			}
		}
		want, _ := json.Marshal(in)
		d, lean := Factor(in)
		back := d.Expand(lean)
		got, _ := json.Marshal(back)
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Fatalf("expanded records differ (-given +expanded):\n%s", diff)
		}
		doc, _ := json.Marshal(struct {
			R []Lean   `json:"records"`
			D Defaults `json:"shared,omitempty"`
		}{lean, d})
		var read struct {
			R []Lean   `json:"records"`
			D Defaults `json:"shared"`
		}
		if err := json.Unmarshal(doc, &read); err != nil {
			t.Fatal(err)
		}
		again, _ := json.Marshal(read.D.Expand(read.R))
		if string(again) != string(want) {
			t.Fatalf("records read back from JSON differ:\n%s\n%s", again, want)
		}
		if len(doc) > len(want)+len(`{"records":}`)+len(`,"shared":{}`)*len(d)+64*len(d) {
			t.Fatalf("lean document %d bytes, records whole %d", len(doc), len(want))
		}
	})
}

// TestFactorPage: a page of call sites of one symbol writes its kind,
// provenance, tier, target and confidence once; a record that differs
// keeps its own value for that field.
func TestFactorPage(t *testing.T) {
	site := func(line int, tier Record) Record {
		tier.StartLine, tier.StartColumn, tier.EndLine, tier.EndColumn, tier.Path = line, 1, line, 4, "a.go"
		return tier
	}
	base := Record{Kind: Call, Provider: "graph", Provenance: "heuristic", Trust: 2, TargetSymbol: "a.go#F", Confidence: 0.5}
	other := base
	other.Trust, other.Confidence = 3, 0.8
	d, lean := Factor([]Record{site(1, base), site(2, base), site(3, other)})
	c := d["graph"]
	if c.Kind != Call || c.Provenance != "heuristic" || c.TargetSymbol != "a.go#F" || c.Trust != 0 || c.Confidence != nil {
		t.Errorf("shared %+v: want kind, provenance and target shared, tier and confidence not", c)
	}
	if lean[0].Kind != "" || lean[0].Trust != 2 || lean[2].Trust != 3 || *lean[2].Confidence != 0.8 {
		t.Errorf("lean records %+v", lean)
	}
}

// TestFactorOneFile: definitions of one symbol in one file (the overrides
// of a method in an enum's constants) write the file and the symbol once;
// a record of another file keeps both.
func TestFactorOneFile(t *testing.T) {
	def := func(path string, line int) Record {
		return Record{Kind: Definition, Provider: "local-index", Path: path, StartLine: line, Symbol: "p.State.read", Confidence: 0.9}
	}
	d, lean := Factor([]Record{def("State.java", 11), def("State.java", 35)})
	if c := d["local-index"]; c.Path != "State.java" || c.Symbol != "p.State.read" {
		t.Errorf("shared %+v: want the path and symbol", c)
	}
	if lean[0].Path != "" || lean[1].Symbol != "" || lean[1].StartLine != 35 {
		t.Errorf("lean records %+v", lean)
	}
	d, lean = Factor([]Record{def("State.java", 11), def("Other.java", 3)})
	if c := d["local-index"]; c.Path != "" || c.Symbol != "p.State.read" {
		t.Errorf("shared %+v: want the symbol only", c)
	}
	if lean[1].Path != "Other.java" {
		t.Errorf("lean records %+v", lean)
	}
}

package graph

import (
	"strings"
	"testing"

	"github.com/codecortex/codecortex/internal/mermaid"
	"github.com/codecortex/codecortex/trust"
)

// TestImpactMermaid: the impact of a change to store.go draws its
// definitions as changed, each caller joined to what it uses by an edge
// naming the kind and tier, the test among them as a test; bounded, it
// says what it left out.
func TestImpactMermaid(t *testing.T) {
	g := rankGraph(t)
	im := g.Impact(Query{Targets: []Target{{Path: "store/store.go"}}})
	if len(im.Callers) < 3 || len(im.Tests) == 0 {
		t.Fatalf("impact %+v: want callers and tests", im)
	}
	c, err := mermaid.Parse(string(im.Mermaid(0)))
	if err != nil {
		t.Fatalf("%v\n%s", err, im.Mermaid(0))
	}
	changed, tests := 0, 0
	for _, id := range c.Order {
		switch n := c.Nodes[id]; n.Class {
		case "changed":
			changed++
		case "test":
			tests++
			if !strings.Contains(n.Label, "_test.go") {
				t.Errorf("test node %q", n.Label)
			}
		}
	}
	if changed != len(im.Affected) || tests == 0 || len(c.Nodes) != len(im.Affected)+len(im.Callers)+tests-countTests(im.Callers) {
		t.Errorf("%d nodes, %d changed, %d tests for %d affected, %d callers:\n%s", len(c.Nodes), changed, tests,
			len(im.Affected), len(im.Callers), im.Mermaid(0))
	}
	if len(c.Edges) < len(im.Callers) {
		t.Errorf("%d edges for %d callers", len(c.Edges), len(im.Callers))
	}
	for _, e := range c.Edges {
		if _, err := trust.ParseTier(e.Label[strings.LastIndex(e.Label, " ")+1:]); err != nil {
			t.Errorf("edge %+v: no tier: %v", e, err)
		}
	}
	small, err := mermaid.Parse(string(im.Mermaid(3)))
	if err != nil {
		t.Fatal(err)
	}
	more, ok := small.Nodes["more"]
	if len(small.Nodes) != 4 || !ok || !strings.Contains(more.Label, "callers") {
		t.Errorf("bounded to 3: %+v", small)
	}
}

func countTests(hs []Hit) int {
	n := 0
	for _, h := range hs {
		if h.Test {
			n++
		}
	}
	return n
}

// TestImpactMermaidGolden: the whole chart of a small impact.
func TestImpactMermaidGolden(t *testing.T) {
	im := &Impact{
		Affected: []Hit{{Symbol: "s.go#Store.Get", Name: "Get", Container: "*Store", Kind: "method", Path: "s.go", Line: 5}},
		Callers: []Hit{
			{Symbol: "a.go#A", Name: "A", Kind: "function", Path: "a.go", Line: 3, Depth: 1,
				Via: &Via{Kind: Calls, Method: Exact, Tier: trust.Exact, To: "s.go#Store.Get"}},
			{Symbol: "a_test.go#TestA", Name: "TestA", Kind: "function", Path: "a_test.go", Line: 7, Depth: 2, Test: true,
				Via: &Via{Kind: Calls, Method: UniqueName, Tier: trust.Inferred, To: "a.go#A"}},
		},
		Tests: []TestHit{
			{Path: "a_test.go", Symbol: "a_test.go#TestA", Tier: trust.Inferred, Why: "uses the change 2 step(s) away"},
			{Path: "s_test.go", Tier: trust.Structural, Why: "named after s.go"},
		},
	}
	want := `flowchart LR
  classDef changed stroke-width:3px
  classDef test stroke-dasharray:4 4
  n0["method Store.Get<br/>s.go:5"]:::changed
  n1["function A<br/>a.go:3"]
  n2["function TestA<br/>a_test.go:7"]:::test
  n3["test file s_test.go"]:::test
  n1 -->|"calls, exact"| n0
  n2 -->|"calls, inferred"| n1
  n3 -.->|"named after, structural"| n0
`
	if got := string(im.Mermaid(0)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	im.Truncated, im.MaxNodes = true, 3
	if got := string(im.Mermaid(2)); !strings.HasSuffix(got, "  more[\"not drawn: 1 callers, 1 of them tests, 1 test files named after changed files, the walk stopped at 3 nodes - the text and JSON forms list them\"]\n") {
		t.Errorf("bounded to 2:\n%s", got)
	}
}

// FuzzImpactMermaid: names with quotes, brackets, pipes and line breaks
// stay inside their labels: the chart parses with the nodes and edges
// it should have, and the names read back.
func FuzzImpactMermaid(f *testing.F) {
	f.Add("Get", "Store", "s.go")
	f.Add(`a"]; evil["x`, "*T\n", "dir/x|y.go")
	f.Add("<b>", "`md`", "%%.go")
	f.Fuzz(func(t *testing.T, name, container, path string) {
		im := &Impact{
			Affected: []Hit{{Symbol: "t", Name: name, Container: container, Kind: "method", Path: path, Line: 1}},
			Callers: []Hit{{Symbol: "c", Name: name + "2", Kind: "function", Path: path, Line: 2, Depth: 1,
				Via: &Via{Kind: Calls, Tier: trust.Inferred, To: "t"}}},
			Tests: []TestHit{{Path: path + "_test", Why: "named after " + path}},
		}
		src := string(im.Mermaid(0))
		c, err := mermaid.Parse(src)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		if len(c.Nodes) != 3 || len(c.Edges) != 2 {
			t.Fatalf("%d nodes, %d edges:\n%s", len(c.Nodes), len(c.Edges), src)
		}
		if clean := strings.ContainsFunc(name+container+path, func(r rune) bool { return r < ' ' || r == 0x7f || r >= 0x80 }); !clean &&
			!strings.Contains(c.Nodes["n0"].Label, name) {
			t.Fatalf("label %q lost the name %q", c.Nodes["n0"].Label, name)
		}
	})
}

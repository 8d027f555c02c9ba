package graph

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/syntax"
)

func TestChangedFiles(t *testing.T) {
	then := map[string]string{"a.go": "1", "b.go": "2", "gone.go": "3"}
	now := map[string]string{"a.go": "1", "b.go": "9", "new.go": "4", "pending.go": ""}
	want := []string{"b.go", "gone.go", "new.go", "pending.go"}
	if diff := cmp.Diff(want, changedFiles(then, now)); diff != "" {
		t.Errorf("changedFiles (-want +got):\n%s", diff)
	}
	if got := changedFiles(then, then); got != nil {
		t.Errorf("changedFiles of the same files = %v, want none", got)
	}
}

var staleFixture = map[string]string{
	"go.mod":    "module example.com/shapes\n\ngo 1.22\n",
	"shape.go":  "package shapes\n\ntype Shape interface{ Area() float64 }\n\nfunc Total(ss []Shape) (t float64) {\n\tfor _, s := range ss {\n\t\tt += s.Area()\n\t}\n\treturn t\n}\n",
	"square.go": "package shapes\n\ntype Square struct{ side float64 }\n\nfunc (s Square) Area() float64 { return s.side * s.side }\n",
	"circle.go": "package shapes\n\ntype Circle struct{ r float64 }\n\nfunc (c Circle) Area() float64 { return 3 * c.r * c.r }\n",
}

// A question asked after a file changed, on a graph whose snapshot is at
// least the provider's staleSize, is answered from the snapshot's part
// with what is in the changed file marked stale, and says so; below that
// size, the graph is built again and nothing is stale.
func TestStaleSnapshotPart(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	dir := testtool.WriteTree(t, staleFixture)
	ctx := context.Background()
	ix, err := index.Open(index.Options{Dir: dir, Budget: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	held := New(Options{Index: ix}) // holds the whole graph, as a server may
	held.staleSize = 0
	if _, err := held.Graph(ctx); err != nil { // and writes the snapshot
		t.Fatal(err)
	}
	circle := filepath.Join(dir, "circle.go")
	src, err := os.ReadFile(circle)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(circle, append(src, "\n// Circles are round.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(circle, later, later); err != nil {
		t.Fatal(err)
	}
	iq := evidence.Query{Symbol: "Shape", Kinds: []evidence.Kind{evidence.Implementation}}

	p := New(Options{Index: ix})
	p.staleSize = 0
	resp, ok, err := p.implementations(ctx, iq)
	if err != nil || !ok {
		t.Fatalf("implementations: %v, %v", ok, err)
	}
	if !strings.HasPrefix(p.snapshot, "read in part from the graph of an earlier state") || p.graph != nil {
		t.Fatalf("not read in part from the stale snapshot: %s", p.snapshot)
	}
	if !strings.Contains(resp.Report.Reason, "predates changes to 1 file (circle.go)") {
		t.Errorf("the report does not say what changed: %q", resp.Report.Reason)
	}
	stale := map[string]bool{}
	for _, r := range resp.Records {
		stale[r.Symbol] = r.Stale
	}
	if want := map[string]bool{"Circle": true, "Square": false}; !cmp.Equal(want, stale) {
		t.Errorf("implementations and their staleness = %v, want %v", stale, want)
	}
	im, err := p.Impact(ctx, Query{Targets: []Target{{Symbol: "Circle.Area"}}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"circle.go"}, im.StaleFiles); diff != "" {
		t.Errorf("impact's stale files (-want +got):\n%s", diff)
	}

	// A provider that holds the whole graph of the earlier state answers
	// the same way, and keeps it.
	was := held.graph
	resp, ok, err = held.implementations(ctx, iq)
	if err != nil || !ok || !strings.Contains(resp.Report.Reason, "predates changes to 1 file (circle.go)") {
		t.Errorf("the provider holding a graph: %v, %v, %q", ok, err, resp.Report.Reason)
	}
	if held.graph != was {
		t.Errorf("the graph held was dropped or built again: %s", held.snapshot)
	}

	// A graph below the size is built again: nothing stale.
	p = New(Options{Index: ix})
	resp, ok, err = p.implementations(ctx, iq)
	if err != nil || !ok {
		t.Fatalf("implementations: %v, %v", ok, err)
	}
	if strings.HasPrefix(p.snapshot, "read in part") {
		t.Fatalf("a small graph was read from the stale snapshot: %s", p.snapshot)
	}
	for _, r := range resp.Records {
		if r.Stale {
			t.Errorf("%s stale in a graph built again", r.Symbol)
		}
	}
}

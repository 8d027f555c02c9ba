package graph

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/syntax"
)

// closingSource is an EdgeSource that counts its closes.
type closingSource struct{ closed int }

func (s *closingSource) Edges(context.Context) (iter.Seq[evidence.Record], evidence.Report, error) {
	return func(func(evidence.Record) bool) {}, evidence.Report{}, nil
}

func (s *closingSource) Close() error { s.closed++; return nil }

// Close closes Exact only when CloseExact hands it over.
func TestCloseExact(t *testing.T) {
	for _, hand := range []bool{false, true} {
		src := &closingSource{}
		p := New(Options{Dir: t.TempDir(), Exact: src, CloseExact: hand})
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
		want := 0
		if hand {
			want = 1
		}
		if src.closed != want {
			t.Errorf("CloseExact %v: closed %d times, want %d", hand, src.closed, want)
		}
	}
}

// An answer from a partial index says so.
func TestImpactPartialIndexNote(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	files := map[string]string{"go.mod": "module m\n"}
	for i := range 200 {
		files[fmt.Sprintf("p/f%d.go", i)] = fmt.Sprintf("package p\n\nfunc F%d() { F0() }\n", i)
	}
	dir := testtool.WriteTree(t, files)
	p := New(Options{Dir: dir, IndexOptions: index.Options{Budget: time.Nanosecond}})
	defer p.Close()
	im, err := p.Impact(context.Background(), Query{Targets: []Target{{Symbol: "F0"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(im.Notes, func(n string) bool { return strings.Contains(n, "the local index is partial") }) {
		t.Errorf("no note of the partial index: %q", im.Notes)
	}
}

// TestFirstContactImplementations: at first contact the index holds the
// files that name the interface asked about; the type that implements it
// without naming it is found through the files that name its methods.
func TestFirstContactImplementations(t *testing.T) {
	needSyntax(t)
	files := map[string]string{"go.mod": "module m\n"}
	for i := range 60 {
		files[fmt.Sprintf("f/f%02d.go", i)] = fmt.Sprintf("package f\n\nfunc F%02d() int { return %d }\n", i, i)
	}
	files["a/iface.go"] = "package a\n\n// Flagger says whether it is a flag.\ntype Flagger interface {\n\tIsFlag() bool\n}\n"
	files["b/impl.go"] = "package b\n\ntype T struct{}\n\nfunc (T) IsFlag() bool { return true }\n"
	files["b/other.go"] = "package b\n\ntype U struct{}\n"
	dir := testtool.WriteTree(t, files)
	p := New(Options{Dir: dir, IndexOptions: index.Options{Budget: 5 * time.Second, Seal: testKey(t, 1)}})
	defer p.Close()
	ctx := index.WithNames(context.Background(), "Flagger")
	resp, err := p.Gather(ctx, evidence.Query{Symbol: "Flagger", Kinds: []evidence.Kind{evidence.Implementation}})
	if err != nil {
		t.Fatal(err)
	}
	if p.fresh.State != index.Partial {
		t.Fatalf("the index is %s, want partial (a first contact)", p.fresh.State)
	}
	var got []string
	for _, r := range resp.Records {
		got = append(got, fmt.Sprintf("%s:%d %s", r.Path, r.StartLine, r.Symbol))
	}
	if want := []string{"b/impl.go:3 T"}; !slices.Equal(got, want) {
		t.Errorf("implementations of Flagger: %q, want %q (%s)", got, want, resp.Report.Reason)
	}
}

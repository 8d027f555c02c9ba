package graph

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/seal"
	"github.com/codecortex/codecortex/syntax"
)

// snapFixture is a small Go module: calls within a package and across an
// import, a method, an interface, a test file, and a file of another
// language.
var snapFixture = map[string]string{
	"go.mod":      "module example.com/m\n",
	"a/a.go":      "package a\n\ntype Reader interface{ Read() int }\n\ntype File struct{}\n\nfunc (f *File) Read() int { return helper() }\n\nfunc helper() int { return 1 }\n\nfunc ReadFull(r Reader) int { return r.Read() + helper() }\n",
	"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestReadFull(t *testing.T) { ReadFull(&File{}) }\n",
	"b/b.go":      "package b\n\nimport \"example.com/m/a\"\n\nfunc Use() int { return a.ReadFull(&a.File{}) }\n\nfunc Again() int { return Use() + a.ReadFull(nil) }\n",
	"web/x.ts":    "export function hello(): number { return 1 }\nexport function world(): number { return hello() }\n",
}

// testKey returns a sealer with a key made of b.
func testKey(t *testing.T, b byte) seal.Sealer {
	t.Helper()
	k, err := seal.NewKey(bytes.Repeat([]byte{b}, seal.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// writeAged writes files under dir dated an hour back, as a checked-out
// tree is: the index reads again a file whose mtime is too recent.
func writeAged(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	testtool.WriteFiles(t, dir, files)
	old := time.Now().Add(-time.Hour)
	for p := range files {
		if err := os.Chtimes(filepath.Join(dir, filepath.FromSlash(p)), old, old); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshotted writes files under a new directory dated an hour back
// (writeAged), indexes them and builds their graph, which leaves its
// snapshot; it returns the index, closed when the test ends.
func snapshotted(t *testing.T, files map[string]string) *index.Index {
	t.Helper()
	dir := t.TempDir()
	writeAged(t, dir, files)
	ix, err := index.Open(index.Options{Dir: dir, Budget: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if _, err := New(Options{Index: ix}).Graph(context.Background()); err != nil {
		t.Fatal(err)
	}
	return ix
}

// snapGraph returns the graph of dir from a new provider sealing with s,
// and how the provider had it.
func snapGraph(t *testing.T, dir string, s seal.Sealer) (*Graph, string) {
	t.Helper()
	p := New(Options{Dir: dir, IndexOptions: index.Options{Seal: s}})
	defer p.Close()
	g, err := p.Graph(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return g, p.snapshot
}

func needSyntax(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
}

// answers are the callers of every definition, as keys, for comparing
// two graphs by what they answer.
func answers(g *Graph) map[string][]string {
	out := map[string][]string{}
	for i := range g.Nodes {
		n := &g.Nodes[i]
		im := g.Impact(Query{Targets: []Target{{Symbol: n.Qualified()}}})
		out[n.Key()] = keys(im.Callers)
	}
	return out
}

// A graph loaded from the snapshot is the graph built: the same nodes,
// edges, stats and answers.
func TestSnapshotEqualsBuild(t *testing.T) {
	needSyntax(t)
	dir := t.TempDir()
	writeAged(t, dir, snapFixture)
	key := testKey(t, 1)
	built, how := snapGraph(t, dir, key)
	if how != "" && how != errSnapshotMissing.Error() {
		t.Fatalf("first graph: %s", how)
	}
	loaded, how := snapGraph(t, dir, key)
	if how != "loaded" {
		t.Fatalf("second graph was not loaded: %s", how)
	}
	if len(built.Edges) == 0 || built.Stats().Symbols == 0 {
		t.Fatalf("the fixture's graph is empty: %+v", built.Stats())
	}
	if diff := cmp.Diff(built.Nodes, loaded.Nodes); diff != "" {
		t.Errorf("nodes (-built +loaded):\n%s", diff)
	}
	if diff := cmp.Diff(built.Edges, loaded.Edges); diff != "" {
		t.Errorf("edges (-built +loaded):\n%s", diff)
	}
	if diff := cmp.Diff(built.Stats(), loaded.Stats()); diff != "" {
		t.Errorf("stats (-built +loaded):\n%s", diff)
	}
	if diff := cmp.Diff(answers(built), answers(loaded)); diff != "" {
		t.Errorf("callers (-built +loaded):\n%s", diff)
	}
	if got := answers(loaded)["a/a.go#ReadFull"]; !slices.Contains(got, "b/b.go#Use") {
		t.Errorf("callers of ReadFull = %q, want b/b.go#Use among them", got)
	}
}

// A snapshot this user's cortex did not write for this project, or whose
// bytes changed, is not used: the graph is built again.
func TestSnapshotForeignIgnored(t *testing.T) {
	needSyntax(t)
	key := testKey(t, 1)
	snapFile := func(dir string) string {
		return filepath.Join(dir, snapshotDir, filepath.FromSlash(snapshotName))
	}
	cases := []struct {
		name   string
		spoil  func(t *testing.T, dir string) string // returns the root to ask in
		reason error
	}{
		{"another key", func(t *testing.T, dir string) string {
			snapGraph(t, dir, testKey(t, 2)) // rebuilds the index and writes under key 2
			return dir
		}, errSnapshotForeign},
		{"tampered byte", func(t *testing.T, dir string) string {
			data, err := os.ReadFile(snapFile(dir))
			if err != nil {
				t.Fatal(err)
			}
			data[len(data)-1] ^= 1
			if err := os.WriteFile(snapFile(dir), data, 0o600); err != nil {
				t.Fatal(err)
			}
			return dir
		}, errSnapshotForeign},
		{"another project root", func(t *testing.T, dir string) string {
			other := t.TempDir()
			if err := os.CopyFS(other, os.DirFS(dir)); err != nil {
				t.Fatal(err)
			}
			return other
		}, errSnapshotForeign},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeAged(t, dir, snapFixture)
			want, _ := snapGraph(t, dir, key)
			root := tc.spoil(t, dir)
			got, how := snapGraph(t, root, key)
			if how == "loaded" || !strings.Contains(how, tc.reason.Error()) {
				t.Errorf("how = %q, want the graph built because %q", how, tc.reason)
			}
			if diff := cmp.Diff(answers(want), answers(got)); diff != "" {
				t.Errorf("callers (-want +got):\n%s", diff)
			}
		})
	}
}

// A snapshot of an index that changed since is not used; the graph built
// instead has the change, and is the next snapshot.
func TestSnapshotStaleRebuilt(t *testing.T) {
	needSyntax(t)
	dir := t.TempDir()
	writeAged(t, dir, snapFixture)
	key := testKey(t, 1)
	snapGraph(t, dir, key)
	writeAged(t, dir, map[string]string{"b/c.go": "package b\n\nimport \"example.com/m/a\"\n\nfunc More() int { return a.ReadFull(nil) }\n"})
	g, how := snapGraph(t, dir, key)
	if how != "the index changed since the snapshot" {
		t.Errorf("how = %q, want the graph built as the index changed", how)
	}
	if got := answers(g)["a/a.go#ReadFull"]; !slices.Contains(got, "b/c.go#More") {
		t.Errorf("callers of ReadFull = %q, want the new b/c.go#More among them", got)
	}
	g2, how := snapGraph(t, dir, key)
	if how != "loaded" {
		t.Errorf("third graph: %s, want loaded", how)
	}
	if diff := cmp.Diff(answers(g), answers(g2)); diff != "" {
		t.Errorf("callers (-built +loaded):\n%s", diff)
	}
}

// Keep writes the snapshot of an index that has none, or whose snapshot
// is of an earlier state or does not check, and leaves a current one as
// it is; the graph a process then asks for is the snapshot's.
func TestKeep(t *testing.T) {
	needSyntax(t)
	dir := t.TempDir()
	// Enough files for a body of several chunks, whose last one opening
	// the snapshot does not read.
	files := maps.Clone(snapFixture)
	for i := range 64 {
		files[fmt.Sprintf("c/f%d.go", i)] = fmt.Sprintf("package c\n\nfunc F%d() int { return G%d() }\n\nfunc G%d() int { return %d }\n", i, i, i, i)
	}
	writeAged(t, dir, files)
	key := testKey(t, 1)
	file := filepath.Join(dir, snapshotDir, filepath.FromSlash(snapshotName))
	keep := func(wantHow string) os.FileInfo {
		t.Helper()
		// No time bound: under load a bounded refresh leaves files for
		// later, and Keep writes no snapshot of a partial index.
		p := New(Options{Dir: dir, IndexOptions: index.Options{Seal: key, Budget: -1}})
		defer p.Close()
		if err := p.Keep(context.Background()); err != nil {
			t.Fatal(err)
		}
		if p.snapshot != wantHow {
			t.Errorf("Keep: %q, want %q", p.snapshot, wantHow)
		}
		if p.graph != nil {
			t.Error("Keep holds the graph")
		}
		fi, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	first := keep(errSnapshotMissing.Error())
	if _, how := snapGraph(t, dir, key); how != "loaded" {
		t.Errorf("the graph after Keep: %s, want loaded", how)
	}
	again := keep("current")
	if !os.SameFile(first, again) {
		t.Error("Keep wrote a current snapshot again")
	}
	data, err := os.ReadFile(file) // a byte of the body changed: built again
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 2*snapChunk {
		t.Fatalf("a snapshot of %d bytes: the test wants more than one chunk", len(data))
	}
	data[len(data)-1] ^= 1
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if mended := keep(errSnapshotForeign.Error()); os.SameFile(again, mended) {
		t.Error("Keep left a snapshot whose body changed")
	}
	first = keep("current")
	writeAged(t, dir, map[string]string{"b/c.go": "package b\n\nimport \"example.com/m/a\"\n\nfunc More() int { return a.ReadFull(nil) }\n"})
	if changed := keep("the index changed since the snapshot"); os.SameFile(first, changed) {
		t.Error("Keep left the snapshot of an earlier state")
	}
	g, how := snapGraph(t, dir, key)
	if how != "loaded" {
		t.Errorf("the graph after the second Keep: %s, want loaded", how)
	}
	if got := answers(g)["a/a.go#ReadFull"]; !slices.Contains(got, "b/c.go#More") {
		t.Errorf("callers of ReadFull = %q, want the new b/c.go#More among them", got)
	}
}

// A snapshot past the size limit is not written, and says why.
func TestSnapshotTooLarge(t *testing.T) {
	dir := t.TempDir()
	g := &Graph{Version: "v", Nodes: []Node{{Path: "a.go", Name: "a.go", Kind: NodeKindFile}}}
	s := snapStore{root: dir, seal: testKey(t, 1), build: "b", limit: 16}
	if err := s.write(g); !errors.Is(err, ErrSnapshotTooLarge) {
		t.Fatalf("write = %v, want ErrSnapshotTooLarge", err)
	}
	if _, err := s.read(); !errors.Is(err, errSnapshotMissing) {
		t.Errorf("read after a refused write = %v, want no snapshot", err)
	}
}

// A snapshot is written under .codecortex alone: a .codecortex that is a
// link elsewhere is refused.
func TestSnapshotStaysInside(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(dir, snapshotDir)); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	g := &Graph{Version: "v"}
	s := snapStore{root: dir, seal: testKey(t, 1), build: "b"}
	if err := s.write(g); err == nil {
		t.Error("wrote through a linked .codecortex")
	}
	if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
		t.Errorf("wrote %d entries outside the project", len(ents))
	}
}

// Every exported field of Node and Edge is one the snapshot keeps: a new
// field must be added to encodeSnapshot and graph, and here.
func TestSnapshotCoversFields(t *testing.T) {
	kept := map[reflect.Type][]string{
		reflect.TypeFor[Node](): {"Path", "Name", "Container", "Kind", "Package", "Exported", "Line", "EndLine", "NameLine", "NameColumn", "Test", "Stale"},
		reflect.TypeFor[Edge](): {"From", "To", "Kind", "Method", "Path", "Line", "Column", "Span", "Of", "Stale"},
	}
	for typ, fields := range kept {
		var got []string
		for i := range typ.NumField() {
			if f := typ.Field(i); f.IsExported() {
				got = append(got, f.Name)
			}
		}
		if diff := cmp.Diff(fields, got); diff != "" {
			t.Errorf("%s fields the snapshot keeps (-kept +declared):\n%s", typ.Name(), diff)
		}
	}
}

// Any graph survives a round trip through the codec, and any prefix or
// changed byte of a body decodes to an error or a graph, never a panic.
func TestSnapshotCodecRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := randomGraph(t)
		g.Version = rapid.String().Draw(t, "version")
		g.stats.Unresolved = rapid.IntRange(0, 100).Draw(t, "unresolved")
		for i := range g.Nodes {
			n := &g.Nodes[i]
			n.Container = rapid.SampledFrom([]string{"", "T", "*T"}).Draw(t, "container")
			n.Exported, n.Test, n.Stale = rapid.Bool().Draw(t, "exported"), rapid.Bool().Draw(t, "test"), rapid.Bool().Draw(t, "stale")
			n.NameLine, n.NameColumn = rapid.IntRange(0, 1000).Draw(t, "name line"), rapid.IntRange(0, 200).Draw(t, "name column")
		}
		for i := range g.Edges {
			g.Edges[i].Of = rapid.SampledFrom([]string{"", "Vec", "T"}).Draw(t, "of")
		}
		body := encodeSnapshot(g, "build")
		d := decoder{buf: body}
		if b, v := d.str(), d.str(); b != "build" || v != g.Version {
			t.Fatalf("header %q %q", b, v)
		}
		got, err := (&sealedSnapshot{version: g.Version, body: d.buf}).graph()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(g.Nodes, got.Nodes, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("nodes (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(g.Edges, got.Edges, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("edges (-want +got):\n%s", diff)
		}
		if got.stats.Unresolved != g.stats.Unresolved {
			t.Fatalf("unresolved %d, want %d", got.stats.Unresolved, g.stats.Unresolved)
		}
		cut := rapid.IntRange(0, len(d.buf)).Draw(t, "cut")
		_, _ = (&sealedSnapshot{body: d.buf[:cut]}).graph()
		if len(d.buf) > 0 {
			bad := slices.Clone(d.buf)
			bad[rapid.IntRange(0, len(bad)-1).Draw(t, "at")] ^= byte(rapid.IntRange(1, 255).Draw(t, "xor"))
			_, _ = (&sealedSnapshot{body: bad}).graph()
		}
	})
}

// FuzzSnapshotBody decodes arbitrary bodies: an error or a graph, never a
// panic.
func FuzzSnapshotBody(f *testing.F) {
	d := decoder{buf: encodeSnapshot(&Graph{Version: "v", Nodes: []Node{{Path: "a.go", Kind: NodeKindFile}, {Path: "a.go", Name: "f", Kind: "function"}},
		Edges: []Edge{{From: 1, To: 0, Kind: Calls, Method: ScopeResolved, Path: "a.go", Line: 1}}}, "b")}
	d.str()
	d.str()
	f.Add(d.buf)
	f.Fuzz(func(t *testing.T, body []byte) {
		_, _ = (&sealedSnapshot{body: body}).graph()
	})
}

// recordSource is an EdgeSource of fixed records.
type recordSource []evidence.Record

func (s recordSource) Edges(context.Context) (iter.Seq[evidence.Record], evidence.Report, error) {
	return slices.Values(s), evidence.Report{Provider: "precision", State: evidence.Available}, nil
}

// Exact edges are fused into a loaded graph as into a built one.
func TestSnapshotFusesExact(t *testing.T) {
	needSyntax(t)
	dir := t.TempDir()
	writeAged(t, dir, snapFixture)
	exact := recordSource{
		{Kind: evidence.Reference, Path: "b/b.go", StartLine: 5, StartColumn: 25, EndLine: 5, EndColumn: 33,
			TargetSymbol: "scip-go gomod example.com/m v1 `example.com/m/a`/ReadFull()."},
		{Kind: evidence.Reference, Path: "b/b.go", StartLine: 7, StartColumn: 1, EndLine: 7, EndColumn: 5,
			TargetSymbol: "scip-go gomod example.com/m v1 `example.com/m/a`/helper()."},
	}
	graphOf := func() (*Graph, string) {
		p := New(Options{Dir: dir, IndexOptions: index.Options{Seal: testKey(t, 1)}, Exact: exact})
		defer p.Close()
		g, err := p.Graph(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return g, p.snapshot
	}
	built, _ := graphOf()
	loaded, how := graphOf()
	if how != "loaded" {
		t.Fatalf("second graph: %s, want loaded", how)
	}
	if built.Stats().Exact < 2 {
		t.Fatalf("exact edges: %d, want the 2 given fused in", built.Stats().Exact)
	}
	if diff := cmp.Diff(built.Edges, loaded.Edges); diff != "" {
		t.Errorf("edges (-built +loaded):\n%s", diff)
	}
	if diff := cmp.Diff(built.Stats(), loaded.Stats()); diff != "" {
		t.Errorf("stats (-built +loaded):\n%s", diff)
	}
}

// TestKindCodes: kindCode numbers each kind as edgeKindCodes lists it, and
// any other kind 0.
func TestKindCodes(t *testing.T) {
	for i, k := range edgeKindCodes {
		if got := kindCode(k); got != uint32(i) {
			t.Errorf("kindCode(%q) = %d, want %d", k, got, i)
		}
	}
	if got := kindCode("overrides"); got != 0 {
		t.Errorf("kindCode of a kind not listed = %d, want 0", got)
	}
}

// wholeIndexed returns a provider of dir whose index is refreshed whole
// before it answers (no budget: a loaded machine answers alike).
func wholeIndexed(t *testing.T, dir string) *Provider {
	t.Helper()
	return New(Options{Dir: dir, IndexOptions: index.Options{Budget: -1}})
}

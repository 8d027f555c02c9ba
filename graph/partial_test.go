package graph

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/syntax"
	"github.com/google/go-cmp/cmp"
)

// comparePart asks, for every definition name of the tree at dir (and
// each definition's key, and each file), an impact at several bounds and
// for implementations, of a provider holding the whole graph and of a new
// one that reads the part of the snapshot the question walks; it fails
// the test where the answers differ or the new one did not read a part.
// It returns how many questions it compared.
func comparePart(t *testing.T, dir string, every int) int {
	t.Helper()
	ctx := context.Background()
	ix, err := index.Open(index.Options{Dir: dir, Budget: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	full := New(Options{Index: ix})
	g, err := full.Graph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var targets []Target
	for n := range g.byName {
		targets = append(targets, Target{Symbol: n})
	}
	for i := range g.Nodes {
		if n := &g.Nodes[i]; n.Kind == NodeKindFile {
			targets = append(targets, Target{Path: n.Path})
		} else {
			targets = append(targets, Target{Symbol: n.Key()}, Target{Path: n.Path, StartLine: n.Line})
		}
	}
	slices.SortFunc(targets, func(a, b Target) int {
		return cmpTarget(a, b)
	})
	impl := evidence.Query{Kinds: []evidence.Kind{evidence.Implementation}}
	compared := 0
	for i, tg := range targets {
		if i%every != 0 {
			continue
		}
		for _, q := range []Query{{Depth: 1}, {}, {Depth: 2, MaxNodes: 3}, {MaxNodes: 12}} {
			q.Targets = []Target{tg}
			want, err := full.Impact(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			p := New(Options{Index: ix})
			got, err := p.Impact(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if p.snapshot != "read in part" || p.graph != nil {
				t.Fatalf("%v: the impact was not read in part: %s", q, p.snapshot)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%v: the part's impact differs from the whole graph's (-want +got):\n%s", q, diff)
			}
			compared++
			if q.Depth != 1 {
				continue
			}
			// Gather's way to the part, for the direct uses.
			got, ok, err := New(Options{Index: ix}).partImpact(ctx, q)
			if err != nil || !ok {
				t.Fatalf("%v: partImpact: %v, %v", q, ok, err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%v: partImpact differs from the whole graph's (-want +got):\n%s", q, diff)
			}
		}
		iq := impl
		iq.Symbol, iq.Path, iq.Line = tg.Symbol, tg.Path, tg.StartLine
		want, wok, err := full.implementations(ctx, iq)
		if err != nil {
			t.Fatal(err)
		}
		p := New(Options{Index: ix})
		got, gok, err := p.implementations(ctx, iq)
		if err != nil {
			t.Fatal(err)
		}
		if p.snapshot != "read in part" {
			t.Fatalf("%v: implementations were not read in part: %s", tg, p.snapshot)
		}
		if diff := cmp.Diff(want, got); diff != "" || wok != gok {
			t.Errorf("%v: the part's implementations differ from the whole graph's (ok %v, %v; -want +got):\n%s", tg, wok, gok, diff)
		}
		compared++
	}
	return compared
}

func cmpTarget(a, b Target) int {
	if a.Symbol != b.Symbol {
		if a.Symbol < b.Symbol {
			return -1
		}
		return 1
	}
	if a.Path != b.Path {
		if a.Path < b.Path {
			return -1
		}
		return 1
	}
	return a.StartLine - b.StartLine
}

// For every name, definition and file of a fixture, an impact and an
// implementations answer read from a part of the snapshot are the whole
// graph's.
func TestPartEqualsWhole(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	tree := map[string]string{}
	for k, v := range namedFixture {
		tree[k] = v
	}
	for k, v := range snapFixture {
		tree["s/"+k] = v
	}
	for k, v := range goChainFixture { // methods sharing uses with an interface's
		tree["c/"+k] = v
	}
	dir := t.TempDir()
	writeAged(t, dir, tree)
	if n := comparePart(t, dir, 1); n < 200 {
		t.Errorf("only %d questions compared", n)
	}
}

// The same on a real tree: cobra's (every third target).
func TestPartEqualsWholeCobra(t *testing.T) {
	if testing.Short() {
		t.Skip("a real tree")
	}
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	src := os.Getenv("CORTEX_NAMED_TREE")
	if src == "" {
		src = moduleDir(t, "github.com/spf13/cobra@v1.10.2")
	}
	t.Logf("%d questions compared", comparePart(t, copyTree(t, src), 3))
}

// A part that passes its bound leaves the answer to the whole graph.
func TestPartTooLarge(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	ix := snapshotted(t, namedFixture)
	p := New(Options{Index: ix})
	snap, err := p.snapshots(ix).read()
	if err != nil {
		t.Fatal(err)
	}
	v, err := snap.view()
	if err != nil {
		t.Fatal(err)
	}
	v.maxPartLen = 2
	if _, err := v.impactPart(Query{Targets: []Target{{Symbol: "Helper"}}}); err != errPartTooLarge {
		t.Errorf("a part past its bound: %v, want errPartTooLarge", err)
	}
}

// A byte of the body changed since the seal fails the chunk that holds
// it when a part is read: the answer is built from the index instead,
// and is the same.
func TestPartTampered(t *testing.T) {
	needSyntax(t)
	dir := t.TempDir()
	writeAged(t, dir, snapFixture)
	ctx := context.Background()
	q := Query{Targets: []Target{{Symbol: "ReadFull"}}}
	ask := func() (*Impact, string) {
		ix, err := index.Open(index.Options{Dir: dir, Budget: -1})
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		p := New(Options{Index: ix})
		im, err := p.Impact(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		return im, p.snapshot
	}
	ask() // builds and writes the snapshot
	want, how := ask()
	if how != "read in part" {
		t.Fatalf("how = %q, want a part read", how)
	}
	file := filepath.Join(dir, snapshotDir, filepath.FromSlash(snapshotName))
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-1] ^= 1
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	got, how := ask()
	if !strings.Contains(how, errSnapshotForeign.Error()) {
		t.Errorf("how = %q, want the graph built because %q", how, errSnapshotForeign)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("impact (-want +got):\n%s", diff)
	}
}

// The digests of a body written in parts are those of the body whole,
// chunk by chunk, wherever the parts are cut.
func TestChunkSums(t *testing.T) {
	body := make([]byte, 3*snapChunk+123)
	for i := range body {
		body[i] = byte(i * 7)
	}
	var want []byte
	for off := 0; off < len(body); off += snapChunk {
		sum := sha256.Sum256(body[off:min(off+snapChunk, len(body))])
		want = append(want, sum[:]...)
	}
	for _, cuts := range [][]int{{}, {1}, {snapChunk}, {snapChunk - 1, snapChunk + 1, 2*snapChunk + 5}, {len(body)}} {
		var parts [][]byte
		prev := 0
		for _, c := range cuts {
			parts = append(parts, body[prev:c])
			prev = c
		}
		parts = append(parts, body[prev:])
		if got := chunkSums(parts); !bytes.Equal(got, want) {
			t.Errorf("cut at %v: digests differ", cuts)
		}
	}
}

// FuzzSnapshotView reads parts of arbitrary bodies: an error or a graph,
// never a panic.
func FuzzSnapshotView(f *testing.F) {
	d := decoder{buf: encodeSnapshot(&Graph{Version: "v", Nodes: []Node{{Path: "a.go", Kind: NodeKindFile},
		{Path: "a.go", Name: "f", Kind: "function"}, {Path: "a.go", Name: "T", Kind: "interface"}, {Path: "a.go", Name: "S", Kind: "struct"}},
		Edges: []Edge{{From: 1, To: 1, Kind: Calls, Method: ScopeResolved, Path: "a.go", Line: 1},
			{From: 3, To: 2, Kind: Implements, Method: MethodSet, Path: "a.go"}, {From: 0, To: 0, Kind: Tests, Path: "a.go"}}}, "b")}
	d.str()
	d.str()
	f.Add(d.buf)
	f.Fuzz(func(t *testing.T, body []byte) {
		ss := &sealedSnapshot{body: body}
		for _, read := range []func(v *snapView) (*Graph, error){
			func(v *snapView) (*Graph, error) {
				return v.impactPart(Query{Targets: []Target{{Symbol: "f"}, {Path: "a.go", StartLine: 1}}})
			},
			func(v *snapView) (*Graph, error) { return v.implementationsPart(Target{Symbol: "T"}) },
		} {
			v, err := ss.view()
			if err != nil {
				return
			}
			if g, err := read(v); err == nil {
				g.index()
			}
		}
	})
}

// A read across chunks gives the body's bytes whichever chunks were held
// before, reads each missing run at once, and refuses a run with a
// chunk changed since its digest was taken.
func TestSnapshotReadsRuns(t *testing.T) {
	body := make([]byte, 5*snapChunk+77)
	for i := range body {
		body[i] = byte(i * 13)
	}
	sums := chunkSums([][]byte{body})
	open := func(t *testing.T, data []byte) *sealedSnapshot {
		file := filepath.Join(t.TempDir(), "body")
		if err := os.WriteFile(file, data, 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return &sealedSnapshot{f: f, size: len(data), sums: sums, chunks: map[int][]byte{}}
	}
	for _, held := range [][]int{{}, {0}, {2}, {1, 3}, {0, 1, 2, 3, 4, 5}} {
		ss := open(t, body)
		for _, c := range held {
			if _, err := ss.chunk(c); err != nil {
				t.Fatal(err)
			}
		}
		for _, r := range [][2]int{{0, len(body)}, {snapChunk - 3, 2*snapChunk + 9}, {10, 4}, {4*snapChunk + 1, snapChunk + 76}} {
			got, err := ss.at(r[0], r[1])
			if err != nil {
				t.Fatalf("held %v, at(%d, %d): %v", held, r[0], r[1], err)
			}
			if !bytes.Equal(got, body[r[0]:r[0]+r[1]]) {
				t.Errorf("held %v, at(%d, %d): other bytes", held, r[0], r[1])
			}
		}
	}
	changed := bytes.Clone(body)
	changed[3*snapChunk+5] ^= 1
	ss := open(t, changed)
	if _, err := ss.chunk(1); err != nil {
		t.Fatal(err)
	}
	if _, err := ss.at(0, len(body)); !errors.Is(err, errSnapshotForeign) {
		t.Errorf("a changed chunk in a run: err = %v, want %v", err, errSnapshotForeign)
	}
	if _, err := ss.at(4*snapChunk, 10); err != nil {
		t.Errorf("an unchanged chunk after the refused run: %v", err)
	}
}

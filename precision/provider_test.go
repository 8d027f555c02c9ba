package precision

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/scip-code/scip/bindings/go/scip"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/evidence/evidencetest"
	"github.com/codecortex/codecortex/seal"
	"github.com/codecortex/codecortex/trust"
)

// writeProject lays fixtureSources and the fixture index out in a temporary
// project; the sources are dated an hour before the index.
func writeProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	for name, f := range fixtureSources {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "index.scip"), marshal(t, fixtureIndex()), 0o644); err != nil {
		t.Fatal(err)
	}
	accept(t, Options{Dir: dir, NoSnapshot: true})
	return dir
}

// writeForeignProject is writeProject as a clone gives it: the index
// arrives with the sources, and nobody here generated or accepted it.
func writeForeignProject(t *testing.T) string {
	t.Helper()
	dir := writeProject(t)
	if err := os.RemoveAll(filepath.Join(dir, ".codecortex")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func touch(t *testing.T, p string, when time.Time) {
	t.Helper()
	if err := os.Chtimes(p, when, when); err != nil {
		t.Fatal(err)
	}
}

func TestGatherFresh(t *testing.T) {
	dir := writeProject(t)
	p := New(Options{Dir: dir})
	defer p.Close()
	resp, err := p.Gather(context.Background(), evidence.Query{Path: "a.go", Line: 4, Column: 15,
		Kinds: []evidence.Kind{evidence.Definition}})
	if err != nil {
		t.Fatal(err)
	}
	want := []evidence.Record{{
		Kind: evidence.Definition, Provider: Name, Provenance: trust.PrecisionIndex, Trust: trust.Exact,
		Path: "a.go", StartLine: 2, StartColumn: 12, EndLine: 2, EndColumn: 18,
		Symbol: square, Confidence: 1, Exact: true,
		Metadata: evidence.Metadata{Attributes: map[string]string{
			"indexer": "scip-go 0.1.26", "encoding": "utf-8", "encoding_source": "measured"}},
	}}
	if diff := cmp.Diff(want, resp.Records); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	if resp.Report.State != "" && resp.Report.State != evidence.Available {
		t.Errorf("report = %+v, want available", resp.Report)
	}
	for _, r := range resp.Records {
		if err := r.Validate(); err != nil {
			t.Errorf("invalid record: %v", err)
		}
	}
}

func TestGatherKindsAndSymbols(t *testing.T) {
	dir := writeProject(t)
	p := New(Options{Dir: dir, IndexPath: "index.scip"})
	defer p.Close()
	tests := []struct {
		name string
		q    evidence.Query
		want []string // kind symbol target location
	}{
		{"implementations of the interface", evidence.Query{Path: "a.go", Line: 3, Column: 7, Kinds: []evidence.Kind{evidence.Implementation}},
			[]string{"implementation " + square + " " + shapeA + " a.go:2:12-2:18 implements"}},
		{"the interface a concrete type implements", evidence.Query{Path: "a.go", Line: 2, Column: 12, Kinds: []evidence.Kind{evidence.Implementation}},
			[]string{"implementation " + shapeA + " " + square + " a.go:3:6-3:11 implemented_by"}},
		{"references by symbol string", evidence.Query{Symbol: shapeB, Kinds: []evidence.Kind{evidence.Reference}},
			[]string{"reference " + shapeB + "  b/b.go:2:6-2:11 declaration", "reference " + shapeB + "  b/c.go:3:7-3:12"}},
		{"name lookup keeps both packages", evidence.Query{Symbol: "Shape", Kinds: []evidence.Kind{evidence.Definition}},
			[]string{"definition " + shapeA + "  a.go:3:6-3:11", "definition " + shapeB + "  b/b.go:2:6-2:11"}},
		{"no symbol at the position", evidence.Query{Path: "a.go", Line: 1, Column: 1}, nil},
		{"unknown document", evidence.Query{Path: "zzz.go", Line: 1, Column: 1}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := p.Gather(context.Background(), tt.q)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range resp.Records {
				line := strings.Join([]string{string(r.Kind), r.Symbol, r.TargetSymbol, r.Location()}, " ")
				if rel := r.Metadata.Attributes[RelationAttribute]; rel != "" {
					line += " " + rel
				}
				if IsDeclaration(&r) {
					line += " declaration"
				}
				got = append(got, line)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStaleness(t *testing.T) {
	ctx := context.Background()
	t.Run("manifest", func(t *testing.T) {
		dir := writeProject(t)
		p := New(Options{Dir: dir})
		defer p.Close()
		if st := p.Status(ctx); st.State != evidence.Available || st.Staleness.Method != "manifest" || st.Staleness.Checked != 4 {
			t.Fatalf("fresh status = %+v", st)
		}
		touch(t, filepath.Join(dir, "b/c.go"), time.Now().Add(time.Hour))
		st := p.Status(ctx)
		if st.State != evidence.StaleState || !strings.Contains(st.Reason, "b/c.go (changed)") || st.Staleness.Foreign {
			t.Fatalf("status after a change = %+v", st)
		}
		if st.Guidance != "run: scip-go --output index.scip" {
			t.Errorf("guidance = %q", st.Guidance)
		}
		resp, err := p.Gather(ctx, evidence.Query{Path: "a.go", Line: 2, Column: 12})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Report.State != evidence.StaleState || resp.Report.Guidance == "" {
			t.Errorf("report = %+v, want stale with guidance", resp.Report)
		}
		if len(resp.Records) == 0 {
			t.Fatal("a stale index returned nothing: stale results must still be returned")
		}
		for _, r := range resp.Records {
			if !r.Stale || r.Exact || r.Trust != trust.InferredHigh || r.Metadata.StaleFrom != trust.Exact {
				t.Errorf("stale record %s: stale %v exact %v trust %s", r.Location(), r.Stale, r.Exact, r.Trust)
			}
		}
	})
	t.Run("missing document", func(t *testing.T) {
		dir := writeProject(t)
		os.Remove(filepath.Join(dir, "multi.go"))
		st := New(Options{Dir: dir}).Status(ctx)
		if st.State != evidence.StaleState || !strings.Contains(st.Reason, "multi.go (missing)") {
			t.Fatalf("status = %+v", st)
		}
	})
	t.Run("manifest catches an older time", func(t *testing.T) {
		dir := writeProject(t)
		p := New(Options{Dir: dir})
		defer p.Close()
		if st := p.Status(ctx); st.State != evidence.Available || st.Staleness.Method != "manifest" {
			t.Fatalf("fresh status = %+v", st)
		}
		// A checkout that restores an older time with new content.
		a := filepath.Join(dir, "a.go")
		os.WriteFile(a, []byte("package a // changed\n"), 0o644)
		touch(t, a, time.Now().Add(-48*time.Hour))
		st := p.Status(ctx)
		if st.State != evidence.StaleState || !strings.Contains(st.Reason, "a.go (changed)") {
			t.Fatalf("status = %+v", st)
		}
	})
	t.Run("accepting keeps what changed after the index stale", func(t *testing.T) {
		dir := writeForeignProject(t)
		touch(t, filepath.Join(dir, "b/c.go"), time.Now().Add(time.Hour))
		accept(t, Options{Dir: dir})
		st := New(Options{Dir: dir}).Status(ctx)
		if st.State != evidence.StaleState || st.Staleness.Foreign || !strings.Contains(st.Reason, "b/c.go (changed)") {
			t.Fatalf("status = %+v", st)
		}
	})
}

// TestForeignIndex: an index that arrives with the repository — without
// a manifest, with one sealed under another key, with this user's
// manifest of another index file, or beside a planted snapshot — is never
// served as exact: its answers are stale and say where they come from,
// and a planted definition never outranks fresh structural evidence. Once
// the user accepts it, it is exact.
func TestForeignIndex(t *testing.T) {
	ctx := context.Background()
	q := evidence.Query{Path: "a.go", Line: 4, Column: 15, Kinds: []evidence.Kind{evidence.Definition}}
	otherKey, _ := seal.NewKey(bytes.Repeat([]byte{8}, seal.KeySize))
	tests := []struct {
		name  string
		setup func(t *testing.T) string
		why   string
	}{
		{"no manifest", writeForeignProject, "not generated or accepted by this user's cortex"},
		{"manifest sealed under another key", func(t *testing.T) string {
			dir := writeForeignProject(t)
			accept(t, Options{Dir: dir, Seal: otherKey})
			return dir
		}, "not the one this user's cortex generated or accepted"},
		{"this user's manifest of another index", func(t *testing.T) string {
			dir := writeProject(t)
			// The same size and time, other content.
			idx := filepath.Join(dir, "index.scip")
			fi, _ := os.Stat(idx)
			b, _ := os.ReadFile(idx)
			b[len(b)-1] ^= 0x20
			os.WriteFile(idx, b, 0o644)
			os.Chtimes(idx, fi.ModTime(), fi.ModTime())
			os.RemoveAll(filepath.Join(dir, filepath.FromSlash(SnapshotDir)))
			return dir
		}, "not the one this user's cortex generated or accepted"},
		{"a planted snapshot and manifest", func(t *testing.T) string {
			// The attacker's own cortex, with its own key, wrote both.
			dir := writeForeignProject(t)
			accept(t, Options{Dir: dir, Seal: otherKey})
			p := New(Options{Dir: dir, Seal: otherKey})
			if st := p.Status(ctx); st.State != evidence.Available {
				t.Fatalf("under the key that made them: %+v", st)
			}
			p.Close()
			return dir
		}, "not the one this user's cortex generated or accepted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.setup(t)
			p := New(Options{Dir: dir})
			defer p.Close()
			st := p.Status(ctx)
			if st.State != evidence.StaleState || !st.Staleness.Foreign || !strings.Contains(st.Reason, tt.why) ||
				!strings.Contains(st.Guidance, "cortex precision-status --accept") {
				t.Fatalf("status = %+v", st)
			}
			resp, err := p.Gather(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if len(resp.Records) == 0 {
				t.Fatal("a foreign index answered nothing: it is served as stale, not dropped")
			}
			for _, r := range resp.Records {
				if r.Exact || !r.Stale || r.Metadata.Attributes[OriginAttribute] != "foreign" {
					t.Errorf("record %s: exact %v stale %v origin %q", r.Location(), r.Exact, r.Stale, r.Metadata.Attributes[OriginAttribute])
				}
				structural := evidence.Record{Trust: trust.Structural, Confidence: 0.01}
				if trust.Score(r.Trust, r.Confidence, r.Stale) >= trust.Score(structural.Trust, structural.Confidence, false) {
					t.Errorf("a foreign record scores %v, not below the weakest fresh structural record", trust.Score(r.Trust, r.Confidence, r.Stale))
				}
			}
			accept(t, Options{Dir: dir})
			p2 := New(Options{Dir: dir})
			defer p2.Close()
			if st := p2.Status(ctx); st.State != evidence.Available || st.Staleness.Foreign {
				t.Errorf("after the user accepted it: %+v", st)
			}
		})
	}
}

func TestUnavailable(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		setup  func(dir string)
		opts   Options
		reason string
	}{
		{"no index", func(dir string) { os.Remove(filepath.Join(dir, "index.scip")) }, Options{}, "no precision index at"},
		{"truncated index", func(dir string) {
			p := filepath.Join(dir, "index.scip")
			b, _ := os.ReadFile(p)
			os.WriteFile(p, b[:len(b)-5], 0o644)
		}, Options{}, "unreadable index"},
		{"metadata only", func(dir string) {
			ix := fixtureIndex()
			ix.Documents = nil
			os.WriteFile(filepath.Join(dir, "index.scip"), marshal(t, ix), 0o644)
		}, Options{}, "holds no documents: it is truncated after its metadata, or scip-go found no source"},
		{"every document outside the root", func(dir string) {
			ix := fixtureIndex()
			ix.Documents = ix.Documents[len(ix.Documents)-1:]
			os.WriteFile(filepath.Join(dir, "index.scip"), marshal(t, ix), 0o644)
		}, Options{}, "holds no documents: all 1 of its documents are outside the project root"},
		{"empty file", func(dir string) { os.WriteFile(filepath.Join(dir, "index.scip"), nil, 0o644) }, Options{}, "unreadable index: no metadata"},
		{"unsupported protocol", func(dir string) {
			ix := fixtureIndex()
			ix.Metadata.Version = 3
			os.WriteFile(filepath.Join(dir, "index.scip"), marshal(t, ix), 0o644)
		}, Options{}, "unsupported SCIP protocol version"},
		{"path breaking the protocol", func(dir string) {
			ix := fixtureIndex()
			ix.Documents[0].RelativePath = "/abs/a.go"
			os.WriteFile(filepath.Join(dir, "index.scip"), marshal(t, ix), 0o644)
		}, Options{}, "breaks the SCIP protocol"},
		{"configured path outside the root", func(string) {}, Options{IndexPath: "../index.scip"}, "no precision index at ../index.scip"},
		{"generator missing", func(dir string) { os.Remove(filepath.Join(dir, "index.scip")) },
			Options{AutoGenerate: true, GeneratorCommand: []string{"no-such-indexer-xyz"}}, "index generator no-such-indexer-xyz not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeProject(t)
			tt.setup(dir)
			opts := tt.opts
			opts.Dir = dir
			p := New(opts)
			defer p.Close()
			_, err := p.Gather(ctx, evidence.Query{Path: "a.go", Line: 2, Column: 12})
			var ue *evidence.UnavailableError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.reason) {
				t.Fatalf("Gather error = %v, want unavailable mentioning %q", err, tt.reason)
			}
			// Collect turns it into a report; nothing aborts.
			recs, reps := evidence.Collect(ctx, evidence.Query{Path: "a.go", Line: 2, Column: 12}, []evidence.Provider{p}, evidence.CollectOptions{})
			if len(recs) != 0 || reps[0].State != evidence.Unavailable || !strings.Contains(reps[0].Reason, tt.reason) {
				t.Errorf("Collect = %d records, report %+v", len(recs), reps[0])
			}
			if st := p.Status(ctx); st.State != evidence.Unavailable {
				t.Errorf("Status = %+v", st)
			}
		})
	}
}

func TestDisabled(t *testing.T) {
	p := New(Options{Dir: t.TempDir(), Disabled: true})
	_, err := p.Gather(context.Background(), evidence.Query{Symbol: "x"})
	if !errors.Is(err, evidence.ErrDisabled) {
		t.Fatalf("Gather error = %v, want ErrDisabled", err)
	}
	if st := p.Status(context.Background()); st.State != evidence.Disabled {
		t.Errorf("Status = %+v", st)
	}
}

func TestAutoGenerate(t *testing.T) {
	dir := writeProject(t)
	idx := filepath.Join(dir, "index.scip")
	data, _ := os.ReadFile(idx)
	os.Remove(idx)
	if err := os.WriteFile(filepath.Join(dir, "prepared.scip"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	var progress bytes.Buffer
	// cp stands in for an indexer: it writes the index where configured.
	p := New(Options{Dir: dir, IndexPath: "index.scip", AutoGenerate: true,
		GeneratorCommand: []string{"cp", "prepared.scip", "index.scip"}, Progress: &progress})
	defer p.Close()
	resp, err := p.Gather(context.Background(), evidence.Query{Path: "a.go", Line: 2, Column: 12, Kinds: []evidence.Kind{evidence.Definition}})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Records) != 1 || !resp.Records[0].Exact {
		t.Fatalf("records = %+v", resp.Records)
	}
	if !strings.Contains(progress.String(), "regenerating the precision index (no index at index.scip): cp prepared.scip index.scip") {
		t.Errorf("progress = %q", progress.String())
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(manifestPath("index.scip")))); err != nil {
		t.Errorf("no sources manifest after generation: %v", err)
	}
	if st := p.Status(context.Background()); st.Staleness.Method != "manifest" || st.State != evidence.Available {
		t.Errorf("status = %+v", st)
	}
	// The generation wrote the snapshot the load after it read.
	if st := p.Status(context.Background()); !strings.Contains(st.Snapshot, "read from the snapshot") {
		t.Errorf("after generation, the index was %s", st.Snapshot)
	}
	// A change makes it stale; the next request regenerates it.
	a := filepath.Join(dir, "a.go")
	touch(t, a, time.Now().Add(time.Hour))
	progress.Reset()
	resp, err = p.Gather(context.Background(), evidence.Query{Path: "a.go", Line: 2, Column: 12, Kinds: []evidence.Kind{evidence.Definition}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(progress.String(), "a.go (changed)") || resp.Report.State == evidence.StaleState {
		t.Errorf("after a change: progress %q, report %+v", progress.String(), resp.Report)
	}
}

func TestEdges(t *testing.T) {
	dir := writeProject(t)
	p := New(Options{Dir: dir})
	defer p.Close()
	seq, rep, err := p.Edges(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.State != evidence.Available {
		t.Errorf("report = %+v", rep)
	}
	var got []string
	for r := range seq {
		if !r.Exact {
			t.Errorf("edge %s is not exact", r.Location())
		}
		got = append(got, string(r.Kind)+" "+r.Location()+" → "+r.TargetSymbol)
	}
	want := []string{
		"reference a.go:4:15-4:21 → " + square,
		"implementation a.go:2:12-2:18 → " + shapeA,
		"reference a.go:4:7-4:12 → " + shapeA,
		"reference b/c.go:3:7-3:12 → " + shapeB,
		"reference b/b.go:3:24-3:25 → local 0",
		"reference b/c.go:2:24-2:25 → local 0",
		"reference multi.go:2:12-3:3 → " + pkgA + "long.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("edges (-want +got):\n%s", diff)
	}
}

// TestEdgesOfTheProject: Edges gives no use of a symbol the index does
// not define (jinja2's t.Tuple is typing's, not its own nodes.Tuple): the
// graph would place it at a project definition of the same name.
func TestEdgesOfTheProject(t *testing.T) {
	const (
		own   = "scip-python python m 1.0 `m.nodes`/Tuple#"
		other = "scip-python python python-stdlib 3.11 `typing`/Tuple#"
	)
	dir := t.TempDir()
	src := "class Tuple: pass\nx: t.Tuple = Tuple()\n"
	if err := os.WriteFile(filepath.Join(dir, "nodes.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ix := &scip.Index{
		Metadata: &scip.Metadata{ToolInfo: &scip.ToolInfo{Name: "scip-python", Version: "0.6.6"}, ProjectRoot: "file:///src"},
		Documents: []*scip.Document{{RelativePath: "nodes.py", Occurrences: []*scip.Occurrence{
			occ([]int32{0, 6, 11}, own, scip.SymbolRole_Definition),
			occ([]int32{1, 5, 10}, other, 0),
			occ([]int32{1, 13, 18}, own, 0),
		}}},
	}
	if err := os.WriteFile(filepath.Join(dir, "index.scip"), marshal(t, ix), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	for _, f := range []string{"nodes.py", "index.scip"} {
		if err := os.Chtimes(filepath.Join(dir, f), old, old); err != nil {
			t.Fatal(err)
		}
	}
	accept(t, Options{Dir: dir, NoSnapshot: true})
	p := New(Options{Dir: dir})
	defer p.Close()
	seq, _, err := p.Edges(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for r := range seq {
		got = append(got, r.Location()+" → "+r.TargetSymbol)
	}
	if want := []string{"nodes.py:2:14-2:19 → " + own}; !slices.Equal(got, want) {
		t.Errorf("edges = %q, want %q", got, want)
	}
}

func TestFailedRegenerationKeepsStaleAnswers(t *testing.T) {
	dir := writeProject(t)
	touch(t, filepath.Join(dir, "a.go"), time.Now().Add(time.Hour))
	var progress bytes.Buffer
	p := New(Options{Dir: dir, AutoGenerate: true, GeneratorCommand: []string{"false", "index.scip"}, Progress: &progress})
	defer p.Close()
	resp, err := p.Gather(context.Background(), evidence.Query{Path: "a.go", Line: 2, Column: 12, Kinds: []evidence.Kind{evidence.Definition}})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Records) != 1 || !resp.Records[0].Stale {
		t.Errorf("records = %+v, want the stale answer", resp.Records)
	}
	if resp.Report.State != evidence.StaleState || !strings.Contains(resp.Report.Reason, "regenerating it failed: index generation failed") {
		t.Errorf("report = %+v", resp.Report)
	}
	if !strings.Contains(progress.String(), "regenerating the precision index") {
		t.Errorf("progress = %q", progress.String())
	}
}

// The provider keeps the evidence contract checked by the conformance kit
// hosts run on their own providers: fresh answers, a stale index, and
// position and symbol queries of every kind.
func TestConformance(t *testing.T) {
	dir := writeProject(t)
	p := New(Options{Dir: dir})
	defer p.Close()
	queries := []evidence.Query{
		{Path: "a.go", Line: 4, Column: 15},
		{Path: "a.go", Line: 4, Column: 15, Kinds: []evidence.Kind{evidence.Reference}},
		{Path: "a.go", Line: 2, Column: 12, Kinds: []evidence.Kind{evidence.Implementation}},
		{Symbol: square},
		{Path: "missing.go", Line: 1, Column: 1},
	}
	evidencetest.TestProvider(t, p, dir, queries...)

	// Touch a source so the index is stale: the records must still conform.
	now := time.Now()
	if err := os.Chtimes(filepath.Join(dir, "a.go"), now, now); err != nil {
		t.Fatal(err)
	}
	stale := New(Options{Dir: dir})
	defer stale.Close()
	resp, err := stale.Gather(context.Background(), queries[0])
	if err != nil || resp.Report.State != evidence.StaleState || len(resp.Records) == 0 || !resp.Records[0].Stale {
		t.Fatalf("touching a.go did not make the answers stale: %+v, %v", resp, err)
	}
	evidencetest.TestProvider(t, stale, dir, queries...)
}

// Discovery takes the first candidate that is a regular file, in the
// specification's order, and names the first one when none exists.
func TestIndexDiscovery(t *testing.T) {
	cands := IndexCandidates()
	if cands[0] != ".codecortex/precision/index.cortexidx" || cands[len(cands)-1] != "index.scip" {
		t.Fatalf("candidates = %q", cands)
	}
	cands[0] = "changed" // the caller owns the slice
	if IndexCandidates()[0] == "changed" {
		t.Fatal("IndexCandidates returns shared state")
	}
	tests := []struct {
		name      string
		files     []string
		dirs      []string
		want      string
		wantFound bool
	}{
		{"none", nil, nil, ".codecortex/precision/index.cortexidx", false},
		{"only index.scip", []string{"index.scip"}, nil, "index.scip", true},
		{"the first present wins", []string{"index.scip", "build/index.cortexidx", "index.cortexidx"}, nil, "index.cortexidx", true},
		{"a directory is not an index", []string{"index.scip"}, []string{".codecortex/precision/index.cortexidx"}, "index.scip", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tt.files {
				p := filepath.Join(dir, filepath.FromSlash(f))
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, d := range tt.dirs {
				if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			st := New(Options{Dir: dir}).Status(context.Background())
			if st.IndexPath != tt.want {
				t.Errorf("index path = %q, want %q", st.IndexPath, tt.want)
			}
			if found := !strings.HasPrefix(st.Reason, "no precision index"); found != tt.wantFound {
				t.Errorf("found = %v (status %+v), want %v", found, st, tt.wantFound)
			}
		})
	}
}

func TestWithoutDeclarations(t *testing.T) {
	decl := map[string]string{DeclarationAttribute: "true"}
	recs := []evidence.Record{
		{Kind: evidence.Reference, Path: "a.go", StartLine: 1, Metadata: evidence.Metadata{Attributes: decl}},
		{Kind: evidence.Reference, Path: "a.go", StartLine: 2},
		{Kind: evidence.Definition, Path: "a.go", StartLine: 1, Metadata: evidence.Metadata{Attributes: decl}},
		{Kind: evidence.Reference, Path: "a.go", StartLine: 3, Metadata: evidence.Metadata{Attributes: map[string]string{DeclarationAttribute: "false"}}},
	}
	before := slices.Clone(recs)
	var got []string
	for _, r := range WithoutDeclarations(recs) {
		got = append(got, fmt.Sprintf("%s %d", r.Kind, r.StartLine))
	}
	if diff := cmp.Diff([]string{"reference 2", "definition 1", "reference 3"}, got); diff != "" {
		t.Errorf("WithoutDeclarations (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(before, recs); diff != "" {
		t.Errorf("the input changed (-before +after):\n%s", diff)
	}
}

// A position question without an answer says why in the report: which of
// a missing file, a line or column past the end, a file the index does not
// hold, or a position without a symbol it is.
func TestPositionProblems(t *testing.T) {
	dir := writeProject(t)
	if err := os.WriteFile(filepath.Join(dir, "new.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	touch(t, filepath.Join(dir, "new.go"), time.Now().Add(-time.Hour))
	p := New(Options{Dir: dir})
	defer p.Close()
	tests := []struct {
		path      string
		line, col int
		reason    string
	}{
		{"zzz.go", 1, 1, "zzz.go:1:1: zzz.go is not a file in the project"},
		{"a.go", 99, 1, "a.go:99:1: line 99 is past the end of a.go, which has 4 lines"},
		{"a.go", 1, 50, "a.go:1:50: column 50 is past the end of line 1, which has 9 characters"},
		{"new.go", 1, 1, "new.go:1:1: the index does not hold new.go (it was added after indexing, or the indexer skipped it)"},
		{"a.go", 1, 1, "a.go:1:1: no indexed symbol at this position"},
		{"a.go", 0, 3, "a.go:0:3 is not a position: lines and columns count from 1"},
		{"b", 1, 1, "b:1:1: b cannot be read"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			q := evidence.Query{Path: tt.path, Line: tt.line, Column: tt.col}
			recs, reps := evidence.Collect(context.Background(), q, []evidence.Provider{p}, evidence.CollectOptions{})
			if len(recs) != 0 {
				t.Errorf("records = %+v", recs)
			}
			if reps[0].State != evidence.Available || !strings.HasPrefix(reps[0].Reason, tt.reason) {
				t.Errorf("report = %+v, want available with reason %q", reps[0], tt.reason)
			}
		})
	}
	// A stale index says both.
	touch(t, filepath.Join(dir, "a.go"), time.Now().Add(time.Hour))
	resp, err := p.Gather(context.Background(), evidence.Query{Path: "a.go", Line: 99, Column: 1})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Report.State != evidence.StaleState || !strings.HasSuffix(resp.Report.Reason, "; a.go:99:1: line 99 is past the end of a.go, which has 4 lines") {
		t.Errorf("stale report = %+v", resp.Report)
	}
}

// A name answers every symbol it may mean, each record naming its
// candidate; the report says the name was ambiguous.
func TestGatherByName(t *testing.T) {
	dir := writeProject(t)
	p := New(Options{Dir: dir})
	defer p.Close()
	tests := []struct {
		name   string
		want   []string
		reason string
	}{
		{"Shape", []string{
			"a.go:3:6-3:11 gomod example.com/a v1.0.0 example.com/a.Shape 2",
			"b/b.go:2:6-2:11 gomod example.com/b v1.0.0 example.com/b.Shape 2",
		}, `"Shape" may mean 2 symbols, all answered: example.com/a.Shape, example.com/b.Shape`},
		{"b.Shape", []string{"b/b.go:2:6-2:11 gomod example.com/b v1.0.0 example.com/b.Shape 1"}, ""},
		{"Circle", nil, `the index has no symbol named "Circle"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := p.Gather(context.Background(), evidence.Query{Symbol: tt.name, Kinds: []evidence.Kind{evidence.Definition}})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range resp.Records {
				a := r.Metadata.Attributes
				got = append(got, strings.Join([]string{r.Location(), a["package"], a["qualified_name"], a["candidates"]}, " "))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
			if resp.Report.Reason != tt.reason {
				t.Errorf("reason = %q, want %q", resp.Report.Reason, tt.reason)
			}
		})
	}
}

package precision

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/scip-code/scip/bindings/go/scip"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/seal"
)

// indexDump is every table of an Index in a form cmp compares.
type indexDump struct {
	Meta           Metadata
	Stats          Stats
	Dropped        []DroppedDocument
	Docs           []docDump
	Syms           []symDump
	ByPath         map[string]int32
	DefOff, RefOff []uint32
	Defs, Refs     [][2]uint32
	ImplBy, ImplOf map[uint32][]uint32
}

type docDump struct {
	Path     string
	Declared int32
	Enc      Encoding
	EncSrc   EncodingSource
	Text     string
	Occs     [][6]int64
}

type symDump struct {
	Name string
	Doc  int32
	Info *SymbolInfo
}

func dump(ix *Index) indexDump {
	d := indexDump{Meta: ix.meta, Stats: ix.stats, Dropped: ix.dropped, ByPath: ix.byPath,
		DefOff: ix.defOff, RefOff: ix.refOff, ImplBy: ix.implBy, ImplOf: ix.implOf}
	for i := range ix.docs {
		doc := &ix.docs[i]
		dd := docDump{Path: doc.path, Declared: int32(doc.declared), Enc: doc.enc, EncSrc: doc.encSrc, Text: doc.text}
		for _, o := range doc.occs {
			dd.Occs = append(dd.Occs, [6]int64{int64(o.sl), int64(o.sc), int64(o.el), int64(o.ec), int64(o.sym), int64(o.roles)})
		}
		d.Docs = append(d.Docs, dd)
	}
	for _, s := range ix.syms {
		d.Syms = append(d.Syms, symDump{s.name, s.doc, s.info})
	}
	for _, r := range ix.defs {
		d.Defs = append(d.Defs, [2]uint32{r.doc, r.occ})
	}
	for _, r := range ix.refs {
		d.Refs = append(d.Refs, [2]uint32{r.doc, r.occ})
	}
	return d
}

var testKey = snapshotKey{build: "test build", rel: "index.scip", size: 12345, mtime: 5678, sample: [32]byte{1, 2, 3}}

// roundTrip writes ix to a snapshot and reads it back with ix's source.
func roundTrip(t testing.TB, ix *Index) *Index {
	t.Helper()
	got, err := decodeTest(encodeTest(t, ix, testKey), testKey, testSeal)
	if err != nil {
		t.Fatal(err)
	}
	got.src = ix.src
	return got
}

// compareIndexes checks that got answers every question as want does: its
// tables, every occurrence's location and symbol, every symbol's
// definitions, references (direct and through interfaces),
// implementations both ways, lookup by symbol string and by name, and the
// provider's answer records.
func compareIndexes(t *testing.T, want, got *Index) {
	t.Helper()
	if diff := cmp.Diff(dump(want), dump(got)); diff != "" {
		t.Fatalf("tables (-index +snapshot):\n%s", diff)
	}
	if diff := cmp.Diff(want.Paths(), got.Paths()); diff != "" {
		t.Errorf("Paths (-index +snapshot):\n%s", diff)
	}
	symOpt := cmp.AllowUnexported(Symbol{})
	names := map[string]bool{}
	for di := range want.docs {
		p := want.docs[di].path
		for oi := range want.docs[di].occs {
			wl, gl := want.location(uint32(di), uint32(oi)), got.location(uint32(di), uint32(oi))
			if diff := cmp.Diff(wl, gl); diff != "" {
				t.Fatalf("location of %s occurrence %d (-index +snapshot):\n%s", p, oi, diff)
			}
			ws, wloc, werr := want.SymbolAt(p, wl.StartLine, wl.StartColumn)
			gs, gloc, gerr := got.SymbolAt(p, wl.StartLine, wl.StartColumn)
			if diff := cmp.Diff([]any{ws, wloc, fmt.Sprint(werr)}, []any{gs, gloc, fmt.Sprint(gerr)}, symOpt); diff != "" {
				t.Fatalf("SymbolAt %s:%d:%d (-index +snapshot):\n%s", p, wl.StartLine, wl.StartColumn, diff)
			}
		}
	}
	all := evidence.Query{Kinds: []evidence.Kind{evidence.Definition, evidence.Reference, evidence.Implementation}}
	for id := range want.syms {
		ws, gs := want.symbol(uint32(id)), got.symbol(uint32(id))
		type answers struct {
			Defs, Refs, Dyn, Alias []Location
			Impls, Of              []Symbol
			Lookup                 Symbol
			Records                []evidence.Record
		}
		a := func(ix *Index, s Symbol) answers {
			l, _ := ix.Lookup(s.Name, s.Document)
			return answers{ix.Definitions(s), ix.References(s), ix.DynamicReferences(s), ix.AliasedReferences(s),
				ix.Implementations(s), ix.Implements(s), l, ix.answer(s, &all, true)}
		}
		if diff := cmp.Diff(a(want, ws), a(got, gs), symOpt); diff != "" {
			t.Fatalf("answers about %s (-index +snapshot):\n%s", ws.Name, diff)
		}
		if g, ok := parseGlobal(ws.Name); ok {
			names[g.chain[len(g.chain)-1]] = true
			names[g.qualified()] = true
		}
	}
	for _, name := range slices.Sorted(maps.Keys(names)) {
		if diff := cmp.Diff(want.LookupName(name), got.LookupName(name), symOpt); diff != "" {
			t.Fatalf("LookupName(%q) (-index +snapshot):\n%s", name, diff)
		}
	}
	// The snapshot's table of keys, built on demand, is the loader's.
	for range linearLookups + 1 {
		got.symbolID(symKey{-1, "x"})
	}
	if g := got.symID.Load(); g == nil || !maps.Equal(*want.symID.Load(), *g) {
		t.Errorf("the table of keys built from the snapshot differs from the loader's")
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		ix   func(t *testing.T) *Index
	}{
		{"fixture", func(t *testing.T) *Index { return loadFixture(t) }},
		{"lookup fixture", func(t *testing.T) *Index { return lookupIndex(t) }},
		{"declared encodings, embedded text, odd locals and arguments", func(t *testing.T) *Index {
			idx := fixtureIndex()
			idx.Metadata.ToolInfo.Arguments = []string{"--flag", "日本"}
			idx.Documents[0].PositionEncoding = scip.PositionEncoding_UTF16CodeUnitOffsetFromLineStart
			idx.Documents[1].Text = "package b\n// 😀\n"
			idx.Documents[2].Occurrences = append(idx.Documents[2].Occurrences,
				occ([]int32{0, 0, 1}, "local 38(x)", scip.SymbolRole_Definition))
			idx.ExternalSymbols = []*scip.SymbolInformation{
				{Symbol: "local 9", Documentation: []string{"a local outside any document"}},
				{Symbol: pkgB + "Ext#", Kind: scip.SymbolInformation_Interface,
					Relationships: []*scip.Relationship{{Symbol: shapeB, IsImplementation: true}}},
			}
			data := marshal(t, idx)
			ix, err := Load(context.Background(), bytes.NewReader(data), LoadOptions{Source: fixtureSources})
			if err != nil {
				t.Fatal(err)
			}
			return ix
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ix := tt.ix(t)
			compareIndexes(t, ix, roundTrip(t, ix))
		})
	}
}

// encodeBroken writes a snapshot of the fixture after break changes it
// into something no index loads to, with a correct checksum.
func encodeBroken(t *testing.T, brk func(ix *Index)) []byte {
	ix := loadFixture(t)
	brk(ix)
	return encodeTest(t, ix, testKey)
}

// reseal seals data again with testSeal after rechecksum, as the cortex
// that wrote it would have.
func reseal(data []byte) []byte {
	data = rechecksum(data)
	le := binary.LittleEndian
	sealLen := int(le.Uint32(data[36:]))
	body := snapHeaderSize + sealLen
	sl, _ := testSeal.Seal(purposeSnapshot, data[:36], data[body:body+int(le.Uint32(data[12:]))])
	copy(data[snapHeaderSize:body], sl)
	return data
}

// rechecksum sets the checksum of data to match its body (what follows
// the seal section).
func rechecksum(data []byte) []byte {
	if len(data) >= snapHeaderSize {
		body := snapHeaderSize + int(binary.LittleEndian.Uint32(data[36:]))
		if body <= len(data) {
			binary.LittleEndian.PutUint32(data[32:], crc32.Checksum(data[body:], snapCRC()))
		}
	}
	return data
}

func TestSnapshotRejects(t *testing.T) {
	good := encodeTest(t, loadFixture(t), testKey)
	edit := func(f func(b []byte) []byte) []byte { return f(slices.Clone(good)) }
	other := func(f func(k *snapshotKey)) snapshotKey {
		k := testKey
		f(&k)
		return k
	}
	tests := []struct {
		name string
		data []byte
		key  snapshotKey
		want error
	}{
		{"empty", nil, testKey, errSnapshotCorrupt},
		{"header only", good[:snapHeaderSize], testKey, errSnapshotCorrupt},
		{"truncated", good[:len(good)-1], testKey, errSnapshotCorrupt},
		{"trailing byte", append(slices.Clone(good), 0), testKey, errSnapshotCorrupt},
		{"bad magic", edit(func(b []byte) []byte { b[0] = 'x'; return b }), testKey, errSnapshotCorrupt},
		{"flipped byte", edit(func(b []byte) []byte { b[len(b)-3] ^= 1; return b }), testKey, errSnapshotCorrupt},
		{"other version", edit(func(b []byte) []byte { b[8]++; return b }), testKey, errSnapshotMismatch},
		{"other build", good, other(func(k *snapshotKey) { k.build = "another" }), errSnapshotMismatch},
		{"other index path", good, other(func(k *snapshotKey) { k.rel = "x.scip" }), errSnapshotMismatch},
		{"other size", good, other(func(k *snapshotKey) { k.size++ }), errSnapshotMismatch},
		{"other time", good, other(func(k *snapshotKey) { k.mtime++ }), errSnapshotMismatch},
		{"other content", good, other(func(k *snapshotKey) { k.sample[31] = 9 }), errSnapshotMismatch},
		{"sealed by another key", func() []byte {
			other, _ := seal.NewKey(bytes.Repeat([]byte{6}, seal.KeySize))
			b, err := encodeSnapshot(loadFixture(t), testKey, [32]byte{}, other)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}(), testKey, errSnapshotForeign},
		{"seal flipped", edit(func(b []byte) []byte { b[snapHeaderSize+5] ^= 1; return b }), testKey, errSnapshotForeign},
		{"checksum changed", edit(func(b []byte) []byte { b[33] ^= 1; return b }), testKey, errSnapshotForeign},
		{"seal too long", edit(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[36:], maxSealLen+1); return b }), testKey, errSnapshotCorrupt},
		{"huge count", edit(func(b []byte) []byte {
			// The tool name's length is the first byte of the variable
			// section.
			at := snapHeaderSize + int(binary.LittleEndian.Uint32(b[36:])) + int(binary.LittleEndian.Uint32(b[12:]))
			b[at] = 0xff
			return reseal(b)
		}), testKey, errSnapshotCorrupt},
		{"symbol out of range", encodeBroken(t, func(ix *Index) { ix.docs[0].occs[0].sym = 999 }), testKey, errSnapshotCorrupt},
		{"occurrences out of order", encodeBroken(t, func(ix *Index) {
			o := ix.docs[0].occs
			o[0], o[1] = o[1], o[0]
		}), testKey, errSnapshotCorrupt},
		{"repeated occurrence", encodeBroken(t, func(ix *Index) { ix.docs[0].occs[1] = ix.docs[0].occs[0] }), testKey, errSnapshotCorrupt},
		{"invalid range", encodeBroken(t, func(ix *Index) { ix.docs[0].occs[0].ec = 0 }), testKey, errSnapshotCorrupt},
		{"negative line", encodeBroken(t, func(ix *Index) { ix.docs[0].occs[0].sl = -1 }), testKey, errSnapshotCorrupt},
		{"path outside the root", encodeBroken(t, func(ix *Index) { ix.docs[0].path = "../a.go" }), testKey, errSnapshotCorrupt},
		{"absolute path", encodeBroken(t, func(ix *Index) { ix.docs[0].path = "/a.go" }), testKey, errSnapshotCorrupt},
		{"repeated path", encodeBroken(t, func(ix *Index) { ix.docs[1].path = ix.docs[0].path }), testKey, errSnapshotCorrupt},
		{"no documents", encodeBroken(t, func(ix *Index) { ix.docs = nil }), testKey, errSnapshotCorrupt},
		{"empty symbol", encodeBroken(t, func(ix *Index) { ix.syms[0].name = "" }), testKey, errSnapshotCorrupt},
		{"global in a document", encodeBroken(t, func(ix *Index) { ix.syms[0].doc = 0 }), testKey, errSnapshotCorrupt},
		{"symbol of a missing document", encodeBroken(t, func(ix *Index) {
			for i := range ix.syms {
				if ix.syms[i].doc >= 0 {
					ix.syms[i].doc = 40
				}
			}
		}), testKey, errSnapshotCorrupt},
		{"local of another document", encodeBroken(t, func(ix *Index) {
			for i := range ix.syms {
				if ix.syms[i].doc >= 0 {
					ix.syms[i].doc = 0
					ix.syms[i].name = fmt.Sprintf("local %d", 100+i)
				}
			}
		}), testKey, errSnapshotCorrupt},
		{"empty information", encodeBroken(t, func(ix *Index) { ix.syms[0].info = &SymbolInfo{} }), testKey, errSnapshotCorrupt},
		{"self-relation", encodeBroken(t, func(ix *Index) { ix.implOf[0] = []uint32{0} }), testKey, errSnapshotCorrupt},
		{"relation out of range", encodeBroken(t, func(ix *Index) { ix.implOf[0] = []uint32{777} }), testKey, errSnapshotCorrupt},
		{"relations out of order", encodeBroken(t, func(ix *Index) { ix.implOf[0] = []uint32{3, 2} }), testKey, errSnapshotCorrupt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ix, err := decodeTest(tt.data, tt.key, testSeal)
			if !errors.Is(err, tt.want) {
				t.Fatalf("decodeSnapshot = %v, %v; want an error wrapping %v", ix != nil, err, tt.want)
			}
			t.Log(err)
		})
	}
	if _, err := decodeTest(good, testKey, testSeal); err != nil {
		t.Errorf("the unbroken snapshot: %v", err)
	}
	// A file far larger than the index could give is refused before
	// anything is read or allocated for it.
	huge := maxSnapshotSize(testKey.size) + 1
	if _, _, err := readSnapshot(iotest.ErrReader(errors.New("read")), huge, testKey, testSeal); !errors.Is(err, errSnapshotCorrupt) || !strings.Contains(err.Error(), "more than an index") {
		t.Errorf("a snapshot of %d bytes for an index of %d: %v", huge, testKey.size, err)
	}
}

// FuzzSnapshot feeds the snapshot reader arbitrary bytes, as they are and
// with a checksum that matches them (so that the parser past the checksum
// is reached), seeded with snapshots of the fixtures. It must return an
// index or an error, never panic; an index it returns answers queries, and
// writing it again reads back to the same tables.
func FuzzSnapshot(f *testing.F) {
	good := encodeTest(f, loadFixture(f), testKey)
	f.Add(good)
	f.Add(encodeTest(f, lookupIndex(f), testKey))
	f.Add(good[:len(good)/2])
	f.Add(good[:snapHeaderSize])
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, d := range [][]byte{data, rechecksum(slices.Clone(data))} {
			ix, err := decodeTest(d, testKey, anySeal{})
			if err != nil {
				if !errors.Is(err, errSnapshotCorrupt) && !errors.Is(err, errSnapshotMismatch) {
					t.Fatalf("error %v wraps neither snapshot error", err)
				}
				continue
			}
			ix.src = fixtureSources
			for _, p := range ix.Paths() {
				for line := 1; line < 5; line++ {
					if s, _, err := ix.SymbolAt(p, line, 3); err == nil {
						ix.answer(s, &evidence.Query{}, true)
					}
				}
			}
			for id := range ix.syms {
				ix.answer(ix.symbol(uint32(id)), &evidence.Query{}, true)
			}
			ix.LookupName("Shape")
			again, err := decodeTest(encodeTest(t, ix, testKey), testKey, testSeal)
			if err != nil {
				t.Fatalf("a decoded snapshot does not read back: %v", err)
			}
			if diff := cmp.Diff(dump(ix), dump(again)); diff != "" {
				t.Fatalf("read back (-first +again):\n%s", diff)
			}
		}
	})
}

// snapshotPath is where the provider keeps the snapshot of dir's index.scip.
func snapshotPath(dir string) string {
	return filepath.Join(dir, filepath.FromSlash(path.Join(SnapshotDir, snapshotName("index.scip"))))
}

// answerAll is what a provider answers about the fixture: by position, by
// name and by symbol string, every edge, and its status without timing.
func answerAll(p *Provider) []any {
	ctx := context.Background()
	kinds := []evidence.Kind{evidence.Definition, evidence.Reference, evidence.Implementation}
	var out []any
	for _, q := range []evidence.Query{
		{Path: "a.go", Line: 2, Column: 12}, {Path: "a.go", Line: 4, Column: 15}, {Path: "b/c.go", Line: 2, Column: 12},
		{Symbol: "Shape"}, {Symbol: shapeB}, {Symbol: "Nothing"},
	} {
		q.Kinds = kinds
		resp, err := p.Gather(ctx, q)
		out = append(out, resp, fmt.Sprint(err))
	}
	if seq, rep, err := p.Edges(ctx); err != nil {
		out = append(out, err.Error())
	} else {
		out = append(out, rep, slices.Collect(seq))
	}
	st := p.Status(ctx)
	st.LoadTime, st.Snapshot = "", ""
	return append(out, st)
}

func TestSnapshotLifecycle(t *testing.T) {
	ctx := context.Background()
	dir := writeProject(t)
	parsed := New(Options{Dir: dir, NoSnapshot: true})
	defer parsed.Close()
	want := answerAll(parsed)
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(SnapshotDir))); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("with NoSnapshot, %s was created: %v", SnapshotDir, err)
	}

	// status loads the project with a new provider, as a new process does,
	// checks that it answers as the parsed index does and returns how it
	// loaded.
	status := func(t *testing.T) string {
		t.Helper()
		p := New(Options{Dir: dir})
		defer p.Close()
		if diff := cmp.Diff(want, answerAll(p)); diff != "" {
			t.Errorf("answers (-parsed +provider):\n%s", diff)
		}
		return p.Status(ctx).Snapshot
	}
	expect := func(t *testing.T, note, want string) {
		t.Helper()
		if !strings.Contains(note, want) {
			t.Errorf("snapshot note %q, want it to say %q", note, want)
		}
	}

	t.Run("the first load writes it", func(t *testing.T) {
		note := status(t)
		expect(t, note, "parsed the index (no snapshot yet); wrote the snapshot "+path.Join(SnapshotDir, snapshotName("index.scip")))
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(SnapshotDir), ".gitignore"))
		if err != nil || string(b) != "*\n" {
			t.Errorf(".gitignore = %q, %v; want *", b, err)
		}
	})
	t.Run("a later load reads it", func(t *testing.T) {
		expect(t, status(t), "read from the snapshot")
	})
	t.Run("a corrupt one is parsed around and rewritten", func(t *testing.T) {
		snap := snapshotPath(dir)
		b, err := os.ReadFile(snap)
		if err != nil {
			t.Fatal(err)
		}
		b[len(b)-1] ^= 0xff
		if err := os.WriteFile(snap, b, 0o644); err != nil {
			t.Fatal(err)
		}
		note := status(t)
		expect(t, note, "the snapshot was unusable")
		expect(t, note, "checksum mismatch")
		expect(t, note, "wrote the snapshot")
		expect(t, status(t), "read from the snapshot")
	})
	t.Run("a truncated one likewise", func(t *testing.T) {
		if err := os.Truncate(snapshotPath(dir), 100); err != nil {
			t.Fatal(err)
		}
		expect(t, status(t), "the snapshot was unusable")
		expect(t, status(t), "read from the snapshot")
	})
	t.Run("staleness stays per request", func(t *testing.T) {
		p := New(Options{Dir: dir})
		defer p.Close()
		q := evidence.Query{Symbol: "Shape", Kinds: []evidence.Kind{evidence.Definition}}
		resp, err := p.Gather(ctx, q)
		if err != nil || resp.Report.State == evidence.StaleState {
			t.Fatalf("before the edit: %v, %+v", err, resp.Report)
		}
		expect(t, p.Status(ctx).Snapshot, "read from the snapshot")
		touch(t, filepath.Join(dir, "b", "b.go"), time.Now().Add(time.Hour))
		defer touch(t, filepath.Join(dir, "b", "b.go"), time.Now().Add(-time.Hour))
		resp, err = p.Gather(ctx, q)
		if err != nil || resp.Report.State != evidence.StaleState {
			t.Fatalf("after the edit: %v, %+v; want stale", err, resp.Report)
		}
		for _, r := range resp.Records {
			if r.Exact {
				t.Errorf("a stale record is exact: %+v", r)
			}
		}
		np := New(Options{Dir: dir, NoSnapshot: true})
		defer np.Close()
		nresp, _ := np.Gather(ctx, q)
		if diff := cmp.Diff(nresp, resp); diff != "" {
			t.Errorf("stale answer (-parsed +snapshot):\n%s", diff)
		}
	})
	t.Run("a new index is parsed, not the old snapshot", func(t *testing.T) {
		idx := fixtureIndex()
		idx.Documents = idx.Documents[:1]
		data := marshal(t, idx)
		if err := os.WriteFile(filepath.Join(dir, "index.scip"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		p := New(Options{Dir: dir})
		defer p.Close()
		st := p.Status(ctx)
		expect(t, st.Snapshot, "the snapshot is of another index or build")
		if st.Stats.Documents != 1 {
			t.Errorf("%d documents, want the new index's 1", st.Stats.Documents)
		}
		p2 := New(Options{Dir: dir})
		defer p2.Close()
		if st := p2.Status(ctx); !strings.Contains(st.Snapshot, "read from the snapshot") || st.Stats.Documents != 1 {
			t.Errorf("second load: %q, %d documents", st.Snapshot, st.Stats.Documents)
		}
	})
}

// A project where the snapshot cannot be written still answers, and says
// why no snapshot was written.
func TestSnapshotUnwritable(t *testing.T) {
	dir := writeProject(t)
	if err := os.MkdirAll(filepath.Join(dir, ".codecortex", "precision"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A file where the directory should be.
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(SnapshotDir)), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	parsed := New(Options{Dir: dir, NoSnapshot: true})
	defer parsed.Close()
	p := New(Options{Dir: dir})
	defer p.Close()
	if diff := cmp.Diff(answerAll(parsed), answerAll(p)); diff != "" {
		t.Errorf("answers (-parsed +provider):\n%s", diff)
	}
	if note := p.Status(context.Background()).Snapshot; !strings.Contains(note, "the snapshot cannot be written") {
		t.Errorf("snapshot note %q", note)
	}
}

// Processes that load one project at once all answer as the index does,
// whether they wrote the snapshot, read it or raced to write it; the
// snapshot left behind is whole and no temporary file remains.
func TestSnapshotConcurrentProcesses(t *testing.T) {
	dir := writeProject(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	parsed := New(Options{Dir: dir, NoSnapshot: true})
	defer parsed.Close()
	want := fmt.Sprint(answerAll(parsed))
	for round := range 3 {
		out := make([]string, 8)
		var wg sync.WaitGroup
		for i := range out {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, err := safeexec.Run(context.Background(), safeexec.Invocation{
					Path: exe, Args: []string{fakeSnapshot, dir}, Dir: dir,
					Env: safeexec.Environ("PATH", "HOME", "TMPDIR", "XDG_CONFIG_HOME")})
				out[i] = string(res.Stdout)
				if err != nil {
					out[i] += err.Error() + ": " + string(res.Stderr)
				}
			}()
		}
		wg.Wait()
		notes := map[string]int{}
		for i, o := range out {
			note, answers, _ := strings.Cut(o, "\n")
			notes[note]++
			if answers != want {
				t.Errorf("round %d, process %d (%s) answered differently:\n%s", round, i, note, cmp.Diff(want, answers))
			}
		}
		t.Logf("round %d: %v", round, notes)
		ents, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(SnapshotDir)))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		if diff := cmp.Diff([]string{".gitignore", snapshotName("index.scip")}, names); diff != "" {
			t.Errorf("round %d: files in the snapshot directory (-want +got):\n%s", round, diff)
		}
		if round == 1 {
			// Damage it: the next round parses and rewrites it.
			if err := os.Truncate(snapshotPath(dir), 64); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// fakeSnapshotLoad loads the project args[0] with a provider and prints how
// it loaded, then what it answers (TestSnapshotConcurrentProcesses).
func fakeSnapshotLoad(args []string) int {
	p := New(Options{Dir: args[0]})
	defer p.Close()
	ctx := context.Background()
	p.Status(ctx)
	fmt.Println(p.Status(ctx).Snapshot)
	fmt.Print(fmt.Sprint(answerAll(p)))
	return 0
}

// A snapshot of an index the real indexers wrote — the fixtures in
// testdata and cobra v1.10.2 indexed with scip-go — answers everything as
// the index does.
func TestSnapshotOfRealIndexes(t *testing.T) {
	for _, lang := range []string{"go", "ts", "py", "cobra"} {
		t.Run(lang, func(t *testing.T) {
			if lang == "cobra" && testing.Short() {
				t.Skip("asks cobra's index thousands of questions; the run without -short does")
			}
			dir := copyIndexedProject(t, lang)
			checkSnapshotOfProject(t, dir)
		})
	}
}

// checkSnapshotOfProject loads dir's index.scip by parsing it, then, with
// new providers as new processes would, writes its snapshot and reads it,
// and compares the read index with the parsed one, table by table and
// answer by answer, and what the providers answer: by position at an
// occurrence of every global symbol, by name and by symbol string, names
// through SearchSymbols, every edge, the status, and staleness after a
// document changes.
func checkSnapshotOfProject(t *testing.T, dir string) {
	ctx := context.Background()
	open := func(noSnapshot bool, wantNote string) *Provider {
		p := New(Options{Dir: dir, IndexPath: "index.scip", NoSnapshot: noSnapshot})
		t.Cleanup(func() { p.Close() })
		st := p.Status(ctx)
		if !st.Loaded || !strings.Contains(st.Snapshot, wantNote) {
			t.Fatalf("status %s (%s), snapshot %q; want it to say %q", st.State, st.Reason, st.Snapshot, wantNote)
		}
		return p
	}
	parsed := open(true, "snapshots are off")
	open(false, "wrote the snapshot")
	read := open(false, "read from the snapshot")
	compareIndexes(t, parsed.ix, read.ix)

	kinds := []evidence.Kind{evidence.Definition, evidence.Reference, evidence.Implementation}
	var qs []evidence.Query
	names := map[string]bool{}
	for _, l := range firstOccurrences(parsed.ix) {
		qs = append(qs, evidence.Query{Path: l.Path, Line: l.StartLine, Column: l.StartColumn, Kinds: kinds},
			evidence.Query{Symbol: l.Symbol, Kinds: kinds})
		if g, ok := parseGlobal(l.Symbol); ok {
			names[g.chain[len(g.chain)-1]] = true
		}
	}
	for _, n := range slices.Sorted(maps.Keys(names)) {
		qs = append(qs, evidence.Query{Symbol: n, Kinds: kinds})
	}
	compare := func(t *testing.T) {
		for _, q := range qs {
			w, werr := parsed.Gather(ctx, q)
			g, gerr := read.Gather(ctx, q)
			if diff := cmp.Diff([]any{w, fmt.Sprint(werr)}, []any{g, fmt.Sprint(gerr)}); diff != "" {
				t.Fatalf("Gather %+v (-parsed +snapshot):\n%s", q, diff)
			}
		}
		ws, werr := parsed.SearchSymbols(ctx, slices.Sorted(maps.Keys(names)))
		gs, gerr := read.SearchSymbols(ctx, slices.Sorted(maps.Keys(names)))
		if diff := cmp.Diff([]any{ws, fmt.Sprint(werr)}, []any{gs, fmt.Sprint(gerr)}); diff != "" {
			t.Errorf("SearchSymbols (-parsed +snapshot):\n%s", diff)
		}
		edges := func(p *Provider) []any {
			seq, rep, err := p.Edges(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return []any{rep, slices.Collect(seq)}
		}
		if diff := cmp.Diff(edges(parsed), edges(read)); diff != "" {
			t.Errorf("Edges (-parsed +snapshot):\n%s", diff)
		}
		status := func(p *Provider) Status {
			st := p.Status(ctx)
			st.LoadTime, st.Snapshot = "", ""
			return st
		}
		if diff := cmp.Diff(status(parsed), status(read)); diff != "" {
			t.Errorf("Status (-parsed +snapshot):\n%s", diff)
		}
	}
	t.Logf("%d queries", len(qs))
	t.Run("fresh", compare)
	doc := filepath.Join(dir, filepath.FromSlash(parsed.ix.docs[0].path))
	touch(t, doc, time.Now().Add(time.Hour))
	t.Run("stale", func(t *testing.T) {
		if st := read.Status(ctx); st.State != evidence.StaleState {
			t.Fatalf("after %s changed, the snapshot's provider is %s, want stale", doc, st.State)
		}
		compare(t)
	})
}

// An index read from a snapshot is safe for concurrent use while it builds
// its table of keys on demand (run with -race).
func TestSnapshotConcurrentLookups(t *testing.T) {
	ix := roundTrip(t, loadFixture(t))
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			for range 20 {
				s, err := ix.Lookup(square, "")
				if err == nil && s.Name != square {
					err = fmt.Errorf("Lookup(%s) = %s", square, s.Name)
				}
				if err == nil {
					_, err = ix.Lookup("local 0", "b/b.go")
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if ix.symID.Load() == nil {
		t.Error("the table of keys was never built")
	}
}

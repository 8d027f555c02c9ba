package graph

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"

	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/seal"
)

// A snapshot is the graph as [Build] made it from the index's facts,
// before exact edges are fused in, kept under .codecortex/ so that a later
// process whose index has not changed since reads it back instead of
// reading every file's facts and resolving them again. Exact edges are
// fused in after loading, as after building: they come from another index,
// with its own freshness.
//
// Layout:
//
//	magic    [8]byte   snapMagic
//	sealLen  uint16    little-endian, at most maxSealLen
//	seal     sealLen bytes: the seal (package seal) of the project root
//	                   and the body, for purposeSnapshot
//	body     uvarints and length-prefixed strings, then fixed-width tables:
//	  build      what wrote it (snapshotBuild): another build's snapshot is
//	             never read, as resolution may have changed
//	  version    the index Version the graph was built from
//	  counts     uvarints: the uses left unresolved (Stats.Unresolved), the
//	             strings, nodes and edges, the bytes of the nodes and of
//	             the edges, and the entries of the name table
//	  strings    each string's length, then the bytes of all; every string
//	             below is an index into this table, so a path or a kind is
//	             stored once
//	  nodes      Path, Name, Container, Kind, Package, flags (Exported 1,
//	             Test 2, Stale 4), Line, EndLine-Line, NameLine, NameColumn
//	             of each
//	  edges      From, To, Kind, Method, Path, Line, Column, Span, Of,
//	             Stale of each
//	  tables     little-endian uint32 arrays, for reading a part of the
//	             graph without decoding the rest (see snapView): where each
//	             node and each edge starts in its section (one more entry:
//	             the section's end), the edges into each node (starts by
//	             node, one more entry, then the edge indices in edge order),
//	             the edges out of each node (alike), and by string the nodes
//	             it names (definitions called it, files at that path;
//	             starts by string, one more entry, then node indices in
//	             node order)
//
// The seal covers every byte of the body under this user's key: a snapshot
// that arrived with the repository, was written for another project root
// or was changed since is foreign and ignored. A sealed body is still
// checked as outside input (every count and length against what remains,
// every string and node index against its table, every number against its
// range), so a bad one is an error, never a panic. Numbers are kept as
// Build leaves them, none negative (a negative one is written as 0).

const (
	snapMagic = "cxgraph3"
	// purposeSnapshot is what a snapshot's seal is for; it changes with
	// the layout.
	purposeSnapshot = "codecortex.graph.snapshot/2"
	// maxSealLen bounds the seal.
	maxSealLen = 128
	// snapshotDir and snapshotName place the snapshot under .codecortex/.
	snapshotDir  = ".codecortex"
	snapshotName = "graph/snapshot.bin"
)

// MaxSnapshotSize bounds a snapshot: a larger graph is not written (the
// next process builds it again) and a larger file is not read.
const MaxSnapshotSize = 256 << 20

// Snapshot errors. A provider that meets any of them builds the graph
// from the index instead.
var (
	// ErrSnapshotTooLarge: the graph's snapshot would pass MaxSnapshotSize.
	ErrSnapshotTooLarge = errors.New("graph: snapshot too large")
	// errSnapshotMissing: there is no snapshot yet.
	errSnapshotMissing = errors.New("graph: no snapshot")
	// errSnapshotForeign: the seal does not check.
	errSnapshotForeign = fmt.Errorf("graph: snapshot %w", seal.ErrForeign)
	// errSnapshotMismatch: another build or format wrote it.
	errSnapshotMismatch = errors.New("graph: snapshot is of another build")
	// errSnapshotCorrupt: the body breaks the format.
	errSnapshotCorrupt = errors.New("graph: snapshot is corrupt")
)

// snapshotBuild names what writes snapshots: the layout, the Go release,
// and the module's exact version where the binary records one (a clean
// VCS revision or a module sum), otherwise the running executable's size
// and modification time. A snapshot of another build is never read, since
// how uses resolve may have changed while the index did not.
var snapshotBuild = sync.OnceValue(func() string {
	id := purposeSnapshot + " " + runtime.Version()
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := buildVersion(bi); v != "" {
			return id + " " + v
		}
	}
	fi, err := os.Stat("/proc/self/exe") // the running image, even once replaced
	if err != nil {
		exe, eerr := os.Executable()
		if eerr != nil {
			return id + " unknown"
		}
		if fi, err = os.Stat(exe); err != nil {
			return id + " unknown"
		}
	}
	return fmt.Sprintf("%s exe %d %d", id, fi.Size(), fi.ModTime().UnixNano())
})

// buildVersion returns the exact version of the module holding this
// package, or "" when the binary records none.
func buildVersion(bi *debug.BuildInfo) string {
	const pkg = "github.com/codecortex/codecortex"
	if bi.Main.Path == pkg {
		var rev, modified string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
		if rev != "" && modified == "false" {
			return "rev " + rev
		}
		return ""
	}
	for _, m := range bi.Deps {
		if m.Path != pkg {
			continue
		}
		if m.Replace != nil {
			m = m.Replace
		}
		if m.Sum != "" && m.Version != "" && m.Version != "(devel)" {
			return m.Version + " " + m.Sum
		}
	}
	return ""
}

// A snapStore reads and writes the snapshot of one project root.
type snapStore struct {
	root  string // absolute project root
	seal  seal.Sealer
	build string
	limit int // 0 means MaxSnapshotSize
}

func (s snapStore) maxSize() int {
	if s.limit > 0 {
		return s.limit
	}
	return MaxSnapshotSize
}

// dir opens .codecortex/ of the root, creating it when create is set. A
// .codecortex that is not a directory of its own (a symbolic link) is
// refused: what is written must stay under it.
func (s snapStore) dir(create bool) (*os.Root, error) {
	p := filepath.Join(s.root, snapshotDir)
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) && create {
		if err = os.Mkdir(p, 0o755); err == nil || errors.Is(err, fs.ErrExist) {
			fi, err = os.Lstat(p)
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errSnapshotMissing
	}
	if err != nil {
		return nil, fmt.Errorf("graph: snapshot: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("graph: snapshot: %s is not a directory", p)
	}
	return os.OpenRoot(p)
}

// write seals and writes the snapshot of g (built, not yet fused):
// atomically, by renaming a complete temporary file over the old one.
func (s snapStore) write(g *Graph) error {
	body := encodeSnapshot(g, s.build)
	if limit := s.maxSize(); len(body)+len(snapMagic)+2+maxSealLen > limit {
		return fmt.Errorf("%w: %d bytes, the limit is %d", ErrSnapshotTooLarge, len(body), limit)
	}
	sl, err := s.seal.Seal(purposeSnapshot, []byte(s.root), body)
	if err != nil {
		return fmt.Errorf("graph: snapshot: %w", err)
	}
	if len(sl) > maxSealLen {
		return fmt.Errorf("graph: snapshot: a seal of %d bytes", len(sl))
	}
	out := make([]byte, 0, len(snapMagic)+2+len(sl)+len(body))
	out = append(out, snapMagic...)
	out = binary.LittleEndian.AppendUint16(out, uint16(len(sl)))
	out = append(out, sl...)
	out = append(out, body...)
	r, err := s.dir(true)
	if err != nil {
		return err
	}
	defer r.Close()
	// The snapshot is this user's, never the repository's: git ignores its
	// directory, as the index's.
	ignore := filepath.Join(filepath.Dir(snapshotName), ".gitignore")
	if _, err := r.Lstat(ignore); errors.Is(err, fs.ErrNotExist) {
		if err := writeAtomic(r, ignore, []byte("*\n")); err != nil {
			return err
		}
	}
	return writeAtomic(r, snapshotName, out)
}

// writeAtomic writes data to name inside r through a new temporary file
// in the same directory (created exclusively, so that a file or link
// already there is never written through), renamed over name.
func writeAtomic(r *os.Root, name string, data []byte) error {
	dir := filepath.Dir(name)
	if err := r.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("graph: snapshot: %w", err)
	}
	var nonce [8]byte
	_, _ = rand.Read(nonce[:])
	tmp := filepath.Join(dir, ".snapshot-"+hex.EncodeToString(nonce[:])+".tmp")
	f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("graph: snapshot: %w", err)
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = r.Rename(tmp, name)
	}
	if werr != nil {
		_ = r.Remove(tmp)
		return fmt.Errorf("graph: snapshot: %w", werr)
	}
	return nil
}

// fromSnapshot reads the index's facts for a provider's first graph: none
// when the snapshot is of the index as it is now, and then the builder of
// the snapshot's graph; all of them otherwise, to build from. It says
// which in p.snapshot.
func (p *Provider) fromSnapshot(ctx context.Context, ix *index.Index, part func(*snapView) (*Graph, error)) (*builder, index.Facts, error) {
	snap, err := p.snapshots(ix).read()
	since := ""
	if err == nil {
		since = snap.version
	} else {
		p.snapshot = err.Error()
	}
	facts, err := ix.Facts(ctx, since)
	if err != nil {
		return nil, facts, err
	}
	p.fresh = facts.Freshness
	switch {
	case snap == nil:
		return nil, facts, nil
	case !facts.Unchanged:
		p.snapshot = "the index changed since the snapshot"
		return nil, facts, nil
	}
	if part != nil {
		v, err := snap.view()
		if err == nil {
			var g *Graph
			if g, err = part(v); err == nil {
				p.snapshot = "read in part"
				return &builder{g: g, part: true}, facts, nil
			}
		}
		p.snapshot = err.Error() // the whole graph answers
	}
	g, err := snap.graph()
	if err == nil {
		p.snapshot = "loaded"
		return &builder{g: g}, facts, nil
	}
	p.snapshot = err.Error()
	facts, err = ix.Facts(ctx, "")
	p.fresh = facts.Freshness
	return nil, facts, err
}

// A sealedSnapshot is a snapshot whose seal checked: its body is this
// user's, for this root, and was written by this build.
type sealedSnapshot struct {
	version string
	body    []byte // after the build and version
}

// read reads and checks the snapshot: its seal, then its build. The body
// is decoded only by graph, once the caller knows the version is current.
func (s snapStore) read() (*sealedSnapshot, error) {
	r, err := s.dir(false)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	f, err := r.Open(snapshotName)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errSnapshotMissing
	}
	if err != nil {
		return nil, fmt.Errorf("graph: snapshot: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("graph: snapshot: %w", err)
	}
	if !fi.Mode().IsRegular() || fi.Size() > int64(s.maxSize()) {
		return nil, fmt.Errorf("%w: not a regular file within %d bytes", errSnapshotCorrupt, s.maxSize())
	}
	data := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fmt.Errorf("graph: snapshot: %w", err)
	}
	return s.open(data)
}

// open checks a snapshot file's bytes: magic, seal and build.
func (s snapStore) open(data []byte) (*sealedSnapshot, error) {
	h := len(snapMagic) + 2
	if len(data) < h || string(data[:len(snapMagic)]) != snapMagic {
		return nil, fmt.Errorf("%w: no snapshot header", errSnapshotMismatch)
	}
	sl := int(binary.LittleEndian.Uint16(data[len(snapMagic):]))
	if sl > maxSealLen || len(data) < h+sl {
		return nil, fmt.Errorf("%w: bad seal length", errSnapshotCorrupt)
	}
	body := data[h+sl:]
	if !s.seal.Verify(string(data[h:h+sl]), purposeSnapshot, []byte(s.root), body) {
		return nil, errSnapshotForeign
	}
	d := decoder{buf: body}
	build, version := d.str(), d.str()
	if d.err != nil {
		return nil, d.err
	}
	if build != s.build {
		return nil, fmt.Errorf("%w: written by %q", errSnapshotMismatch, build)
	}
	return &sealedSnapshot{version: version, body: d.buf}, nil
}

// graph decodes the snapshot's graph: nodes, edges and the tables made
// from nodes; the adjacency and stats are made by the caller's finish.
func (ss *sealedSnapshot) graph() (*Graph, error) {
	d := decoder{buf: ss.body}
	h := d.header()
	strs := d.strings(h.strings)
	if d.err != nil {
		return nil, d.err
	}
	g := &Graph{Version: ss.version}
	g.stats.Unresolved = h.unresolved
	ns, n := uint64(len(strs)), uint64(h.nodes)
	start := len(d.buf)
	g.Nodes = make([]Node, n)
	names := make([]int32, n) // each node's name, in strs
	for i := range g.Nodes {
		var ids [5]int
		if names[i] = int32(d.node(&g.Nodes[i], &ids, ns)); d.err != nil {
			return nil, d.err
		}
		nd := &g.Nodes[i]
		nd.Path, nd.Name, nd.Container, nd.Kind, nd.Package = strs[ids[0]], strs[ids[1]], strs[ids[2]], strs[ids[3]], strs[ids[4]]
	}
	if start-len(d.buf) != h.nodeBytes {
		return nil, fmt.Errorf("%w: nodes of %d bytes, not %d", errSnapshotCorrupt, start-len(d.buf), h.nodeBytes)
	}
	start = len(d.buf)
	g.Edges = make([]Edge, h.edges)
	for i := range g.Edges {
		var ids [4]int
		if d.edge(&g.Edges[i], &ids, n, ns); d.err != nil {
			return nil, d.err
		}
		e := &g.Edges[i]
		e.Kind, e.Method, e.Path, e.Of = EdgeKind(strs[ids[0]]), Method(strs[ids[1]]), strs[ids[2]], strs[ids[3]]
	}
	if start-len(d.buf) != h.edgeBytes {
		return nil, fmt.Errorf("%w: edges of %d bytes, not %d", errSnapshotCorrupt, start-len(d.buf), h.edgeBytes)
	}
	if len(d.buf) != 4*h.tableWords() {
		return nil, fmt.Errorf("%w: %d bytes of tables, not %d", errSnapshotCorrupt, len(d.buf), 4*h.tableWords())
	}
	g.tables(strs, names)
	return g, nil
}

// A snapHeader is the counts that open a snapshot's body.
type snapHeader struct {
	unresolved, strings, nodes, edges, nodeBytes, edgeBytes, named int
}

// tableWords is how many uint32 the tables after the edges hold.
func (h snapHeader) tableWords() int {
	return 3*(h.nodes+1) + (h.edges + 1) + 2*h.edges + (h.strings + 1) + h.named
}

// header reads the counts, each within what the body can hold.
func (d *decoder) header() snapHeader {
	var h snapHeader
	h.unresolved = int(d.uint(1 << 40))
	for _, c := range []*int{&h.strings, &h.nodes, &h.edges, &h.nodeBytes, &h.edgeBytes, &h.named} {
		*c = int(d.uint(uint64(len(d.buf))))
	}
	if d.err == nil && 4*h.tableWords() > len(d.buf) {
		d.err = fmt.Errorf("%w: counts past the body's end", errSnapshotCorrupt)
	}
	return h
}

// node reads a node's record into nd, its strings' indices (Path, Name,
// Container, Kind, Package, each below ns) into ids, and returns the
// Name's.
func (d *decoder) node(nd *Node, ids *[5]int, ns uint64) int {
	for k := range ids {
		ids[k] = d.index(ns)
	}
	fl := d.uint(7)
	nd.Exported, nd.Test, nd.Stale = fl&1 != 0, fl&2 != 0, fl&4 != 0
	nd.Line = int(d.uint(1 << 31))
	nd.EndLine = nd.Line + int(d.uint(1<<31))
	nd.NameLine, nd.NameColumn = int(d.uint(1<<31)), int(d.uint(1<<31))
	return ids[1]
}

// edge reads an edge's record into e (ends below n) and its strings'
// indices (Kind, Method, Path, Of, each below ns) into ids.
func (d *decoder) edge(e *Edge, ids *[4]int, n, ns uint64) {
	e.From, e.To = d.index(n), d.index(n)
	ids[0], ids[1], ids[2] = d.index(ns), d.index(ns), d.index(ns)
	e.Line, e.Column, e.Span = int(d.uint(1<<31)), int(d.uint(1<<31)), int(d.uint(1<<31))
	ids[3] = d.index(ns)
	e.Stale = d.uint(1) == 1
}

// tables makes the lookups Build fills while it adds nodes, from the
// nodes and their names' places in strs: each list is a slice of one
// array, in node order as Build's.
func (g *Graph) tables(strs []string, names []int32) {
	ids := make([]int32, len(g.Nodes))
	counts := make([]int32, len(strs)+1)
	syms, distinct := 0, 0
	for i := range g.Nodes {
		ids[i] = int32(i)
		if g.Nodes[i].Kind != NodeKindFile {
			if counts[names[i]+1] == 0 {
				distinct++
			}
			counts[names[i]+1]++
			syms++
		}
	}
	for i := 1; i < len(counts); i++ {
		counts[i] += counts[i-1] // counts[id] is now where id's list starts
	}
	byName := make([]int32, syms)
	next := slices.Clone(counts)
	g.byName = make(map[string][]int32, distinct)
	g.fileNode, g.fileSyms, g.dirFiles = map[string]int32{}, map[string][]int32{}, map[string][]int32{}
	for i := 0; i < len(g.Nodes); {
		n := &g.Nodes[i]
		if n.Kind == NodeKindFile {
			g.fileNode[n.Path] = int32(i)
			d := path.Dir(n.Path)
			g.dirFiles[d] = append(g.dirFiles[d], int32(i))
			i++
			continue
		}
		j := i
		for ; j < len(g.Nodes) && g.Nodes[j].Kind != NodeKindFile && g.Nodes[j].Path == n.Path; j++ {
			byName[next[names[j]]] = int32(j)
			next[names[j]]++
		}
		// A file's definitions follow its node; a run elsewhere is added.
		if old, ok := g.fileSyms[n.Path]; ok {
			g.fileSyms[n.Path] = append(old[:len(old):len(old)], ids[i:j]...)
		} else {
			g.fileSyms[n.Path] = ids[i:j:j]
		}
		i = j
	}
	for id, start := range counts[:len(strs)] {
		if end := counts[id+1]; end > start {
			g.byName[strs[id]] = byName[start:end:end]
		}
	}
}

// encodeSnapshot returns the body of g's snapshot for build.
func encodeSnapshot(g *Graph, build string) []byte {
	var e encoder
	e.str(build)
	e.str(g.Version)
	ids := map[string]uint64{}
	var table []string
	intern := func(s string) uint64 {
		id, ok := ids[s]
		if !ok {
			id = uint64(len(table))
			ids[s] = id
			table = append(table, s)
		}
		return id
	}
	var nodes, edges encoder
	var tabs tables32
	nodeOff := make([]uint32, 0, len(g.Nodes)+1)
	nameOf := make([]uint64, len(g.Nodes)) // the string naming each node, for the name table
	for i := range g.Nodes {
		nd := &g.Nodes[i]
		nodeOff = append(nodeOff, uint32(len(nodes.buf)))
		for k, s := range [...]string{nd.Path, nd.Name, nd.Container, nd.Kind, nd.Package} {
			id := intern(s)
			if k == 0 && nd.Kind == NodeKindFile || k == 1 && nd.Kind != NodeKindFile {
				nameOf[i] = id
			}
			nodes.uint(id)
		}
		nodes.uint(flag(nd.Exported, 1) | flag(nd.Test, 2) | flag(nd.Stale, 4))
		nodes.uint(uint64(max(nd.Line, 0)))
		nodes.uint(uint64(max(nd.EndLine-max(nd.Line, 0), 0)))
		nodes.uint(uint64(max(nd.NameLine, 0)))
		nodes.uint(uint64(max(nd.NameColumn, 0)))
	}
	nodeOff = append(nodeOff, uint32(len(nodes.buf)))
	edgeOff := make([]uint32, 0, len(g.Edges)+1)
	for i := range g.Edges {
		ed := &g.Edges[i]
		edgeOff = append(edgeOff, uint32(len(edges.buf)))
		edges.uint(uint64(ed.From))
		edges.uint(uint64(ed.To))
		edges.uint(intern(string(ed.Kind)))
		edges.uint(intern(string(ed.Method)))
		edges.uint(intern(ed.Path))
		edges.uint(uint64(max(ed.Line, 0)))
		edges.uint(uint64(max(ed.Column, 0)))
		edges.uint(uint64(max(ed.Span, 0)))
		edges.uint(intern(ed.Of))
		edges.uint(flag(ed.Stale, 1))
	}
	edgeOff = append(edgeOff, uint32(len(edges.buf)))
	tabs.put(nodeOff)
	tabs.put(edgeOff)
	tabs.lists(len(g.Nodes), len(g.Edges), func(i int) uint64 { return uint64(g.Edges[i].To) })
	tabs.lists(len(g.Nodes), len(g.Edges), func(i int) uint64 { return uint64(g.Edges[i].From) })
	tabs.lists(len(table), len(g.Nodes), func(i int) uint64 { return nameOf[i] })
	for _, v := range [...]int{max(g.stats.Unresolved, 0), len(table), len(g.Nodes), len(g.Edges), len(nodes.buf), len(edges.buf), len(g.Nodes)} {
		e.uint(uint64(v))
	}
	for _, s := range table {
		e.uint(uint64(len(s)))
	}
	for _, s := range table {
		e.buf = append(e.buf, s...)
	}
	e.buf = append(e.buf, nodes.buf...)
	e.buf = append(e.buf, edges.buf...)
	return append(e.buf, tabs.buf...)
}

// tables32 writes the fixed-width tables after a snapshot's edges.
type tables32 struct{ buf []byte }

func (t *tables32) put(vs []uint32) {
	for _, v := range vs {
		t.buf = binary.LittleEndian.AppendUint32(t.buf, v)
	}
}

// lists writes, for keys 0..keys-1, where each key's list starts (one
// more entry: the end), then the items 0..items-1 grouped by key(item),
// in item order within a key.
func (t *tables32) lists(keys, items int, key func(int) uint64) {
	start := make([]uint32, keys+1)
	for i := range items {
		start[key(i)+1]++
	}
	for k := 1; k <= keys; k++ {
		start[k] += start[k-1]
	}
	t.put(start)
	next := slices.Clone(start[:keys])
	list := make([]uint32, items)
	for i := range items {
		k := key(i)
		list[next[k]] = uint32(i)
		next[k]++
	}
	t.put(list)
}

func flag(b bool, v uint64) uint64 {
	if b {
		return v
	}
	return 0
}

type encoder struct{ buf []byte }

func (e *encoder) uint(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }

func (e *encoder) str(s string) {
	e.uint(uint64(len(s)))
	e.buf = append(e.buf, s...)
}

// A decoder reads what an encoder wrote; its first error sticks and every
// later read returns a zero value.
type decoder struct {
	buf []byte
	err error
}

// uint reads a uvarint no greater than limit; a byte below 0x80 is read
// inline.
func (d *decoder) uint(limit uint64) uint64 {
	if len(d.buf) > 0 && d.buf[0] < 0x80 && uint64(d.buf[0]) <= limit {
		v := uint64(d.buf[0])
		d.buf = d.buf[1:]
		return v
	}
	return d.uintLong(limit)
}

func (d *decoder) uintLong(limit uint64) uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.buf)
	if n <= 0 || v > limit {
		d.err = fmt.Errorf("%w: a number out of range", errSnapshotCorrupt)
		d.buf = nil
		return 0
	}
	d.buf = d.buf[n:]
	return v
}

func (d *decoder) str() string {
	n := d.uint(uint64(len(d.buf)))
	if d.err != nil {
		return ""
	}
	s := string(d.buf[:n])
	d.buf = d.buf[n:]
	return s
}

// strings reads the string table of n strings (each length, then the
// bytes of all) into one allocation: every string is a slice of one.
func (d *decoder) strings(n int) []string {
	ends := d.stringEnds(n)
	if d.err != nil {
		return nil
	}
	total := 0
	if n > 0 {
		total = ends[n-1]
	}
	all := string(d.buf[:total])
	d.buf = d.buf[total:]
	out := make([]string, n)
	off := 0
	for i, end := range ends {
		out[i] = all[off:end]
		off = end
	}
	return out
}

// stringEnds reads the lengths of a table of n strings and returns where
// each ends in the bytes that follow, checked to be there.
func (d *decoder) stringEnds(n int) []int {
	if d.err != nil {
		return nil
	}
	ends := make([]int, n)
	total := 0
	for i := range ends {
		total += int(d.uint(uint64(len(d.buf))))
		ends[i] = total
	}
	if d.err != nil || total > len(d.buf) {
		d.err = fmt.Errorf("%w: a string table past its end", errSnapshotCorrupt)
		return nil
	}
	return ends
}

// index reads a uvarint below n.
func (d *decoder) index(n uint64) int {
	if n == 0 {
		d.err = cmpErr(d.err, fmt.Errorf("%w: an index into an empty table", errSnapshotCorrupt))
		return 0
	}
	return int(d.uint(n - 1))
}

func cmpErr(old, err error) error {
	if old != nil {
		return old
	}
	return err
}

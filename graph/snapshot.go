package graph

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
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
//	                   and the head, for purposeSnapshot
//	headLen  uint32    little-endian, at most maxHeadLen
//	head     build and version (length-prefixed), the body's length and
//	         its chunk size (uvarints), then the SHA-256 of each chunk of
//	         the body, in order
//	body     uvarints and length-prefixed strings, then fixed-width tables:
//	  build      what wrote it (snapshotBuild): another build's snapshot is
//	             never read, as resolution may have changed
//	  version    the index Version the graph was built from
//	  counts     uvarints: the uses left unresolved (Stats.Unresolved), the
//	             strings, nodes and edges, the bytes of the strings'
//	             lengths, of their text, of the nodes and of the edges, the
//	             entries of the name table, and the bytes of the files and
//	             of the known section
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
//	             node order), and the strings' hashes (strHash) sorted,
//	             then the index of the string of each)
//	  files      the path and content hash (index.FileFacts.Hash) of each
//	             file the graph was built from, length-prefixed strings in
//	             path order, so that a later process tells which files
//	             changed since without reading the facts (see staleSnapshot)
//	  known      for each supertype the project does not define (a Go
//	             standard library interface, a base as written), the types
//	             that implement or extend it (Graph.known), in name order:
//	             its name, how many types, and their node indices (uvarints)
//
// The seal covers the head under this user's key, and through its digests
// every byte of the body, which is checked a chunk at a time as it is read
// (a question that reads a part of the graph reads and checks only the
// chunks that hold it): a snapshot
// that arrived with the repository, was written for another project root
// or was changed since is foreign and ignored. A sealed body is still
// checked as outside input (every count and length against what remains,
// every string and node index against its table, every number against its
// range), so a bad one is an error, never a panic. Numbers are kept as
// Build leaves them, none negative (a negative one is written as 0).

const (
	snapMagic = "cxgraph4"
	// purposeSnapshot is what a snapshot's seal is for; it changes with
	// the layout.
	purposeSnapshot = "codecortex.graph.snapshot/3"
	// maxSealLen bounds the seal.
	maxSealLen = 128
	// snapChunk is the size of the chunks of the body the head has a
	// digest of: a page, since a question reads scattered records and
	// table entries, each costing the chunk around it (read, checked and
	// kept); the head then holds 32 bytes of digest per 4 KiB of body.
	snapChunk = 4 << 10
	// maxHeadLen bounds the head: its strings and the digests of a body
	// within MaxSnapshotSize.
	maxHeadLen = 64<<10 + sha256.Size*(MaxSnapshotSize/snapChunk+1)
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
	if len(g.Edges) >= 1<<edgeIndexBits {
		return fmt.Errorf("%w: %d edges", ErrSnapshotTooLarge, len(g.Edges))
	}
	parts := encodeParts(g, s.build)
	size := 0
	for _, p := range parts {
		size += len(p)
	}
	var h encoder
	h.str(s.build)
	h.str(g.Version)
	h.uint(uint64(size))
	h.uint(snapChunk)
	h.buf = append(h.buf, chunkSums(parts)...)
	if limit := s.maxSize(); size+len(snapMagic)+6+maxSealLen+len(h.buf) > limit {
		return fmt.Errorf("%w: %d bytes, the limit is %d", ErrSnapshotTooLarge, size, limit)
	}
	sl, err := s.seal.Seal(purposeSnapshot, []byte(s.root), h.buf)
	if err != nil {
		return fmt.Errorf("graph: snapshot: %w", err)
	}
	if len(sl) > maxSealLen {
		return fmt.Errorf("graph: snapshot: a seal of %d bytes", len(sl))
	}
	out := make([]byte, 0, len(snapMagic)+6+len(sl)+len(h.buf))
	out = append(out, snapMagic...)
	out = binary.LittleEndian.AppendUint16(out, uint16(len(sl)))
	out = append(out, sl...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(h.buf)))
	out = append(out, h.buf...)
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
	return writeAtomic(r, snapshotName, append([][]byte{out}, parts...)...)
}

// chunkSums returns the SHA-256 of each snapChunk bytes of the parts
// joined, the last chunk shorter.
func chunkSums(parts [][]byte) []byte {
	var out []byte
	h := sha256.New()
	n := 0
	for _, p := range parts {
		for len(p) > 0 {
			k := min(len(p), snapChunk-n)
			h.Write(p[:k])
			p, n = p[k:], n+k
			if n == snapChunk {
				out, n = h.Sum(out), 0
				h.Reset()
			}
		}
	}
	if n > 0 {
		out = h.Sum(out)
	}
	return out
}

// writeAtomic writes data to name inside r through a new temporary file
// in the same directory (created exclusively, so that a file or link
// already there is never written through), renamed over name.
func writeAtomic(r *os.Root, name string, data ...[]byte) error {
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
	var werr error
	for _, d := range data {
		if werr == nil {
			_, werr = f.Write(d)
		}
	}
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

// lazyFacts are facts read for one build, each file's refs left encoded
// for the build to decode as it resolves the file (index.Index.FactsLazy).
type lazyFacts struct {
	index.Facts
	refs index.EncodedRefs
}

// fromSnapshot reads the index's facts for a provider's first graph: none
// when the snapshot is of the index as it is now, and then the builder of
// the snapshot's graph; all of them otherwise, to build from. It says
// which in p.snapshot.
func (p *Provider) fromSnapshot(ctx context.Context, ix *index.Index, part func(*snapView) (*Graph, error)) (*builder, lazyFacts, error) {
	snap, err := p.snapshots(ix).read()
	since := ""
	if err == nil {
		defer snap.close()
		since = snap.version
	} else {
		p.snapshot = err.Error()
	}
	var facts lazyFacts
	if snap != nil && part != nil && snap.bodyLen() >= p.staleSize {
		// Whether the index changed, asked once: a current snapshot reads
		// no facts, a stale one may answer in part.
		same, fr, err := ix.Current(ctx, since)
		if err != nil {
			return nil, facts, err
		}
		facts.Facts = index.Facts{Version: since, Unchanged: same, Freshness: fr}
		if !same {
			if b, err := p.staleSnapshot(ctx, ix, snap, part); b != nil || err != nil {
				return b, lazyFacts{}, err
			}
		}
	}
	if !facts.Unchanged {
		if facts.Facts, facts.refs, err = ix.FactsLazy(ctx, since); err != nil {
			return nil, facts, err
		}
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
	facts.Facts, facts.refs, err = ix.FactsLazy(ctx, "")
	p.fresh = facts.Freshness
	return nil, facts, err
}

// staleSnapshotSize is the size of snapshot body from which a question
// asked after a few files changed reads the snapshot's part of the
// graph, marked stale where they changed, rather than building the whole
// graph again first: about what a build makes in a second (see "After an
// edit" in docs/benchmarks.md). A smaller graph is built again.
const staleSnapshotSize = 8 << 20

// maxStaleFiles is how many changed files a stale snapshot answers with,
// at least: one file in twenty of the graph's, if that is more.
const maxStaleFiles = 64

// staleSnapshot returns the builder of the part of snap's graph that part
// reads, when the index changed since snap was written (as the caller
// found) but no more than maxStaleFiles files did: every node and edge in
// those files is marked stale, and the graph names them
// (Graph.StaleFiles). It returns nil when the snapshot is current, or
// more changed, or the part cannot be read: the caller goes on as without
// it.
func (p *Provider) staleSnapshot(ctx context.Context, ix *index.Index, snap *sealedSnapshot, part func(*snapView) (*Graph, error)) (*builder, error) {
	now, err := ix.Digests(ctx)
	if err != nil || now.Version == snap.version { // current again since the caller asked
		return nil, err
	}
	v, err := snap.view()
	if err != nil {
		return nil, nil
	}
	then, err := v.digests()
	if err != nil {
		return nil, nil
	}
	changed := changedFiles(then, now.Files)
	if len(changed) > max(maxStaleFiles, len(then)/20) {
		return nil, nil
	}
	g, err := part(v)
	if err != nil {
		return nil, nil
	}
	g.markStale(changed)
	p.fresh = now.Freshness
	p.snapshot = fmt.Sprintf("read in part from the graph of an earlier state of the index: %d files changed since", len(changed))
	return &builder{g: g, part: true}, nil
}

// changedFiles returns the paths whose hash differs between then and
// now, those in one alone included, sorted.
func changedFiles(then, now map[string]string) []string {
	var out []string
	for p, h := range now {
		if h == "" || then[p] != h {
			out = append(out, p)
		}
	}
	for p := range then {
		if _, ok := now[p]; !ok {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// A sealedSnapshot is a snapshot whose seal checked: its head is this
// user's, for this root, and was written by this build. Its body is read
// a chunk at a time, each checked against the head's digest before use,
// or held whole (in tests).
type sealedSnapshot struct {
	version string
	body    []byte // the body after its build and version, when held whole

	f      *os.File
	off    int64 // where the body starts in f
	size   int   // the body's length
	sums   []byte
	start  int // where the body's data starts, after its build and version
	chunks map[int][]byte
}

// read reads and checks the snapshot's head: its seal, then its build.
// The body is read only by graph or view, once the caller knows the
// version is current; close releases the file.
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
	ss, err := s.open(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return ss, nil
}

// open checks a snapshot file's head: magic, seal, build and the body's
// size; the body is checked as it is read (see at).
func (s snapStore) open(f *os.File) (*sealedSnapshot, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("graph: snapshot: %w", err)
	}
	if !fi.Mode().IsRegular() || fi.Size() > int64(s.maxSize()) {
		return nil, fmt.Errorf("%w: not a regular file within %d bytes", errSnapshotCorrupt, s.maxSize())
	}
	h := len(snapMagic) + 2
	first := make([]byte, min(fi.Size(), int64(h+maxSealLen+4)))
	if _, err := f.ReadAt(first, 0); err != nil {
		return nil, fmt.Errorf("graph: snapshot: %w", err)
	}
	if len(first) < h || string(first[:len(snapMagic)]) != snapMagic {
		return nil, fmt.Errorf("%w: no snapshot header", errSnapshotMismatch)
	}
	sl := int(binary.LittleEndian.Uint16(first[len(snapMagic):]))
	if sl > maxSealLen || len(first) < h+sl+4 {
		return nil, fmt.Errorf("%w: bad seal length", errSnapshotCorrupt)
	}
	hl := int(binary.LittleEndian.Uint32(first[h+sl:]))
	off := int64(h + sl + 4)
	if hl > maxHeadLen || off+int64(hl) > fi.Size() {
		return nil, fmt.Errorf("%w: bad head length", errSnapshotCorrupt)
	}
	head := make([]byte, hl)
	if _, err := f.ReadAt(head, off); err != nil {
		return nil, fmt.Errorf("graph: snapshot: %w", err)
	}
	if !s.seal.Verify(string(first[h:h+sl]), purposeSnapshot, []byte(s.root), head) {
		return nil, errSnapshotForeign
	}
	d := decoder{buf: head}
	build, version := d.str(), d.str()
	size, chunk := d.uint(uint64(s.maxSize())), d.uint(snapChunk)
	if d.err != nil {
		return nil, d.err
	}
	if build != s.build {
		return nil, fmt.Errorf("%w: written by %q", errSnapshotMismatch, build)
	}
	ss := &sealedSnapshot{version: version, f: f, off: off + int64(hl), size: int(size), sums: d.buf, chunks: map[int][]byte{}}
	if chunk != snapChunk || len(d.buf) != sha256.Size*((int(size)+snapChunk-1)/snapChunk) || ss.off+int64(size) != fi.Size() {
		return nil, fmt.Errorf("%w: a head that does not fit its body", errSnapshotCorrupt)
	}
	// The body opens with its build and version again, as encoded.
	pre, err := ss.at(0, min(ss.size, 2*binary.MaxVarintLen64+len(build)+len(version)))
	if err != nil {
		return nil, err
	}
	pd := decoder{buf: pre}
	if pd.str() != build || pd.str() != version || pd.err != nil {
		return nil, fmt.Errorf("%w: a body of another head", errSnapshotCorrupt)
	}
	ss.start = len(pre) - len(pd.buf)
	return ss, nil
}

// bodyLen is the length of the body after its build and version.
func (ss *sealedSnapshot) bodyLen() int {
	if ss.f != nil {
		return ss.size - ss.start
	}
	return len(ss.body)
}

// close releases the snapshot's file.
func (ss *sealedSnapshot) close() {
	if ss.f != nil {
		ss.f.Close()
		ss.f = nil
	}
}

// at returns n bytes of the body from off (counted from where its build
// and version end, as body is), each chunk they lie in read and checked
// against the head's digest once.
func (ss *sealedSnapshot) at(off, n int) ([]byte, error) {
	if ss.body != nil || ss.f == nil {
		if off < 0 || n < 0 || off+n > len(ss.body) {
			return nil, fmt.Errorf("%w: a read past the body", errSnapshotCorrupt)
		}
		return ss.body[off : off+n : off+n], nil
	}
	off += ss.start
	if off < 0 || n < 0 || off+n > ss.size {
		return nil, fmt.Errorf("%w: a read past the body", errSnapshotCorrupt)
	}
	if n == 0 {
		return nil, nil
	}
	first, last := off/snapChunk, (off+n-1)/snapChunk
	if first != last {
		if err := ss.load(first, last); err != nil {
			return nil, err
		}
	}
	var out []byte
	for c := first; c <= last; c++ {
		b, err := ss.chunk(c)
		if err != nil {
			return nil, err
		}
		lo, hi := max(off-c*snapChunk, 0), min(off+n-c*snapChunk, len(b))
		if first == last {
			return b[lo:hi:hi], nil
		}
		out = append(out, b[lo:hi]...)
	}
	return out, nil
}

// chunk returns chunk c of the body, read and checked once.
func (ss *sealedSnapshot) chunk(c int) ([]byte, error) {
	if b, ok := ss.chunks[c]; ok {
		return b, nil
	}
	if err := ss.readChunks(c, c+1); err != nil {
		return nil, err
	}
	return ss.chunks[c], nil
}

// load reads and checks the chunks first to last that are not held yet,
// each run of them with one read.
func (ss *sealedSnapshot) load(first, last int) error {
	for c := first; c <= last; {
		if _, ok := ss.chunks[c]; ok {
			c++
			continue
		}
		end := c + 1
		for ; end <= last; end++ {
			if _, ok := ss.chunks[end]; ok {
				break
			}
		}
		if err := ss.readChunks(c, end); err != nil {
			return err
		}
		c = end
	}
	return nil
}

// readChunks reads the chunks [first, end) of the body with one read, checks
// each against its digest and keeps it.
func (ss *sealedSnapshot) readChunks(first, end int) error {
	lo, hi := first*snapChunk, min(end*snapChunk, ss.size)
	b := make([]byte, hi-lo)
	if _, err := ss.f.ReadAt(b, ss.off+int64(lo)); err != nil {
		return fmt.Errorf("graph: snapshot: %w", err)
	}
	if err := ss.check(b, first); err != nil {
		return err
	}
	for c := first; c < end; c++ {
		ss.chunks[c] = b[(c-first)*snapChunk : min((c-first+1)*snapChunk, len(b)) : min((c-first+1)*snapChunk, len(b))]
	}
	return nil
}

// whole returns the body after its build and version, every chunk read
// and checked.
func (ss *sealedSnapshot) whole() ([]byte, error) {
	if ss.body != nil || ss.f == nil {
		return ss.body, nil
	}
	body := make([]byte, ss.size)
	if _, err := ss.f.ReadAt(body, ss.off); err != nil {
		return nil, fmt.Errorf("graph: snapshot: %w", err)
	}
	if err := ss.check(body, 0); err != nil {
		return nil, err
	}
	return body[ss.start:], nil
}

// verify reads the whole body and checks every chunk against its digest,
// holding no more than verifyChunks of them at a time.
func (ss *sealedSnapshot) verify() error {
	if ss.body != nil || ss.f == nil {
		return nil
	}
	buf := make([]byte, min(ss.size, verifyChunks*snapChunk))
	for lo := 0; lo < ss.size; lo += len(buf) {
		b := buf[:min(len(buf), ss.size-lo)]
		if _, err := ss.f.ReadAt(b, ss.off+int64(lo)); err != nil {
			return fmt.Errorf("graph: snapshot: %w", err)
		}
		if err := ss.check(b, lo/snapChunk); err != nil {
			return err
		}
	}
	return nil
}

// verifyChunks is how many chunks verify reads at a time.
const verifyChunks = 256

// check checks b, the body's chunks from first on (the last may be
// short), against their digests.
func (ss *sealedSnapshot) check(b []byte, first int) error {
	for k := 0; k*snapChunk < len(b); k++ {
		c := first + k
		sum := sha256.Sum256(b[k*snapChunk : min((k+1)*snapChunk, len(b))])
		if !bytes.Equal(sum[:], ss.sums[sha256.Size*c:sha256.Size*(c+1)]) {
			return errSnapshotForeign // changed since it was sealed
		}
	}
	return nil
}

// graph decodes the snapshot's graph: nodes, edges and the tables made
// from nodes; the adjacency and stats are made by the caller's finish.
func (ss *sealedSnapshot) graph() (*Graph, error) {
	body, err := ss.whole()
	if err != nil {
		return nil, err
	}
	d := decoder{buf: body}
	h := d.header(len(body))
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
	if len(d.buf) != 4*h.tableWords()+h.fileBytes+h.knownBytes {
		return nil, fmt.Errorf("%w: %d bytes of tables, files and known, not %d", errSnapshotCorrupt, len(d.buf), 4*h.tableWords()+h.fileBytes+h.knownBytes)
	}
	if g.known, err = decodeKnown(d.buf[len(d.buf)-h.knownBytes:], len(g.Nodes)); err != nil {
		return nil, err
	}
	g.tables(strs, names)
	return g, nil
}

// A snapHeader is the counts that open a snapshot's body.
type snapHeader struct {
	unresolved, strings, nodes, edges, lenBytes, textBytes, nodeBytes, edgeBytes, named, fileBytes, knownBytes int
}

// tableWords is how many uint32 the tables after the edges hold.
func (h snapHeader) tableWords() int {
	return 3*(h.nodes+1) + (h.edges + 1) + 2*h.edges + (h.strings + 1) + h.named + 2*h.strings
}

// header reads the counts from the start of a body of total bytes (d
// may hold only a prefix of it), checked to add up to the body.
func (d *decoder) header(total int) snapHeader {
	var h snapHeader
	had := len(d.buf)
	h.unresolved = int(d.uint(1 << 40))
	for _, c := range []*int{&h.strings, &h.nodes, &h.edges, &h.lenBytes, &h.textBytes, &h.nodeBytes, &h.edgeBytes, &h.named, &h.fileBytes, &h.knownBytes} {
		*c = int(d.uint(1 << 32))
	}
	if d.err == nil && h.lenBytes+h.textBytes+h.nodeBytes+h.edgeBytes+4*h.tableWords()+h.fileBytes+h.knownBytes != total-(had-len(d.buf)) {
		d.err = fmt.Errorf("%w: sections that do not add up to the body", errSnapshotCorrupt)
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
	return bytes.Join(encodeParts(g, build), nil)
}

// encodeParts returns the body of g's snapshot for build in parts, to be
// written one after the other (no copy of the whole body is made).
func encodeParts(g *Graph, build string) [][]byte {
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
	// The adjacency tables (each node's edges in and out) depend on the
	// edges alone: they are made meanwhile.
	adjacent := make(chan []byte, 1)
	go func() {
		var adj tables32
		adj.buf = make([]byte, 0, 8*(len(g.Nodes)+1+len(g.Edges)))
		kind := func(i int) uint32 { return kindCode(g.Edges[i].Kind) << edgeIndexBits }
		adj.lists(len(g.Nodes), len(g.Edges), func(i int) uint64 { return uint64(g.Edges[i].To) }, kind)
		adj.lists(len(g.Nodes), len(g.Edges), func(i int) uint64 { return uint64(g.Edges[i].From) }, kind)
		adjacent <- adj.buf
	}()
	// Sized for a node (a dozen bytes): never copied as it grows.
	nodes := encoder{make([]byte, 0, 16*len(g.Nodes))}
	var tabs tables32
	nodeOff := make([]uint32, 0, len(g.Nodes)+1)
	nameOf := make([]uint64, len(g.Nodes)) // the string naming each node, for the name table
	// A node's path, kind and package are most often those of the nodes
	// just before it: each is looked up only when it is not.
	var path, kind, pkg lastInterned
	for i := range g.Nodes {
		nd := &g.Nodes[i]
		nodeOff = append(nodeOff, uint32(len(nodes.buf)))
		p, name := path.id(nd.Path, intern), intern(nd.Name)
		if nd.Kind == NodeKindFile {
			nameOf[i] = p
		} else {
			nameOf[i] = name
		}
		nodes.uint(p)
		nodes.uint(name)
		nodes.uint(intern(nd.Container))
		nodes.uint(kind.id(nd.Kind, intern))
		nodes.uint(pkg.id(nd.Package, intern))
		nodes.uint(flag(nd.Exported, 1) | flag(nd.Test, 2) | flag(nd.Stale, 4))
		nodes.uint(uint64(max(nd.Line, 0)))
		nodes.uint(uint64(max(nd.EndLine-max(nd.Line, 0), 0)))
		nodes.uint(uint64(max(nd.NameLine, 0)))
		nodes.uint(uint64(max(nd.NameColumn, 0)))
	}
	nodeOff = append(nodeOff, uint32(len(nodes.buf)))
	edges, edgeOff := encodeEdges(g.Edges, intern)
	tabs.buf = make([]byte, 0, 4*snapHeader{strings: len(table), nodes: len(g.Nodes), edges: len(g.Edges), named: len(g.Nodes)}.tableWords())
	tabs.put(nodeOff)
	tabs.put(edgeOff)
	tabs.buf = append(tabs.buf, <-adjacent...)
	tabs.lists(len(table), len(g.Nodes), func(i int) uint64 { return nameOf[i] }, func(int) uint32 { return 0 })
	tabs.hashes(table)
	lens := encoder{make([]byte, 0, 2*len(table))}
	text := 0
	for _, s := range table {
		lens.uint(uint64(len(s)))
		text += len(s)
	}
	e.buf = slices.Grow(e.buf, 16*binary.MaxVarintLen64+len(lens.buf)+text)
	files, known := encodeDigests(g.digests), encodeKnown(g.known)
	for _, v := range [...]int{max(g.stats.Unresolved, 0), len(table), len(g.Nodes), len(g.Edges), len(lens.buf), text,
		len(nodes.buf), len(edges.buf), len(g.Nodes), len(files), len(known)} {
		e.uint(uint64(v))
	}
	e.buf = append(e.buf, lens.buf...)
	for _, s := range table {
		e.buf = append(e.buf, s...)
	}
	return [][]byte{e.buf, nodes.buf, edges.buf, tabs.buf, files, known}
}

// encodeEdges encodes the edges section of a snapshot, with intern
// giving each string its number, and returns it with the offset of each
// edge in it and its end.
func encodeEdges(all []Edge, intern func(string) uint64) (encoder, []uint32) {
	// Sized for an edge (a dozen bytes): never copied as it grows.
	edges := encoder{make([]byte, 0, 16*len(all))}
	off := make([]uint32, 0, len(all)+1)
	// An edge's strings are most often those of the edges just before it:
	// each is looked up only when it is not (lastInterned).
	var kind, method, path, of lastInterned
	for i := range all {
		ed := &all[i]
		off = append(off, uint32(len(edges.buf)))
		edges.uint(uint64(ed.From))
		edges.uint(uint64(ed.To))
		edges.uint(kind.id(string(ed.Kind), intern))
		edges.uint(method.id(string(ed.Method), intern))
		edges.uint(path.id(ed.Path, intern))
		edges.uint(uint64(max(ed.Line, 0)))
		edges.uint(uint64(max(ed.Column, 0)))
		edges.uint(uint64(max(ed.Span, 0)))
		edges.uint(of.id(ed.Of, intern))
		edges.uint(flag(ed.Stale, 1))
	}
	return edges, append(off, uint32(len(edges.buf)))
}

// lastInterned are the last few strings interned for one field, with
// their ids: a field that goes back and forth between a few values (an
// edge's kind between calls and references) is looked up only when it
// takes another.
type lastInterned struct {
	s    [4]string
	n    [4]uint64
	used int // slots filled
	next int // the slot the next string goes into
}

// id returns the id of s, interning it only when it is not among the last.
func (l *lastInterned) id(s string, intern func(string) uint64) uint64 {
	for i := range l.used {
		if l.s[i] == s {
			return l.n[i]
		}
	}
	k := l.next
	l.s[k], l.n[k] = s, intern(s)
	l.next = (k + 1) % len(l.s)
	l.used = min(l.used+1, len(l.s))
	return l.n[k]
}

// encodeKnown encodes a snapshot's known section: for each standard
// library interface in name order, its name, how many types implement
// it, and their node indices.
func encodeKnown(known map[string][]int32) []byte {
	var e encoder
	for _, k := range slices.Sorted(maps.Keys(known)) {
		e.str(k)
		e.uint(uint64(len(known[k])))
		for _, n := range known[k] {
			e.uint(uint64(n))
		}
	}
	return e.buf
}

// decodeKnown reads a known section of a graph of n nodes.
func decodeKnown(b []byte, n int) (map[string][]int32, error) {
	d := decoder{buf: b}
	var out map[string][]int32
	for len(d.buf) > 0 && d.err == nil {
		k := d.str()
		c := int(d.uint(uint64(len(d.buf))))
		ids := make([]int32, 0, c)
		for range c {
			ids = append(ids, int32(d.index(uint64(n))))
		}
		if out == nil {
			out = map[string][]int32{}
		}
		out[k] = ids
	}
	return out, d.err
}

// encodeDigests encodes a snapshot's files section: each path and its
// content hash, in path order.
func encodeDigests(digests map[string]string) []byte {
	var e encoder
	for _, p := range slices.Sorted(maps.Keys(digests)) {
		e.str(p)
		e.str(digests[p])
	}
	return e.buf
}

// tables32 writes the fixed-width tables after a snapshot's edges.
type tables32 struct{ buf []byte }

func (t *tables32) put(vs []uint32) {
	for _, v := range vs {
		t.buf = binary.LittleEndian.AppendUint32(t.buf, v)
	}
}

// hashes writes the strings' hashes (strHash) in order, then the index
// of the string of each, so that a string is found by a binary search.
func (t *tables32) hashes(table []string) {
	ids := make([]uint32, len(table))
	hs := make([]uint32, len(table))
	for i, s := range table {
		ids[i], hs[i] = uint32(i), strHash(s)
	}
	slices.SortFunc(ids, func(a, b uint32) int {
		if hs[a] != hs[b] {
			return cmp.Compare(hs[a], hs[b])
		}
		return cmp.Compare(a, b)
	})
	sorted := make([]uint32, len(ids))
	for k, id := range ids {
		sorted[k] = hs[id]
	}
	t.put(sorted)
	t.put(ids)
}

// The adjacency tables hold an edge's index in their low edgeIndexBits
// and its kind's code (kindCode) above: a walk skips the edges of kinds
// it does not follow without reading them.
const edgeIndexBits = 28

// edgeKindCodes number the edge kinds; 0 stands for another kind.
var edgeKindCodes = [...]EdgeKind{"", Imports, Calls, References, Inherits, Implements, Tests}

// kindCode returns the code of k, 0 for a kind edgeKindCodes lacks.
func kindCode(k EdgeKind) uint32 {
	switch k {
	case Imports:
		return 1
	case Calls:
		return 2
	case References:
		return 3
	case Inherits:
		return 4
	case Implements:
		return 5
	case Tests:
		return 6
	}
	return 0
}

// strHash is the 32-bit FNV-1a hash of s.
func strHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	return h
}

// lists writes, for keys 0..keys-1, where each key's list starts (one
// more entry: the end), then the items 0..items-1 grouped by key(item),
// in item order within a key, each with its tag's bits set.
func (t *tables32) lists(keys, items int, key func(int) uint64, tag func(int) uint32) {
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
		list[next[k]] = uint32(i) | tag(i)
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

package precision

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/scip-code/scip/bindings/go/scip"

	"github.com/codecortex/codecortex/seal"
)

// A snapshot is a loaded [Index] written in a flat binary form that a later
// process reads back without parsing the SCIP index. It holds what the
// builder produced from the index — metadata, documents with their sorted
// occurrences, symbols with their information, implementation relations,
// dropped documents and the two counts only the builder sees — and the
// tables derived from those ([Index.index]) are rebuilt on reading, by the
// same code that builds them for [Load].
//
// Layout, little-endian:
//
//	header (snapHeaderSize bytes)
//	  magic   [8]byte  snapMagic
//	  version uint32   snapVersion
//	  keyLen  uint32   length of the key section
//	  varLen  uint64   length of the variable section
//	  occLen  uint64   length of the occurrence section
//	  crc     uint32   CRC-32C of the key, variable and occurrence sections
//	  sealLen uint32   length of the seal section
//	seal section       the seal (package seal) of the header's first 36
//	                   bytes and the key section: the snapshot was written
//	                   by this user's cortex
//	key section        the encoded snapshotKey the snapshot was written
//	                   for, then the SHA-256 of the whole index file
//	variable section   uvarints and length-prefixed strings:
//	  metadata         tool, tool version, argument count, arguments, project root
//	  counts           merged documents, invalid occurrences
//	  dropped          count, then path and reason of each
//	  documents        count, then path, declared encoding, text, occurrence count of each
//	  symbols          count, count of those with information, then name,
//	                   document+2, information flag and, if set, display
//	                   name, kind, signature, documentation of each
//	  relations        count, then implementer and implemented of each
//	occurrence section each document's occurrences in order, snapOccSize bytes each:
//	                   start line, start column, end line, end column, symbol, roles
//
// The seal binds the header, and with it the checksum of the rest, to this
// user's key: a snapshot shipped with a repository is never read, however
// well it is formed. It does not bind the body byte by byte (the checksum
// is not a MAC): it keeps out snapshots made elsewhere, which is what can
// arrive with a repository, at the cost of hashing some bytes rather than
// every byte of the snapshot on every load.
//
// A snapshot is outside input: readSnapshot checks every length against
// what remains, every index against its table, the order and ranges of
// occurrences, the document paths and the symbols' kinds, and the checksum;
// any violation is an error, never a panic. Symbols are not checked for
// repeats, which would cost the table of keys that a process asking one
// question never needs; a repeat is harmless, as lookups find the first.

const (
	snapMagic      = "cortexsn"
	snapHeaderSize = 40
	snapOccSize    = 24
	// snapVersion changes whenever the layout or what the builder stores
	// changes: a snapshot of another version is never read.
	snapVersion = 2
	// maxSealLen bounds the seal section.
	maxSealLen = 128
)

// purposeSnapshot is what a snapshot's seal is for.
const purposeSnapshot = "codecortex.precision.snapshot/2"

// snapCRC is made on first use: its tables cost every command a quarter
// of a millisecond at start-up.
var snapCRC = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// Snapshot errors; the provider falls back to loading the index on either.
var (
	// errSnapshotMismatch: the snapshot is whole but was written for
	// another index file, another loader build or another format version.
	errSnapshotMismatch = errors.New("precision: snapshot is of another index or build")
	// errSnapshotCorrupt: the snapshot is truncated, fails its checksum or
	// breaks the format.
	errSnapshotCorrupt = errors.New("precision: snapshot is corrupt")
	// errSnapshotForeign: the snapshot's seal does not check: this
	// user's cortex did not write it.
	errSnapshotForeign = errors.New("precision: snapshot was not written by this user's cortex")
)

// A snapshotKey identifies what a snapshot was made from: the loader's
// build, the index path relative to the root, and the index file's size,
// modification time and a digest of its first and last 64 KiB.
type snapshotKey struct {
	build  string
	rel    string
	size   int64
	mtime  int64 // Unix nanoseconds
	sample [32]byte
}

func (k snapshotKey) encode() []byte {
	var w snapWriter
	w.str(k.build)
	w.str(k.rel)
	w.u64(uint64(k.size))
	w.u64(uint64(k.mtime))
	w.buf = append(w.buf, k.sample[:]...)
	return w.buf
}

// encodeSnapshot writes ix for key, with digest, the SHA-256 of the index
// file it was loaded from, sealed by s.
func encodeSnapshot(ix *Index, key snapshotKey, digest [32]byte, s seal.Sealer) ([]byte, error) {
	keyb := append(key.encode(), digest[:]...)
	vbuf, nocc := encodeVariable(ix)
	out := make([]byte, snapHeaderSize, snapHeaderSize+maxSealLen+len(keyb)+len(vbuf)+nocc*snapOccSize)
	out = append(out, keyb...)
	out = append(out, vbuf...)
	le := binary.LittleEndian
	for i := range ix.docs {
		for _, o := range ix.docs[i].occs {
			out = le.AppendUint32(out, uint32(o.sl))
			out = le.AppendUint32(out, uint32(o.sc))
			out = le.AppendUint32(out, uint32(o.el))
			out = le.AppendUint32(out, uint32(o.ec))
			out = le.AppendUint32(out, o.sym)
			out = le.AppendUint32(out, uint32(o.roles))
		}
	}
	copy(out, snapMagic)
	le.PutUint32(out[8:], snapVersion)
	le.PutUint32(out[12:], uint32(len(keyb)))
	le.PutUint64(out[16:], uint64(len(vbuf)))
	le.PutUint64(out[24:], uint64(nocc*snapOccSize))
	le.PutUint32(out[32:], crc32.Checksum(out[snapHeaderSize:], snapCRC()))
	sl, err := s.Seal(purposeSnapshot, out[:36], keyb)
	if err != nil {
		return nil, err
	}
	if len(sl) > maxSealLen {
		return nil, fmt.Errorf("precision: a seal of %d bytes", len(sl))
	}
	le.PutUint32(out[36:], uint32(len(sl)))
	out = slices.Insert(out, snapHeaderSize, []byte(sl)...)
	return out, nil
}

// encodeVariable returns ix's variable section, as [snapReader.index]
// reads it back, and how many occurrences its documents hold.
func encodeVariable(ix *Index) ([]byte, int) {
	var v snapWriter
	m := ix.meta
	v.str(m.Tool)
	v.str(m.ToolVersion)
	v.uvarint(uint64(len(m.Arguments)))
	for _, a := range m.Arguments {
		v.str(a)
	}
	v.str(m.ProjectRoot)
	v.uvarint(uint64(ix.stats.MergedDocuments))
	v.uvarint(uint64(ix.stats.InvalidOccurrences))
	v.uvarint(uint64(len(ix.dropped)))
	for _, d := range ix.dropped {
		v.str(d.Path)
		v.str(d.Reason)
	}
	v.uvarint(uint64(len(ix.docs)))
	nocc := 0
	for i := range ix.docs {
		d := &ix.docs[i]
		v.str(d.path)
		v.uvarint(uint64(uint32(d.declared)))
		v.str(d.text)
		v.uvarint(uint64(len(d.occs)))
		nocc += len(d.occs)
	}
	v.uvarint(uint64(len(ix.syms)))
	ninfo := 0
	for _, s := range ix.syms {
		if s.info != nil {
			ninfo++
		}
	}
	v.uvarint(uint64(ninfo))
	for _, s := range ix.syms {
		v.str(s.name)
		v.uvarint(uint64(s.doc + 2))
		if s.info == nil {
			v.buf = append(v.buf, 0)
			continue
		}
		v.buf = append(v.buf, 1)
		v.str(s.info.DisplayName)
		v.str(s.info.Kind)
		v.str(s.info.Signature)
		v.str(s.info.Documentation)
	}
	rels := ix.relations()
	v.uvarint(uint64(len(rels)))
	for _, r := range rels {
		v.uvarint(uint64(r[0]))
		v.uvarint(uint64(r[1]))
	}
	return v.buf, nocc
}

type snapWriter struct{ buf []byte }

func (w *snapWriter) uvarint(x uint64) { w.buf = binary.AppendUvarint(w.buf, x) }
func (w *snapWriter) u64(x uint64)     { w.buf = binary.LittleEndian.AppendUint64(w.buf, x) }
func (w *snapWriter) str(s string) {
	w.uvarint(uint64(len(s)))
	w.buf = append(w.buf, s...)
}

// decodeSnapshot reads the snapshot in data; see readSnapshot.
func decodeSnapshot(data []byte, key snapshotKey, s seal.Sealer) (*Index, [32]byte, error) {
	return readSnapshot(bytes.NewReader(data), int64(len(data)), key, s)
}

// snapChunk is how many occurrences are read from the file at a time.
const snapChunk = 8192

// readSnapshot reads a snapshot of size bytes from r, written for key,
// and returns it with the digest of the index file it was made from. A
// snapshot for another key gives an error wrapping errSnapshotMismatch; a
// damaged one, errSnapshotCorrupt; one whose seal s does not verify,
// errSnapshotForeign. The returned index has no source file system.
func readSnapshot(r io.Reader, size int64, key snapshotKey, s seal.Sealer) (*Index, [32]byte, error) {
	var digest [32]byte
	var hdr [snapHeaderSize]byte
	if size < snapHeaderSize {
		return nil, digest, fmt.Errorf("%w: no snapshot header", errSnapshotCorrupt)
	}
	if size > maxSnapshotSize(key.size) {
		return nil, digest, fmt.Errorf("%w: %d bytes, more than an index of %d bytes gives", errSnapshotCorrupt, size, key.size)
	}
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, digest, fmt.Errorf("%w: %w", errSnapshotCorrupt, err)
	}
	if string(hdr[:8]) != snapMagic {
		return nil, digest, fmt.Errorf("%w: no snapshot header", errSnapshotCorrupt)
	}
	le := binary.LittleEndian
	if v := le.Uint32(hdr[8:]); v != snapVersion {
		return nil, digest, fmt.Errorf("%w: format version %d, this build reads %d", errSnapshotMismatch, v, snapVersion)
	}
	keyLen, varLen, occLen, sealLen := uint64(le.Uint32(hdr[12:])), le.Uint64(hdr[16:]), le.Uint64(hdr[24:]), uint64(le.Uint32(hdr[36:]))
	rest := uint64(size - snapHeaderSize)
	if sealLen > maxSealLen || sealLen > rest {
		return nil, digest, fmt.Errorf("%w: section lengths do not match its size", errSnapshotCorrupt)
	}
	rest -= sealLen
	if keyLen > rest || varLen > rest-keyLen || occLen != rest-keyLen-varLen || occLen%snapOccSize != 0 {
		return nil, digest, fmt.Errorf("%w: section lengths do not match its size", errSnapshotCorrupt)
	}
	want := key.encode()
	if keyLen != uint64(len(want)+len(digest)) {
		return nil, digest, fmt.Errorf("%w: written for another index file or loader build", errSnapshotMismatch)
	}
	sl := make([]byte, sealLen)
	if _, err := io.ReadFull(r, sl); err != nil {
		return nil, digest, fmt.Errorf("%w: %w", errSnapshotCorrupt, err)
	}
	// Everything after the seal goes through the checksum as it is read.
	crc := crc32.New(snapCRC())
	tr := io.TeeReader(r, crc)
	got := make([]byte, keyLen)
	if _, err := io.ReadFull(tr, got); err != nil {
		return nil, digest, fmt.Errorf("%w: %w", errSnapshotCorrupt, err)
	}
	if !bytes.Equal(got[:len(want)], want) {
		return nil, digest, fmt.Errorf("%w: written for another index file or loader build", errSnapshotMismatch)
	}
	if !s.Verify(string(sl), purposeSnapshot, hdr[:36], got) {
		return nil, digest, errSnapshotForeign
	}
	copy(digest[:], got[len(want):])
	// The variable section is read straight into the one string every
	// string of the index is a substring of.
	buf := make([]byte, snapChunk*snapOccSize)
	var sb strings.Builder
	sb.Grow(int(varLen))
	if n, err := io.CopyBuffer(&sb, io.LimitReader(tr, int64(varLen)), buf); err != nil || n != int64(varLen) {
		return nil, digest, fmt.Errorf("%w: the variable section is cut short (%d of %d bytes): %v", errSnapshotCorrupt, n, varLen, err)
	}
	sr := &snapReader{s: sb.String()}
	ix, counts, rels := sr.index(int(occLen / snapOccSize))
	if sr.err != nil {
		return nil, digest, fmt.Errorf("%w: %w", errSnapshotCorrupt, sr.err)
	}
	if err := readOccurrences(ix, tr, counts, buf); err != nil {
		return nil, digest, fmt.Errorf("%w: %w", errSnapshotCorrupt, err)
	}
	if n, _ := r.Read(buf[:1]); n != 0 {
		return nil, digest, fmt.Errorf("%w: longer than it says", errSnapshotCorrupt)
	}
	if crc.Sum32() != le.Uint32(hdr[32:]) {
		return nil, digest, fmt.Errorf("%w: checksum mismatch", errSnapshotCorrupt)
	}
	ix.index(rels)
	return ix, digest, nil
}

// maxSnapshotSize bounds the size of the snapshot of an index of
// indexSize bytes, before anything is allocated for it. A snapshot holds
// less than the index (a symbol is a number in it, not a string repeated
// at every occurrence) but for fixed-width occurrences, which take at most
// 24 bytes where the index spends at least 8.
func maxSnapshotSize(indexSize int64) int64 {
	if indexSize < 0 || indexSize > math.MaxInt64/4-(1<<20) {
		return math.MaxInt64
	}
	return 4*indexSize + 1<<20
}

// snapReader reads the variable section; the first error sticks and every
// later read returns zero values.
type snapReader struct {
	s   string
	off int
	err error
}

func (r *snapReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf(format, args...)
	}
}

func (r *snapReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	var x uint64
	for shift := 0; shift < 64; shift += 7 {
		if r.off >= len(r.s) {
			r.fail("truncated at byte %d", r.off)
			return 0
		}
		c := r.s[r.off]
		r.off++
		if c < 0x80 {
			if shift == 63 && c > 1 {
				break
			}
			return x | uint64(c)<<shift
		}
		x |= uint64(c&0x7f) << shift
	}
	r.fail("bad varint at byte %d", r.off)
	return 0
}

// count reads a count of items that take at least min bytes each, and
// refuses one that could not fit in what remains.
func (r *snapReader) count(min int) int {
	n := r.uvarint()
	if r.err == nil && n > uint64(len(r.s)-r.off)/uint64(min) {
		r.fail("count %d at byte %d exceeds the section", n, r.off)
		return 0
	}
	return int(n)
}

func (r *snapReader) str() string {
	n := r.uvarint()
	if r.err != nil {
		return ""
	}
	if n > uint64(len(r.s)-r.off) {
		r.fail("string of %d bytes at byte %d exceeds the section", n, r.off)
		return ""
	}
	s := r.s[r.off : r.off+int(n)]
	r.off += int(n)
	return s
}

func (r *snapReader) byte() byte {
	if r.err != nil {
		return 0
	}
	if r.off >= len(r.s) {
		r.fail("truncated at byte %d", r.off)
		return 0
	}
	c := r.s[r.off]
	r.off++
	return c
}

// index reads the variable section and checks it. It returns the index
// without its occurrences, the number of occurrences of each document and
// the implementation relations; nocc is how many occurrences the
// occurrence section holds. Any problem is left in r.err.
func (r *snapReader) index(nocc int) (*Index, []int, [][2]uint32) {
	ix := &Index{}
	r.meta(ix)
	counts, ok := r.documents(ix, nocc)
	if !ok {
		return nil, nil, nil
	}
	nsyms, ok := r.symbols(ix)
	if !ok {
		return nil, nil, nil
	}
	rels, ok := r.relations(nsyms)
	if !ok {
		return nil, nil, nil
	}
	if r.err == nil && r.off != len(r.s) {
		r.fail("%d bytes after the relations", len(r.s)-r.off)
	}
	return ix, counts, rels
}

// meta reads the index's metadata, statistics and dropped documents
// into ix.
func (r *snapReader) meta(ix *Index) {
	ix.meta.Tool = r.str()
	ix.meta.ToolVersion = r.str()
	if n := r.count(1); n > 0 {
		ix.meta.Arguments = make([]string, n)
		for i := range ix.meta.Arguments {
			ix.meta.Arguments[i] = r.str()
		}
	}
	ix.meta.ProjectRoot = r.str()
	merged, invalid := r.uvarint(), r.uvarint()
	if merged > math.MaxInt32 || invalid > math.MaxInt32 {
		r.fail("impossible counts %d and %d", merged, invalid)
	}
	ix.stats.MergedDocuments, ix.stats.InvalidOccurrences = int(merged), int(invalid)
	if n := r.count(2); n > 0 {
		ix.dropped = make([]DroppedDocument, n)
		for i := range ix.dropped {
			ix.dropped[i] = DroppedDocument{Path: r.str(), Reason: r.str()}
		}
	}
}

// documents reads the documents into ix and returns how many of the
// nocc occurrences each holds; ok is false when a document is bad enough
// that the reading stops.
func (r *snapReader) documents(ix *Index, nocc int) (counts []int, ok bool) {
	ndocs := r.count(4)
	if r.err == nil && ndocs == 0 {
		r.fail("no documents")
	}
	ix.docs = make([]document, ndocs)
	ix.byPath = make(map[string]int32, ndocs)
	counts = make([]int, ndocs)
	total := 0
	for i := range ix.docs {
		d := &ix.docs[i]
		d.path = r.str()
		declared := r.uvarint()
		d.text = r.str()
		n := r.uvarint()
		if r.err != nil {
			return nil, false
		}
		if declared > math.MaxUint32 {
			r.fail("document %d: encoding %d", i, declared)
			return nil, false
		}
		d.declared = scip.PositionEncoding(int32(uint32(declared)))
		if drop, err := checkDocPath(d.path); err != nil || drop != "" {
			r.fail("document %d: path %q is not served", i, d.path)
			return nil, false
		}
		if _, dup := ix.byPath[d.path]; dup {
			r.fail("document %d: path %q repeats", i, d.path)
			return nil, false
		}
		ix.byPath[d.path] = int32(i)
		if n > uint64(nocc-total) {
			r.fail("document %d: %d occurrences exceed the section", i, n)
			return nil, false
		}
		counts[i] = int(n)
		total += int(n)
	}
	if r.err == nil && total != nocc {
		r.fail("the documents hold %d occurrences, the section %d", total, nocc)
	}
	return counts, true
}

// symbols reads the symbols into ix, with their information, and returns
// how many there are; ok is false when one is bad enough that the reading
// stops.
func (r *snapReader) symbols(ix *Index) (nsyms int, ok bool) {
	ndocs := len(ix.docs)
	nsyms = r.count(3)
	ninfo := r.count(4)
	if r.err == nil && (nsyms > math.MaxUint32-1 || ninfo > nsyms) {
		r.fail("%d symbols, %d with information", nsyms, ninfo)
	}
	if r.err != nil {
		return 0, false
	}
	ix.syms = make([]symbolEntry, nsyms)
	infos := make([]SymbolInfo, ninfo)
	for i := range ix.syms {
		e := &ix.syms[i]
		e.name = r.str()
		doc := r.uvarint()
		switch flag := r.byte(); {
		case flag == 1 && len(infos) > 0:
			info := &infos[0]
			infos = infos[1:]
			*info = SymbolInfo{DisplayName: r.str(), Kind: r.str(), Signature: r.str(), Documentation: r.str()}
			if *info == (SymbolInfo{}) {
				r.fail("symbol %d: empty information", i)
			}
			e.info = info
		case flag != 0:
			r.fail("symbol %d: information flag %d", i, flag)
		}
		if r.err != nil {
			return 0, false
		}
		if doc > uint64(ndocs)+1 {
			r.fail("symbol %d: document %d of %d", i, int64(doc)-2, ndocs)
			return 0, false
		}
		e.doc = int32(doc) - 2
		switch local := isLocal(e.name); {
		case e.name == "":
			r.fail("symbol %d has no name", i)
		case e.doc == -1 && local, e.doc != -1 && !local:
			r.fail("symbol %d: %q in document %d", i, e.name, e.doc)
		}
		if r.err != nil {
			return 0, false
		}
	}
	if len(infos) != 0 {
		r.fail("%d symbols with information missing", len(infos))
	}
	return nsyms, true
}

// relations reads the implementation relations between the nsyms
// symbols, which must be in order and distinct; ok is false when one is
// bad.
func (r *snapReader) relations(nsyms int) (rels [][2]uint32, ok bool) {
	nrels := r.count(2)
	rels = make([][2]uint32, nrels)
	for i := range rels {
		a, b := r.uvarint(), r.uvarint()
		if r.err != nil {
			return nil, false
		}
		if a >= uint64(nsyms) || b >= uint64(nsyms) || a == b {
			r.fail("relation %d: %d → %d of %d symbols", i, a, b, nsyms)
			return nil, false
		}
		rels[i] = [2]uint32{uint32(a), uint32(b)}
		if i > 0 && (rels[i-1][0] > rels[i][0] || rels[i-1][0] == rels[i][0] && rels[i-1][1] >= rels[i][1]) {
			r.fail("relation %d is out of order", i)
			return nil, false
		}
	}
	return rels, true
}

// readOccurrences reads every document's occurrences from r, in chunks of
// buf, into one array, and checks each as the builder would have left it: a
// valid range, a known symbol (a local one of the same document), and
// strictly increasing order.
func readOccurrences(ix *Index, r io.Reader, counts []int, buf []byte) error {
	total := 0
	for _, n := range counts {
		total += n
	}
	all := make([]occurrence, total)
	le := binary.LittleEndian
	var chunk []byte // what is left of the last read
	at := 0
	for di := range ix.docs {
		occs := all[at : at+counts[di] : at+counts[di]]
		path := ix.docs[di].path
		for oi := range occs {
			if len(chunk) == 0 {
				n := min(len(buf)/snapOccSize, total-at-oi) * snapOccSize
				if _, err := io.ReadFull(r, buf[:n]); err != nil {
					return fmt.Errorf("occurrences cut short: %w", err)
				}
				chunk = buf[:n]
			}
			b := chunk[:snapOccSize]
			chunk = chunk[snapOccSize:]
			o := &occs[oi]
			o.sl, o.sc = int32(le.Uint32(b)), int32(le.Uint32(b[4:]))
			o.el, o.ec = int32(le.Uint32(b[8:])), int32(le.Uint32(b[12:]))
			o.sym, o.roles = le.Uint32(b[16:]), int32(le.Uint32(b[20:]))
			if !validRange(o) {
				return fmt.Errorf("%s: occurrence %d has an invalid range", path, oi)
			}
			if int(o.sym) >= len(ix.syms) {
				return fmt.Errorf("%s: occurrence %d names symbol %d of %d", path, oi, o.sym, len(ix.syms))
			}
			if d := ix.syms[o.sym].doc; d >= 0 && int(d) != di {
				return fmt.Errorf("%s: occurrence %d names a local of another document", path, oi)
			}
			if oi > 0 && !occBefore(&occs[oi-1], o) {
				return fmt.Errorf("%s: occurrence %d is out of order", path, oi)
			}
		}
		ix.docs[di].occs = occs
		at += counts[di]
	}
	return nil
}

// occBefore reports whether a sorts strictly before b (compareOcc < 0).
func occBefore(a, b *occurrence) bool {
	switch {
	case a.sl != b.sl:
		return a.sl < b.sl
	case a.sc != b.sc:
		return a.sc < b.sc
	case a.el != b.el:
		return a.el < b.el
	case a.ec != b.ec:
		return a.ec < b.ec
	case a.sym != b.sym:
		return a.sym < b.sym
	}
	return a.roles < b.roles
}

// validRange reports whether o's range is one scip.NewRange accepts.
func validRange(o *occurrence) bool {
	return o.sl >= 0 && o.sc >= 0 && (o.el > o.sl && o.ec >= 0 || o.el == o.sl && o.ec >= o.sc)
}

// snapshotName is the file name of the snapshot of the index at rel.
func snapshotName(rel string) string {
	var h uint64 = 14695981039346656037 // FNV-1a
	for i := 0; i < len(rel); i++ {
		h ^= uint64(rel[i])
		h *= 1099511628211
	}
	base := rel[strings.LastIndexByte(rel, '/')+1:]
	base = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, base)
	if len(base) > 64 {
		base = base[:64]
	}
	return fmt.Sprintf("%s-%016x.snap", strings.TrimLeft(base, "."), h)
}

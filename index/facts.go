package index

import (
	"context"
	"database/sql"
	"encoding/binary"
	"runtime"
	"slices"
	"sync"

	"github.com/codecortex/codecortex/symbols"
)

// FileFacts is what the index holds about one file, for the project
// graph: its definitions (in order of position, outer before inner), its
// imports and the names it uses.
type FileFacts struct {
	Path     string           `json:"path"`
	Language string           `json:"language"`
	Package  string           `json:"package,omitempty"`
	Symbols  []symbols.Symbol `json:"symbols"`
	Imports  []symbols.Import `json:"imports"`
	Refs     []symbols.Ref    `json:"refs"`
	// Hash is the SHA-256 of the content the facts were read from, in hex.
	Hash string `json:"hash"`
	// Stale reports that the file changed on disk and the refresh has not
	// reached it yet: the facts are those of the indexed content.
	Stale bool `json:"stale,omitempty"`
}

// Facts is every file's facts at one state of the index.
type Facts struct {
	// Version names the state of the index the facts were read from: the
	// same Version, the same facts.
	Version string `json:"version"`
	// Unchanged reports that the index was still at the Version the
	// caller passed; Files is then nil.
	Unchanged bool        `json:"unchanged,omitempty"`
	Files     []FileFacts `json:"files"`
	Freshness Freshness   `json:"freshness"`
}

// Facts brings the index up to date within the query budget, as every
// query does, and returns what it holds about every file it has checked,
// in path order. When since is the Version of the state the index is
// still in, nothing is read: the answer is Unchanged, so that a caller
// that keeps a graph built from an earlier answer can keep using it.
func (ix *Index) Facts(ctx context.Context, since string) (Facts, error) {
	res, _, err := ix.facts(ctx, since, false)
	return res, err
}

// facts is Facts, the refs left encoded with lazy (FactsLazy).
func (ix *Index) facts(ctx context.Context, since string, lazy bool) (Facts, EncodedRefs, error) {
	var res Facts
	var enc EncodedRefs
	fr, err := ix.read(ctx, ix.opts.budget(), nil, false, func(s snapshot) error {
		return s.inFactsTx(ctx, func(tx *sql.Tx, version string) error {
			res = Facts{Version: version}
			if version == since {
				res.Unchanged = true
				return nil
			}
			var files []FileFacts
			var err error
			files, enc.files, err = readFacts(ctx, tx, lazy)
			if err != nil {
				return err
			}
			for i := range files {
				files[i].Stale = s.pending[files[i].Path]
			}
			res.Files = files
			return nil
		})
	})
	res.Freshness = fr
	return res, enc, err
}

// FactsLazy is Facts with each file's refs left as the index stores
// them, a few bytes a ref, for a RefDecoder to decode one file at a
// time: every Refs is nil. A caller that reads each file's refs in turn,
// and not all at once, holds a file's decoded refs at a time rather than
// every file's, which on a large project are most of the facts.
func (ix *Index) FactsLazy(ctx context.Context, since string) (Facts, EncodedRefs, error) {
	return ix.facts(ctx, since, true)
}

// EncodedRefs are the refs of the files FactsLazy read, as the index
// stores them, by the index of the file in Facts.Files.
type EncodedRefs struct {
	files [][]byte
}

// Len returns how many refs file i has.
func (e EncodedRefs) Len(i int) int {
	if i >= len(e.files) {
		return 0
	}
	return countRefs(e.files[i])
}

// Current brings the index up to date within the query budget, as every
// query does, and reports whether it is still at version, reading nothing
// else: a caller that keeps something made from the facts of version asks
// whether it still holds before reading any.
func (ix *Index) Current(ctx context.Context, version string) (bool, Freshness, error) {
	same := false
	fr, err := ix.read(ctx, ix.opts.budget(), nil, false, func(s snapshot) error {
		return s.inFactsTx(ctx, func(_ *sql.Tx, v string) error {
			same = v == version
			return nil
		})
	})
	return same, fr, err
}

// factsFiles selects the rows of the files the facts cover.
const factsFiles = `verified = 1 AND skipped = ''`

// Digests is the content hash of every file the facts cover, at one state
// of the index: a caller that keeps something made from the facts of an
// earlier state compares them with the hashes it kept to tell which files
// changed since, without reading the facts again.
type Digests struct {
	// Version names the state, as Facts.Version does.
	Version string `json:"version"`
	// Files holds each file's Hash (see FileFacts) by path; a file that
	// changed on disk and is not indexed again yet has none ("").
	Files     map[string]string `json:"files"`
	Freshness Freshness         `json:"freshness"`
}

// Digests brings the index up to date within the query budget, as every
// query does, and returns the content hash of every file Facts would
// return.
func (ix *Index) Digests(ctx context.Context) (Digests, error) {
	var res Digests
	fr, err := ix.read(ctx, ix.opts.budget(), nil, false, func(s snapshot) error {
		return s.inFactsTx(ctx, func(tx *sql.Tx, version string) error {
			res = Digests{Version: version, Files: map[string]string{}}
			return eachRow(ctx, tx, `SELECT path, hash FROM files WHERE `+factsFiles, func(rs *sql.Rows) error {
				var p, h string
				if err := rs.Scan(&p, &h); err != nil {
					return err
				}
				if s.pending[p] {
					h = ""
				}
				res.Files[p] = h
				return nil
			})
		})
	})
	res.Freshness = fr
	return res, err
}

// readFacts reads every verified file's symbols, imports and refs; with
// lazy, the refs are left encoded, by the file's index (FactsLazy).
func readFacts(ctx context.Context, tx *sql.Tx, lazy bool) ([]FileFacts, [][]byte, error) {
	var files []FileFacts
	byID := map[int64]int{}
	err := eachRow(ctx, tx, `SELECT id, path, language, package, hash FROM files WHERE `+factsFiles+` ORDER BY path`, func(rs *sql.Rows) error {
		var id int64
		var f FileFacts
		if err := rs.Scan(&id, &f.Path, &f.Language, &f.Package, &f.Hash); err != nil {
			return err
		}
		byID[id] = len(files)
		files = append(files, f)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	// The refs and the symbols are read first, each decoded as it is read
	// and while the imports are read.
	var encoded [][]byte
	if lazy {
		encoded = make([][]byte, len(files))
	}
	dec := newDecoders(files)
	defer dec.wait()
	for _, q := range [...]struct {
		sql     string
		symbols bool
	}{{`SELECT file_id, data FROM refs`, false}, {`SELECT file_id, symbols FROM facts`, true}} {
		err = eachRow(ctx, tx, q.sql, func(rs *sql.Rows) error {
			var fid int64
			var data []byte
			if err := rs.Scan(&fid, &data); err != nil {
				return err
			}
			switch i, ok := byID[fid]; {
			case ok && lazy && !q.symbols:
				encoded[i] = data
			case ok:
				dec.send(refBlob{i, data, q.symbols})
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	err = eachRow(ctx, tx, `SELECT file_id, path, name, alias, start_line, start_col, end_line, end_col FROM imports ORDER BY file_id, id`, func(rs *sql.Rows) error {
		var fid int64
		var im symbols.Import
		r := &im.Range
		if err := rs.Scan(&fid, &im.Path, &im.Name, &im.Alias, &r.StartLine, &r.StartColumn, &r.EndLine, &r.EndColumn); err != nil {
			return err
		}
		if i, ok := byID[fid]; ok {
			files[i].Imports = append(files[i].Imports, im)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return files, encoded, nil
}

// decoders decode the files' refs and symbols sent to them, on every CPU,
// into files[i].Refs or files[i].Symbols (touching no other field): a
// decoder more for each decodersEvery blobs sent, up to GOMAXPROCS. Each
// decoder keeps one copy of each name it reads.
type decoders struct {
	files   []FileFacts
	blobs   chan refBlob
	wg      sync.WaitGroup
	sent    int
	started int
}

// decodersEvery is how many blobs each decoder started is sent, at least:
// a small project's are decoded on one goroutine.
const decodersEvery = 64

func newDecoders(files []FileFacts) *decoders {
	return &decoders{files: files, blobs: make(chan refBlob, decodersEvery)}
}

// send has b decoded.
func (d *decoders) send(b refBlob) {
	if d.sent >= decodersEvery*d.started && d.started < runtime.GOMAXPROCS(0) {
		d.started++
		d.wg.Add(1)
		go d.decode()
	}
	d.sent++
	d.blobs <- b
}

func (d *decoders) decode() {
	defer d.wg.Done()
	in := interner{}
	for b := range d.blobs {
		if f := &d.files[b.file]; b.symbols {
			f.Symbols = decodeSymbols(b.data, in)
		} else {
			f.Refs = decodeRefsWhere(nil, b.data, nil, in)
		}
	}
}

// wait returns once every blob sent is decoded; nothing may be sent
// after it.
func (d *decoders) wait() {
	close(d.blobs)
	d.wg.Wait()
}

// A refBlob is a file's encoded refs or symbols, by the file's index in the
// facts.
type refBlob struct {
	file    int
	data    []byte
	symbols bool // data are the file's symbols (encodeSymbols), not its refs
}

// An interner keeps one copy of each string it is given; a nil one
// makes a new copy each time.
type interner map[string]string

func (in interner) str(b []byte) string {
	if in == nil {
		return string(b)
	}
	if s, ok := in[string(b)]; ok {
		return s
	}
	s := string(b)
	in[s] = s
	return s
}

// maxChainBack is how many refs left out decodeRefsWhere keeps, to bring
// back the chain a selected ref is selected from.
const maxChainBack = 8

// A leftRef is a ref decodeRefsWhere left out, and its name's bytes.
type leftRef struct {
	r    symbols.Ref
	name []byte
}

// continues reports whether r is selected from the last ref of left,
// written just before it with the same qualifier.
func continues(left []leftRef, r *symbols.Ref) bool {
	if len(left) == 0 {
		return false
	}
	l := &left[len(left)-1]
	return l.r.Qualifier == r.Qualifier && l.r.Byte+len(l.name)+1 == r.Byte
}

// appendChain appends to out the refs of left, a chain (see
// decodeRefsWhere), when r is selected from its last and its first is
// selected from nothing.
func appendChain(out []symbols.Ref, left []leftRef, r *symbols.Ref, in interner) []symbols.Ref {
	if !continues(left, r) || left[0].r.Selected {
		return out
	}
	for _, l := range left {
		l.r.Name = in.str(l.name)
		out = append(out, l.r)
	}
	return out
}

// eachRow runs the query in tx and calls row on each row it returns, until
// row fails.
func eachRow(ctx context.Context, tx *sql.Tx, query string, row func(*sql.Rows) error) error {
	rs, err := tx.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rs.Close()
	for rs.Next() {
		if err := row(rs); err != nil {
			return err
		}
	}
	return rs.Err()
}

// refKinds encode a ref's kind in one byte; inheritOf is the byte of an
// Inherit ref with an Of (written after its qualifier).
var refKinds = []symbols.RefKind{symbols.Use, symbols.Call, symbols.Inherit}

const inheritOf = 3

// refSelected is the bit of a ref's kind byte that says it is Selected;
// refTyped, that a Type follows its qualifier (and Of).
const (
	refSelected = 0x80
	refTyped    = 0x40
)

// encodeRefs writes refs compactly: for each, its kind's byte (with
// refSelected set for a selected name, refTyped for one with a Type),
// then the name and qualifier (a length and the bytes), the Of of an
// Inherit ref that has one (its kind's byte is then inheritOf), the Type,
// then line, column and byte offset, as unsigned varints.
func encodeRefs(refs []symbols.Ref) []byte {
	buf := make([]byte, 0, len(refs)*16)
	for _, r := range refs {
		k := byte(0)
		for i, rk := range refKinds {
			if rk == r.Kind {
				k = byte(i)
			}
		}
		if r.Kind == symbols.Inherit && r.Of != "" {
			k = inheritOf
		}
		if r.Selected {
			k |= refSelected
		}
		if r.Type != "" {
			k |= refTyped
		}
		buf = append(buf, k)
		buf = binary.AppendUvarint(buf, uint64(len(r.Name)))
		buf = append(buf, r.Name...)
		buf = binary.AppendUvarint(buf, uint64(len(r.Qualifier)))
		buf = append(buf, r.Qualifier...)
		if k&^(refSelected|refTyped) == inheritOf {
			buf = binary.AppendUvarint(buf, uint64(len(r.Of)))
			buf = append(buf, r.Of...)
		}
		if r.Type != "" {
			buf = binary.AppendUvarint(buf, uint64(len(r.Type)))
			buf = append(buf, r.Type...)
		}
		buf = binary.AppendUvarint(buf, uint64(r.Line))
		buf = binary.AppendUvarint(buf, uint64(r.Column))
		buf = binary.AppendUvarint(buf, uint64(r.Byte))
	}
	return buf
}

// countRefs returns how many refs b holds, up to the first entry too
// short to hold its fields: at least as many as decodeRefs reads from it,
// as many when b is what encodeRefs wrote.
func countRefs(b []byte) int {
	n := 0
	for len(b) > 0 {
		k := refLen(b)
		if k == 0 {
			break
		}
		b = b[k:]
		n++
	}
	return n
}

// refLen returns the length of the ref b starts with, as encodeRefs
// wrote it, or 0 when b is too short to hold its fields.
func refLen(b []byte) int {
	strs := 2 // name, qualifier
	if b[0]&^(refSelected|refTyped) == inheritOf {
		strs++ // of
	}
	if b[0]&refTyped != 0 {
		strs++ // type
	}
	i := 1
	for range strs {
		v, k := binary.Uvarint(b[i:])
		if k <= 0 || v > uint64(len(b)-i-k) {
			return 0
		}
		i += k + int(v)
	}
	for range 3 { // line, column, byte
		_, k := binary.Uvarint(b[i:])
		if k <= 0 {
			return 0
		}
		i += k
	}
	return i
}

// refsOfKind decodes the refs of kind k that b holds, as decodeRefsWhere
// with in does, passing over the others without reading them.
func refsOfKind(b []byte, k symbols.RefKind, in interner) []symbols.Ref {
	var out []symbols.Ref
	for len(b) > 0 {
		n := refLen(b)
		if n == 0 {
			break
		}
		kind := symbols.Inherit
		if c := int(b[0] &^ (refSelected | refTyped)); c < len(refKinds) {
			kind = refKinds[c]
		}
		if kind == k {
			out = decodeRefsWhere(out, b[:n], nil, in)
		}
		b = b[n:]
	}
	return out
}

// decodeRefs reads what encodeRefs wrote; it stops at the first malformed
// entry.
func decodeRefs(b []byte) []symbols.Ref { return decodeRefsWhere(nil, b, nil, nil) }

// A RefDecoder decodes the refs FactsLazy left encoded, into memory it
// reuses from one file to the next, keeping one copy of each string it
// reads. The zero RefDecoder is ready to use; it is not safe for
// concurrent use.
type RefDecoder struct {
	in  interner
	buf []symbols.Ref
}

// Refs returns the refs of file i, decoded into the memory of the refs
// d last returned, which they replace.
func (d *RefDecoder) Refs(e EncodedRefs, i int) []symbols.Ref {
	if i >= len(e.files) {
		return nil
	}
	if d.in == nil {
		d.in = interner{}
	}
	d.buf = decodeRefsWhere(d.buf[:0], e.files[i], nil, d.in)
	return d.buf
}

// RefsOf returns the refs of kind k of file i, in memory of their own.
func (d *RefDecoder) RefsOf(e EncodedRefs, i int, k symbols.RefKind) []symbols.Ref {
	if i >= len(e.files) {
		return nil
	}
	if d.in == nil {
		d.in = interner{}
	}
	return refsOfKind(e.files[i], k, d.in)
}

// decodeRefsWhere is decodeRefs appending to out, keeping only the refs
// keep passes (all when keep is nil), given the ref read but its Name,
// and the name's bytes; with in, the
// strings are in's copies. It is long because it reads each field of the
// format in turn, each read checked, in the one loop the graph's load of
// every file's refs runs through.
func decodeRefsWhere(out []symbols.Ref, b []byte, keep func(r *symbols.Ref, name []byte) bool, in interner) []symbols.Ref {
	if keep == nil {
		out = slices.Grow(out, countRefs(b))
	}
	uv := func() (int, bool) {
		v, n := binary.Uvarint(b)
		if n <= 0 || v > 1<<31 {
			return 0, false
		}
		b = b[n:]
		return int(v), true
	}
	raw := func() ([]byte, bool) {
		n, ok := uv()
		if !ok || n > len(b) {
			return nil, false
		}
		s := b[:n]
		b = b[n:]
		return s, true
	}
	str := func() (string, bool) {
		s, ok := raw()
		return in.str(s), ok
	}
	// The refs last read that keep left out, each selected from the one
	// before (p, f and g of p.f.g), which a kept selected ref written
	// just after them (M of p.f.g.M) brings back: the chain its operand
	// is selected from.
	var left []leftRef
	// The ref being read, one for the whole loop: keep and the chain take
	// its address, which would move a ref declared in the loop to the
	// heap, one allocation a ref.
	var r symbols.Ref
	for len(b) > 0 {
		k := int(b[0] &^ (refSelected | refTyped))
		selected, typed := b[0]&refSelected != 0, b[0]&refTyped != 0
		b = b[1:]
		if k > inheritOf {
			return out
		}
		r = symbols.Ref{Kind: symbols.Inherit, Selected: selected}
		if k < len(refKinds) {
			r.Kind = refKinds[k]
		}
		name, ok := raw()
		if !ok || len(name) == 0 {
			return out
		}
		if r.Qualifier, ok = str(); !ok {
			return out
		}
		if k == inheritOf {
			if r.Of, ok = str(); !ok {
				return out
			}
		}
		if typed {
			if r.Type, ok = str(); !ok {
				return out
			}
		}
		if r.Line, ok = uv(); !ok {
			return out
		}
		if r.Column, ok = uv(); !ok {
			return out
		}
		if r.Byte, ok = uv(); !ok {
			return out
		}
		if skip := keep != nil && !keep(&r, name); skip {
			if !r.Selected || !continues(left, &r) {
				left = left[:0] // a chain starts here, or none
			}
			if len(left) < maxChainBack {
				left = append(left, leftRef{r, name})
			}
			continue
		}
		if r.Selected {
			out = appendChain(out, left, &r, in)
		}
		left = left[:0]
		r.Name = in.str(name)
		out = append(out, r)
	}
	return out
}

package precision

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/scip-code/scip/bindings/go/scip"

	"github.com/codecortex/codecortex/evidence"
)

// An Index is a loaded SCIP index with its lookup tables. It is immutable
// after [Load] and safe for concurrent use.
type Index struct {
	meta   Metadata
	docs   []document
	byPath map[string]int32
	syms   []symbolEntry
	// symID finds a symbol by its key. Load builds it while reading the
	// index; an index read from a snapshot builds it on demand (see
	// symbolID).
	symID   atomic.Pointer[map[symKey]uint32]
	idOnce  sync.Once
	scans   atomic.Int32
	defOff  []uint32 // CSR: definitions of symbol i are defs[defOff[i]:defOff[i+1]]
	defs    []occRef
	refOff  []uint32
	refs    []occRef
	implBy  map[uint32][]uint32 // interface → symbols implementing it
	implOf  map[uint32][]uint32 // implementing symbol → what it implements
	dropped []DroppedDocument
	stats   Stats

	src       fs.FS
	textBytes atomic.Int64 // non-ASCII source text cached in documents
}

// Metadata is what the index says about itself.
type Metadata struct {
	Tool        string   `json:"tool"`
	ToolVersion string   `json:"tool_version,omitempty"`
	Arguments   []string `json:"arguments,omitempty"`
	ProjectRoot string   `json:"project_root,omitempty"`
}

// Stats counts what was loaded.
type Stats struct {
	Documents   int `json:"documents"`
	Symbols     int `json:"symbols"`
	Occurrences int `json:"occurrences"`
	// MergedDocuments counts documents that repeated an earlier path (as
	// scip-typescript writes them for every tsconfig project that includes
	// a file) and were merged into it.
	MergedDocuments int `json:"merged_documents"`
	// InvalidOccurrences counts occurrences whose range breaks the
	// protocol; they are skipped.
	InvalidOccurrences int `json:"invalid_occurrences"`
	// Encodings counts documents by encoding and how it was determined,
	// such as "utf-8 (measured)".
	Encodings map[string]int `json:"encodings"`
}

// A DroppedDocument is a document the index holds but CodeCortex never
// serves, with the reason.
type DroppedDocument struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

type document struct {
	path     string
	declared scip.PositionEncoding
	enc      Encoding
	encSrc   EncodingSource
	text     string // Document.text, when the index embeds the source
	occs     []occurrence
	// src caches what position conversion needs from the source; it is
	// filled on first use.
	src atomic.Pointer[fileText]
}

// occurrence is a range in the index's own code units, zero-based and
// half-open, with its symbol and roles.
type occurrence struct {
	sl, sc, el, ec int32
	sym            uint32
	roles          int32
}

type occRef struct{ doc, occ uint32 }

// symKey is the table key of a symbol: a global one by its name alone
// (doc -1), a local one by its name within its document, since every
// indexer restarts their numbering per file (doc -2 for a local outside
// any document).
type symKey struct {
	doc  int32
	name string
}

type symbolEntry struct {
	name string // the SCIP symbol string; "local N" for a local
	doc  int32  // the declaring document of a local; -1 for a global, -2 for a local outside any document
	info *SymbolInfo
}

// SymbolInfo is what the index says about a symbol besides its occurrences.
type SymbolInfo struct {
	DisplayName   string `json:"display_name,omitempty"`
	Kind          string `json:"kind,omitempty"`
	Signature     string `json:"signature,omitempty"`
	Documentation string `json:"documentation,omitempty"`
}

// maxDocumentation caps the documentation kept per symbol.
const maxDocumentation = 2048

// Errors matched with errors.Is. Every load failure wraps one of them.
var (
	// ErrUnreadable: the index cannot be decoded (corrupt or truncated).
	ErrUnreadable = errors.New("precision: unreadable index")
	// ErrUnsupported: the index declares a protocol version this reader
	// does not know.
	ErrUnsupported = errors.New("precision: unsupported SCIP protocol version")
	// ErrProtocol: the index breaks the protocol, such as a document path
	// that is absolute or not clean.
	ErrProtocol = errors.New("precision: index breaks the SCIP protocol")
	// ErrEmpty: the index serves no document: it is truncated after its
	// metadata, or its indexer found no source in the project.
	ErrEmpty = errors.New("precision: the index holds no documents")
)

// LoadOptions tunes [Load]. The zero value is ready to use.
type LoadOptions struct {
	// Source reads the indexed documents, rooted at the project root; it is
	// used to convert columns to code points. Without it, only documents
	// whose text the index embeds can be converted, and other positions are
	// reported unconverted and not exact.
	Source fs.FS
	// Size is the index's size in bytes when known (0 means unknown); it
	// lets the loader reject impossible lengths before reading them.
	Size int64
}

// Load reads a SCIP index with the streaming visitor, so only one document
// is decoded at a time, and builds the lookup tables. A corrupt, truncated
// or unsupported index gives an error wrapping [ErrUnreadable],
// [ErrUnsupported] or [ErrProtocol], and one that serves no document (such
// as one cut off after its metadata) [ErrEmpty]; Load never panics on bad
// input.
func Load(ctx context.Context, r io.Reader, opts LoadOptions) (ix *Index, err error) {
	defer func() {
		if v := recover(); v != nil {
			ix, err = nil, fmt.Errorf("%w: decoder panicked: %v", ErrUnreadable, v)
		}
	}()
	b := newBuilder()
	size := opts.Size
	if size <= 0 {
		size = -1
	}
	v := scip.IndexVisitor{
		VisitMetadata:       b.metadata,
		VisitDocument:       b.document,
		VisitExternalSymbol: b.external,
	}
	if err := v.ParseStreaming(ctx, newFrameGuard(r, size)); err != nil {
		if errors.Is(err, ErrUnsupported) || errors.Is(err, ErrProtocol) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	if !b.sawMeta {
		return nil, fmt.Errorf("%w: no metadata", ErrUnreadable)
	}
	ix = b.finish()
	if len(ix.docs) == 0 {
		tool := ix.meta.Tool
		if tool == "" {
			tool = "its indexer"
		}
		why := "it is truncated after its metadata, or " + tool + " found no source"
		if len(ix.dropped) > 0 {
			why = fmt.Sprintf("all %d of its documents are outside the project root", len(ix.dropped))
		}
		return nil, fmt.Errorf("%w: %s", ErrEmpty, why)
	}
	ix.src = opts.Source
	return ix, nil
}

type builder struct {
	ix      *Index
	sawMeta bool
	rels    [][2]uint32 // implementer, implemented
	ids     map[symKey]uint32
}

func newBuilder() *builder {
	return &builder{ix: &Index{
		byPath: map[string]int32{},
	}, ids: map[symKey]uint32{}}
}

func (b *builder) metadata(ctx context.Context, m *scip.Metadata) error {
	if b.sawMeta {
		return fmt.Errorf("%w: metadata appears twice", ErrProtocol)
	}
	b.sawMeta = true
	if v := m.GetVersion(); v != scip.ProtocolVersion_UnspecifiedProtocolVersion {
		return fmt.Errorf("%w: %d", ErrUnsupported, int32(v))
	}
	t := m.GetToolInfo()
	b.ix.meta = Metadata{
		Tool:        t.GetName(),
		ToolVersion: t.GetVersion(),
		Arguments:   t.GetArguments(),
		ProjectRoot: m.GetProjectRoot(),
	}
	return ctx.Err()
}

// checkDocPath classifies a document path: served, dropped because it climbs
// out of the root (scip-go writes generated test files under the Go build
// cache as ../../...), or a protocol violation.
func checkDocPath(p string) (drop string, err error) {
	if !utf8.ValidString(p) {
		return "", fmt.Errorf("%w: document path %q is not UTF-8", ErrProtocol, p)
	}
	if !strings.HasPrefix(p, "/") && !strings.ContainsRune(p, '\\') {
		if c := path.Clean(p); c == ".." || strings.HasPrefix(c, "../") {
			return "outside the project root", nil
		}
	}
	if err := evidence.CheckPath(p); err != nil {
		return "", fmt.Errorf("%w: document path: %v", ErrProtocol, err)
	}
	return "", nil
}

func (b *builder) document(ctx context.Context, d *scip.Document) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	p := d.GetRelativePath()
	drop, err := checkDocPath(p)
	if err != nil {
		return err
	}
	if drop != "" {
		b.ix.dropped = append(b.ix.dropped, DroppedDocument{Path: p, Reason: drop})
		return nil
	}
	di, ok := b.ix.byPath[p]
	if ok {
		b.ix.stats.MergedDocuments++
	} else {
		di = int32(len(b.ix.docs))
		b.ix.byPath[p] = di
		b.ix.docs = append(b.ix.docs, document{path: p, declared: d.GetPositionEncoding(), text: d.GetText()})
	}
	doc := &b.ix.docs[di]
	if doc.declared == 0 {
		doc.declared = d.GetPositionEncoding()
	}
	if doc.text == "" {
		doc.text = d.GetText()
	}
	for _, o := range d.GetOccurrences() {
		sym := o.GetSymbol()
		if sym == "" {
			continue // a syntax-highlighting occurrence without a symbol
		}
		rg, err := scip.NewRange(o.GetRange())
		if err != nil {
			b.ix.stats.InvalidOccurrences++
			continue
		}
		doc.occs = append(doc.occs, occurrence{
			sl: rg.Start.Line, sc: rg.Start.Character, el: rg.End.Line, ec: rg.End.Character,
			sym: b.intern(sym, di), roles: o.GetSymbolRoles(),
		})
	}
	for _, si := range d.GetSymbols() {
		b.info(si, di)
	}
	return nil
}

func (b *builder) external(ctx context.Context, si *scip.SymbolInformation) error {
	b.info(si, -1)
	return ctx.Err()
}

func (b *builder) info(si *scip.SymbolInformation, doc int32) {
	name := si.GetSymbol()
	if name == "" {
		return
	}
	id := b.intern(name, doc)
	e := &b.ix.syms[id]
	if e.info == nil {
		info := &SymbolInfo{
			DisplayName: si.GetDisplayName(),
			Signature:   si.GetSignatureDocumentation().GetText(),
		}
		if k := si.GetKind(); k != scip.SymbolInformation_UnspecifiedKind {
			info.Kind = k.String()
		}
		if docs := si.GetDocumentation(); len(docs) > 0 {
			info.Documentation = truncate(strings.Join(docs, "\n\n"), maxDocumentation)
		}
		if *info != (SymbolInfo{}) {
			e.info = info
		}
	}
	for _, r := range si.GetRelationships() {
		if r.GetIsImplementation() && r.GetSymbol() != "" {
			b.rels = append(b.rels, [2]uint32{id, b.intern(r.GetSymbol(), doc)})
		}
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// isLocal reports whether a symbol is document-local. Locals are tolerated
// whatever follows "local " (scip-python writes "local 38(x)", outside the
// symbol grammar).
func isLocal(sym string) bool { return strings.HasPrefix(sym, "local ") }

// intern returns the id of sym, seen in document doc (-1 outside any),
// adding it when new.
func (b *builder) intern(sym string, doc int32) uint32 {
	switch {
	case !isLocal(sym):
		doc = -1
	case doc < 0:
		doc = -2 // a local outside any document: keep it apart from globals
	}
	k := symKey{doc, sym}
	if id, ok := b.ids[k]; ok {
		return id
	}
	id := uint32(len(b.ix.syms))
	b.ids[k] = id
	b.ix.syms = append(b.ix.syms, symbolEntry{name: sym, doc: doc})
	return id
}

func (b *builder) finish() *Index {
	ix := b.ix
	for di := range ix.docs {
		d := &ix.docs[di]
		slices.SortFunc(d.occs, compareOcc)
		d.occs = slices.Clip(slices.Compact(d.occs))
	}
	slices.SortFunc(b.rels, func(a, c [2]uint32) int {
		return cmp.Or(cmp.Compare(a[0], c[0]), cmp.Compare(a[1], c[1]))
	})
	rels := slices.DeleteFunc(slices.Compact(b.rels), func(r [2]uint32) bool { return r[0] == r[1] })
	ix.index(rels)
	ix.symID.Store(&b.ids)
	return ix
}

// linearLookups is how many lookups by key an index without its table of
// keys (one read from a snapshot) answers by scanning its symbols before
// it builds the table: a process that asks one question does not pay for
// the table, one that asks many builds it once.
const linearLookups = 4

// symbolID returns the id of the symbol with key k. Should two symbols
// share a key (no index loads to that, but a snapshot is outside input),
// the first is found, whether by scan or by table.
func (ix *Index) symbolID(k symKey) (uint32, bool) {
	m := ix.symID.Load()
	if m == nil && ix.scans.Add(1) > linearLookups {
		ix.idOnce.Do(func() {
			ids := make(map[symKey]uint32, len(ix.syms))
			for i, e := range ix.syms {
				k := symKey{e.doc, e.name}
				if _, dup := ids[k]; !dup {
					ids[k] = uint32(i)
				}
			}
			ix.symID.Store(&ids)
		})
		m = ix.symID.Load()
	}
	if m != nil {
		id, ok := (*m)[k]
		return id, ok
	}
	for i := range ix.syms {
		if e := &ix.syms[i]; e.doc == k.doc && e.name == k.name {
			return uint32(i), true
		}
	}
	return 0, false
}

// index builds the tables derived from the documents, their sorted and
// compacted occurrences and the symbols: each document's encoding, the
// definitions and references of every symbol, the implementation maps from
// rels (sorted, without repeats or self-relations) and the counts. Both
// [Load] and a snapshot end here, so their tables agree by construction.
func (ix *Index) index(rels [][2]uint32) {
	ix.stats.Encodings = map[string]int{}
	ix.stats.Occurrences = 0
	n := len(ix.syms)
	defCount := make([]uint32, n+1)
	refCount := make([]uint32, n+1)
	for di := range ix.docs {
		d := &ix.docs[di]
		d.enc, d.encSrc = ResolveEncoding(d.declared, ix.meta.Tool)
		ix.stats.Encodings[fmt.Sprintf("%s (%s)", d.enc, d.encSrc)]++
		for _, o := range d.occs {
			if o.roles&int32(scip.SymbolRole_Definition) != 0 {
				defCount[o.sym+1]++
			} else {
				refCount[o.sym+1]++
			}
		}
		ix.stats.Occurrences += len(d.occs)
	}
	for i := 1; i <= n; i++ {
		defCount[i] += defCount[i-1]
		refCount[i] += refCount[i-1]
	}
	ix.defOff, ix.refOff = defCount, refCount
	ix.defs = make([]occRef, defCount[n])
	ix.refs = make([]occRef, refCount[n])
	dfill := slices.Clone(defCount[:n])
	rfill := slices.Clone(refCount[:n])
	for di := range ix.docs {
		for oi, o := range ix.docs[di].occs {
			ref := occRef{uint32(di), uint32(oi)}
			if o.roles&int32(scip.SymbolRole_Definition) != 0 {
				ix.defs[dfill[o.sym]] = ref
				dfill[o.sym]++
			} else {
				ix.refs[rfill[o.sym]] = ref
				rfill[o.sym]++
			}
		}
	}
	ix.implBy = map[uint32][]uint32{}
	ix.implOf = map[uint32][]uint32{}
	for _, r := range rels {
		ix.implOf[r[0]] = append(ix.implOf[r[0]], r[1])
		ix.implBy[r[1]] = append(ix.implBy[r[1]], r[0])
	}
	ix.stats.Documents = len(ix.docs)
	ix.stats.Symbols = n
}

// relations returns the implementation relations of ix as [Index.index]
// takes them: sorted, without repeats or self-relations.
func (ix *Index) relations() [][2]uint32 {
	var rels [][2]uint32
	for _, from := range slices.Sorted(maps.Keys(ix.implOf)) {
		for _, to := range ix.implOf[from] {
			rels = append(rels, [2]uint32{from, to})
		}
	}
	return rels
}

func compareOcc(a, b occurrence) int {
	return cmp.Or(
		cmp.Compare(a.sl, b.sl), cmp.Compare(a.sc, b.sc),
		cmp.Compare(a.el, b.el), cmp.Compare(a.ec, b.ec),
		cmp.Compare(a.sym, b.sym), cmp.Compare(a.roles, b.roles))
}

// Metadata returns what the index says about itself.
func (ix *Index) Metadata() Metadata { return ix.meta }

// Stats returns the counts of what was loaded.
func (ix *Index) Stats() Stats { return ix.stats }

// Dropped returns the documents the index holds but CodeCortex never serves.
func (ix *Index) Dropped() []DroppedDocument { return slices.Clone(ix.dropped) }

// Paths returns the served document paths in index order.
func (ix *Index) Paths() []string {
	out := make([]string, len(ix.docs))
	for i := range ix.docs {
		out[i] = ix.docs[i].path
	}
	return out
}

// Encoding returns the encoding of the document at p and how it was
// determined.
func (ix *Index) Encoding(p string) (Encoding, EncodingSource, bool) {
	di, ok := ix.byPath[p]
	if !ok {
		return 0, "", false
	}
	return ix.docs[di].enc, ix.docs[di].encSrc, true
}

// fileText is what position conversion needs from a document's source:
// whether it is pure ASCII (then every encoding agrees and nothing is kept),
// else its lines.
type fileText struct {
	ascii bool
	lines []string
	err   error
}

// maxCachedText bounds the non-ASCII text kept for conversion; past it,
// further files are read on every use instead of kept.
const maxCachedText = 32 << 20

// text returns the document's source for position conversion, reading it
// on first use. Reads are lock-free once cached.
func (ix *Index) text(di int32) *fileText {
	d := &ix.docs[di]
	if ft := d.src.Load(); ft != nil {
		return ft
	}
	var data []byte
	var err error
	switch {
	case ix.src != nil:
		data, err = fs.ReadFile(ix.src, d.path)
		if err != nil && d.text != "" {
			data, err = []byte(d.text), nil
		}
	case d.text != "":
		data = []byte(d.text)
	default:
		err = errors.New("no source to read positions from")
	}
	ft := &fileText{err: err}
	if err == nil {
		ft.ascii = isASCII(data)
		if !ft.ascii {
			ft.lines = splitLines(string(data))
			if ix.textBytes.Add(int64(len(data))) > maxCachedText {
				ix.textBytes.Add(-int64(len(data)))
				return ft
			}
		}
	}
	d.src.Store(ft)
	return ft
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// splitLines splits on \n, \r\n and \r, as the SCIP protocol and LSP count
// lines.
func splitLines(s string) []string {
	var lines []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			lines = append(lines, s[start:i])
			start = i + 1
		case '\r':
			lines = append(lines, s[start:i])
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	return append(lines, s[start:])
}

func (ft *fileText) line(l int32) string {
	if ft.ascii || l < 0 || int(l) >= len(ft.lines) {
		return ""
	}
	return ft.lines[l]
}

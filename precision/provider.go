package precision

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/seal"
	"github.com/codecortex/codecortex/trust"
)

// Name is the provider name precision records carry.
const Name = "precision"

// Options configures a [Provider]. The zero value serves the index found in
// the working directory. A front end maps its configuration (such as the
// precision_index section of .codecortex/config.json) onto it; the provider
// never modifies it.
type Options struct {
	// Dir is the project root; empty means the working directory.
	Dir string
	// IndexPath is the index, relative to Dir; empty means the first of
	// [IndexCandidates] that is a regular file.
	IndexPath string
	// Disabled switches the provider off: Gather returns
	// evidence.ErrDisabled.
	Disabled bool
	// AutoGenerate regenerates a missing, unusable or stale index with
	// GeneratorCommand (an argv list, never a shell string) and reloads it.
	// The command must name the index path (as an argument, or as the
	// value of one such as --output=PATH): it is run with a temporary path
	// next to the index in its place, and its output replaces the index
	// only once it loads, so no reader ever sees a half-written index. One
	// generation runs at a time per project, across processes (a lock
	// under .codecortex/precision); a request that waited for another
	// process's generation uses its result rather than generating again.
	AutoGenerate     bool
	GeneratorCommand []string
	// GenerateTimeout bounds one generation, and the wait for another
	// process's; zero means 10 minutes.
	GenerateTimeout time.Duration
	// Progress receives one line when generation starts and one when it
	// ends; nil discards them.
	Progress io.Writer
	// NoSnapshot makes every load parse the index. By default the first
	// process to load an index writes a snapshot of what it loaded under
	// [SnapshotDir], and later processes read that instead of parsing the
	// index again, for as long as the index file and the build of this
	// package are unchanged; the answers are the same either way.
	NoSnapshot bool
	// Seal proves which indexes and snapshots this user's cortex generated
	// or accepted (see [Staleness]); nil means [seal.User].
	Seal seal.Sealer
}

func (o *Options) sealer() seal.Sealer {
	if o.Seal != nil {
		return o.Seal
	}
	return seal.User()
}

// IndexCandidates returns where a precision index is looked for, in order,
// when no path is configured: the specification's four locations, then
// index.scip, the name SCIP indexers write by default. Paths are
// slash-separated and relative to the project root; the caller owns the
// returned slice.
func IndexCandidates() []string {
	return []string{
		".codecortex/precision/index.cortexidx",
		"index.cortexidx",
		".codecortex/index.cortexidx",
		"build/index.cortexidx",
		"index.scip",
	}
}

// A Provider answers definition, reference and implementation questions
// from a SCIP index. It loads the index on first use, keeps it while the
// index file is unchanged, and checks staleness on every request. It is
// safe for concurrent use.
type Provider struct {
	opts Options

	mu       sync.Mutex
	root     *contain.Root
	ix       *Index
	rel      string // index path relative to the root
	info     fs.FileInfo
	fresh    *freshness
	loadTime time.Duration
	snapNote string
}

// New returns a provider; nothing is read until it is used.
func New(opts Options) *Provider { return &Provider{opts: opts} }

// Name returns "precision".
func (p *Provider) Name() string { return Name }

// Close releases the project root.
func (p *Provider) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.root != nil {
		err := p.root.Close()
		p.root = nil
		return err
	}
	return nil
}

// Status is the precision layer's state in detail, for precision-status and
// doctor.
type Status struct {
	State     evidence.State `json:"state"`
	Reason    string         `json:"reason,omitempty"`
	Guidance  string         `json:"guidance,omitempty"`
	IndexPath string         `json:"index_path"`
	// Loaded reports whether an index was read; the fields below are set
	// only then.
	Loaded    bool              `json:"loaded"`
	Metadata  Metadata          `json:"metadata"`
	Stats     Stats             `json:"stats"`
	Dropped   []DroppedDocument `json:"dropped,omitempty"`
	Staleness Staleness         `json:"staleness"`
	LoadTime  string            `json:"load_time,omitempty"`
	// Snapshot says how the loaded index was read: from its snapshot under
	// [SnapshotDir], or parsed (and why no snapshot served), and whether a
	// snapshot was written.
	Snapshot string `json:"snapshot,omitempty"`
}

// snapshot is a consistent view of the loaded index for one request.
type snapshot struct {
	ix    *Index
	stale Staleness
	rel   string
	root  *contain.Root
}

// Status loads the index if needed and reports the layer's state. It never
// fails: every problem is a state with a reason. With AutoGenerate, a
// missing, unusable or stale index is regenerated first.
func (p *Provider) Status(ctx context.Context) Status { return p.status(ctx, true) }

// Inspect is Status without ever running the generator: a missing,
// unusable or stale index is reported as it is, whatever the options say
// (what doctor and precision-status report).
func (p *Provider) Inspect(ctx context.Context) Status { return p.status(ctx, false) }

func (p *Provider) status(ctx context.Context, generate bool) Status {
	st := Status{State: evidence.Available}
	snap, err := p.acquireWith(ctx, generate)
	p.mu.Lock()
	st.IndexPath = p.rel
	if p.ix != nil {
		st.Loaded = true
		st.Metadata = p.ix.Metadata()
		st.Stats = p.ix.Stats()
		st.Dropped = p.ix.Dropped()
		st.LoadTime = p.loadTime.Round(time.Millisecond).String()
		st.Snapshot = p.snapNote
	}
	p.mu.Unlock()
	var ue *evidence.UnavailableError
	switch {
	case errors.Is(err, evidence.ErrDisabled):
		st.State, st.Reason = evidence.Disabled, "precision_index.enabled is false"
		return st
	case errors.As(err, &ue):
		st.State, st.Reason, st.Guidance = evidence.Unavailable, ue.Error(), ue.Guidance
		return st
	case err != nil:
		st.State, st.Reason = evidence.Unavailable, err.Error()
		return st
	}
	st.Staleness = snap.stale
	if snap.stale.Stale {
		st.State, st.Reason, st.Guidance = evidence.StaleState, snap.stale.Reason, p.staleGuidance(snap)
	}
	return st
}

// acquire returns the current index, loading, reloading or regenerating it
// as needed, with a fresh staleness check.
func (p *Provider) acquire(ctx context.Context) (snapshot, error) { return p.acquireWith(ctx, true) }

// acquireWith is acquire, regenerating the index only when generate is
// set and the options allow it.
func (p *Provider) acquireWith(ctx context.Context, generate bool) (snapshot, error) {
	if p.opts.Disabled {
		return snapshot{}, evidence.ErrDisabled
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.root == nil {
		dir := p.opts.Dir
		if dir == "" {
			dir = "."
		}
		root, err := contain.Open(dir)
		if err != nil {
			return snapshot{}, &evidence.UnavailableError{Reason: "project root cannot be opened", Err: err}
		}
		p.root = root
	}
	rel, found := p.indexPath()
	p.rel = rel
	if !found {
		if generate && p.canGenerate() {
			if err := p.generate(ctx, rel, "no index at "+rel); err != nil {
				return snapshot{}, err
			}
			return p.acquireLoaded(ctx, rel)
		}
		p.ix = nil
		return snapshot{}, &evidence.UnavailableError{
			Reason:   "no precision index at " + rel,
			Guidance: p.guidance(nil, rel),
		}
	}
	snap, err := p.acquireLoaded(ctx, rel)
	if err != nil {
		if generate && p.canGenerate() && (errors.Is(err, ErrUnreadable) || errors.Is(err, ErrEmpty)) {
			if gerr := p.generate(ctx, rel, err.Error()); gerr != nil {
				return snap, &evidence.UnavailableError{Reason: err.Error() + "; regenerating it failed", Err: gerr,
					Guidance: p.guidance(nil, rel)}
			}
			return p.acquireLoaded(ctx, rel)
		}
		return snap, err
	}
	if snap.stale.Stale && generate && p.canGenerate() {
		if err := p.generate(ctx, rel, snap.stale.Reason); err != nil {
			// The stale index still answers, marked stale; the failure is
			// part of the reason.
			snap.stale.Reason += "; regenerating it failed: " + err.Error()
			return snap, nil
		}
		return p.acquireLoaded(ctx, rel)
	}
	return snap, nil
}

func (p *Provider) canGenerate() bool { return p.opts.AutoGenerate && len(p.opts.GeneratorCommand) > 0 }

// indexPath returns the configured or discovered index path.
func (p *Provider) indexPath() (string, bool) {
	if p.opts.IndexPath != "" {
		fi, err := p.root.Stat(p.opts.IndexPath)
		return p.opts.IndexPath, err == nil && fi.Mode().IsRegular()
	}
	cands := IndexCandidates()
	for _, c := range cands {
		if fi, err := p.root.Stat(c); err == nil && fi.Mode().IsRegular() {
			return c, true
		}
	}
	return cands[0], false
}

// acquireLoaded (re)loads the index at rel when it is not loaded or its
// file changed, then checks staleness. p.mu is held.
func (p *Provider) acquireLoaded(ctx context.Context, rel string) (snapshot, error) {
	abs, err := p.root.Abs(rel)
	if err != nil {
		return snapshot{}, &evidence.UnavailableError{Reason: "precision index path " + rel + " is outside the project root", Err: err}
	}
	info, err := os.Stat(abs)
	if err != nil {
		p.ix = nil
		return snapshot{}, &evidence.UnavailableError{Reason: "precision index " + rel + " cannot be read", Err: err,
			Guidance: p.guidance(nil, rel)}
	}
	if p.ix == nil || p.info == nil || !sameFile(p.info, info) {
		p.ix, p.info, p.snapNote = nil, nil, ""
		start := time.Now()
		ix, info, digest, note, err := p.load(ctx, rel, abs)
		if err != nil {
			return snapshot{}, err
		}
		m, foreign := p.vouched(rel, info, digest)
		p.ix, p.info, p.loadTime, p.snapNote = ix, info, time.Since(start), note
		p.fresh = newFreshness(p.root.Dir(), ix, info, m, foreign)
	}
	return snapshot{ix: p.ix, stale: p.fresh.check(), rel: rel, root: p.root}, nil
}

// vouched returns the manifest that vouches for the index at rel, with
// info and digest, or nil and why the index is foreign.
func (p *Provider) vouched(rel string, info fs.FileInfo, digest [32]byte) (*Manifest, string) {
	m, err := p.readManifest(rel)
	switch {
	case err != nil:
		return nil, "the precision index " + rel + " has an unreadable sources manifest (" + cut(err.Error(), 120) + "), so it is served as stale"
	case m.vouches(p.opts.sealer(), p.root.Dir(), rel, info, digest):
		return m, ""
	case m == nil:
		return nil, "the precision index " + rel + " was not generated or accepted by this user's cortex (it may have come with the repository), so it is served as stale"
	}
	return nil, "the precision index " + rel + " is not the one this user's cortex generated or accepted (its sources manifest names another file, or is not sealed with this user's key), so it is served as stale"
}

// Accept vouches for the index the options name, for the user who made it
// another way than through GeneratorCommand (such as by running scip-go by
// hand): it parses the index and writes its sealed sources manifest, so
// that it is served as exact while its documents are unchanged. Documents
// modified after the index file was written stay stale. It returns the
// layer's state afterwards.
func (p *Provider) Accept(ctx context.Context) (Status, error) {
	if p.opts.Disabled {
		return Status{}, evidence.ErrDisabled
	}
	p.mu.Lock()
	err := p.accept(ctx)
	p.mu.Unlock()
	if err != nil {
		return Status{}, err
	}
	return p.Status(ctx), nil
}

func (p *Provider) accept(ctx context.Context) error {
	if p.root == nil {
		dir := p.opts.Dir
		if dir == "" {
			dir = "."
		}
		root, err := contain.Open(dir)
		if err != nil {
			return &evidence.UnavailableError{Reason: "project root cannot be opened", Err: err}
		}
		p.root = root
	}
	rel, found := p.indexPath()
	if !found {
		return &evidence.UnavailableError{Reason: "no precision index at " + rel, Guidance: p.guidance(nil, rel)}
	}
	abs, err := p.root.Abs(rel)
	if err != nil {
		return &evidence.UnavailableError{Reason: "precision index path " + rel + " is outside the project root", Err: err}
	}
	f, err := os.Open(abs)
	if err != nil {
		return &evidence.UnavailableError{Reason: "precision index " + rel + " cannot be read", Err: err}
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return &evidence.UnavailableError{Reason: "precision index " + rel + " cannot be read", Err: err}
	}
	ix, digest, err := loadDigest(ctx, f, p.root.FS(), info.Size())
	if err != nil {
		return &evidence.UnavailableError{Reason: "precision index " + rel + " is unusable", Err: err, Guidance: p.guidance(nil, rel)}
	}
	if len(ix.Paths()) == 0 {
		return &evidence.UnavailableError{Reason: "precision index " + rel + " holds no documents", Guidance: p.guidance(nil, rel)}
	}
	if now, err := f.Stat(); err != nil || !sameFile(now, info) {
		return &evidence.UnavailableError{Reason: "precision index " + rel + " changed while it was read; accept it again"}
	}
	if err := p.writeManifest(abs, rel, ix, digest, true); err != nil {
		return &evidence.UnavailableError{Reason: "the sources manifest of " + rel + " cannot be written", Err: err}
	}
	p.ix = nil // the next request loads it with its manifest
	return nil
}

// loadDigest loads the index in f (size bytes) and returns it with the
// SHA-256 of every byte of the file.
func loadDigest(ctx context.Context, f io.Reader, src fs.FS, size int64) (*Index, [32]byte, error) {
	var digest [32]byte
	h := sha256.New()
	ix, err := Load(ctx, io.TeeReader(f, h), LoadOptions{Source: src, Size: size})
	if err != nil {
		return nil, digest, err
	}
	if _, err := io.Copy(h, f); err != nil { // what the parser left unread
		return nil, digest, err
	}
	h.Sum(digest[:0])
	return ix, digest, nil
}

// cut returns s cut to at most n bytes, on a rune boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// load reads the index at rel (absolute path abs): from its snapshot in
// [SnapshotDir] when one was written for this very file and this build,
// else by parsing it, after which the snapshot is (re)written. It returns
// the file's info as it was read, the SHA-256 of its content (as the
// snapshot recorded it, or as it was parsed) and a note on the snapshot.
// p.mu is held.
func (p *Provider) load(ctx context.Context, rel, abs string) (*Index, fs.FileInfo, [32]byte, string, error) {
	var digest [32]byte
	f, err := os.Open(abs)
	if err != nil {
		return nil, nil, digest, "", &evidence.UnavailableError{Reason: "precision index " + rel + " cannot be read", Err: err}
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, digest, "", &evidence.UnavailableError{Reason: "precision index " + rel + " cannot be read", Err: err}
	}
	var key snapshotKey
	useSnapshot, why := !p.opts.NoSnapshot, "snapshots are off"
	if useSnapshot {
		// The key and the content come from the same open file, so a
		// snapshot never describes a file replaced in between.
		if key, err = indexKey(f, info, rel); err != nil {
			useSnapshot, why = false, "the index cannot be sampled for its snapshot: "+err.Error()
		}
	}
	if useSnapshot {
		var ix *Index
		if ix, digest, why = p.loadSnapshot(key); ix != nil {
			return ix, info, digest, "read from the snapshot " + path.Join(SnapshotDir, snapshotName(rel)), nil
		}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, nil, digest, "", &evidence.UnavailableError{Reason: "precision index " + rel + " cannot be read", Err: err}
	}
	ix, digest, err := loadDigest(ctx, f, p.root.FS(), info.Size())
	if err != nil {
		return nil, nil, digest, "", &evidence.UnavailableError{Reason: "precision index " + rel + " is unusable",
			Err: err, Guidance: p.guidance(nil, rel)}
	}
	note := "parsed the index (" + why + ")"
	if useSnapshot {
		note += "; " + p.writeSnapshot(key, ix, digest)
	}
	return ix, info, digest, note, nil
}

func sameFile(a, b fs.FileInfo) bool {
	return a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// OriginAttribute is set to "foreign" on the records of an index this
// user's cortex neither generated nor accepted (see [Staleness]).
const OriginAttribute = "index_origin"

// setAttribute sets one attribute of r, copying its map.
func setAttribute(r *evidence.Record, k, v string) {
	m := make(map[string]string, len(r.Metadata.Attributes)+1)
	for a, b := range r.Metadata.Attributes {
		m[a] = b
	}
	m[k] = v
	r.Metadata.Attributes = m
}

// staleGuidance is what to do about the stale index of snap: regenerate
// it, or, for a foreign one, vouch for it.
func (p *Provider) staleGuidance(snap snapshot) string {
	g := p.guidance(snap.ix, snap.rel)
	if snap.stale.Foreign {
		return "if you made this index yourself, vouch for it: cortex precision-status --accept; otherwise regenerate it (" + g + ") and accept it"
	}
	return g
}

// guidance is the exact command that (re)builds the index.
func (p *Provider) guidance(ix *Index, rel string) string {
	if len(p.opts.GeneratorCommand) > 0 {
		return "run: " + strings.Join(p.opts.GeneratorCommand, " ")
	}
	tool := ""
	if ix != nil {
		tool = ix.Metadata().Tool
	}
	switch tool {
	case "scip-go":
		return "run: scip-go --output " + rel
	case "scip-typescript":
		return "run: scip-typescript index --output " + rel
	case "scip-python":
		return "run: scip-python index . --project-name <name> --project-version <version> --output " + rel
	case "":
		return "generate a SCIP index at " + rel + " (for Go: scip-go --output " + rel + "), or set precision_index.generator_command with auto_generate"
	}
	return "regenerate the index with " + tool + " at " + rel
}

// Gather answers q with the definitions, references and implementations
// (as q.Kinds selects) of a symbol: the one at q's position (Path, Line,
// Column), or else q.Symbol, which is a SCIP symbol string or a name.
//
// A reference answer starts with the declaration of the symbol, as `gopls
// references -d` gives it: a reference record marked with
// [DeclarationAttribute] (see [IsDeclaration]; [WithoutDeclarations] drops
// it). A method's references include calls through the interface methods it
// implements and calls of the methods implementing it
// ([Index.DynamicReferences]); a function's, the uses of the names a module
// binds to it ([Index.AliasedReferences]). An implementation answer goes both ways, as
// gopls's does: on an interface or abstract method, what implements it; on
// a concrete type or method, the interfaces or interface methods it
// implements; each record says which in [RelationAttribute].
//
// A name is looked up with [Index.LookupName] ("ExecuteC",
// "Command.Find", "cobra.Command"): an ambiguous name answers every
// candidate, never a guess, and every record of a name's answer carries
// its candidate's package ("package"), qualified name ("qualified_name")
// and the number of candidates ("candidates") as attributes, and whether
// the index holds the candidate's definition ([DefinedAttribute]: "false"
// for a symbol of a dependency or the standard library).
//
// When a position or name has no answer, the report says why: the file is
// not in the project, the line or column is past its end, the index does
// not hold the file, no symbol is at the position, or no symbol has the
// name. Records from a stale index are marked stale with reindex guidance
// in the report.
func (p *Provider) Gather(ctx context.Context, q evidence.Query) (evidence.Response, error) {
	if q.Outgoing {
		return evidence.NotOutgoing(p.Name()), nil
	}
	snap, err := p.acquire(ctx)
	if err != nil {
		return evidence.Response{}, err
	}
	var recs []evidence.Record
	var why string
	switch {
	case q.Path != "" && (q.Line != 0 || q.Column != 0):
		recs, why = snap.atPosition(&q)
	case q.Symbol != "":
		recs, why = snap.byName(&q)
	}
	resp := evidence.Response{Records: recs, Report: evidence.Report{State: evidence.Available, Reason: why}}
	if snap.stale.Stale {
		for i := range resp.Records {
			resp.Records[i] = evidence.MarkStale(resp.Records[i])
			if snap.stale.Foreign {
				setAttribute(&resp.Records[i], OriginAttribute, "foreign")
			}
		}
		reason := snap.stale.Reason
		if why != "" {
			reason += "; " + why
		}
		resp.Report = evidence.Report{State: evidence.StaleState, Reason: reason,
			Guidance: p.staleGuidance(snap)}
	}
	return resp, nil
}

// atPosition answers q about the symbol at its position, or says why there
// is none. Definition and implementation questions are about the symbol
// the position uses, references about the one it declares: they differ at
// an embedded Go field, as gopls's answers do.
func (s snapshot) atPosition(q *evidence.Query) ([]evidence.Record, string) {
	decl, _, err := s.ix.SymbolAt(q.Path, q.Line, q.Column)
	if err != nil {
		return nil, s.positionProblem(q, err)
	}
	use, err := s.ix.useAt(q.Path, q.Line, q.Column)
	if err != nil || use.id == decl.id {
		return s.ix.answer(decl, q, true), ""
	}
	var recs []evidence.Record
	for _, k := range []evidence.Kind{evidence.Definition, evidence.Reference, evidence.Implementation} {
		if !q.Wants(k) {
			continue
		}
		sym := use
		if k == evidence.Reference {
			sym = decl
		}
		recs = append(recs, s.ix.answer(sym, &evidence.Query{Kinds: []evidence.Kind{k}}, true)...)
	}
	return recs, ""
}

// positionProblem says why the position of q has no symbol: the file is
// not in the project, the position is past the end of the file or of its
// line, the index does not hold the file, or no indexed symbol is there.
func (s snapshot) positionProblem(q *evidence.Query, err error) string {
	if _, why := checkPosition(s.root, q.Path, q.Line, q.Column); why != "" {
		return why
	}
	where := fmt.Sprintf("%s:%d:%d", q.Path, q.Line, q.Column)
	if errors.Is(err, ErrNoDocument) {
		for _, d := range s.ix.dropped {
			if d.Path == q.Path {
				return fmt.Sprintf("%s: the index holds %s but it is not served (%s)", where, q.Path, d.Reason)
			}
		}
		return fmt.Sprintf("%s: the index does not hold %s (it was added after indexing, or the indexer skipped it)", where, q.Path)
	}
	return fmt.Sprintf("%s: no indexed symbol at this position", where)
}

// checkPosition reads the file at path in root and returns its lines, or
// says why the one-based position (line, col) is not in it: the file is
// not in the project or cannot be read, or the position is not one, or is
// past the end of the file or of its line.
func checkPosition(root *contain.Root, path string, line, col int) ([]string, string) {
	where := fmt.Sprintf("%s:%d:%d", path, line, col)
	data, err := root.ReadFile(path)
	switch {
	case err != nil && errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Sprintf("%s: %s is not a file in the project", where, path)
	case err != nil:
		return nil, fmt.Sprintf("%s: %s cannot be read: %v", where, path, err)
	case line < 1 || col < 1:
		return nil, fmt.Sprintf("%s is not a position: lines and columns count from 1", where)
	}
	lines := splitLines(string(data))
	n := len(lines)
	if n > 1 && lines[n-1] == "" {
		n-- // the text after the last newline is not a line
	}
	switch {
	case line > len(lines):
		return nil, fmt.Sprintf("%s: line %d is past the end of %s, which has %d lines", where, line, path, n)
	case col > utf8.RuneCountInString(lines[line-1])+1:
		return nil, fmt.Sprintf("%s: column %d is past the end of line %d, which has %d characters", where, col, line, utf8.RuneCountInString(lines[line-1]))
	}
	return lines, ""
}

// byName answers q about every symbol q.Symbol may mean: a SCIP symbol
// string, or a name (see [Index.LookupName]).
func (s snapshot) byName(q *evidence.Query) ([]evidence.Record, string) {
	if sym, err := s.ix.Lookup(q.Symbol, q.Path); err == nil {
		return s.ix.answer(sym, q, true), ""
	}
	cands := s.ix.LookupName(q.Symbol)
	if len(cands) == 0 {
		return nil, fmt.Sprintf("the index has no symbol named %q", q.Symbol)
	}
	var recs []evidence.Record
	n := strconv.Itoa(len(cands))
	for _, c := range cands {
		defined := "false"
		if len(s.ix.Definitions(c.Symbol)) > 0 {
			defined = "true"
		}
		for _, r := range s.ix.answer(c.Symbol, q, true) {
			r.Metadata.Attributes["package"] = c.Package
			r.Metadata.Attributes["qualified_name"] = c.QualifiedName
			r.Metadata.Attributes["candidates"] = n
			r.Metadata.Attributes[DefinedAttribute] = defined
			recs = append(recs, r)
		}
	}
	if len(cands) == 1 {
		return recs, ""
	}
	names := make([]string, len(cands))
	for i, c := range cands {
		names[i] = c.QualifiedName
	}
	return recs, fmt.Sprintf("%q may mean %d symbols, all answered: %s", q.Symbol, len(cands), strings.Join(names, ", "))
}

// Implementation records say how their Symbol relates to the queried
// symbol (their TargetSymbol) in the attribute RelationAttribute.
const (
	// RelationAttribute is the attribute of implementation records that
	// says how Symbol relates to TargetSymbol.
	RelationAttribute = "relation"
	// RelationImplements: Symbol implements TargetSymbol (the question was about
	// an interface, an abstract method or a base type).
	RelationImplements = "implements"
	// RelationImplementedBy: Symbol is implemented by TargetSymbol (the question
	// was about a concrete type or method).
	RelationImplementedBy = "implemented_by"
)

// DeclarationAttribute marks, with the value "true", the reference record
// at the declaration of the symbol asked about: a reference answer includes
// the declaration, as `gopls references -d` and editors' "find all
// references" do. See [IsDeclaration] and [WithoutDeclarations].
const DeclarationAttribute = "declaration"

// DefinedAttribute says, on the records of a name that may mean several
// symbols, whether the index holds the symbol's definition ("true") or
// the symbol is another module's ("false": a dependency's, the standard
// library's), so that a host can prefer the project's own.
const DefinedAttribute = "defined_here"

// IsDeclaration reports whether r is a reference record at the declaration
// of the symbol asked about.
func IsDeclaration(r *evidence.Record) bool {
	return r.Kind == evidence.Reference && r.Metadata.Attributes[DeclarationAttribute] == "true"
}

// WithoutDeclarations returns the records of recs that are not
// declarations, in order: the reference answer of `gopls references`
// without -d. recs is not modified.
func WithoutDeclarations(recs []evidence.Record) []evidence.Record {
	out := make([]evidence.Record, 0, len(recs))
	for i := range recs {
		if !IsDeclaration(&recs[i]) {
			out = append(out, recs[i])
		}
	}
	return out
}

// answer returns the records q asks for about s; with declarations set, a
// reference answer starts with s's declarations.
func (ix *Index) answer(s Symbol, q *evidence.Query, declarations bool) []evidence.Record {
	var recs []evidence.Record
	if q.Wants(evidence.Definition) {
		for _, l := range ix.Definitions(s) {
			recs = append(recs, ix.record(evidence.Definition, l, s.Name, ""))
		}
	}
	if q.Wants(evidence.Reference) {
		start := len(recs)
		if declarations {
			for _, l := range ix.Definitions(s) {
				r := ix.record(evidence.Reference, l, s.Name, "")
				r.Metadata.Attributes[DeclarationAttribute] = "true"
				recs = append(recs, r)
			}
		}
		for _, l := range ix.References(s) {
			recs = append(recs, ix.record(evidence.Reference, l, s.Name, ""))
		}
		// Calls through an interface method s implements, and calls of the
		// methods implementing s (TargetSymbol names that method).
		for _, c := range ix.correspondingMethods(s) {
			other := ix.symbol(c.id)
			via := "implementing method " + other.Name
			if c.abstract {
				via = "interface method " + other.Name
			}
			for _, l := range ix.dynamicReferences(s, c) {
				r := ix.record(evidence.Reference, l, s.Name, other.Name)
				r.Metadata.Attributes["via"] = via
				recs = append(recs, r)
			}
		}
		// Uses of a name a module binds to s (const { f } = require(…)).
		for _, a := range ix.aliases(s) {
			other := ix.symbol(a)
			for _, l := range ix.aliasRefs(a) {
				r := ix.record(evidence.Reference, l, s.Name, "")
				r.Metadata.Attributes["via"] = "a name bound to it, " + other.Name
				recs = append(recs, r)
			}
		}
		// One record per location, as gopls answers: the declaration
		// first, then direct references before those through another
		// method or name.
		recs = append(recs[:start], firstPerLocation(recs[start:])...)
	}
	if q.Wants(evidence.Implementation) {
		// Both directions, as gopls answers: what implements s, and what s
		// implements. Each record is at the related symbol's definition.
		for _, impl := range ix.Implementations(s) {
			for _, l := range ix.Definitions(impl) {
				r := ix.record(evidence.Implementation, l, impl.Name, s.Name)
				r.Metadata.Attributes[RelationAttribute] = RelationImplements
				recs = append(recs, r)
			}
		}
		for _, target := range ix.Implements(s) {
			for _, l := range ix.Definitions(target) {
				r := ix.record(evidence.Implementation, l, target.Name, s.Name)
				r.Metadata.Attributes[RelationAttribute] = RelationImplementedBy
				recs = append(recs, r)
			}
		}
	}
	return recs
}

// firstPerLocation keeps the first record at each location, in order.
func firstPerLocation(recs []evidence.Record) []evidence.Record {
	type key struct {
		path           string
		sl, sc, el, ec int
	}
	seen := make(map[key]bool, len(recs))
	out := recs[:0]
	for _, r := range recs {
		k := key{r.Path, r.StartLine, r.StartColumn, r.EndLine, r.EndColumn}
		if !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out
}

// record turns a location into evidence: exact when the position is known
// exactly; near_exact when the encoding was assumed or the source could not
// be read to convert it, since the identity is resolved but the columns may
// be off.
func (ix *Index) record(kind evidence.Kind, l Location, sym, target string) evidence.Record {
	r := evidence.Record{
		Kind: kind, Provider: Name, Provenance: trust.PrecisionIndex,
		Trust: trust.Exact, Exact: true, Confidence: 1,
		Path: l.Path, StartLine: l.StartLine, StartColumn: l.StartColumn,
		EndLine: l.EndLine, EndColumn: l.EndColumn,
		Symbol: sym, TargetSymbol: target,
		Metadata: evidence.Metadata{Attributes: map[string]string{
			"indexer":         strings.TrimSpace(ix.meta.Tool + " " + ix.meta.ToolVersion),
			"encoding":        l.Encoding.String(),
			"encoding_source": string(l.EncodingSource),
		}},
	}
	if !l.Exact {
		r.Trust, r.Exact, r.Confidence = trust.NearExact, false, 0.9
		r.Metadata.Attributes["position"] = "unconverted or assumed: columns may be off"
	}
	return r
}

// Edges returns the exact edges the index proves, for the graph and impact
// layers: one reference record per reference site (Symbol and TargetSymbol
// both the defining symbol) and one implementation record per implementing
// definition (Symbol the implementer, TargetSymbol what it implements), of
// the symbols the index defines: a use of another module's symbol (Python's
// typing.Tuple) is no use of a project definition of its name. They are
// exact when the index is fresh and marked stale otherwise; the report says
// which.
func (p *Provider) Edges(ctx context.Context) (iter.Seq[evidence.Record], evidence.Report, error) {
	snap, err := p.acquire(ctx)
	if err != nil {
		return nil, evidence.Report{}, err
	}
	rep := evidence.Report{Provider: Name, State: evidence.Available}
	if snap.stale.Stale {
		rep = evidence.Report{Provider: Name, State: evidence.StaleState, Reason: snap.stale.Reason,
			Guidance: p.guidance(snap.ix, snap.rel)}
	}
	ix := snap.ix
	seq := func(yield func(evidence.Record) bool) {
		emit := func(r evidence.Record) bool {
			if snap.stale.Stale {
				r = evidence.MarkStale(r)
			}
			return yield(r)
		}
		for id := range ix.syms {
			if !ix.defines(uint32(id)) {
				continue // another module's symbol
			}
			s := ix.symbol(uint32(id))
			for _, ref := range ix.refs[ix.refOff[id]:ix.refOff[id+1]] {
				if ctx.Err() != nil {
					return
				}
				if !emit(ix.record(evidence.Reference, ix.location(ref.doc, ref.occ), s.Name, s.Name)) {
					return
				}
			}
			for _, target := range ix.Implements(s) {
				if !ix.defines(target.id) {
					continue
				}
				for _, l := range ix.Definitions(s) {
					r := ix.record(evidence.Implementation, l, s.Name, target.Name)
					r.Metadata.Attributes[RelationAttribute] = RelationImplements
					if !emit(r) {
						return
					}
				}
			}
		}
	}
	return seq, rep, nil
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// DisableGeneration stops this provider from running the generator, even
// with AutoGenerate set; cortex doctor uses it so that a check never runs
// anything.
func (p *Provider) DisableGeneration() {
	p.mu.Lock()
	p.opts.AutoGenerate = false
	p.mu.Unlock()
}

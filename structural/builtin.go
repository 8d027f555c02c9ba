package structural

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/syntax"
)

// BuiltinName is the name of the built-in engine.
const BuiltinName = "tree-sitter"

// BuiltinOptions tune the built-in engine. The zero value is ready to use.
type BuiltinOptions struct {
	// Workers is how many files are parsed at once; 0 means one per
	// processor (GOMAXPROCS). A worker in C holds its processor as a
	// system call does, which the runtime takes back after 20 µs unless
	// another processor is idle: a host that gives the process one
	// processor more than Workers saves the thread switches (cortex sg
	// does).
	Workers int
	// CacheBytes bounds the memory kept for parsed files between searches
	// (by path, used only while the file's content is byte for byte the
	// same); 0 means 256 MiB, a negative value disables the cache.
	CacheBytes int64
}

// Builtin is the in-process engine: tree-sitter grammars compiled into
// the binary (it needs cgo) and a matcher for ast-grep's pattern language.
// It is safe for concurrent use.
type Builtin struct {
	opts  BuiltinOptions
	cache *treeCache
	// exhaustive parses every file whole, without literals, chains or
	// segments: the reference the prefilters are tested against.
	exhaustive bool
}

// NewBuiltin returns the built-in engine.
func NewBuiltin(opts BuiltinOptions) *Builtin {
	limit := opts.CacheBytes
	if limit == 0 {
		limit = 256 << 20
	}
	return &Builtin{opts: opts, cache: newTreeCache(limit)}
}

// Name returns "tree-sitter".
func (b *Builtin) Name() string { return BuiltinName }

// Available returns nil when the engine can run in this build, and an
// error wrapping [ErrUnavailable] that says why not otherwise.
func (b *Builtin) Available() error {
	if !cgoEnabled {
		return fmt.Errorf("%w: cortex was built without cgo, so the tree-sitter grammars are not linked in", ErrUnavailable)
	}
	return nil
}

// Search runs req in process.
func (b *Builtin) Search(ctx context.Context, req Request) (*Result, error) {
	if err := b.Available(); err != nil {
		return nil, err
	}
	lim := req.Limits.withDefaults()
	root, err := contain.Open(req.Root)
	if err != nil {
		return nil, err
	}
	defer root.Close()

	want := func(f string) bool { _, ok := LanguageOf(f); return ok }
	if req.Language != "" {
		want = func(f string) bool { l, ok := LanguageOf(f); return ok && l == req.Language }
	}
	var feed *fileFeed
	var res *Result
	dir, streamed := streamDir(root, req)
	if streamed {
		// The walk starts finding files while the pattern compiles.
		walkCtx, stopWalk := context.WithCancel(ctx)
		feed = walkFeed(walkCtx, root, dir, want, lim.MaxFiles)
		// The walk reads through root, so it ends before root closes;
		// a search that fails stops it first.
		defer feed.all()
		defer stopWalk()
		res = &Result{Engine: BuiltinName, Matches: []Match{}}
	}
	patterns := map[Language]*Pattern{}
	if req.Language != "" {
		p, err := Compile(req.Pattern, req.Language)
		if err != nil {
			return nil, err
		}
		patterns[req.Language] = p
	}
	if !streamed {
		files, r, err := startResult(BuiltinName, root, req, lim, want)
		if err != nil {
			return nil, err
		}
		if req.Language == "" {
			if err := compileEach(req.Pattern, files.files, patterns, r); err != nil {
				return nil, err
			}
		}
		feed, res = listFeed(files.files), r
	}

	found, stoppedEarly, err := b.run(ctx, root, feed, req, lim, patterns, res)
	if err != nil {
		return nil, err
	}
	if streamed {
		files, truncated := feed.all()
		res.Files = len(files)
		if truncated {
			res.Truncated = true
			res.Notes = append([]string{maxFilesNote(lim.MaxFiles)}, res.Notes...)
		}
		res.Notes = append(res.Notes, feed.ignoreNotes()...)
	}
	if found > lim.MaxMatches {
		res.Truncated = true
		res.Notes = append(res.Notes, fmt.Sprintf("returned only the first %d matches (limit max_matches)", lim.MaxMatches))
	} else if stoppedEarly {
		res.Truncated = true
		res.Notes = append(res.Notes, fmt.Sprintf("stopped after %d matches (limit max_matches)", lim.MaxMatches))
	}
	return res, nil
}

// run searches files on the engine's workers and hands the matches, in
// file order, to req.Each or to res.Matches, at most lim.MaxMatches of
// them. Workers claim files in order (but see order: a large one near the end
// goes first) and stay within a window (claims)
// ahead of the first file whose matches are not handed over yet, so the
// matches held at once are those of a few megabytes of source. It
// returns how many matches the searched files held and whether the limit
// stopped the search before the last file.
func (b *Builtin) run(ctx context.Context, root *contain.Root, feed *fileFeed, req Request, lim Limits,
	patterns map[Language]*Pattern, res *Result) (found int, stoppedEarly bool, err error) {
	workers := b.opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if n, known := feed.count(); known {
		workers = min(workers, max(n, 1))
	}
	r := newSearchRun(ctx, b, root, feed, req, lim, patterns, res, workers)
	hand := newHandover(r.handOver)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.work(hand)
		}()
	}
	wg.Wait()
	if r.err != nil {
		return 0, false, r.err
	}
	if err := ctx.Err(); err != nil {
		return 0, false, err
	}
	res.Found = r.emitted
	res.Parsed = int(r.parsed.Load())
	if n := r.skipped.Load(); n > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("skipped %d unreadable, oversized or unparsable files", n))
	}
	files, _ := feed.all()
	reached, next := r.ord.reached(lim.MaxMatches)
	return r.found, reached && next < len(files), nil
}

// A searchRun is what the workers of one [Builtin.run] share.
type searchRun struct {
	b        *Builtin
	ctx      context.Context
	root     *contain.Root
	feed     *fileFeed
	req      Request
	lim      Limits
	patterns map[Language]*Pattern
	res      *Result

	window *claims
	ord    *order
	// A file is searched for one match past the limit, so that a file
	// holding more than the limit shows in found and the answer says it
	// was cut (a file stopped at the limit would look complete).
	perFile int
	// Scratch handed back for the workers to build matches in (see
	// matchScratch), and with recycle the sources the matches sliced, a
	// few at most: as many as files are handed over while the workers
	// parse.
	spare        chan *matchScratch
	recycle      bool
	spareSources chan []byte

	parsed, skipped atomic.Int64

	// Each finished file's matches are handed over in file order, by
	// the worker that finishes the file whose turn it is (handover), so
	// these are only written one hand at a time.
	found, emitted int
	err            error
}

// A searchedFile is one file's matches on their way to be handed over.
type searchedFile struct {
	matches []Match
	scratch *matchScratch // what the matches are built in
	src     []byte        // with recycle, the source they slice
	held    int64         // bytes of source the matches hold, as the window counts them
	ahead   bool
}

// newSearchRun returns the shared state of a run on the given number of
// workers.
func newSearchRun(ctx context.Context, b *Builtin, root *contain.Root, feed *fileFeed, req Request, lim Limits,
	patterns map[Language]*Pattern, res *Result, workers int) *searchRun {
	r := &searchRun{b: b, ctx: ctx, root: root, feed: feed, req: req, lim: lim, patterns: patterns, res: res}
	// Workers claim files up to 256 each, or until the files whose
	// matches wait to be handed over hold 1 MiB of source each; a large
	// file at the head then no longer idles the others: with 16 files a
	// worker, prometheus kept one of two cores idle for a tenth of the run
	// (docs/benchmarks.md).
	r.window = newClaims(256*workers, int64(workers)<<20)
	// Files taken ahead of their turn (see order) do not count toward
	// the window's bytes: the files before them, which the window must
	// let the workers take, are what hands them over.
	r.ord = newOrder(feed, workers)
	r.perFile = lim.MaxMatches
	if r.perFile < math.MaxInt {
		r.perFile++
	}
	r.spare = make(chan *matchScratch, 2*workers)
	r.recycle = req.Each != nil && req.Recycle && !b.cache.keeps()
	r.spareSources = make(chan []byte, 2*workers)
	return r
}

// handOver takes a file's matches in its turn: it counts them, gives
// them to req.Each or res.Matches up to the limit, and keeps their
// scratch and source for the workers to use again.
func (r *searchRun) handOver(d searchedFile) {
	r.window.release(d.held)
	if d.ahead {
		r.ord.handedOver()
	}
	r.found += len(d.matches)
	for k := range d.matches {
		if r.emitted >= r.lim.MaxMatches || r.err != nil {
			break
		}
		r.emitted++
		if r.req.Each == nil {
			r.res.Matches = append(r.res.Matches, d.matches[k])
		} else if r.err = r.req.Each(&d.matches[k]); r.err != nil {
			r.window.stop()
		}
	}
	if r.req.Each != nil && d.scratch != nil && d.scratch.size() <= maxSpareScratch {
		d.scratch.reset()
		select {
		case r.spare <- d.scratch:
		default:
		}
	}
	if d.src != nil && cap(d.src) <= maxSpareSource {
		select {
		case r.spareSources <- d.src:
		default:
		}
	}
}

// A searchWorker is what one worker keeps from file to file.
type searchWorker struct {
	parsers map[Language]*parser
	// Consecutive files share a directory: the worker keeps it open.
	dirs *contain.DirCache
	m    matcher
	buf  []byte // the file being read; kept across files
	// With recycle, the memory the next file's source is read into: a
	// source no match slices, or one handed back.
	fresh *[]byte
}

// work searches the files the worker claims, one after the other, and
// hands each one's matches to hand, until the window closes, the files
// run out, ctx ends or the files before the first not taken hold the
// match limit.
func (r *searchRun) work(hand *handover[searchedFile]) {
	// A worker keeps one thread, so the C allocator serves the memory its
	// parses take outside their arena (files over arenaMaxSource) from
	// one of its arenas rather than many.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	w := searchWorker{parsers: map[Language]*parser{}, dirs: r.root.DirCache()}
	defer func() {
		for _, p := range w.parsers {
			p.Close()
		}
	}()
	defer w.dirs.Close()
	if r.recycle {
		w.fresh = new([]byte)
	}
	for r.window.claim() {
		// No file is taken once the files before the first one not taken
		// hold the match limit, so the first matches are deterministic:
		// those of the sorted list's prefix.
		if reached, _ := r.ord.reached(r.lim.MaxMatches); r.ctx.Err() != nil || reached {
			r.window.release(0)
			return
		}
		i, ahead := r.ord.take()
		rel, size, ok := r.feed.at(i)
		if !ok {
			r.window.release(0)
			return
		}
		d := r.searchFile(&w, rel, size, ahead)
		r.ord.searched(i, len(d.matches))
		hand.done(i, d)
	}
}

// searchFile returns the matches of the pattern for the file's language
// in the file, sorted; a file that cannot be read or parsed is counted
// as skipped and has none.
func (r *searchRun) searchFile(w *searchWorker, rel string, size int64, ahead bool) searchedFile {
	d := searchedFile{ahead: ahead}
	lang, _ := LanguageOf(rel)
	if r.req.Language != "" {
		lang = r.req.Language
	}
	p := r.patterns[lang]
	if p == nil {
		return d
	}
	if w.fresh != nil && *w.fresh == nil {
		select {
		case *w.fresh = <-r.spareSources:
		default:
		}
	}
	t, didParse, err := r.b.load(w.dirs.Open, rel, size, p, w.parsers, &w.buf, w.fresh, r.lim.MaxFileBytes)
	if didParse {
		r.parsed.Add(1)
	}
	switch {
	case err != nil:
		r.skipped.Add(1)
	case t != nil:
		select {
		case d.scratch = <-r.spare:
		default:
			d.scratch = new(matchScratch)
		}
		d.matches = searchTree(&w.m, p, t, rel, r.perFile, d.scratch)
		sortMatches(d.matches)
		if len(d.matches) > 0 && !ahead {
			d.held = int64(len(t.src))
			r.window.read(d.held)
		}
		if w.fresh != nil && len(d.matches) > 0 {
			// The matches slice the source until handed over.
			d.src, *w.fresh = (*w.fresh)[:0], nil
		}
	}
	return d
}

// compileEach compiles the pattern for every language among files; a
// language where it does not compile is left out with a note. When it
// compiles for none, the first language's error is returned.
func compileEach(pattern string, files []string, patterns map[Language]*Pattern, res *Result) error {
	langs := map[Language]bool{}
	for _, f := range files {
		if l, ok := LanguageOf(f); ok {
			langs[l] = true
		}
	}
	sorted := make([]Language, 0, len(langs))
	for l := range langs {
		sorted = append(sorted, l)
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	var first error
	for _, l := range sorted {
		p, err := Compile(pattern, l)
		if err != nil {
			if first == nil {
				first = err
			}
			var pe *PatternError
			if !errors.As(err, &pe) {
				return err
			}
			res.Notes = append(res.Notes, fmt.Sprintf("%s files not searched: %v", l, err))
			continue
		}
		patterns[l] = p
	}
	if len(patterns) == 0 && first != nil {
		return first
	}
	return nil
}

// load returns the parsed tree of rel, from the cache when the file's
// content is unchanged (compared byte for byte, so neither a preserved
// modification time nor a same-size edit fools it) and the cached parse
// covers every segment the pattern may match in. It returns a nil tree for
// a file that cannot contain a match. open opens files for reading; size
// is rel's size as the walk found it (-1 when unknown); buf is the
// worker's read buffer. fresh, when not nil, is memory the source is to
// be read into instead of a slice of its own (the engine keeping no
// cache), and is left holding the source read.
func (b *Builtin) load(open func(string) (fs.File, error), rel string, size int64, p *Pattern, parsers map[Language]*parser, buf, fresh *[]byte, maxBytes int64) (t *tree, parsed bool, err error) {
	key := cacheKey{path: rel, lang: p.lang}
	e, hit := b.cache.get(key)
	if hit {
		// Read into the worker's buffer, only to compare.
		data, err := readFile(open, rel, size, buf, maxBytes)
		if err != nil {
			return nil, false, err
		}
		if !bytes.Equal(e.src, data) {
			hit = false
			e = &cacheEntry{src: bytes.Clone(data)}
		}
	} else {
		// Nothing to compare with: read into the slice the entry keeps.
		var src []byte
		if fresh != nil {
			src = (*fresh)[:0]
		}
		if src, err = readFile(open, rel, size, &src, maxBytes); err != nil {
			return nil, false, err
		}
		if fresh != nil {
			*fresh = src
		}
		e = &cacheEntry{src: src}
	}
	if b.exhaustive {
		if e.tree != nil && e.parsed == nil {
			return newTree(p.g, e.tree), false, nil
		}
		return b.parseInto(key, e, nil, p, parsers)
	}
	if !p.mayMatch(e.src) {
		if !hit {
			b.cache.put(key, e)
		}
		return nil, false, nil
	}
	if e.tree != nil && e.parsed == nil {
		return newTree(p.g, e.tree), false, nil
	}
	if len(p.literals) == 0 && len(p.chains) == 0 {
		// Every segment may hold a match: no need to cut the file.
		return b.parseInto(key, e, nil, p, parsers)
	}
	learned := !hit // whether e holds something the cache lacks
	if !e.split {
		e = &cacheEntry{src: e.src, segs: segmentsOf(p.lang, e.src), split: true}
		learned = true
	}
	var marks []bool
	if e.segs != nil {
		marks = make([]bool, len(e.segs))
		if !selectSegments(p, e.src, e.segs, marks) {
			if learned {
				b.cache.put(key, e)
			}
			return nil, false, nil
		}
		if e.tree != nil && covers(e.parsed, marks) {
			return newTree(p.g, e.tree), false, nil
		}
		// Keep what an earlier search parsed, so the cached tree only grows.
		for k, m := range e.parsed {
			marks[k] = marks[k] || m
		}
		if covers(marks, nil) {
			marks = nil
		}
	}
	return b.parseInto(key, e, marks, p, parsers)
}

// covers reports whether every segment marked in need is marked in have;
// a nil need stands for every segment.
func covers(have, need []bool) bool {
	for k, h := range have {
		if !h && (need == nil || need[k]) {
			return false
		}
	}
	return true
}

// parseInto parses e's source, only the segments marked in marks when it
// is not nil, with the worker's parser for p's language, and caches the
// result. A partial parse with a syntax error is redone whole, so that
// every file either parses whole or holds segments that parse cleanly.
func (b *Builtin) parseInto(key cacheKey, e *cacheEntry, marks []bool, p *Pattern, parsers map[Language]*parser) (*tree, bool, error) {
	ps := parsers[p.lang]
	if ps == nil {
		var err error
		ps, err = newParser(p.g)
		if err != nil {
			return nil, false, err
		}
		// Without a cache, a worker is done with a file's tree before it
		// parses the next: the matches hold slices of the source and
		// copies of positions, nothing of the tree.
		ps.reuse = !b.cache.keeps()
		parsers[p.lang] = ps
	}
	segs := e.segs
	if marks == nil {
		segs = nil
	}
	t, ok := ps.parse(e.src, segs, marks)
	if ok && segs != nil && t.HasError() {
		marks, segs = nil, nil
		t, ok = ps.parse(e.src, nil, nil)
	}
	if !ok {
		return nil, true, fmt.Errorf("structural: %s could not be parsed", key.path)
	}
	b.cache.put(key, &cacheEntry{src: e.src, segs: e.segs, split: e.split, tree: t.Tree, parsed: marks})
	return t, true, nil
}

// searchTree returns the pattern's matches in one parsed file, built in
// sc. Their texts are slices of the tree's source, which load reads into a
// slice of its own for each file (the worker's buffer only serves to
// compare with a cached source) and nothing writes once read: nested
// matches would otherwise copy the same code once for each level, and a
// copy of the whole source costs a file's bytes again.
func searchTree(m *matcher, p *Pattern, t *tree, rel string, limit int, sc *matchScratch) []Match {
	m.p, m.t = p, t
	var li *lineIndex
	m.find(func(node nodeID, env []binding) bool {
		if li == nil {
			li = newLineIndex(t.src)
			li.text = unsafe.String(unsafe.SliceData(t.src), len(t.src))
		}
		sc.out = append(sc.out, buildMatch(rel, p.lang, t, li, sc, node, env))
		return len(sc.out) < limit
	})
	m.p, m.t = nil, nil
	return sc.out
}

// A matchScratch is the memory a file's matches are built in: the
// matches, and their capture and node slices cut from a few shared arrays
// (chunks) instead of one allocation each, since a call pattern such as
// $F($$$A) makes a capture slice and a node slice or two for every match.
// When a search hands its matches to Each, which keeps none, the scratch
// comes back once they are handed over and holds a later file's: a search
// of small files then builds its matches in the memory of the first few
// rather than in fresh pages for every one.
type matchScratch struct {
	out   []Match
	caps  chunks[Capture]
	nodes chunks[Node]
}

func (sc *matchScratch) captures(n int) []Capture { return sc.caps.take(n) }

// nodeSlice is never nil: an empty capture's nodes are [].
func (sc *matchScratch) nodeSlice(n int) []Node { return sc.nodes.take(n) }

// maxSpareScratch is the most memory a scratch handed back may hold: one
// that served a file of thousands of matches is left to the collector, so
// the few kept for reuse hold little more than a small file's matches.
const maxSpareScratch = 256 << 10

// maxSpareSource is the largest source buffer handed back for reuse.
const maxSpareSource = 1 << 20

// size returns the bytes sc's arrays take.
func (sc *matchScratch) size() int {
	return cap(sc.out)*int(unsafe.Sizeof(Match{})) + sc.caps.size() + sc.nodes.size()
}

// reset empties sc for another file's matches, clearing what it held so
// that the sources the old matches sliced can be collected.
func (sc *matchScratch) reset() {
	clear(sc.out)
	sc.out = sc.out[:0]
	sc.caps.reset()
	sc.nodes.reset()
}

// chunks hands out slices of arrays it keeps. Each slice is capped at
// its length, so appending to it copies rather than writes into a
// neighbour. The arrays start small and double up to chunkMax, so a
// file with a few matches does not allocate (and zero) room for hundreds;
// reset makes them all free again.
type chunks[T any] struct {
	arrays [][]T
	cur    int // arrays before it are full; arrays after it are empty
}

const chunkMax = 256

// chunkNext is the size of the array after one of size prev.
func chunkNext(prev int) int { return min(max(2*prev, 8), chunkMax) }

func (c *chunks[T]) take(n int) []T {
	for ; c.cur < len(c.arrays); c.cur++ {
		if a := c.arrays[c.cur]; n <= cap(a)-len(a) {
			at := len(a)
			c.arrays[c.cur] = a[:at+n]
			return a[at : at : at+n]
		}
	}
	prev := 0
	if k := len(c.arrays); k > 0 {
		prev = cap(c.arrays[k-1])
	}
	a := make([]T, n, max(n, chunkNext(prev)))
	c.arrays = append(c.arrays, a)
	return a[:0:n]
}

// size returns the bytes c's arrays take.
func (c *chunks[T]) size() int {
	n := 0
	for _, a := range c.arrays {
		n += cap(a)
	}
	var zero T
	return n * int(unsafe.Sizeof(zero))
}

func (c *chunks[T]) reset() {
	for i := range c.arrays[:min(c.cur+1, len(c.arrays))] {
		clear(c.arrays[i])
		c.arrays[i] = c.arrays[i][:0]
	}
	c.cur = 0
}

func buildMatch(rel string, lang Language, t *tree, li *lineIndex, sl *matchScratch, node nodeID, env []binding) Match {
	start, end := t.StartByte(node), t.EndByte(node)
	m := Match{
		Path:     rel,
		Language: lang,
		Range:    li.rng(start, end),
		Text:     li.text[start:end],
		Lines:    li.lines(start, end),
		Indent:   li.lineIndent(start),
	}
	capNode := func(i nodeID) Node {
		s, e := t.StartByte(i), t.EndByte(i)
		return Node{Text: li.text[s:e], Range: li.rng(s, e), Named: t.Named(i)}
	}
	if len(env) > 0 {
		m.Captures = sl.captures(len(env))
	}
	for _, b := range env {
		c := Capture{Name: b.name, Multi: b.multi}
		if b.multi {
			c.Nodes = sl.nodeSlice(len(b.nodes))
			for _, i := range b.nodes {
				c.Nodes = append(c.Nodes, capNode(i))
			}
			if len(b.nodes) > 0 {
				c.Text = li.text[t.StartByte(b.nodes[0]):t.EndByte(b.nodes[len(b.nodes)-1])]
			}
		} else {
			c.Nodes = append(sl.nodeSlice(1), capNode(b.node))
			c.Text = c.Nodes[0].Text
		}
		m.Captures = append(m.Captures, c)
	}
	slices.SortFunc(m.Captures, func(a, b Capture) int { return strings.Compare(a.Name, b.Name) })
	return m
}

// A cacheKey names a cached file; its entry holds the content it was
// parsed from.
type cacheKey struct {
	path string
	lang Language
}

// readFile reads rel into *buf, growing it as needed, and returns the
// bytes read; a file larger than maxBytes is an error. size is the
// file's size when the caller knows it (the walk's, from the directory it
// listed), and -1 when readFile is to ask.
func readFile(open func(string) (fs.File, error), rel string, size int64, buf *[]byte, maxBytes int64) ([]byte, error) {
	f, err := open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size < 0 {
		fi, err := f.Stat()
		if err != nil {
			return nil, err
		}
		size = fi.Size()
	}
	if size > maxBytes {
		return nil, fmt.Errorf("structural: %s is larger than %d bytes", rel, maxBytes)
	}
	// Read to the end rather than trust the size: the file may have
	// changed since, or be growing.
	b := (*buf)[:0]
	if need := int(size) + 512; cap(b) < need {
		b = make([]byte, 0, need)
	}
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if int64(len(b)) > maxBytes {
			*buf = b[:0]
			return nil, fmt.Errorf("structural: %s is larger than %d bytes", rel, maxBytes)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			*buf = b[:0]
			return nil, err
		}
	}
	*buf = b
	return b, nil
}

// A cacheEntry is a file's content and, once parsed, its tree. Entries
// are never changed once cached: a search that learns more caches a new one.
type cacheEntry struct {
	src []byte
	// segs are the file's segments (see segmentsOf), nil when it is
	// parsed whole; split says whether they were computed.
	segs  []segment
	split bool
	tree  *syntax.Tree
	// parsed marks the segments the tree covers; nil when it covers the
	// whole file.
	parsed []bool
}

func (e *cacheEntry) bytes() int64 {
	var nodes int64
	if e.tree != nil {
		nodes = e.tree.MemoryBytes()
	}
	return int64(len(e.src)) + nodes +
		int64(len(e.segs))*int64(unsafe.Sizeof(segment{})) + int64(len(e.parsed))
}

// treeCache keeps parsed files up to a byte budget; when full it keeps
// what it has and adds nothing more, so a repeated search over an
// unchanged tree finds what the first one left.
type treeCache struct {
	mu    sync.Mutex
	limit int64
	used  int64
	m     map[string]cacheSlot
}

type cacheSlot struct {
	key   cacheKey
	entry *cacheEntry
}

func newTreeCache(limit int64) *treeCache {
	return &treeCache{limit: limit, m: map[string]cacheSlot{}}
}

// keeps reports whether the cache keeps anything: false when it is off.
func (c *treeCache) keeps() bool { return c.limit >= 0 }

func (c *treeCache) get(k cacheKey) (*cacheEntry, bool) {
	if c.limit < 0 {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.m[k.path]
	if !ok || s.key != k {
		return nil, false
	}
	return s.entry, true
}

func (c *treeCache) put(k cacheKey, e *cacheEntry) {
	if c.limit < 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[k.path]; ok {
		c.used -= old.entry.bytes()
		delete(c.m, k.path)
	}
	if c.used+e.bytes() > c.limit {
		return
	}
	c.m[k.path] = cacheSlot{key: k, entry: e}
	c.used += e.bytes()
}

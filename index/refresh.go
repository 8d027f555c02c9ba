package index

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/codecortex/codecortex/symbols"
)

// FreshnessState says whether an answer reflects every file on disk.
type FreshnessState string

// The freshness states.
const (
	// Fresh: every file on disk was compared with the index and is
	// indexed as it is now.
	Fresh FreshnessState = "fresh"
	// Partial: some files changed on disk are not indexed as they are now
	// (the refresh ran out of time, or another process held the writer
	// lock); they are listed as pending.
	Partial FreshnessState = "partial"
)

// maxPendingListed bounds the pending paths a Freshness lists.
const maxPendingListed = 100

// Freshness says how up to date an answer is and what the refresh before
// it did.
type Freshness struct {
	State FreshnessState `json:"freshness"`
	// Identity is the identity whose index answered.
	Identity Identity `json:"identity"`
	// PendingCount is how many files changed on disk (new, edited or
	// indexed by another version) are not indexed as they are now; Pending
	// lists the first of them, by path. An edited pending file still
	// answers from what was indexed, marked stale; a file that was never
	// indexed for this identity does not answer.
	PendingCount int      `json:"pending_count"`
	Pending      []string `json:"pending,omitempty"`
	// Indexed and Removed count the files this refresh indexed and the
	// deleted files it dropped.
	Indexed int `json:"indexed"`
	Removed int `json:"removed"`
	// Files is how many files the index holds for this identity.
	Files int `json:"files"`
	// Elapsed is how long the refresh took.
	Elapsed time.Duration `json:"elapsed"`
	// Focus, when set, says that the refresh indexed only the changed
	// files that mention the names a question asks about (see [Focus]).
	Focus *Focus `json:"focus,omitempty"`
	// Diagnostics say what else happened: a damaged database rebuilt, a
	// new identity seeded from another, a busy writer lock, an ignore file
	// that could not be applied as written (its directory left out).
	Diagnostics []string `json:"diagnostics,omitempty"`
}

// A fileRow is what the freshness check compares with a file on disk.
type fileRow struct {
	id    int64
	size  int64
	mtime int64
	// current reports that the file was chunked by this ChunkerVersion and
	// extracted by the extractor the index runs with.
	current  bool
	verified bool
}

// rows returns the file rows of the index, by path. They come back as one
// string (tab-separated fields, a line a file; paths hold no control
// characters), which is much cheaper to read than a result row per file.
func (s *store) rows(ctx context.Context, extract string) (map[string]fileRow, error) {
	var all sql.NullString
	err := s.queryRow(ctx, `SELECT group_concat(id || char(9) || size || char(9) || mtime || char(9) ||
		(verified + 2 * (chunker = ? AND extractor = ?)) || char(9) || path, char(10)) FROM files`,
		ChunkerVersion, extract).Scan(&all)
	if err != nil {
		return nil, err
	}
	out := map[string]fileRow{}
	for rest := all.String; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		f := strings.SplitN(line, "\t", 5)
		if len(f) != 5 {
			return nil, fmt.Errorf("index: unreadable file row %q", line)
		}
		var r fileRow
		var flags int64
		for i, dst := range []*int64{&r.id, &r.size, &r.mtime, &flags} {
			v, err := strconv.ParseInt(f[i], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("index: unreadable file row %q", line)
			}
			*dst = v
		}
		r.verified, r.current = flags&1 != 0, flags&2 != 0
		out[f[4]] = r
	}
	return out, nil
}

// A plan is what a refresh has to do.
type plan struct {
	changed []diskFile // new or changed files, most recently modified first
	deleted []string   // indexed paths no longer on disk
	verify  []string   // unverified rows whose file is unchanged
	rows    map[string]fileRow
}

// diff compares the disk with the rows.
func (ix *Index) diff(w walkResult, rows map[string]fileRow) plan {
	p := plan{rows: rows}
	matched := 0
	for _, f := range w.files {
		r, ok := rows[f.path]
		if ok {
			matched++
		}
		switch {
		case !ok, r.size != f.size, r.mtime != f.mtime, !r.current:
			p.changed = append(p.changed, f)
		case !r.verified:
			p.verify = append(p.verify, f.path)
		}
	}
	if matched < len(rows) { // some indexed files are gone
		seen := make(map[string]bool, len(w.files))
		for _, f := range w.files {
			seen[f.path] = true
		}
		for path := range rows {
			if !seen[path] {
				p.deleted = append(p.deleted, path)
			}
		}
	}
	sort.Strings(p.deleted)
	// The files edited last are the ones a question is most likely about.
	sort.SliceStable(p.changed, func(i, j int) bool { return p.changed[i].mtime > p.changed[j].mtime })
	return p
}

func (p *plan) empty() bool { return len(p.changed) == 0 && len(p.deleted) == 0 && len(p.verify) == 0 }

// refresh brings st up to date with the disk, until deadline (zero: no
// deadline). It returns the freshness of the index afterwards and the
// paths still pending. pre, when not nil, is what the activation that just
// opened st read from meta. ix.mu is held.
func (ix *Index) refresh(ctx context.Context, st *store, deadline time.Time, prefer []string, pre *preread) (Freshness, map[string]bool, error) {
	start := time.Now()
	fr := Freshness{State: Fresh}
	w, seq := ix.walk(ctx, st, pre)
	fr.Diagnostics = append(fr.Diagnostics, ix.walker.notes...)
	if testHookWalked != nil {
		testHookWalked(st)
	}
	var gen int64
	var settled string
	var err error
	if pre != nil {
		// Read before the walk rather than after: a record that matches
		// still says the rows of that generation match this walk, and
		// writes since only bring the index closer to the disk.
		gen, settled = pre.gen, pre.settled
	} else if gen, settled, err = st.generationSettled(ctx); err != nil {
		return fr, nil, err
	}
	var sum string // the walk's digest, once computed
	if st.settledSeq == seq && st.settledGen == gen {
		// Nothing changed on disk or in the database since a refresh left
		// nothing to do.
		fr.Files, fr.Elapsed = len(w.files), time.Since(start)
		return fr, map[string]bool{}, nil
	}
	if settled != "" {
		sum = w.digest(ix.extract)
		if ix.stillSettled(ctx, st, seq, gen, settled, sum) {
			fr.Files, fr.Elapsed = len(w.files), time.Since(start)
			return fr, map[string]bool{}, nil
		}
	}
	if st.spec != nil { // its answer cannot stand: stop it
		st.spec.cancel()
	}
	rows, rowsGen, err := st.cachedRows(ctx)
	if err != nil {
		return fr, nil, err
	}
	p := ix.diff(w, rows)
	if sum == "" {
		sum = w.digest(ix.extract)
	}
	if !p.empty() {
		if err := ix.applyPlan(ctx, st, w, &p, deadline, prefer, sum, &fr); err != nil {
			return fr, nil, err
		}
	} else if record := settledRecord(rowsGen, sum); ix.walker.changed || settled != record {
		if ix.tryLock() {
			ix.saveState(ctx, st, record, rowsGen)
			ix.unlock()
		}
	}
	st.settledSeq = 0
	if len(p.changed) == 0 {
		if gen, err := st.generation(ctx); err == nil {
			st.settledSeq, st.settledGen = seq, gen
		}
	}
	pending := p.pending(&fr)
	fr.Files, fr.Elapsed = len(w.files), time.Since(start)
	return fr, pending, nil
}

// stillSettled reports whether the record of a refresh (in any process)
// that left nothing to do still holds: it recorded the generation and the
// digest of the walk it compared, and if both still hold (gen, sum), so
// does its conclusion, and the rows need not be read. It then remembers
// the walk seq as settled, and saves the walker's state if it changed.
func (ix *Index) stillSettled(ctx context.Context, st *store, seq, gen int64, settled, sum string) bool {
	if settled != settledRecord(gen, sum) {
		return false
	}
	st.settledSeq, st.settledGen = seq, gen
	if ix.walker.changed {
		if ix.tryLock() {
			ix.saveState(ctx, st, "", 0)
			ix.unlock()
		}
	}
	return true
}

// diagLockBusy is the diagnostic of a refresh that could not take the
// writer lock in time: another process held it, or an Update of this
// one finishing.
const diagLockBusy = "another update held the index's writer lock; changed files were not indexed"

// applyPlan applies the plan under the writer lock, waiting for it until
// deadline, and saves the state, settled if the rows as written now match
// the walk (whose digest is sum). Without the lock it says so in fr and
// changes nothing.
func (ix *Index) applyPlan(ctx context.Context, st *store, w walkResult, p *plan, deadline time.Time, prefer []string, sum string, fr *Freshness) error {
	ok, err := ix.lock(ctx, deadline)
	if err != nil {
		return err
	}
	if !ok {
		fr.Diagnostics = append(fr.Diagnostics, diagLockBusy)
		return nil
	}
	defer ix.unlock()
	if err := ix.apply(ctx, st, w, p, deadline, prefer, fr); err != nil {
		return err
	}
	// Record the state only if the rows as written now match the walk (a
	// file read moments after an edit keeps no mtime, so that the next
	// refresh reads it again).
	record := ""
	rows, gen, err := st.cachedRows(ctx) // without them, the state is saved unsettled
	if err == nil {
		if after := ix.diff(w, rows); after.empty() {
			record = settledRecord(gen, sum)
		}
	}
	ix.saveState(ctx, st, record, gen)
	return nil
}

// pending returns the paths the plan leaves pending, and marks fr partial
// with them (the first maxPendingListed, sorted) if there are any.
func (p *plan) pending(fr *Freshness) map[string]bool {
	pending := map[string]bool{}
	for _, f := range p.changed {
		pending[f.path] = true
	}
	if len(p.changed) > 0 {
		fr.State = Partial
		fr.PendingCount = len(p.changed)
		for _, f := range p.changed {
			fr.Pending = append(fr.Pending, f.path)
		}
		sort.Strings(fr.Pending)
		if len(fr.Pending) > maxPendingListed {
			fr.Pending = fr.Pending[:maxPendingListed]
		}
	}
	return pending
}

// testHookWalked, when set by a test, runs in every refresh once the tree
// is walked.
var testHookWalked func(*store)

// walk walks the tree, starting a new process's walker from the listings
// the last one saved in st (read already when pre has them). ix.mu is
// held.
func (ix *Index) walk(ctx context.Context, st *store, pre *preread) (walkResult, int64) {
	if ix.walker.dirs == nil {
		var text string
		var err error
		if pre != nil && pre.hasListings {
			text = pre.listings
		} else {
			text, err = st.meta(ctx, "listings")
		}
		if err == nil {
			ix.walker.load(text)
		}
	}
	return ix.walker.walk(askedAt(ctx))
}

// settledRecord is what meta "settled" holds: the generation at which a
// refresh compared the disk with the rows and found nothing to do, and the
// digest of the walk it compared. "" when there is nothing to record.
func settledRecord(gen int64, digest string) string {
	if digest == "" {
		return ""
	}
	return strconv.FormatInt(gen, 10) + " " + digest
}

// saveState records, in one transaction, the walker's directory listings
// when they changed since they were saved (so that the next process to
// open the index reads only the directories that changed since) and, when
// settled is not empty, the settled record of a refresh that found the
// rows as of generation gen matching its walk (so that the next process
// with the same walk need not read the rows to conclude the same). The
// record is kept only if the database is still at generation gen. The
// writer lock is held; a failure only costs the next process some work.
func (ix *Index) saveState(ctx context.Context, st *store, settled string, gen int64) {
	if !ix.walker.changed && settled == "" {
		return
	}
	err := st.withTx(ctx, func(tx *sql.Tx) error {
		if ix.walker.changed {
			if err := setMetaTx(ctx, tx, "listings", ix.walker.encode()); err != nil {
				return err
			}
		}
		if settled == "" {
			return nil
		}
		var now int64
		if err := tx.QueryRowContext(ctx, sqlGeneration).Scan(&now); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if now != gen {
			return nil
		}
		return setMetaTx(ctx, tx, "settled", settled)
	})
	if err == nil {
		ix.walker.changed = false
	}
}

// apply carries out a plan under the writer lock. It re-reads the rows
// first, since another process may have done part of the work, and leaves
// in p.changed the files it did not get to.
func (ix *Index) apply(ctx context.Context, st *store, w walkResult, p *plan, deadline time.Time, prefer []string, fr *Freshness) error {
	rows, _, err := st.cachedRows(ctx)
	if err != nil {
		return err
	}
	*p = ix.diff(w, rows)
	if len(p.deleted) > 0 || len(p.verify) > 0 {
		if err := st.removeAndVerify(ctx, rows, p.deleted, p.verify); err != nil {
			return err
		}
		fr.Removed = len(p.deleted)
	}
	if len(p.changed) == 0 {
		return nil
	}
	var rest []diskFile // focused: the changed files that mention no word
	definers := 0
	if terms := focusTerms(prefer); !deadline.IsZero() && len(p.changed) > focusAbove && len(terms) > 0 {
		f := ix.focus(p.changed, terms, deadline)
		p.changed, rest, fr.Focus, definers = f.first, f.rest, &f.focus, f.definers
	}
	atLeast := 0
	if fr.Focus != nil {
		// However long the scan took, the answer gets the files that
		// mention its names most likely to hold what it asks for, every
		// one that looks like it defines one (up to a bound) first: a
		// search then has their text, never nothing, and a definition
		// question its definitions however loaded the machine is.
		atLeast = min(fr.Focus.Matched, max(focusAtLeast, min(definers, focusDefinersAtLeast)))
	}
	if _, ok := ctx.Value(updateKey{}).(*updateProgress); ok {
		atLeast = updateAtLeast // a round of an Update always gets somewhere
	}
	done, err := ix.indexFiles(ctx, st, p.changed, rows, deadline, atLeast)
	if _, inUpdate := ctx.Value(updateKey{}).(*updateProgress); err == nil && len(done) >= optimizeAfter && !inUpdate {
		// A large update leaves the full-text index in many small segments;
		// merging them makes every later query cheaper. An Update merges
		// them once, when it is done.
		_, err = st.db.ExecContext(ctx, sqlMerge)
	}
	if fr.Focus != nil {
		for _, f := range p.changed[:fr.Focus.Matched] {
			if _, ok := done[f.path]; ok {
				fr.Focus.IndexedCount++
				if len(fr.Focus.Indexed) < maxFocusListed {
					fr.Focus.Indexed = append(fr.Focus.Indexed, f.path)
				}
			}
		}
	}
	left := p.changed[:0] // in place: p.changed is not read after this
	for _, f := range p.changed {
		if reindexed, ok := done[f.path]; !ok {
			left = append(left, f)
		} else if reindexed {
			fr.Indexed++
		}
	}
	p.changed = append(left, rest...)
	return err
}

// removeAndVerify drops deleted files and marks unchanged seeded files
// (verify, by path) as verified, in one transaction.
func (s *store) removeAndVerify(ctx context.Context, rows map[string]fileRow, deleted, verify []string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	gen, err := bump(ctx, tx)
	if err != nil {
		return err
	}
	for _, p := range deleted {
		if err := deleteFile(ctx, tx, p); err != nil {
			return err
		}
	}
	set := map[string]fileRow{}
	for _, p := range verify {
		r := rows[p]
		if _, err := tx.ExecContext(ctx, "UPDATE files SET verified = 1 WHERE id = ?", r.id); err != nil {
			return err
		}
		r.verified = true
		set[p] = r
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	s.patchRows(gen, set, deleted)
	return nil
}

// deleteFile removes a file and everything indexed from it.
func deleteFile(ctx context.Context, tx *sql.Tx, path string) error {
	for _, q := range []string{
		"DELETE FROM chunks_fts WHERE rowid IN (SELECT c.id FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.path = ?1)",
		"DELETE FROM chunks WHERE file_id IN (SELECT id FROM files WHERE path = ?1)",
		"DELETE FROM imports WHERE file_id IN (SELECT id FROM files WHERE path = ?1)",
		"DELETE FROM refs WHERE file_id IN (SELECT id FROM files WHERE path = ?1)",
		"DELETE FROM facts WHERE file_id IN (SELECT id FROM files WHERE path = ?1)",
		"DELETE FROM ref_names WHERE file_id IN (SELECT id FROM files WHERE path = ?1)",
		"DELETE FROM symbols WHERE file_id IN (SELECT id FROM files WHERE path = ?1)",
		"DELETE FROM files WHERE path = ?1",
	} {
		if _, err := tx.ExecContext(ctx, q, path); err != nil {
			return err
		}
	}
	return nil
}

// A fileData is one file read, hashed, extracted and chunked, ready to be
// written.
type fileData struct {
	disk      diskFile
	language  string
	hash      string
	pkg       string
	skipped   string // why the file has no chunks: "binary", or a read error
	parseErrs bool
	touchOnly bool // same content as indexed: only size and mtime change
	syms      []symbols.Symbol
	symFacts  []byte // syms as the facts table holds them (encodeSymbols)
	imports   []symbols.Import
	// refData is the file's refs as the refs table holds them
	// (encodeRefs), and refNames the names they use, as a JSON list; the
	// worker that reads the file makes both, so that the writer has less
	// to do, and a file waiting for it holds far less than its refs.
	refData  []byte
	refNames string
	chunks   []chunkData
}

type chunkData struct {
	span
	hash int64 // chunkHash of the text
	// match is the text the full-text index matches; empty when the file's
	// indexed chunks had the same text (the writer keeps their rows), and
	// text is then the chunk's text, for the writer to match if it cannot.
	match, text string
}

// optimizeAfter is how many files an update must write for the full-text
// index to be merged into one segment afterwards.
const optimizeAfter = 500

// Batching: a transaction holds whole files, and is committed after this
// many files or this long, whichever comes first. A pass of an Update
// (which gives way to a waiting query after any file, not at a commit)
// commits less often: every commit writes the pages it changed to the
// log again, and adds a segment the full-text index merges later.
const (
	batchFiles       = 256
	batchTime        = 100 * time.Millisecond
	updateBatchFiles = 4096
	updateBatchTime  = 2 * time.Second
)

// batchLimits returns after how many files and how long a pass of
// indexFiles run with ctx commits its transaction.
func batchLimits(ctx context.Context) (int, time.Duration) {
	if _, inUpdate := ctx.Value(updateKey{}).(*updateProgress); inUpdate {
		return updateBatchFiles, updateBatchTime
	}
	return batchFiles, batchTime
}

// A writtenFile is a file indexFiles wrote, and whether its content was
// indexed again.
type writtenFile struct {
	path    string
	indexed bool
}

// indexFiles reads, extracts and writes files, most recent first, until
// deadline, the first atLeast of them even past it; in a pass of an
// Update, until a query waits for the index. Reading and extraction run on every CPU; the writes go one
// transaction at a time, each holding whole files. It returns the paths
// written, each with whether its content was indexed again (false: the
// content was the same, only its size and mtime were recorded).
func (ix *Index) indexFiles(ctx context.Context, st *store, files []diskFile, rows map[string]fileRow, deadline time.Time, atLeast int) (map[string]bool, error) {
	done := map[string]bool{}
	jobs := make(chan int)
	results := make([]chan fileData, len(files))
	for i := range results {
		results[i] = make(chan fileData, 1)
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	dctx, cancel := context.WithCancel(ctx) // the dispatcher's: cancelled when writing stops
	defer cancel()                          // before wg.Wait: the dispatcher stops, workers finish what they hold
	workers := max(1, runtime.GOMAXPROCS(0))
	ahead := newReadAhead(workers, files)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results[i] <- ix.prepareFile(st, files[i], rows)
			}
		}()
	}
	over := ix.over(ctx, deadline)
	wg.Add(1)
	go func() {
		defer wg.Done()
		dispatch(dctx, jobs, ahead, results, over, atLeast)
	}()
	w := st.newWriter(ctx, ix.extract, bulkFor(rows, len(files)))
	defer w.close()
	maxFiles, maxTime := batchLimits(ctx)
	var batch []writtenFile // not the files' data: a batch may hold thousands
	batchStart := time.Now()
	flush := func() error {
		if err := w.commit(); err != nil {
			return err
		}
		for _, f := range batch {
			done[f.path] = f.indexed
		}
		batch = batch[:0]
		batchStart = time.Now()
		return nil
	}
	for i := range files {
		var fd fileData
		select {
		case fd = <-results[i]:
		case <-ctx.Done():
			return done, ctx.Err()
		}
		if fd.disk.path == "" { // not dispatched: out of time
			break
		}
		ahead.give(i)
		if err := w.write(&fd, rows); err != nil {
			return done, fmt.Errorf("index: writing %s: %w", fd.disk.path, err)
		}
		batch = append(batch, writtenFile{fd.disk.path, !fd.touchOnly})
		if len(batch) >= maxFiles || time.Since(batchStart) >= maxTime {
			if err := flush(); err != nil {
				return done, err
			}
		}
		ix.progress(ctx, len(done)+len(batch), len(files))
		if i+1 >= atLeast && over() {
			break
		}
	}
	cancel()
	if len(batch) > 0 {
		if err := flush(); err != nil {
			return done, err
		}
	}
	ix.progressed(ctx, len(done))
	return done, nil
}

// progressed adds n files written to the progress of the Update ctx
// belongs to, if any.
func (ix *Index) progressed(ctx context.Context, n int) {
	if up, ok := ctx.Value(updateKey{}).(*updateProgress); ok {
		up.done += n
	}
}

// over returns what tells an indexing pass to stop: deadline passed, or,
// in a pass of an Update, a query waiting for the index.
func (ix *Index) over(ctx context.Context, deadline time.Time) func() bool {
	_, inUpdate := ctx.Value(updateKey{}).(*updateProgress)
	return func() bool { return expired(deadline) || inUpdate && ix.waiting.Load() > 0 }
}

// A readAhead bounds the files read but not yet written, by their size,
// so that memory stays flat when writing is the slower side; it is deep
// enough that a large file parsing on one worker leaves the others and the
// writer the files after it to go on with, and that the workers go on
// through the writer's slow stretches (a file of many chunks, a commit)
// rather than leave a core idle. It has aheadPerWorker slots a
// worker; a file takes one, and one more for each aheadUnit bytes it
// holds.
type readAhead struct {
	slots chan struct{}
	files []diskFile
}

const (
	aheadPerWorker = 128
	aheadUnit      = 64 << 10
)

func newReadAhead(workers int, files []diskFile) readAhead {
	return readAhead{slots: make(chan struct{}, aheadPerWorker*workers), files: files}
}

// aheadSlots returns how many of capacity slots a file of size bytes
// takes.
func aheadSlots(size int64, capacity int) int {
	return int(min(1+max(size, 0)/aheadUnit, int64(capacity)))
}

// take waits for room for file i; it reports false if ctx ended first.
func (a readAhead) take(ctx context.Context, i int) bool {
	for range aheadSlots(a.files[i].size, cap(a.slots)) {
		select {
		case a.slots <- struct{}{}:
		case <-ctx.Done():
			return false
		}
	}
	return true
}

// give frees the room file i took, once it is written.
func (a readAhead) give(i int) {
	for range aheadSlots(a.files[i].size, cap(a.slots)) {
		<-a.slots
	}
}

// dispatch sends the index of each file whose result is due in results to
// jobs, in order, once ahead has room for it, and closes jobs. Once ctx
// ends or over reports true (after the first atLeast files), the files
// not dispatched get an empty fileData as their result.
func dispatch(ctx context.Context, jobs chan<- int, ahead readAhead, results []chan fileData, over func() bool, atLeast int) {
	defer close(jobs)
	for i := range results {
		if ctx.Err() == nil && (i < atLeast || !over()) && ahead.take(ctx, i) {
			select {
			case jobs <- i:
				continue
			case <-ctx.Done():
			}
		}
		for j := i; j < len(results); j++ { // not dispatched: out of time
			results[j] <- fileData{}
		}
		return
	}
}

func expired(deadline time.Time) bool { return !deadline.IsZero() && time.Now().After(deadline) }

// binaryProbe is how much of a file is looked at to tell text from binary.
const binaryProbe = 8000

// isBinary reports whether a file's beginning looks like binary data: a
// NUL byte (as git and ripgrep judge), or bytes of which more than one in
// a hundred are not UTF-8 (an encoded index, an image without NULs early).
func isBinary(src []byte) bool {
	probe := src[:min(len(src), binaryProbe)]
	if bytes.IndexByte(probe, 0) >= 0 {
		return true
	}
	if utf8.Valid(probe[:max(0, len(probe)-utf8.UTFMax+1)]) {
		return false // the common case, checked fast; the end may cut a character
	}
	bad := 0
	for i := 0; i < len(probe); {
		r, size := utf8.DecodeRune(probe[i:])
		if r == utf8.RuneError && size == 1 && len(probe)-i >= utf8.UTFMax {
			bad++
		}
		i += size
	}
	return bad*100 > len(probe)
}

// prepareFile reads, hashes, extracts and chunks one file. It never fails:
// a file it cannot read is recorded as skipped.
func (ix *Index) prepareFile(st *store, f diskFile, rows map[string]fileRow) fileData {
	fd := fileData{disk: f, language: languageOf(f.path)}
	src, err := ix.readFile(f.path)
	if err != nil {
		fd.skipped = "unreadable: " + err.Error()
		return fd
	}
	// What was read is what is indexed: its own size, whatever the walk saw.
	fd.disk.size = int64(len(src))
	if d := time.Since(time.Unix(0, f.mtime)); d >= 0 && d < racyWindow {
		// A change made right after this read could keep the mtime: record
		// none, so the next refresh reads the file again (and, with the same
		// content, only records its mtime).
		fd.disk.mtime = 0
	}
	sum := sha256.Sum256(src)
	fd.hash = hex.EncodeToString(sum[:])
	if r, ok := rows[f.path]; ok && r.current && st.hashOf(r.id) == fd.hash {
		fd.touchOnly = true
		return fd
	}
	if isBinary(src) {
		fd.skipped = "binary"
		return fd
	}
	if extract := ix.opts.extract(); extract != nil {
		if sf := extractSafely(extract, f.path, src); sf != nil {
			if sf.Language != "" {
				fd.language = sf.Language
			}
			fd.pkg = bounded(sf.Package, 256)
			fd.parseErrs = sf.Errors
			fd.syms = cleanSymbols(sf.Symbols, src)
			if len(fd.syms) > 0 {
				fd.symFacts = encodeSymbols(fd.syms, fd.pkg)
			}
			fd.imports = cleanImports(sf.Imports)
			if refs := cleanRefs(sf.Refs, len(src)); len(refs) > 0 {
				fd.refData, fd.refNames = encodeRefs(refs), jsonList(refNames(refs))
			}
		}
	}
	var kept map[int64]bool // hashes of the chunks indexed for this file, which the writer keeps
	if r, ok := rows[f.path]; ok {
		kept = st.chunkHashes(r.id)
	}
	li := newLineIndex(src)
	for _, sp := range chunkLines(li, fd.syms) {
		text := li.text(sp.Start, sp.End)
		c := chunkData{span: sp, text: string(text), hash: chunkHash(text)}
		if !kept[c.hash] {
			c.match, c.text = matchText(c.text), ""
		}
		fd.chunks = append(fd.chunks, c)
	}
	return fd
}

// extractSafely runs the extractor, turning an error or a panic into no
// symbols.
func extractSafely(extract func(string, []byte) (*symbols.File, error), path string, src []byte) (sf *symbols.File) {
	defer func() {
		if recover() != nil {
			sf = nil
		}
	}()
	sf, err := extract(path, src)
	if err != nil {
		return nil
	}
	return sf
}

// Bounds on what one symbol stores.
const (
	maxNameBytes      = 256
	maxSignatureBytes = 512
	maxSymbolsPerFile = 20000
)

// cleanSymbols keeps the symbols with a name and a range inside the file,
// with bounded strings.
func cleanSymbols(in []symbols.Symbol, src []byte) []symbols.Symbol {
	lines := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		lines++
	}
	return cleanAll(in, maxSymbolsPerFile, func(s symbols.Symbol) (symbols.Symbol, bool) {
		r, n := s.Range, s.NameRange
		if s.Name == "" || r.StartLine < 1 || r.EndLine < r.StartLine || r.EndLine > lines ||
			n.StartLine < 1 || n.EndLine < n.StartLine || n.EndLine > lines || r.StartColumn < 1 || n.StartColumn < 1 {
			return s, false
		}
		s.Name = bounded(s.Name, maxNameBytes)
		s.Container = bounded(s.Container, maxNameBytes)
		s.Package = bounded(s.Package, maxNameBytes)
		s.Signature = bounded(s.Signature, maxSignatureBytes)
		return s, true
	})
}

// cleanRefs keeps the refs with a name, a known kind and a position
// inside the file, at most symbols.MaxRefs.
func cleanRefs(in []symbols.Ref, size int) []symbols.Ref {
	return cleanAll(in, symbols.MaxRefs, func(r symbols.Ref) (symbols.Ref, bool) {
		if r.Name == "" || !r.Kind.Valid() || r.Line < 1 || r.Column < 1 || r.Byte < 0 || r.Byte >= size {
			return r, false
		}
		r.Name = bounded(r.Name, maxNameBytes)
		r.Qualifier = bounded(r.Qualifier, maxNameBytes)
		r.Of = bounded(r.Of, maxNameBytes)
		r.Type = bounded(r.Type, maxNameBytes)
		return r, true
	})
}

func cleanImports(in []symbols.Import) []symbols.Import {
	return cleanAll(in, maxSymbolsPerFile, func(im symbols.Import) (symbols.Import, bool) {
		if im.Path == "" {
			return im, false
		}
		im.Path = bounded(im.Path, 1024)
		im.Alias = bounded(im.Alias, maxNameBytes)
		im.Name = bounded(im.Name, maxNameBytes)
		return im, true
	})
}

// cleanAll returns the items of in that clean keeps, as clean returns
// them, at most limit. When clean keeps every item up to the limit as it
// is, as it does for most files, the result is in itself, cut to the
// limit: nothing is copied.
func cleanAll[T comparable](in []T, limit int, clean func(T) (T, bool)) []T {
	i := 0
	for ; i < len(in) && i < limit; i++ {
		if v, keep := clean(in[i]); !keep || v != in[i] {
			break
		}
	}
	if i == len(in) || i == limit {
		return in[:i:i]
	}
	out := make([]T, i, min(len(in), limit))
	copy(out, in)
	for _, v := range in[i:] {
		if v, keep := clean(v); keep {
			out = append(out, v)
			if len(out) == limit {
				break
			}
		}
	}
	return out
}

// bounded cuts s to at most n bytes, on a character boundary, and makes it
// valid UTF-8.
func bounded(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

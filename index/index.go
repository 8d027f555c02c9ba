package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/internal/flock"
	"github.com/codecortex/codecortex/seal"
	"github.com/codecortex/codecortex/symbols"
	"github.com/codecortex/codecortex/syntax"
)

// StorageDir is where the index keeps its databases, relative to the
// project root. Nothing else is written.
const StorageDir = ".codecortex/index"

// Defaults the zero Options stand for.
const (
	DefaultBudget      = 500 * time.Millisecond
	DefaultMaxFileSize = 1 << 20
	DefaultKeepIndexes = 8
)

// Options configures an [Index]. The zero value indexes the working
// directory, with the definitions of every language the syntax floor
// parses, within the default bounds. Open never modifies it.
type Options struct {
	// Dir is the project root; empty means the working directory.
	Dir string
	// Extract reads the definitions and imports of one file (path relative
	// to the root, slash-separated, and its content), from one parse that
	// also gives the chunks their boundaries. Nil means symbols.Extract,
	// the syntax floor's extractor for every language it parses (text only
	// in a build without cgo). An error or a panic indexes that file as
	// text.
	Extract func(path string, src []byte) (*symbols.File, error)
	// ExtractorVersion names the rules a custom Extract follows. Files
	// indexed by another version, or with or without an extractor when
	// that changed, are indexed again on the next refresh.
	ExtractorVersion string
	// TextOnly indexes text alone: line-based chunks and no symbols.
	TextOnly bool
	// Budget bounds the work a query does to bring the index up to date
	// before it answers; what does not fit is reported as pending. Zero
	// means DefaultBudget; a negative value means no bound.
	Budget time.Duration
	// MaxFileSize leaves larger files out; zero means DefaultMaxFileSize.
	MaxFileSize int64
	// KeepIndexes is how many identities' databases are kept (the active
	// one always is); zero means DefaultKeepIndexes.
	KeepIndexes int
	// Progress, if set, is called after each file an update indexes, with
	// the files done and the total this update has to do, from the
	// goroutine that updates.
	Progress func(done, total int)
	// Seal proves which files under .codecortex/ this user's cortex
	// wrote; nil means seal.User(). It names the databases and seals
	// them: a database without a seal that checks is never read, used
	// as a seed or copied; it is removed and the index rebuilt.
	Seal seal.Sealer
}

func (o *Options) sealer() seal.Sealer {
	if o.Seal == nil {
		return seal.User()
	}
	return o.Seal
}

func (o *Options) budget() time.Duration {
	if o.Budget == 0 {
		return DefaultBudget
	}
	return o.Budget
}

func (o *Options) maxFileSize() int64 {
	if o.MaxFileSize <= 0 {
		return DefaultMaxFileSize
	}
	return o.MaxFileSize
}

func (o *Options) keep() int {
	if o.KeepIndexes <= 0 {
		return DefaultKeepIndexes
	}
	return o.KeepIndexes
}

// extract returns the extractor the options choose, or nil for text only.
func (o *Options) extract() func(string, []byte) (*symbols.File, error) {
	switch {
	case o.TextOnly:
		return nil
	case o.Extract != nil:
		return o.Extract
	case syntax.Available:
		return symbols.Extract
	}
	return nil
}

// extractor returns what files.extractor records for the current options.
func (o *Options) extractor() string {
	switch {
	case o.extract() == nil:
		return ""
	case o.Extract == nil:
		return symbols.Version
	case o.ExtractorVersion == "":
		return "extract"
	}
	return o.ExtractorVersion
}

// ErrClosed is returned by an [Index] used after Close.
var ErrClosed = errors.New("index: closed")

// An Index is the local index of one project: a SQLite database per
// identity (repository, worktree, branch, commit) under
// .codecortex/index, brought up to date before every query. It is safe for
// concurrent use, and several processes may use the same project at once.
type Index struct {
	opts    Options
	root    *contain.Root
	dir     string   // the storage directory, absolute
	lockF   *os.File // the writer lock file
	extract string   // what files.extractor records
	seal    sealing  // names and seals the databases

	mu     sync.Mutex // serialises activation and refreshes
	walker *walker
	stores map[string]*store
	paths  map[string]string // identity key → database file, once named
	active string            // key of the active store
	closed bool

	life sync.RWMutex // queries hold it for reading; Close for writing

	speculated atomic.Int64 // answers a speculation gave (see speculation)

	memo focusMemo // what the scans of a focused refresh found (see focus)

	waiting atomic.Int32 // queries waiting for mu, which an Update gives way to

	// finishing is closed when the finishing work of an Update ends (see
	// [Index.UpdateWhile]), which holds the writer lock without mu; nil
	// when none runs. It is set under mu and cleared, once the lock is
	// let go, without it.
	finishing atomic.Pointer[chan struct{}]
}

// Open opens the index of the project at opts.Dir, creating its storage
// directory (with a .gitignore that ignores everything in it). Nothing is
// indexed until the first query or [Index.Update].
func Open(opts Options) (*Index, error) {
	dir := opts.Dir
	if dir == "" {
		dir = "."
	}
	root, err := contain.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	ix := &Index{opts: opts, root: root, stores: map[string]*store{}, paths: map[string]string{}, extract: opts.extractor(),
		seal: sealing{sealer: opts.sealer(), root: root.Dir()}}
	ix.walker = newWalker(root.Dir(), func() matcher { return newMatcher(root.FS()) }, opts.maxFileSize())
	if err := ix.prepareStorage(); err != nil {
		root.Close()
		return nil, err
	}
	return ix, nil
}

// prepareStorage creates the storage directory inside the root and opens
// the lock file. The directory and the one above it must be directories
// of their own: a symbolic link there (which a repository can ship) would
// have the index write its files somewhere else in the tree.
func (ix *Index) prepareStorage() error {
	want := filepath.Join(ix.root.Dir(), filepath.FromSlash(StorageDir))
	for _, p := range []string{filepath.Dir(want), want} {
		if fi, err := os.Lstat(p); err == nil && !fi.IsDir() {
			return fmt.Errorf("index: %s is not a directory (%s); remove it, and CodeCortex makes the directory it needs", ix.relPath(p), fi.Mode().Type())
		}
	}
	if err := ix.root.MkdirAll(StorageDir, 0o755); err != nil {
		return fmt.Errorf("index: creating %s: %w", StorageDir, err)
	}
	abs, err := ix.root.Abs(StorageDir)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	if abs != want {
		return fmt.Errorf("index: %s resolves to %s; remove the link, and CodeCortex makes the directory it needs", StorageDir, abs)
	}
	ix.dir = abs
	gi := StorageDir + "/.gitignore"
	if _, err := ix.root.Stat(gi); err != nil {
		if err := ix.root.WriteFileAtomic(gi, []byte("*\n"), 0o644); err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
	lock := filepath.Join(abs, "lock")
	if !ix.root.Inside(lock) {
		return fmt.Errorf("index: %s leaves the project root", lock)
	}
	f, err := os.OpenFile(lock, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	ix.lockF = f
	return nil
}

// Close releases the databases and the project root.
func (ix *Index) Close() error {
	ix.life.Lock()
	defer ix.life.Unlock()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.closed {
		return nil
	}
	ix.closed = true
	var first error
	for _, st := range ix.stores {
		if err := st.close(); err != nil && first == nil {
			first = err
		}
	}
	ix.stores = nil
	if ix.walker.watch != nil {
		ix.walker.watch.close()
	}
	if ix.lockF != nil {
		ix.lockF.Close()
	}
	if err := ix.root.Close(); err != nil && first == nil {
		first = err
	}
	return first
}

// Dir returns the project root, absolute, with links evaluated.
func (ix *Index) Dir() string { return ix.root.Dir() }

// readFile reads a file of the tree the walk listed (a regular file, not a
// link) through the root's file system, which cannot reach outside it.
func (ix *Index) readFile(p string) ([]byte, error) { return fs.ReadFile(ix.root.FS(), p) }

// testHookRead, when set by a test, is called with each file a question
// reads from disk through its fileReads.
var testHookRead func(p string)

// fileReads holds the files read for one question, by path, each with
// whether it could be read: a search's excerpts and the records made of
// its hits then read each file from disk once.
type fileReads map[string]fileRead

type fileRead struct {
	src []byte
	ok  bool
}

// read returns the file at p as ix reads it, reading it the first time.
func (fr fileReads) read(ix *Index, p string) ([]byte, bool) {
	r, seen := fr[p]
	if !seen {
		if testHookRead != nil {
			testHookRead(p)
		}
		src, err := ix.readFile(p)
		r = fileRead{src, err == nil}
		fr[p] = r
	}
	return r.src, r.ok
}

// lock takes the writer lock, waiting until deadline (the zero time: as
// long as ctx allows). ok is false when the deadline passed first. ix.mu
// is held: an Update finishing in this process, which holds the lock
// (and which flock, whose locks belong to the open file, would grant to
// this process again), is waited for first.
// Where the system has no flock it succeeds at once: writers are then kept apart by SQLite's own write lock (every
// write transaction is BEGIN IMMEDIATE with a busy timeout), which keeps
// the database sound but lets two processes index the same changed file
// one after the other.
func (ix *Index) lock(ctx context.Context, deadline time.Time) (ok bool, err error) {
	if ch := ix.finishing.Load(); ch != nil {
		var timeout <-chan time.Time
		if !deadline.IsZero() {
			t := time.NewTimer(time.Until(deadline))
			defer t.Stop()
			timeout = t.C
		}
		select {
		case <-*ch:
		case <-timeout:
			return false, nil
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}
	wait := time.Millisecond
	for {
		ok, err := flock.TryLock(ix.lockF)
		if ok || err != nil {
			return ok, err
		}
		if !deadline.IsZero() && time.Now().Add(wait).After(deadline) {
			return false, nil
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(wait):
		}
		wait = min(wait*2, 25*time.Millisecond)
	}
}

func (ix *Index) unlock() { _ = flock.Unlock(ix.lockF) }

// tryLock takes the writer lock if it is free now, and never while an
// Update of this process finishes (see lock). ix.mu is held.
func (ix *Index) tryLock() bool {
	if ix.finishing.Load() != nil {
		return false
	}
	ok, err := flock.TryLock(ix.lockF)
	return ok && err == nil
}

// dbPath returns the database file of an identity key, named under the
// user's key (see sealing). ix.mu is held.
func (ix *Index) dbPath(key string) (string, error) {
	if p, ok := ix.paths[key]; ok {
		return p, nil
	}
	name, err := ix.seal.name(key)
	if err != nil {
		return "", err
	}
	p := filepath.Join(ix.dir, name)
	ix.paths[key] = p
	return p, nil
}

// activate returns the store of the project's current identity, opening,
// creating (seeded from the most recently used database) or rebuilding it
// as needed. ix.mu is held.
func (ix *Index) activate(ctx context.Context) (*store, Identity, []string, error) {
	if ix.closed {
		return nil, Identity{}, nil, ErrClosed
	}
	id, err := readIdentity(ix.root.Dir())
	if err != nil {
		return nil, Identity{}, nil, fmt.Errorf("index: identity: %w", err)
	}
	key := id.Key()
	if st := ix.stores[key]; st != nil {
		st.pre = nil
		if !st.replaced() {
			ix.setActive(key)
			return st, id, nil, nil
		}
		ix.retire(st)
	}
	path, err := ix.dbPath(key)
	if err != nil {
		return nil, id, nil, err
	}
	var diags []string
	var damaged os.FileInfo
	st, err := openStore(ctx, path, false, &ix.seal)
	if err == nil {
		if err := st.sane(ctx, ix.walker.dirs == nil); err != nil {
			st.close()
			if !isCorrupt(err) {
				return nil, id, nil, err
			}
			damaged = st.fi
			st = nil
			diags = append(diags, "the index database was damaged ("+err.Error()+"); it was rebuilt")
		}
	} else {
		var se *SchemaError
		replace := true
		switch {
		case errors.As(err, &se):
			return nil, id, nil, err
		case errors.Is(err, errEmpty):
			replace = false
		case errors.Is(err, seal.ErrForeign):
			// Removed here rather than replaced as a damaged one is: the
			// new database may still be seeded from one of ours.
			diags = append(diags, ix.foreignDiagnostic(err, true))
			if err := removeForeign(err); err != nil {
				return nil, id, diags, fmt.Errorf("index: %w", err)
			}
			replace = false
		case errors.Is(err, errOldSchema):
			diags = append(diags, "the index database had an older schema; it was rebuilt")
		case isCorrupt(err):
			diags = append(diags, "the index database was damaged ("+err.Error()+"); it was rebuilt")
		default:
			return nil, id, nil, fmt.Errorf("index: %w", err)
		}
		if replace {
			if damaged, err = os.Lstat(path); err != nil {
				return nil, id, diags, fmt.Errorf("index: %w", err)
			}
		}
		st = nil
	}
	if st == nil {
		var more []string
		st, more, err = ix.create(ctx, id, damaged)
		diags = append(diags, more...)
		if err != nil {
			return nil, id, diags, err
		}
	}
	st.key, st.extract = key, ix.extract
	ix.stores[key] = st
	ix.setActive(key)
	return st, id, diags, nil
}

// setActive makes key the active store, marks its file as just used and
// retires the store of the identity before it. ix.mu is held.
func (ix *Index) setActive(key string) {
	if ix.active == key {
		return
	}
	ix.active = key
	for k, st := range ix.stores {
		if k != key {
			ix.retire(st)
		}
	}
	if p, ok := ix.paths[key]; ok {
		now := time.Now()
		_ = os.Chtimes(p, now, now)
	}
}

// retire drops a store from use: closed now if no query holds it, else
// when the last one lets it go. ix.mu is held.
func (ix *Index) retire(st *store) {
	if ix.stores[st.key] == st {
		delete(ix.stores, st.key)
	}
	if st.refs == 0 {
		st.close()
	} else {
		st.retired = true
	}
}

// release lets go of a store a query held.
func (ix *Index) release(st *store) {
	ix.lockWaiting()
	defer ix.mu.Unlock()
	ix.unref(st)
}

// lockWaiting locks ix.mu for a query, which an Update in progress gives
// way to (see Index.waiting).
func (ix *Index) lockWaiting() {
	ix.waiting.Add(1)
	ix.mu.Lock()
	ix.waiting.Add(-1)
}

// unref is release with ix.mu held.
func (ix *Index) unref(st *store) {
	st.refs--
	if st.retired && st.refs == 0 {
		st.close()
	}
}

// create makes the database of id: rebuilt from nothing when damaged,
// otherwise seeded from the most recently used database of this project,
// whose rows then count as unverified until the refresh has compared them
// with the disk. The database is made under a temporary name, sealed for
// its own name and linked into place, so a database file always has its
// schema and its seal, and two processes creating the same one at once
// end up sharing the first that lands; no lock is needed. damaged, when
// not nil, is the damaged file: it is removed unless another process has
// already replaced it.
func (ix *Index) create(ctx context.Context, id Identity, damaged os.FileInfo) (*store, []string, error) {
	path, err := ix.dbPath(id.Key())
	if err != nil {
		return nil, nil, err
	}
	var diags []string
	if damaged == nil {
		st, err := openStore(ctx, path, false, &ix.seal)
		switch {
		case err == nil:
			return st, nil, nil
		case errors.Is(err, errEmpty):
			if fi, err := os.Lstat(path); err == nil {
				// Databases land with their schema: an empty one was cut short.
				diags = append(diags, "the index database was damaged (empty: truncated); it was rebuilt")
				damaged = fi
			}
		case errors.Is(err, seal.ErrForeign):
			diags = append(diags, ix.foreignDiagnostic(err, true))
			if err := removeForeign(err); err != nil {
				return nil, diags, fmt.Errorf("index: %w", err)
			}
		}
	}
	if damaged != nil {
		if fi, err := os.Lstat(path); err == nil && os.SameFile(fi, damaged) {
			if err := removeDatabase(path); err != nil {
				return nil, diags, fmt.Errorf("index: %w", err)
			}
		}
	}
	tmp := fmt.Sprintf("%s.tmp-%d-%d", path, os.Getpid(), time.Now().UnixNano())
	defer removeDatabase(tmp)
	made := false
	if damaged == nil {
		from, more := ix.seedStore(ctx, path)
		diags = append(diags, more...)
		if from != nil {
			if err := ix.seed(ctx, from, tmp, filepath.Base(path), id); err == nil {
				diags = append(diags, "seeded from the index of "+describeStored(ctx, from))
				made = true
			} else {
				diags = append(diags, "could not seed from "+filepath.Base(from.path)+": "+err.Error())
				removeDatabase(tmp)
			}
			from.close()
		}
	}
	if !made {
		st, err := openStore(ctx, tmp, true, nil)
		if err == nil {
			err = st.setIdentity(ctx, id)
			if err == nil {
				err = st.sealAs(ctx, ix.seal, filepath.Base(path))
			}
			if cerr := st.close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			return nil, diags, fmt.Errorf("index: creating %s: %w", filepath.Base(path), err)
		}
	}
	if err := os.Link(tmp, path); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, diags, fmt.Errorf("index: %w", err)
	}
	st, err := openStore(ctx, path, false, &ix.seal)
	if err != nil {
		return nil, diags, fmt.Errorf("index: %w", err)
	}
	ix.prune(path)
	return st, diags, nil
}

// maxForeignListed bounds the foreign databases a diagnostic names one by
// one.
const maxForeignListed = 3

// seedStore opens the most recently used database of this project, other
// than the one at path, for a new database to be seeded from. It removes
// the databases it meets on the way that are foreign (see sealing), of an
// older schema or damaged, none of which can seed, and passes over those
// of a newer schema. It returns nil when there is none, and diagnostics
// saying what it removed.
func (ix *Index) seedStore(ctx context.Context, path string) (*store, []string) {
	var diags []string
	foreign := 0
	defer func() {
		if foreign > maxForeignListed {
			diags = append(diags, fmt.Sprintf("%d more databases not written by this user's CodeCortex were removed from %s without being used", foreign-maxForeignListed, StorageDir))
		}
	}()
	for _, c := range ix.stored() {
		if c.path == path {
			continue
		}
		st, err := openStore(ctx, c.path, false, &ix.seal)
		var se *SchemaError
		switch {
		case err == nil:
			return st, diags
		case errors.As(err, &se):
			continue
		case errors.Is(err, seal.ErrForeign):
			if foreign++; foreign <= maxForeignListed {
				diags = append(diags, ix.foreignDiagnostic(err, false))
			}
			removeForeign(err)
		case errors.Is(err, errOldSchema), errors.Is(err, errEmpty), isCorrupt(err):
			if fi, lerr := os.Lstat(c.path); lerr == nil && os.SameFile(fi, c.fi) && removeDatabase(c.path) == nil {
				diags = append(diags, "removed "+ix.relPath(c.path)+", which could not seed a new index: "+err.Error())
			}
		default:
			diags = append(diags, "could not seed from "+ix.relPath(c.path)+": "+err.Error())
		}
	}
	return nil, diags
}

// describeStored names the identity a database was made for.
func describeStored(ctx context.Context, st *store) string {
	id, err := st.identity(ctx)
	if err != nil {
		return filepath.Base(st.path)
	}
	return id.String()
}

// seed copies the database of from to dst as the starting point of id's
// index, with every file unverified, sealed for name, the name of id's
// database. VACUUM INTO copies the schema with the rows: from's was
// checked when it was opened, and the copy's is checked again when it is
// opened.
func (ix *Index) seed(ctx context.Context, from *store, dst, name string, id Identity) error {
	if _, err := from.db.ExecContext(ctx, "VACUUM INTO ?", dst); err != nil {
		return err
	}
	to, err := openStore(ctx, dst, false, nil)
	if err != nil {
		return err
	}
	_, err = to.db.ExecContext(ctx, "PRAGMA journal_mode=WAL")
	if err == nil {
		_, err = to.db.ExecContext(ctx, "UPDATE files SET verified = 0")
	}
	if err == nil {
		_, err = to.db.ExecContext(ctx, strings.Replace(sqlBumpGeneration, "RETURNING CAST(value AS INTEGER)", "", 1))
	}
	if err == nil {
		err = to.setIdentity(ctx, id)
	}
	if err == nil {
		err = to.sealAs(ctx, ix.seal, name)
	}
	if cerr := to.close(); err == nil {
		err = cerr
	}
	return err
}

// storedDB is a database file in the storage directory.
type storedDB struct {
	path string
	used time.Time
	fi   os.FileInfo
}

// stored lists the databases in the storage directory, most recently used
// first.
func (ix *Index) stored() []storedDB {
	entries, _ := os.ReadDir(ix.dir)
	var out []storedDB
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(name, ".db") || len(name) != 16+3 {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		out = append(out, storedDB{path: filepath.Join(ix.dir, name), used: fi.ModTime(), fi: fi})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].used.After(out[j].used) })
	return out
}

// prune removes the databases beyond the most recently used KeepIndexes,
// never the active one (at active) nor one the Index has open, and
// temporary files left by a crash. It does nothing while another process
// holds the writer lock.
func (ix *Index) prune(active string) {
	if !ix.tryLock() {
		return
	}
	defer ix.unlock()
	open := map[string]bool{active: true}
	for _, st := range ix.stores {
		open[st.path] = true
	}
	kept := 0
	for _, s := range ix.stored() {
		if open[s.path] || kept < ix.opts.keep() {
			kept++
			continue
		}
		removeDatabase(s.path)
	}
	entries, _ := os.ReadDir(ix.dir)
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && strings.Contains(e.Name(), ".db.tmp-") && time.Since(fi.ModTime()) > time.Hour {
			os.Remove(filepath.Join(ix.dir, e.Name()))
		}
	}
}

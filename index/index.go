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

	mu     sync.Mutex // serialises activation and refreshes
	walker *walker
	stores map[string]*store
	active string // key of the active store
	closed bool

	life sync.RWMutex // queries hold it for reading; Close for writing

	speculated atomic.Int64 // answers a speculation gave (see speculation)
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
	ix := &Index{opts: opts, root: root, stores: map[string]*store{}, extract: opts.extractor()}
	ix.walker = newWalker(root.Dir(), func() matcher { return newMatcher(root.FS()) }, opts.maxFileSize())
	if err := ix.prepareStorage(); err != nil {
		root.Close()
		return nil, err
	}
	return ix, nil
}

// prepareStorage creates the storage directory inside the root and opens
// the lock file.
func (ix *Index) prepareStorage() error {
	if err := ix.root.MkdirAll(StorageDir, 0o755); err != nil {
		return fmt.Errorf("index: creating %s: %w", StorageDir, err)
	}
	abs, err := ix.root.Abs(StorageDir)
	if err != nil {
		return fmt.Errorf("index: %w", err)
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

// lock takes the writer lock, waiting until deadline (the zero time: as
// long as ctx allows). ok is false when the deadline passed first.
// Where the system has no flock it succeeds at once: writers are then kept apart by SQLite's own write lock (every
// write transaction is BEGIN IMMEDIATE with a busy timeout), which keeps
// the database sound but lets two processes index the same changed file
// one after the other.
func (ix *Index) lock(ctx context.Context, deadline time.Time) (ok bool, err error) {
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

// dbPath returns the database file of an identity key.
func (ix *Index) dbPath(key string) string { return filepath.Join(ix.dir, key+".db") }

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
	var diags []string
	var damaged os.FileInfo
	st, err := openStore(ctx, ix.dbPath(key), false)
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
		switch {
		case errors.As(err, &se):
			return nil, id, nil, err
		case errors.Is(err, errEmpty):
		case errors.Is(err, errOldSchema):
			diags = append(diags, "the index database had an older schema; it was rebuilt")
		case isCorrupt(err):
			diags = append(diags, "the index database was damaged ("+err.Error()+"); it was rebuilt")
		default:
			return nil, id, nil, fmt.Errorf("index: %w", err)
		}
		if len(diags) > 0 {
			if damaged, err = os.Stat(ix.dbPath(key)); err != nil {
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
	now := time.Now()
	_ = os.Chtimes(ix.dbPath(key), now, now)
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
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.unref(st)
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
// with the disk. The database is made under a temporary name and linked
// into place, so a database file always has its schema, and two processes
// creating the same one at once end up sharing the first that lands; no
// lock is needed. damaged, when not nil, is the damaged file: it is
// removed unless another process has already replaced it.
func (ix *Index) create(ctx context.Context, id Identity, damaged os.FileInfo) (*store, []string, error) {
	path := ix.dbPath(id.Key())
	var diags []string
	if damaged == nil {
		st, err := openStore(ctx, path, false)
		if err == nil {
			return st, nil, nil
		}
		if errors.Is(err, errEmpty) {
			if fi, err := os.Stat(path); err == nil {
				// Databases land with their schema: an empty one was cut short.
				diags = append(diags, "the index database was damaged (empty: truncated); it was rebuilt")
				damaged = fi
			}
		}
	}
	if damaged != nil {
		if fi, err := os.Stat(path); err == nil && os.SameFile(fi, damaged) {
			if err := removeDatabase(path); err != nil {
				return nil, diags, fmt.Errorf("index: %w", err)
			}
		}
	}
	tmp := fmt.Sprintf("%s.tmp-%d-%d", path, os.Getpid(), time.Now().UnixNano())
	defer removeDatabase(tmp)
	made := false
	if damaged == nil {
		if seed := ix.newestOther(id.Key()); seed != "" {
			if err := ix.seed(ctx, seed, tmp, id); err == nil {
				diags = append(diags, "seeded from the index of "+describeStored(ctx, seed))
				made = true
			} else {
				diags = append(diags, "could not seed from "+filepath.Base(seed)+": "+err.Error())
				removeDatabase(tmp)
			}
		}
	}
	if !made {
		st, err := openStore(ctx, tmp, true)
		if err == nil {
			err = st.setIdentity(ctx, id)
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
	st, err := openStore(ctx, path, false)
	if err != nil {
		return nil, diags, fmt.Errorf("index: %w", err)
	}
	ix.prune(id.Key())
	return st, diags, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// describeStored names the identity a database file was made for.
func describeStored(ctx context.Context, path string) string {
	st, err := openStore(ctx, path, false)
	if err != nil {
		return filepath.Base(path)
	}
	defer st.close()
	id, err := st.identity(ctx)
	if err != nil {
		return filepath.Base(path)
	}
	return id.String()
}

// seed copies the database at src to dst as the starting point of id's
// index, with every file unverified.
func (ix *Index) seed(ctx context.Context, src, dst string, id Identity) error {
	from, err := openStore(ctx, src, false)
	if err != nil {
		return err
	}
	_, err = from.db.ExecContext(ctx, "VACUUM INTO ?", dst)
	from.close()
	if err != nil {
		return err
	}
	to, err := openStore(ctx, dst, false)
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
	if cerr := to.close(); err == nil {
		err = cerr
	}
	return err
}

// storedDB is a database file in the storage directory.
type storedDB struct {
	path string
	used time.Time
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
		out = append(out, storedDB{path: filepath.Join(ix.dir, name), used: fi.ModTime()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].used.After(out[j].used) })
	return out
}

// newestOther returns the most recently used database other than key's.
func (ix *Index) newestOther(key string) string {
	for _, s := range ix.stored() {
		if s.path != ix.dbPath(key) {
			return s.path
		}
	}
	return ""
}

// prune removes the databases beyond the most recently used KeepIndexes,
// never the active one (key), and temporary files left by a crash. It does
// nothing while another process holds the writer lock.
func (ix *Index) prune(key string) {
	if ok, err := flock.TryLock(ix.lockF); !ok || err != nil {
		return
	}
	defer ix.unlock()
	kept := 0
	for _, s := range ix.stored() {
		k := strings.TrimSuffix(filepath.Base(s.path), ".db")
		if k == key || ix.stores[k] != nil || kept < ix.opts.keep() {
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

package index

import (
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
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// skipDirs are directories the walk never enters, wherever they are.
var skipDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, ".jj": true, ".codecortex": true, "node_modules": true,
}

// venvMarker marks a directory as a Python virtual environment (PEP 405),
// which the walk does not enter.
const venvMarker = "pyvenv.cfg"

// ignoreFile is the per-directory ignore file; a change to one, or to
// excludeFile, makes the walk read every directory again.
const (
	ignoreFile  = ".gitignore"
	excludeFile = ".git/info/exclude"
)

// racyWindow is how close to the moment it was read a timestamp may be
// before it is not trusted: the kernel stamps files from a coarse clock, so
// a change made just after a read can leave the same mtime. A directory or
// file stamped this close to its reading is looked at again next time.
const racyWindow = 50 * time.Millisecond

// A diskFile is a file the walk found.
type diskFile struct {
	path  string // relative to the root, slash-separated
	size  int64
	mtime int64 // nanoseconds since the epoch
}

// A walkResult is the files of a tree the index would hold.
type walkResult struct {
	files    []diskFile // in no particular order
	tooLarge int        // regular files over the size cap
	links    int        // symbolic links, not followed
}

// digest returns a digest of the files the walk found, with their sizes
// and mtimes, in the walk's order, and of what decides whether a file's
// row is current (the chunker version and extract, what files.extractor
// records): two walks with the same digest saw the same files with the
// same stamps, and an index whose rows matched one matches the other. Two
// walks of the same files in another order differ, which costs only the
// comparison the digest would have saved.
func (w walkResult) digest(extract string) string {
	h := sha256.New()
	var buf []byte
	buf = strconv.AppendInt(buf, ChunkerVersion, 10)
	buf = append(buf, 0)
	buf = append(buf, extract...)
	buf = append(buf, 0)
	for _, f := range w.files {
		buf = append(buf, f.path...)
		buf = append(buf, 0)
		buf = binary.LittleEndian.AppendUint64(buf, uint64(f.size))
		buf = binary.LittleEndian.AppendUint64(buf, uint64(f.mtime))
		if len(buf) > 32<<10 {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	h.Write(buf)
	return hex.EncodeToString(h.Sum(nil))
}

// A dirListing is what the walk keeps of one directory between walks: its
// mtime and the entries the ignore rules kept. While the directory's mtime
// is unchanged its entries are the same, so the walk only stats the files.
type dirListing struct {
	mtime   int64
	racy    bool     // the mtime was too close to the reading to trust
	subdirs []string // paths of the subdirectories to enter
	files   []string // paths of the regular files the rules keep
	// leftOut is set when the directory holds a .gitignore that the rules
	// leave out (one that ignores itself, or one past its limits): the walk
	// still takes its stamp, so that an edit to it is seen.
	leftOut bool
	links   int
	// stats and tooLarge are what the last walk found of the files.
	stats    []diskFile
	tooLarge int
}

// A walker lists a tree's files, remembering directory listings between
// walks. It is not safe for concurrent use.
type walker struct {
	dir        string // the root, absolute, links evaluated
	newMatcher func() matcher
	maxSize    int64

	dirs    map[string]*dirListing // directory path ("." for the root) → listing
	order   []string               // the keys of dirs in the order the last scan visited them
	ignores map[string]stamp       // ignore file path → its stamp when the listings were made

	// With a watcher, a walk visits only the directories it reports
	// changed, and the whole tree when it cannot tell or once
	// watchBackstop has passed since the last full walk.
	watch *watcher
	// noWatch records that no watcher can be had (inotify unavailable, or
	// one failed): walks are then full.
	noWatch  bool
	last     walkResult
	lastFull time.Time // when the last trusted full walk started; zero: none
	// lastStart is when the walk that made last started.
	lastStart time.Time
	// seq counts the walks that may have seen a change; a walk the watcher
	// says saw none keeps the number of the one before.
	seq int64
	// changed reports that the listings changed since they were last
	// saved (see encode), so the next process need not read them again.
	changed bool
	// fromEvents counts the walks the watcher's events answered.
	fromEvents int
	// notes are the matcher's diagnostics from the last full scan: the
	// ignore files it could not apply as written. They hold while the
	// ignore files are unchanged, which is what a walk that reuses
	// listings requires.
	notes []string
}

// watchBackstop bounds how long a walker trusts its watcher alone: a full
// walk then catches what inotify cannot see (writes through mmap, changes
// made by another machine to a network file system).
const watchBackstop = 2 * time.Second

// A stamp is what the walk compares to notice a changed file.
type stamp struct{ size, mtime int64 }

func newWalker(dir string, newMatcher func() matcher, maxSize int64) *walker {
	return &walker{dir: dir, newMatcher: newMatcher, maxSize: maxSize}
}

// walk lists the regular files of the tree that the ignore rules keep, no
// larger than the size cap. It never follows a symbolic link, so nothing
// outside the root is listed; it reads directory entries and file status
// only, and reads a directory's entries only when its mtime changed since
// the last walk. seq is the walk's number: two walks with the same
// number saw the same tree (by the watcher's account, nothing changed in
// between).
//
// A walk begun at or after since (when not zero) is not done again: its
// result is returned as it is, with its number.
func (w *walker) walk(since time.Time) (res walkResult, seq int64) {
	if !since.IsZero() && w.seq > 0 && !w.lastStart.Before(since) {
		return w.last, w.seq
	}
	start := time.Now()
	if w.watch != nil && w.dirs != nil && !w.lastFull.IsZero() && time.Since(w.lastFull) < watchBackstop {
		if res, unchanged, ok := w.watched(); ok {
			if !unchanged {
				w.seq++
			}
			w.fromEvents++
			w.lastStart = start
			return res, w.seq
		}
	}
	w.seq++
	w.lastStart = start
	if w.watch != nil {
		w.watch.drain() // a full walk sees everything these report
	}
	ok := false
	if w.dirs != nil {
		res, ok = w.scan(true)
	}
	if !ok {
		res, _ = w.scan(false)
	}
	w.last, w.lastFull = res, time.Time{}
	if w.seq > 1 && w.watch == nil && !w.noWatch { // not worth it for an index asked only once
		if w.watch = newWatcher(); w.watch == nil {
			w.noWatch = true
		}
	}
	if w.watch != nil {
		// Trust the watcher from this walk on only if it watched every
		// directory while the walk ran; otherwise the next walk is full too.
		added := 0
		for rel := range w.dirs {
			a, err := w.watch.add(rel, w.abs(rel))
			if err != nil {
				w.watch.close()
				w.watch, w.noWatch = nil, true
				return res, w.seq
			}
			if a {
				added++
			}
		}
		if added == 0 {
			w.lastFull = start
		}
	}
	return res, w.seq
}

// watched brings the last walk up to date from the watcher's events,
// visiting only the directories they name. ok is false when a full walk is
// needed: the watcher cannot tell, an ignore file changed, or a directory
// was added or removed.
func (w *walker) watched() (res walkResult, unchanged, ok bool) {
	dirty, rescan, err := w.watch.drain()
	if err != nil || rescan || len(w.order) != len(w.dirs) || w.stampOf(excludeFile) != w.ignores[excludeFile] {
		return res, false, false
	}
	if len(dirty) == 0 {
		return w.last, true, true
	}
	var m matcher
	match := func(p string, isDir bool) bool {
		if m == nil {
			m = w.newMatcher()
		}
		return m.Match(p, isDir)
	}
	root, err := openRoot(w.dir)
	if err != nil {
		return res, false, false
	}
	defer root.close()
	for d := range dirty {
		old := w.dirs[d]
		if old == nil {
			return res, false, false
		}
		v := w.visit(root, d, old, match)
		if v.listing == nil || !slices.Equal(v.listing.subdirs, old.subdirs) {
			return res, false, false
		}
		if v.relisted {
			w.changed = true
		}
		w.dirs[d] = v.listing
	}
	for _, d := range w.order { // the scan's order, so that the digest is the same
		l := w.dirs[d]
		res.files = append(res.files, l.stats...)
		res.tooLarge += l.tooLarge
		res.links += l.links
	}
	w.last = res
	return res, false, true
}

func (w *walker) abs(rel string) string {
	if rel == "." {
		return w.dir
	}
	return filepath.Join(w.dir, filepath.FromSlash(rel))
}

// scan walks the tree, with cached reusing the listings of directories
// whose mtime is unchanged. ok is false when, with cached, an ignore file
// changed, appeared or went: every directory must then be read again. The
// directories are visited on every CPU, each as soon as its parent has
// been read; the result lists them breadth first, in the listings' order,
// whatever order they were visited in.
func (w *walker) scan(cached bool) (res walkResult, ok bool) {
	exclude := w.stampOf(excludeFile)
	if cached && exclude != w.ignores[excludeFile] {
		return res, false
	}
	var mu sync.Mutex // the matcher is not safe for concurrent use
	var m matcher
	match := func(p string, isDir bool) bool {
		mu.Lock()
		defer mu.Unlock()
		if m == nil {
			m = w.newMatcher()
		}
		return m.Match(p, isDir)
	}
	visited := w.visitAll(cached, match)
	var notes []string
	if m != nil {
		notes = m.Diagnostics()
		sort.Strings(notes) // the directories were read in no set order
	}
	dirs := make(map[string]*dirListing, len(visited))
	order := make([]string, 0, len(visited))
	var leftOut []diskFile // ignore files the rules leave out
	for level := []string{"."}; len(level) > 0; {
		var next []string
		for _, rel := range level {
			v := visited[rel]
			if v.listing == nil {
				continue
			}
			if v.relisted {
				w.changed = true
			}
			dirs[rel] = v.listing
			order = append(order, rel)
			res.links += v.listing.links
			res.tooLarge += v.tooLarge
			res.files = append(res.files, v.files...)
			leftOut = append(leftOut, v.leftOut...)
			next = append(next, v.listing.subdirs...)
		}
		level = next
	}
	ignores := map[string]stamp{excludeFile: exclude}
	for _, f := range append(leftOut, res.files...) {
		if f.path == ignoreFile || strings.HasSuffix(f.path, "/"+ignoreFile) {
			ignores[f.path] = stamp{f.size, f.mtime}
		}
	}
	if cached && !maps.Equal(ignores, w.ignores) {
		return walkResult{}, false
	}
	if !cached || len(dirs) != len(w.dirs) {
		w.changed = true
	}
	if !cached {
		w.notes = notes
	}
	w.dirs, w.order, w.ignores = dirs, order, ignores
	return res, true
}

// visitAll visits every directory of the tree (see scan), on every CPU.
func (w *walker) visitAll(cached bool, match func(string, bool) bool) map[string]visitResult {
	visited := map[string]visitResult{}
	root, err := openRoot(w.dir)
	if err != nil {
		return visited
	}
	defer root.close()
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	queue := []string{"."}
	pending := 1 // directories queued or being visited
	work := func() {
		mu.Lock()
		defer mu.Unlock()
		for {
			for len(queue) == 0 && pending > 0 {
				cond.Wait()
			}
			if pending == 0 {
				return
			}
			rel := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			mu.Unlock()
			var old *dirListing
			if cached {
				old = w.dirs[rel] // w.dirs is only read while the walk runs
			}
			v := w.visit(root, rel, old, match)
			mu.Lock()
			visited[rel] = v
			if v.listing != nil {
				queue = append(queue, v.listing.subdirs...)
				pending += len(v.listing.subdirs)
			}
			pending--
			cond.Broadcast()
		}
	}
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
	return visited
}

// A visitResult is one directory's part of a walk.
type visitResult struct {
	listing  *dirListing // nil when the directory is gone or not one
	relisted bool        // its entries were read (not reused)
	files    []diskFile
	tooLarge int
	leftOut  []diskFile // the stamp of the .gitignore the rules leave out
}

// visit reads one directory: its listing (old's, when its mtime has not
// changed) and the status of its files. A directory that is a symbolic
// link is not entered.
func (w *walker) visit(root *dirRoot, rel string, old *dirListing, match func(string, bool) bool) visitResult {
	var v visitResult
	d, err := root.open(rel)
	if err != nil {
		return v
	}
	defer d.close()
	mtime, read, err := d.mtime()
	if err != nil {
		return v
	}
	l := old
	if l == nil || l.racy || l.mtime != mtime {
		entries, err := d.entries()
		if err != nil {
			return v
		}
		l = &dirListing{mtime: mtime, racy: isRacy(read, mtime)}
		v.relisted = true
		venv := false
		for _, e := range entries {
			name := e.Name()
			if !validName(name) {
				continue
			}
			p := name
			if rel != "." {
				p = rel + "/" + name
			}
			t := e.Type()
			switch {
			case t&fs.ModeSymlink != 0:
				l.links++
			case t.IsDir():
				if !skipDirs[name] && !match(p, true) {
					l.subdirs = append(l.subdirs, p)
				}
			case t.IsRegular():
				venv = venv || name == venvMarker
				if !match(p, false) {
					l.files = append(l.files, p)
				} else if name == ignoreFile {
					l.leftOut = true
				}
			}
		}
		if venv && rel != "." {
			// A Python virtual environment holds installed
			// dependencies, as node_modules does: not the project's
			// code (the dependency-source layer reads them).
			l.files, l.subdirs, l.leftOut = nil, nil, false
		}
	}
	v.listing = l
	d.statFiles(l.files, func(p string, size, mtime int64, regular bool) {
		switch {
		case !regular:
		case size > w.maxSize:
			v.tooLarge++
		default:
			v.files = append(v.files, diskFile{path: p, size: size, mtime: mtime})
		}
	})
	l.stats, l.tooLarge = v.files, v.tooLarge
	if l.leftOut {
		p := ignoreFile
		if rel != "." {
			p = rel + "/" + ignoreFile
		}
		d.statFiles([]string{p}, func(p string, size, mtime int64, regular bool) {
			if regular {
				v.leftOut = append(v.leftOut, diskFile{path: p, size: size, mtime: mtime})
			}
		})
	}
	return v
}

// listingsVersion starts the text encode writes; another first line is
// not read. Version 2: the ignore files' limits (a directory left out
// whole), the N and H records. Version 3: a virtual environment's
// listing is empty.
const listingsVersion = "listings 3"

// encode writes the listings and the ignore files' stamps as text, a
// record a line (names hold no control characters):
//
//	I size mtime path     an ignore file's stamp
//	D mtime links path    a directory (mtime 0: read it again)
//	S name                a subdirectory of the directory above
//	F name                a file of the directory above
//	H .gitignore          the directory above holds a .gitignore the rules leave out
//	N text                a note of the matcher (see walker.notes)
func (w *walker) encode() string {
	var b strings.Builder
	b.WriteString(listingsVersion + "\n")
	for _, n := range w.notes {
		b.WriteString("N " + strings.Map(noControl, n) + "\n")
	}
	for p, st := range w.ignores {
		fmt.Fprintf(&b, "I %d %d %s\n", st.size, st.mtime, p)
	}
	for rel, l := range w.dirs {
		mtime := l.mtime
		if l.racy {
			mtime = 0
		}
		fmt.Fprintf(&b, "D %d %d %s\n", mtime, l.links, rel)
		for _, s := range l.subdirs {
			b.WriteString("S " + path.Base(s) + "\n")
		}
		for _, f := range l.files {
			b.WriteString("F " + path.Base(f) + "\n")
		}
		if l.leftOut {
			b.WriteString("H " + ignoreFile + "\n")
		}
	}
	return b.String()
}

// load takes listings encode wrote, as if this walker had made them; it
// does nothing when they cannot be read.
func (w *walker) load(text string) {
	line, rest, _ := strings.Cut(text, "\n")
	if line != listingsVersion {
		return
	}
	dirs := map[string]*dirListing{}
	ignores := map[string]stamp{}
	var notes []string
	var cur *dirListing
	var curRel string
	// The entries' paths are built in one builder and cut from the one
	// string it makes (no copy) at the end: a tree's listings hold
	// thousands of them. A line is at most one entry, so entries is sized
	// once.
	entries := make([]listingEntry, 0, strings.Count(rest, "\n")+1)
	var buf strings.Builder
	buf.Grow(len(text) + len(text)/2)
	for rest != "" {
		line, rest, _ = strings.Cut(rest, "\n")
		if len(line) < 3 || line[1] != ' ' {
			return
		}
		switch line[0] {
		case 'N':
			notes = append(notes, line[2:])
		case 'H':
			if cur == nil || line[2:] != ignoreFile {
				return
			}
			cur.leftOut = true
		case 'I', 'D':
			a, b, f2, ok := parseStampLine(line[2:])
			if !ok {
				return
			}
			if line[0] == 'I' {
				ignores[f2] = stamp{a, b}
				continue
			}
			if !validRel(f2) {
				return
			}
			curRel, cur = f2, &dirListing{mtime: a, links: int(b)}
			dirs[curRel] = cur
		case 'S', 'F':
			name := line[2:]
			if cur == nil || name == "." || name == ".." || !validName(name) {
				return
			}
			start := buf.Len()
			if curRel != "." {
				buf.WriteString(curRel)
				buf.WriteByte('/')
			}
			buf.WriteString(name)
			entries = append(entries, listingEntry{cur, line[0] == 'S', start, buf.Len()})
		default:
			return
		}
	}
	if dirs["."] == nil {
		return
	}
	fillListings(entries, buf.String())
	w.dirs, w.order, w.ignores, w.notes = dirs, nil, ignores, notes
}

// A listingEntry is an entry of a directory's listing as load reads it:
// a subdirectory or a file, its path at [start, end) of the paths.
type listingEntry struct {
	dir        *dirListing
	sub        bool
	start, end int
}

// parseStampLine reads "A B NAME", the two numbers of an I or D line of
// the listings and its name.
func parseStampLine(s string) (a, b int64, name string, ok bool) {
	f0, more, ok1 := strings.Cut(s, " ")
	f1, name, ok2 := strings.Cut(more, " ")
	if !ok1 || !ok2 {
		return 0, 0, "", false
	}
	a, err1 := strconv.ParseInt(f0, 10, 64)
	b, err2 := strconv.ParseInt(f1, 10, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, "", false
	}
	return a, b, name, true
}

// fillListings sets each directory's subdirectories and files to its
// entries' paths, cut from paths.
func fillListings(entries []listingEntry, paths string) {
	for i := 0; i < len(entries); {
		// A directory's entries are contiguous: size its slices once.
		d, subs, files := entries[i].dir, 0, 0
		j := i
		for ; j < len(entries) && entries[j].dir == d; j++ {
			if entries[j].sub {
				subs++
			} else {
				files++
			}
		}
		d.subdirs, d.files = make([]string, 0, subs), make([]string, 0, files)
		for _, e := range entries[i:j] {
			if e.sub {
				d.subdirs = append(d.subdirs, paths[e.start:e.end])
			} else {
				d.files = append(d.files, paths[e.start:e.end])
			}
		}
		i = j
	}
}

// noControl drops the control characters of a note, so that it stays one
// line of the listings.
func noControl(r rune) rune {
	if r < 0x20 || r == 0x7f {
		return -1
	}
	return r
}

// validRel reports whether p is "." or a relative path of valid names,
// none of them "." or "..": a path that stays inside the root.
func validRel(p string) bool {
	if p == "." {
		return true
	}
	for {
		e, rest, more := strings.Cut(p, "/")
		if e == "" || e == "." || e == ".." || !validName(e) {
			return false
		}
		if !more {
			return true
		}
		p = rest
	}
}

// isRacy reports whether a timestamp is too close to the moment it was
// read to be trusted.
func isRacy(read time.Time, mtime int64) bool {
	d := read.Sub(time.Unix(0, mtime))
	return d >= 0 && d < racyWindow
}

// stampOf returns the stamp of a file, or the zero stamp when it is
// missing or not a regular file.
func (w *walker) stampOf(rel string) stamp {
	fi, err := os.Lstat(w.abs(rel))
	if err != nil || !fi.Mode().IsRegular() {
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return stamp{-1, -1}
		}
		return stamp{}
	}
	return stamp{fi.Size(), fi.ModTime().UnixNano()}
}

// validName reports whether a file name can be part of a path the index
// records: valid UTF-8 without control or bidirectional-control
// characters (the names the project's path checks accept).
func validName(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= utf8.RuneSelf {
			return validNameSlow(name)
		}
		if c < 0x20 || c == 0x7f || c == '/' {
			return false
		}
	}
	return true
}

// validNameSlow is validName for names with non-ASCII characters.
func validNameSlow(name string) bool {
	if !utf8.ValidString(name) {
		return false
	}
	for _, c := range name {
		if unicode.IsControl(c) || unicode.Is(unicode.Bidi_Control, c) {
			return false
		}
	}
	return !strings.ContainsRune(name, '/')
}

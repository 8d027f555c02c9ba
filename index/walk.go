package index

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
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

// A dirListing is what the walk keeps of one directory between walks: its
// mtime and the entries the ignore rules kept. While the directory's mtime
// is unchanged its entries are the same, so the walk only stats the files.
type dirListing struct {
	mtime   int64
	racy    bool     // the mtime was too close to the reading to trust
	subdirs []string // paths of the subdirectories to enter
	files   []string // paths of the regular files the rules keep
	links   int
}

// A walker lists a tree's files, remembering directory listings between
// walks. It is not safe for concurrent use.
type walker struct {
	dir        string // the root, absolute, links evaluated
	newMatcher func() matcher
	maxSize    int64

	dirs    map[string]*dirListing // directory path ("." for the root) → listing
	ignores map[string]stamp       // ignore file path → its stamp when the listings were made
}

// A stamp is what the walk compares to notice a changed file.
type stamp struct{ size, mtime int64 }

func newWalker(dir string, newMatcher func() matcher, maxSize int64) *walker {
	return &walker{dir: dir, newMatcher: newMatcher, maxSize: maxSize}
}

// walk lists the regular files of the tree that the ignore rules keep, no
// larger than the size cap. It never follows a symbolic link, so nothing
// outside the root is listed; it reads directory entries and file status
// only, and reads a directory's entries only when its mtime changed since
// the last walk.
func (w *walker) walk() walkResult {
	if w.dirs != nil {
		if res, ok := w.scan(true); ok {
			return res
		}
	}
	res, _ := w.scan(false)
	return res
}

func (w *walker) abs(rel string) string {
	if rel == "." {
		return w.dir
	}
	return filepath.Join(w.dir, filepath.FromSlash(rel))
}

// scan walks the tree, with cached reusing the listings of directories
// whose mtime is unchanged. ok is false when, with cached, an ignore file
// changed, appeared or went: every directory must then be read again.
func (w *walker) scan(cached bool) (res walkResult, ok bool) {
	exclude := w.stampOf(excludeFile)
	if cached && exclude != w.ignores[excludeFile] {
		return res, false
	}
	var m matcher
	mf := func() matcher {
		if m == nil {
			m = w.newMatcher()
		}
		return m
	}
	dirs := make(map[string]*dirListing, len(w.dirs))
	var order []*dirListing
	var visit func(rel string)
	visit = func(rel string) {
		var l *dirListing
		if cached {
			fi, err := os.Lstat(w.abs(rel))
			if err != nil || !fi.IsDir() {
				return
			}
			if old := w.dirs[rel]; old != nil && !old.racy && fi.ModTime().UnixNano() == old.mtime {
				l = old
			}
		}
		if l == nil {
			if l = w.list(rel, mf); l == nil {
				return
			}
		}
		dirs[rel] = l
		order = append(order, l)
		res.links += l.links
		for _, sd := range l.subdirs {
			visit(sd)
		}
	}
	visit(".")
	w.statAll(order, &res)
	ignores := map[string]stamp{excludeFile: exclude}
	for _, f := range res.files {
		if f.path == ignoreFile || strings.HasSuffix(f.path, "/"+ignoreFile) {
			ignores[f.path] = stamp{f.size, f.mtime}
		}
	}
	if cached && !maps.Equal(ignores, w.ignores) {
		return walkResult{}, false
	}
	w.dirs, w.ignores = dirs, ignores
	return res, true
}

// statAll stats the files of the listings, on every CPU for a large tree.
func (w *walker) statAll(ls []*dirListing, res *walkResult) {
	var paths []string
	for _, l := range ls {
		paths = append(paths, l.files...)
	}
	workers := min(runtime.GOMAXPROCS(0), len(paths)/256+1)
	parts := make([]walkResult, workers)
	var wg sync.WaitGroup
	for i := range workers {
		lo, hi := i*len(paths)/workers, (i+1)*len(paths)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.statFiles(paths[lo:hi], &parts[i])
		}()
	}
	wg.Wait()
	for _, p := range parts {
		res.files = append(res.files, p.files...)
		res.tooLarge += p.tooLarge
	}
}

// list reads a directory's entries and keeps those the rules keep.
func (w *walker) list(rel string, mf func() matcher) *dirListing {
	f, err := os.Open(w.abs(rel))
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.IsDir() {
		return nil
	}
	read := time.Now()
	entries, _ := f.ReadDir(-1)
	l := &dirListing{mtime: fi.ModTime().UnixNano()}
	l.racy = read.Sub(fi.ModTime()) < racyWindow
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
			if !skipDirs[name] && !mf().Match(p, true) {
				l.subdirs = append(l.subdirs, p)
			}
		case t.IsRegular():
			if !mf().Match(p, false) {
				l.files = append(l.files, p)
			}
		}
	}
	return l
}

// statFiles appends the files that are still regular files within the
// size cap.
func (w *walker) statFiles(paths []string, res *walkResult) {
	for _, p := range paths {
		fi, err := os.Lstat(w.abs(p))
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if fi.Size() > w.maxSize {
			res.tooLarge++
			continue
		}
		res.files = append(res.files, diskFile{path: p, size: fi.Size(), mtime: fi.ModTime().UnixNano()})
	}
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

package structural

import (
	"context"
	"io/fs"
	"sync"

	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/internal/ignore"
)

// A fileFeed hands a search's files to its workers in sorted order: a
// list resolved before the search, or one that a walk of a directory
// extends while the workers parse what it has found, so the first parse
// does not wait for the last directory to be read.
type fileFeed struct {
	mu        sync.Mutex
	grown     sync.Cond
	files     []string
	sizes     []int64  // each file's size as the walk found it; -1 when unknown
	done      bool     // nothing more will be added
	truncated bool     // the walk stopped at the file limit with files left
	notes     []string // the walk's ignore notes (see fileSet), once done
}

// listFeed feeds files, resolved already, of sizes unknown.
func listFeed(files []string) *fileFeed {
	f := &fileFeed{files: files, sizes: make([]int64, len(files)), done: true}
	for i := range f.sizes {
		f.sizes[i] = -1
	}
	f.grown.L = &f.mu
	return f
}

// walkFeed feeds the files under dir in root that want accepts, at most
// max of them (0: no limit), as a walk in the background finds them, with
// their sizes; the walk stops when ctx is done. Its order is that of
// collectFiles for the one directory: walkFiles yields sorted paths.
func walkFeed(ctx context.Context, root *contain.Root, dir string, want func(string) bool, max int) *fileFeed {
	f := &fileFeed{}
	f.grown.L = &f.mu
	go func() {
		// The walk lists each directory and stats its files through
		// one cache, which opens each directory once.
		dirs := root.DirCache()
		defer dirs.Close()
		fsys := dirs.FS()
		ig := ignore.NewTree(fsys)
		walkFiles(fsys, dir, ig, func(p string) bool {
			if ctx.Err() != nil {
				return false
			}
			if !want(p) {
				return true
			}
			size, ok := dirs.Size(p)
			if !ok {
				size = -1
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			if max > 0 && len(f.files) == max {
				f.truncated = true
				return false
			}
			f.files = append(f.files, p)
			f.sizes = append(f.sizes, size)
			f.grown.Broadcast()
			return true
		})
		notes := ignoreNotes(ig)
		f.mu.Lock()
		f.done, f.notes = true, notes
		f.mu.Unlock()
		f.grown.Broadcast()
	}()
	return f
}

// at returns file i and its size (-1 when unknown), waiting until the
// walk finds it; false when there is no file i.
func (f *fileFeed) at(i int) (string, int64, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i >= len(f.files) && !f.done {
		f.grown.Wait()
	}
	if i < len(f.files) {
		return f.files[i], f.sizes[i], true
	}
	return "", 0, false
}

// count returns how many files there are, and false while the walk may
// still add some.
func (f *fileFeed) count() (int, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.files), f.done
}

// all waits for the walk to end and returns every file it fed and whether
// the file limit cut it short.
func (f *fileFeed) all() ([]string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for !f.done {
		f.grown.Wait()
	}
	return f.files, f.truncated
}

// ignoreNotes waits for the walk to end and returns its ignore notes.
func (f *fileFeed) ignoreNotes() []string {
	f.all()
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.notes
}

// streamDir returns the directory whose walk can feed req's search as it
// goes: a request in one language (a search in every language compiles
// the pattern for the languages among all its files first) over the root
// or one directory. Anything else, and any path that does not resolve,
// goes through collectFiles, which reports the errors.
func streamDir(root *contain.Root, req Request) (string, bool) {
	if req.Language == "" || len(req.Paths) > 1 {
		return "", false
	}
	p := "."
	if len(req.Paths) == 1 {
		p = req.Paths[0]
	}
	if isGlob(p) {
		return "", false
	}
	rel, err := root.Rel(p)
	if err != nil {
		return "", false
	}
	fi, err := fs.Stat(root.FS(), rel)
	if err != nil || !fi.IsDir() {
		return "", false
	}
	return rel, true
}

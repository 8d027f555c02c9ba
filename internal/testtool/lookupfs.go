package testtool

import (
	"io/fs"
	"sync"
	"testing/fstest"
)

// A LookupFS is a MapFS that records the names it is asked to open or
// Lstat, for tests of what a walk looks at.
type LookupFS struct {
	fstest.MapFS
	mu    sync.Mutex
	names []string
}

// Names returns the names opened or looked up so far, in order, and
// forgets them.
func (f *LookupFS) Names() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := f.names
	f.names = nil
	return n
}

func (f *LookupFS) record(name string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.names = append(f.names, name)
}

// Open opens name, recording it.
func (f *LookupFS) Open(name string) (fs.File, error) {
	f.record(name)
	return f.MapFS.Open(name)
}

// Lstat describes name without following a final link, recording it.
func (f *LookupFS) Lstat(name string) (fs.FileInfo, error) {
	f.record(name)
	return f.MapFS.Lstat(name)
}

// ReadLink returns the target of the link name.
func (f *LookupFS) ReadLink(name string) (string, error) { return f.MapFS.ReadLink(name) }

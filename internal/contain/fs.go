package contain

import (
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
)

// rootFS is the root as a file system: what [os.Root.FS] offers, with a
// ReadDir that takes each entry's type from the directory itself. A
// directory opened in an os.Root reads its entries with an lstat(2) each
// (os.File.ReadDir cannot trust the lazy one there); where the system
// reports types with the names (Linux), this one lstats only an entry
// whose type it did not report.
type rootFS struct {
	root *os.Root
	fs   fs.FS    // root.FS()
	fast *beneath // nil in a DirCache's
}

func (f rootFS) Open(name string) (fs.File, error) { return f.fs.Open(name) }

// Stat and ReadFile take the fast way (see beneath) for a path without
// links, which the root's FS would reach alike.
func (f rootFS) Stat(name string) (fs.FileInfo, error) {
	if f.fast != nil && fs.ValidPath(name) && name != "." {
		if fi, ok := f.fast.stat(name); ok {
			return fi, nil
		}
	}
	return fs.Stat(f.fs, name)
}

func (f rootFS) Lstat(name string) (fs.FileInfo, error) { return fs.Lstat(f.fs, name) }

func (f rootFS) ReadFile(name string) ([]byte, error) {
	if f.fast != nil && fs.ValidPath(name) && name != "." {
		if data, ok := f.fast.readFile(name); ok {
			return data, nil
		}
	}
	return fs.ReadFile(f.fs, name)
}

func (f rootFS) ReadLink(name string) (string, error) { return fs.ReadLink(f.fs, name) }

// ReadDir reads the directory name and returns its entries sorted by
// name, as [fs.ReadDir] does; on an error part way, the entries read
// before it.
func (f rootFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	d, err := f.root.Open(name)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	entries, err := readDirTyped(d, f.root, name)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}

// A dirEntry is an entry of a directory the root read, with the type the
// directory reported; its Info is an lstat through the root.
type dirEntry struct {
	root   *os.Root
	parent string
	name   string
	typ    fs.FileMode
}

func (e *dirEntry) Name() string               { return e.name }
func (e *dirEntry) IsDir() bool                { return e.typ.IsDir() }
func (e *dirEntry) Type() fs.FileMode          { return e.typ }
func (e *dirEntry) Info() (fs.FileInfo, error) { return e.root.Lstat(path.Join(e.parent, e.name)) }
func (e *dirEntry) String() string             { return fs.FormatDirEntry(e) }

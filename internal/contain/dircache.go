package contain

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
)

// A DirCache opens and lists files of the root, as [Root.FS] does, and
// keeps open the directory it last used and the directories above it that
// it opened on the way: a file in a directory it holds costs one openat(2),
// and a directory below one it holds one openat(2) for each element below
// it, rather than one for every element of the path from the root (what
// [os.Root] does). A walk in path order therefore opens each directory
// once. Each element is opened by its name in the directory above, never
// following a symbolic link; a path through a link is left to the root,
// which follows it by its rules. As with the root itself, a directory the
// cache holds stays the one it opened if it is moved: what the cache opens
// below it is what lies below that directory, never through "..", never
// through a link. A DirCache holds at most maxHeld directories, is not
// safe for concurrent use, and Close releases it.
type DirCache struct {
	root *os.Root
	held []heldDir // each below the one before; the last is the current directory
}

// A heldDir is a directory a DirCache holds open.
type heldDir struct {
	path string   // relative to the root, "." for the root itself
	fd   int      // the open directory
	f    *os.File // the directory when the root opened it (fd is f's); nil when fd is the cache's own
	read bool     // listed before: its offset is past its start
}

// maxHeld bounds the directories a DirCache holds open: a walk deeper than
// this below the root gives up the shallowest it holds after the root.
const maxHeld = 32

// DirCache returns a DirCache over the root.
func (r *Root) DirCache() *DirCache { return &DirCache{root: r.root} }

// Open opens name, a slash-separated path relative to the root, for
// reading.
func (c *DirCache) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) || name == "." {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	dir, base := split2(name)
	d, err := c.enter(dir)
	if err != nil {
		return nil, err
	}
	f, err := openBase(d.fd, base, name)
	if errors.Is(err, errLink) {
		return c.root.Open(name) // the root follows it if it stays inside
	}
	return f, err
}

// ReadFile reads the file name, a slash-separated path relative to the
// root.
func (c *DirCache) ReadFile(name string) ([]byte, error) {
	f, err := c.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// ReadDir reads the directory name and returns its entries sorted by
// name, as [fs.ReadDir] does; on an error part way, the entries read
// before it. An entry's type is the one the directory reports, as the
// root's FS gives it.
func (c *DirCache) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	d, err := c.enter(name)
	if err != nil {
		return nil, err
	}
	c.held[len(c.held)-1].read = true
	entries, err := readDirAt(d, c.root, name)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}

// Size returns the size of name, a slash-separated path relative to the
// root, and true when it is a regular file: not a directory, a device or
// a symbolic link, which it does not follow.
func (c *DirCache) Size(name string) (int64, bool) {
	if !fs.ValidPath(name) || name == "." {
		return 0, false
	}
	dir, base := split2(name)
	d, err := c.enter(dir)
	if err != nil {
		return 0, false
	}
	if size, ok, done := sizeAt(d.fd, base); done {
		return size, ok
	}
	fi, err := c.root.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return 0, false
	}
	return fi.Size(), true
}

// FS returns the cache as a file system for one goroutine: ReadDir and
// ReadFile go through the cache, the rest as [Root.FS] does.
func (c *DirCache) FS() fs.FS {
	return cacheFS{rootFS: rootFS{root: c.root, fs: c.root.FS()}, c: c}
}

// cacheFS is a DirCache as an fs.FS.
type cacheFS struct {
	rootFS
	c *DirCache
}

func (f cacheFS) ReadDir(name string) ([]fs.DirEntry, error) { return f.c.ReadDir(name) }

func (f cacheFS) ReadFile(name string) ([]byte, error) { return f.c.ReadFile(name) }

// split2 splits a valid path into its directory ("." for none) and its
// last element.
func split2(name string) (dir, base string) {
	dir, base = path.Split(name)
	if dir == "" {
		return ".", base
	}
	return dir[:len(dir)-1], base
}

// below reports whether the valid path p is dir or lies under it.
func below(p, dir string) bool {
	return dir == "." || p == dir || len(p) > len(dir) && p[len(dir)] == '/' && strings.HasPrefix(p, dir)
}

// enter makes dir, a valid path, the current directory and returns it.
// It keeps the held directories above dir, opens the elements below the
// deepest of them one by one, and leaves the path to the root from the
// first element it cannot open so (a link, or an error the root then
// reports in its terms).
func (c *DirCache) enter(dir string) (heldDir, error) {
	i := len(c.held) - 1
	for i >= 0 && !below(dir, c.held[i].path) {
		i--
	}
	c.release(i + 1)
	if i < 0 {
		d, err := c.root.Open(".")
		if err != nil {
			return heldDir{}, err
		}
		c.push(heldDir{path: ".", fd: int(d.Fd()), f: d})
	}
	at := c.held[len(c.held)-1]
	if at.path == dir {
		return at, nil
	}
	rest := dir
	if at.path != "." {
		rest = dir[len(at.path)+1:]
	}
	for elem := range strings.SplitSeq(rest, "/") {
		fd, err := openDirAt(at.fd, elem)
		if err != nil {
			d, err := c.root.Open(dir)
			if err != nil {
				return heldDir{}, err
			}
			at = heldDir{path: dir, fd: int(d.Fd()), f: d}
			c.push(at)
			return at, nil
		}
		at = heldDir{path: path.Join(at.path, elem), fd: fd}
		c.push(at)
	}
	return at, nil
}

// push holds d, below every directory held, giving up the shallowest held
// after the first when maxHeld are held.
func (c *DirCache) push(d heldDir) {
	if len(c.held) == maxHeld {
		c.held[1].close()
		c.held = slices.Delete(c.held, 1, 2)
	}
	c.held = append(c.held, d)
}

// release closes the held directories from the i-th on.
func (c *DirCache) release(i int) {
	for _, d := range c.held[i:] {
		d.close()
	}
	clear(c.held[i:])
	c.held = c.held[:i]
}

func (d heldDir) close() {
	if d.f != nil {
		d.f.Close()
	} else {
		closeFd(d.fd)
	}
}

// errLink is openBase's error for a file that is a symbolic link.
var errLink = errors.New("a symbolic link")

// Close closes the directories the cache holds. The DirCache can still be
// used.
func (c *DirCache) Close() error {
	c.release(0)
	return nil
}

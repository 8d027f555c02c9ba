package contain

import (
	"errors"
	"io/fs"
	"os"
	"path"
)

// A DirCache opens files of the root for reading, as [Root.FS] does, and
// keeps the directory of the last one open: the files of one directory,
// opened in turn, then cost one openat(2) each on that directory rather
// than one per element of their path (what [os.Root] does) and the poller
// bookkeeping of a file [os.Root] opens. The directory is opened through
// the root and the file by its base name alone, never following a
// symbolic link; a file that is a link is opened through the root, by its
// rules. A DirCache is not safe for concurrent use; Close releases it.
type DirCache struct {
	root *os.Root
	dir  string   // the open directory, relative to the root
	d    *os.File // nil when none is open
	fd   int
}

// DirCache returns a DirCache over the root.
func (r *Root) DirCache() *DirCache { return &DirCache{root: r.root} }

// Open opens name, a slash-separated path relative to the root, for
// reading.
func (c *DirCache) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) || name == "." {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	base, err := c.enter(name)
	if err != nil {
		return nil, err
	}
	f, err := openBase(c.fd, base, name)
	if errors.Is(err, errLink) {
		return c.root.Open(name) // the root follows it if it stays inside
	}
	return f, err
}

// Size returns the size of name, a slash-separated path relative to the
// root, and true when it is a regular file: not a directory, a device or
// a symbolic link, which it does not follow.
func (c *DirCache) Size(name string) (int64, bool) {
	if !fs.ValidPath(name) || name == "." {
		return 0, false
	}
	base, err := c.enter(name)
	if err != nil {
		return 0, false
	}
	if size, ok, done := sizeAt(c.fd, base); done {
		return size, ok
	}
	fi, err := c.root.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return 0, false
	}
	return fi.Size(), true
}

// enter makes name's directory the open one and returns name's last
// element.
func (c *DirCache) enter(name string) (string, error) {
	dir, base := path.Split(name)
	dir = path.Clean(dir) // "" is "."
	if c.d == nil || dir != c.dir {
		c.Close()
		d, err := c.root.Open(dir)
		if err != nil {
			return "", err
		}
		c.d, c.dir, c.fd = d, dir, int(d.Fd())
	}
	return base, nil
}

// errLink is openBase's error for a file that is a symbolic link.
var errLink = errors.New("a symbolic link")

// Close closes the open directory, if any. The DirCache can still be used.
func (c *DirCache) Close() error {
	if c.d == nil {
		return nil
	}
	err := c.d.Close()
	c.d, c.dir = nil, ""
	return err
}

// Package fsx is the small set of file operations a transaction over a
// project's files needs — read, create, write, sync, rename, remove — behind
// an interface, so that a test can fail any one of them (see [Faulty]) and
// check what the transaction left behind.
//
// Names are slash-separated paths relative to the root. [OS] reaches the
// files through an [os.Root], so no name leaves the root, whatever links
// it meets; callers still resolve and check names with internal/contain
// first.
package fsx

import (
	"io/fs"
	"os"
	"path"
)

// A File is a file open for writing.
type File interface {
	Write(p []byte) (int, error)
	// Chmod sets the file's permission bits (the create mode is filtered
	// by the umask; this is not).
	Chmod(mode fs.FileMode) error
	Sync() error
	Close() error
}

// An FS is a tree of files under one root.
type FS interface {
	// ReadFile returns the content of name.
	ReadFile(name string) ([]byte, error)
	// Lstat describes name without following a final symbolic link.
	Lstat(name string) (fs.FileInfo, error)
	// ReadDir lists the directory name.
	ReadDir(name string) ([]fs.DirEntry, error)
	// Create creates name, which must not exist, for writing.
	Create(name string, perm fs.FileMode) (File, error)
	// Append opens name for appending, creating it if needed; a
	// symbolic link at name is refused, never followed.
	Append(name string, perm fs.FileMode) (File, error)
	// MkdirAll creates the directory name and any missing parents.
	MkdirAll(name string, perm fs.FileMode) error
	// Rename renames oldname to newname, replacing newname atomically.
	Rename(oldname, newname string) error
	// Remove removes the file or empty directory name.
	Remove(name string) error
	// SyncDir makes the directory name's entries (creations, renames,
	// removals) durable.
	SyncDir(name string) error
}

// OS is an [FS] over the files of an [os.Root].
type OS struct{ root *os.Root }

// Open opens dir as an [OS] file system; Close releases it.
func Open(dir string) (*OS, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &OS{root: r}, nil
}

// Close releases the root.
func (o *OS) Close() error { return o.root.Close() }

func clean(name string) string { return path.Clean(name) }

func (o *OS) ReadFile(name string) ([]byte, error) { return o.root.ReadFile(clean(name)) }

func (o *OS) Lstat(name string) (fs.FileInfo, error) { return o.root.Lstat(clean(name)) }

func (o *OS) ReadDir(name string) ([]fs.DirEntry, error) {
	return fs.ReadDir(o.root.FS(), clean(name))
}

func (o *OS) Create(name string, perm fs.FileMode) (File, error) {
	return o.root.OpenFile(clean(name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
}

func (o *OS) Append(name string, perm fs.FileMode) (File, error) {
	// A log is appended to itself, never to what a link in its place
	// points to.
	f, err := o.openNoFollow(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, perm)
	if err != nil {
		return nil, err
	}
	return f, nil
}

func (o *OS) MkdirAll(name string, perm fs.FileMode) error { return o.root.MkdirAll(clean(name), perm) }

func (o *OS) Rename(oldname, newname string) error {
	return o.root.Rename(clean(oldname), clean(newname))
}

func (o *OS) Remove(name string) error { return o.root.Remove(clean(name)) }

func (o *OS) SyncDir(name string) error {
	d, err := o.root.Open(clean(name))
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// WriteFile creates name (which must not exist) with data and mode, and
// syncs it before closing; on failure it removes what it created.
func WriteFile(fsys FS, name string, data []byte, mode fs.FileMode) error {
	f, err := fsys.Create(name, mode)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = fsys.Remove(name)
	}
	return err
}

// ReplaceFile replaces name with data atomically: it writes tmp (in the
// same directory, which must not exist), syncs it, renames it over name
// and syncs the directory. On failure before the rename, tmp is removed
// and name is as it was.
func ReplaceFile(fsys FS, name, tmp string, data []byte, mode fs.FileMode) error {
	if err := WriteFile(fsys, tmp, data, mode); err != nil {
		return err
	}
	if err := fsys.Rename(tmp, name); err != nil {
		_ = fsys.Remove(tmp)
		return err
	}
	return fsys.SyncDir(path.Dir(clean(name)))
}

// OpenLock opens (creating it if needed) the file name for taking an
// advisory lock on, never through a link at name; the caller closes it.
func (o *OS) OpenLock(name string) (*os.File, error) {
	return o.openNoFollow(name, os.O_RDWR|os.O_CREATE, 0o644)
}

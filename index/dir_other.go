//go:build !linux

package index

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/codecortex/codecortex/internal/fsx"
)

// A dirRoot is the root of a walk.
type dirRoot struct{ abs string }

// openRoot opens the directory at abs as the root of a walk.
func openRoot(abs string) (*dirRoot, error) { return &dirRoot{abs: abs}, nil }

func (r *dirRoot) close() {}

// open opens the directory rel (slash-separated, "." for the root) below
// the root; a symbolic link is refused.
func (r *dirRoot) open(rel string) (*dirHandle, error) {
	if rel == "." {
		return openDir(r.abs)
	}
	return openDir(filepath.Join(r.abs, filepath.FromSlash(rel)))
}

// A dirHandle is an open directory of the tree.
type dirHandle struct {
	f   *os.File
	abs string
}

// openDir opens the directory at abs; a symbolic link there is refused
// by the open itself (fsx.OpenDirNoFollow), so none can be swapped in
// after a check. Links in the directories above abs are not refused here,
// where Linux's openat2 refuses them too; the walk does not enter a
// directory it listed as a link.
func openDir(abs string) (*dirHandle, error) {
	f, err := fsx.OpenDirNoFollow(abs)
	if err != nil {
		return nil, err
	}
	return &dirHandle{f, abs}, nil
}

func (d *dirHandle) close() { d.f.Close() }

// mtime returns the directory's mtime and when it was read.
func (d *dirHandle) mtime() (int64, time.Time, error) {
	read := time.Now()
	fi, err := d.f.Stat()
	if err != nil {
		return 0, read, err
	}
	return fi.ModTime().UnixNano(), read, nil
}

func (d *dirHandle) entries() ([]fs.DirEntry, error) { return d.f.ReadDir(-1) }

// statFiles stats the files at paths (in this directory), calling fn with
// each one's size, mtime and whether it is a regular file; files that are
// gone are skipped.
func (d *dirHandle) statFiles(paths []string, fn func(p string, size, mtime int64, regular bool)) {
	for _, p := range paths {
		fi, err := os.Lstat(filepath.Join(d.abs, path.Base(p)))
		if err != nil {
			continue
		}
		fn(p, fi.Size(), fi.ModTime().UnixNano(), fi.Mode().IsRegular())
	}
}

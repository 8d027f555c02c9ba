package index

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// A dirRoot is the root of a walk, open for the directories to be opened
// relative to it: the kernel then resolves the path below the root alone,
// and refuses a symbolic link anywhere in it.
type dirRoot struct {
	fd  int
	abs string
}

// openRoot opens the directory at abs as the root of a walk.
func openRoot(abs string) (*dirRoot, error) {
	fd, err := unix.Open(abs, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: abs, Err: err}
	}
	return &dirRoot{fd: fd, abs: abs}, nil
}

func (r *dirRoot) close() { unix.Close(r.fd) }

// noOpenat2 records that the kernel refused openat2 (older than Linux 5.6,
// or a filter that forbids it): directories are then opened with openat
// and O_NOFOLLOW, which refuses a link in the last component only.
var noOpenat2 atomic.Bool

// A dirHandle is a directory of the tree, open as a path (O_PATH): its
// status and its files' are read relative to it (fstatat), so the kernel
// resolves one name per file rather than the whole path; its entries are
// read through a second descriptor, opened only when they are needed.
type dirHandle struct {
	fd  int
	abs string
}

// open opens the directory rel (slash-separated, "." for the root) below
// the root; a symbolic link is refused.
func (r *dirRoot) open(rel string) (*dirHandle, error) {
	abs := r.abs
	if rel != "." {
		abs += "/" + rel
	}
	const flags = unix.O_PATH | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC
	if !noOpenat2.Load() {
		fd, err := unix.Openat2(r.fd, rel, &unix.OpenHow{Flags: flags, Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS})
		if err == nil {
			return &dirHandle{fd: fd, abs: abs}, nil
		}
		if !errors.Is(err, unix.ENOSYS) && !errors.Is(err, unix.EPERM) {
			return nil, &fs.PathError{Op: "open", Path: abs, Err: err}
		}
		noOpenat2.Store(true)
	}
	fd, err := unix.Openat(r.fd, rel, flags, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: abs, Err: err}
	}
	return &dirHandle{fd: fd, abs: abs}, nil
}

func (d *dirHandle) close() { unix.Close(d.fd) }

// mtime returns the directory's mtime and when it was read.
func (d *dirHandle) mtime() (int64, time.Time, error) {
	read := time.Now()
	var st unix.Stat_t
	if err := unix.Fstat(d.fd, &st); err != nil {
		return 0, read, err
	}
	return st.Mtim.Nano(), read, nil
}

// entries reads the directory's entries, through a descriptor opened on
// the directory itself (".", relative to the handle: the same directory,
// whatever happened to its path).
func (d *dirHandle) entries() ([]fs.DirEntry, error) {
	fd, err := unix.Openat(d.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: d.abs, Err: err}
	}
	f := os.NewFile(uintptr(fd), d.abs)
	defer f.Close()
	return f.ReadDir(-1)
}

// statFiles stats the files at paths (in this directory), calling fn with
// each one's size, mtime and whether it is a regular file; files that are
// gone are skipped.
func (d *dirHandle) statFiles(paths []string, fn func(p string, size, mtime int64, regular bool)) {
	var st unix.Stat_t
	for _, p := range paths {
		if err := unix.Fstatat(d.fd, path.Base(p), &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			continue
		}
		fn(p, st.Size, st.Mtim.Nano(), st.Mode&unix.S_IFMT == unix.S_IFREG)
	}
}

package index

import (
	"io/fs"
	"os"
	"path"
	"time"

	"golang.org/x/sys/unix"
)

// A dirHandle is an open directory of the tree. On Linux it is a bare file
// descriptor and its files are stat-ed relative to it (fstatat), so the
// kernel resolves one name per file rather than the whole path.
type dirHandle struct {
	fd  int
	abs string
	f   *os.File // set once the entries are read; it owns fd
}

// openDir opens the directory at abs; a symbolic link is refused.
func openDir(abs string) (*dirHandle, error) {
	fd, err := unix.Open(abs, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: abs, Err: err}
	}
	return &dirHandle{fd: fd, abs: abs}, nil
}

func (d *dirHandle) close() {
	if d.f != nil {
		d.f.Close()
	} else {
		unix.Close(d.fd)
	}
}

// mtime returns the directory's mtime and when it was read.
func (d *dirHandle) mtime() (int64, time.Time, error) {
	read := time.Now()
	var st unix.Stat_t
	if err := unix.Fstat(d.fd, &st); err != nil {
		return 0, read, err
	}
	return st.Mtim.Nano(), read, nil
}

func (d *dirHandle) entries() ([]fs.DirEntry, error) {
	if d.f == nil {
		d.f = os.NewFile(uintptr(d.fd), d.abs)
	}
	return d.f.ReadDir(-1)
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

//go:build unix

package fsx

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"syscall"

	"golang.org/x/sys/unix"
)

// noFollow makes open(2) fail on a symbolic link at the last element;
// onlyDir makes it fail on anything but a directory, before it could
// block on a FIFO.
const (
	noFollow = syscall.O_NOFOLLOW
	onlyDir  = syscall.O_DIRECTORY
)

// refuseReparse has nothing to check here: O_NOFOLLOW refused a link.
func refuseReparse(*os.File, string) error { return nil }

// openNoFollow opens name below the root and refuses a symbolic link at its
// last element, leaving the link's target alone. [os.Root] cannot: it
// follows a link that stays inside the root whatever the flags. So the root
// opens the directory (following such links above name, as everywhere in
// this package), and openat(2) with O_NOFOLLOW opens the file in it.
func (o *OS) openNoFollow(name string, flag int, perm fs.FileMode) (*os.File, error) {
	name = clean(name)
	dir, base := path.Split(name)
	if !fs.ValidPath(name) || base == "." {
		return nil, &fs.PathError{Op: "openat", Path: name, Err: fs.ErrInvalid}
	}
	if dir == "" {
		dir = "."
	}
	d, err := o.root.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	for {
		fd, err := unix.Openat(int(d.Fd()), base, flag|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "openat", Path: name, Err: err}
		}
		return os.NewFile(uintptr(fd), path.Join(o.root.Name(), name)), nil
	}
}

package contain

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// openBase opens base, one element of a path, in the directory dirfd for
// reading, without following a symbolic link (errLink); name names the
// file in errors.
func openBase(dirfd int, base, name string) (*os.File, error) {
	for {
		fd, err := syscall.Openat(dirfd, base, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
		switch {
		case err == nil:
			return os.NewFile(uintptr(fd), name), nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.ELOOP):
			return nil, errLink
		default:
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
	}
}

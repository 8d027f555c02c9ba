package contain

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
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

// sizeAt stats base, one element of a path, in the directory dirfd,
// without following a symbolic link: its size, and whether it is a regular
// file. done is false when the caller should ask the root instead.
func sizeAt(dirfd int, base string) (size int64, regular, done bool) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(dirfd, base, &st, unix.AT_SYMLINK_NOFOLLOW)
		switch {
		case err == nil && st.Mode&unix.S_IFMT == unix.S_IFREG:
			return st.Size, true, true
		case err == nil:
			return 0, false, true
		case errors.Is(err, unix.EINTR):
			continue
		default:
			return 0, false, true
		}
	}
}

package contain

import (
	"errors"
	"io"
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

// openDirAt opens the directory elem, one element of a path, in the
// directory dirfd, without following a symbolic link.
func openDirAt(dirfd int, elem string) (int, error) {
	for {
		fd, err := syscall.Openat(dirfd, elem, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// closeFd closes a directory openDirAt opened.
func closeFd(fd int) { syscall.Close(fd) }

// readDirAt reads the entries of the held directory d, from its start.
func readDirAt(d heldDir, root *os.Root, name string) ([]fs.DirEntry, error) {
	if d.read {
		if _, err := syscall.Seek(d.fd, 0, io.SeekStart); err != nil {
			return nil, &fs.PathError{Op: "readdirent", Path: name, Err: err}
		}
	}
	return readDirents(d.fd, root, name)
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

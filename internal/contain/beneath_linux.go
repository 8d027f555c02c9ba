package contain

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// A beneath is the root open as a path (O_PATH), to open a path below it
// with one openat2(2) that refuses every symbolic link on the way
// (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS): what it opens so is what the
// slow way (an lstat of each element, then the root's own opens, one an
// element) would reach, since a path without links resolves as written.
// Anything else (a link, a missing file, a kernel without openat2) is left
// to the slow way, whose answer and errors stand.
type beneath struct {
	mu  sync.RWMutex // held to read while fd is in use; Close takes it to write
	fd  int          // -1: none, or closed
	ino uint64       // the root directory's identity, to check the root os.Root holds
	dev uint64
}

// noOpenat2 records that the kernel refused openat2 (older than Linux
// 5.6, or a filter that forbids it): every path then goes the slow way.
var noOpenat2 atomic.Bool

// openBeneath opens dir for the fast way; without it, every path goes the
// slow way.
func openBeneath(dir string) *beneath {
	b := &beneath{fd: -1}
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return b
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return b
	}
	b.fd, b.dev, b.ino = fd, st.Dev, st.Ino
	return b
}

// sameAs keeps the fast way only if fi, the root os.Root opened, is the
// directory b holds (dir was not replaced between the two opens).
func (b *beneath) sameAs(fi fs.FileInfo) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || uint64(st.Dev) != b.dev || uint64(st.Ino) != b.ino {
		b.close()
	}
}

func (b *beneath) close() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.fd >= 0 {
		unix.Close(b.fd)
	}
	b.fd = -1
}

// open opens rel, a valid fs path other than ".", with flags, refusing a
// symbolic link anywhere in it; ok is false when it cannot.
func (b *beneath) open(rel string, flags uint64) (fd int, ok bool) {
	if b == nil || noOpenat2.Load() {
		return -1, false
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.fd < 0 {
		return -1, false
	}
	how := unix.OpenHow{Flags: flags | unix.O_CLOEXEC, Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS}
	for range 4 { // EAGAIN: a rename raced the resolution; the slow way after a few
		fd, err := unix.Openat2(b.fd, rel, &how)
		switch {
		case err == nil:
			return fd, true
		case errors.Is(err, unix.EINTR) || errors.Is(err, unix.EAGAIN):
			continue
		case errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM):
			noOpenat2.Store(true)
		}
		return -1, false
	}
	return -1, false
}

// plain reports whether rel exists below the root with no symbolic link
// on its way.
func (b *beneath) plain(rel string) bool {
	fd, ok := b.open(rel, unix.O_PATH)
	if ok {
		unix.Close(fd)
	}
	return ok
}

// stat returns the status of rel when it exists with no symbolic link on
// its way, as the root's Stat reports it.
func (b *beneath) stat(rel string) (fs.FileInfo, bool) {
	fd, ok := b.open(rel, unix.O_PATH)
	if !ok {
		return nil, false
	}
	f := os.NewFile(uintptr(fd), path.Base(rel))
	defer f.Close()
	fi, err := f.Stat()
	return fi, err == nil
}

// readFile returns the content of rel when it is a regular file with no
// symbolic link on its way. It opens without blocking (a FIFO is left to
// the slow way, never waited on) and reads with the descriptor alone.
func (b *beneath) readFile(rel string) ([]byte, bool) {
	fd, ok := b.open(rel, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY)
	if !ok {
		return nil, false
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, false
	}
	data := make([]byte, 0, max(st.Size, 0)+1) // one more: the read that finds the end
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := unix.Read(fd, data[len(data):cap(data)])
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, false
		}
		if n == 0 {
			return data, true
		}
		data = data[:len(data)+n]
	}
}

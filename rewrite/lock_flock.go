//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package rewrite

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// tryLock takes the exclusive advisory lock on f without waiting; ok is
// false when another holder has it. The kernel releases it when the
// holder dies, so a killed apply never leaves the project locked.
func tryLock(f *os.File) (ok bool, err error) {
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		case errors.Is(err, syscall.EINTR):
			continue
		}
		return false, err
	}
}

func unlock(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// linkCount returns how many names the file has (1 where it cannot tell).
func linkCount(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package index

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes the exclusive advisory lock on f without waiting; ok is
// false when another holder has it. The lock belongs to the open file, so
// two opens in one process exclude each other too.
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

// unlock releases the lock tryLock took.
func unlock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

// Package flock takes and releases exclusive advisory locks on open
// files: the index's writer lock and the rewrite journal's apply lock.
// The kernel releases a lock when its holder dies, so a killed process
// never leaves one behind, and the lock belongs to the open file, so two
// opens in one process exclude each other too.
package flock

import (
	"errors"
	"os"
	"syscall"
)

// TryLock takes the exclusive lock on f without waiting; ok is false when
// another holder has it.
func TryLock(f *os.File) (ok bool, err error) {
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

// Unlock releases the lock TryLock took.
func Unlock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

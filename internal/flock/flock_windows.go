//go:build windows

package flock

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// The lock covers every byte a file can have: lower and upper halves of
// the range's length, from offset 0.
const allLow, allHigh = ^uint32(0), ^uint32(0)

// TryLock takes the exclusive lock on f without waiting; ok is false when
// another holder has it.
func TryLock(f *os.File) (ok bool, err error) {
	var ol windows.Overlapped // offset 0
	err = windows.LockFileEx(windows.Handle(f.Fd()),
		windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, allLow, allHigh, &ol)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, windows.ERROR_LOCK_VIOLATION):
		return false, nil
	}
	return false, err
}

// Unlock releases the lock TryLock took.
func Unlock(f *os.File) error {
	var ol windows.Overlapped
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, allLow, allHigh, &ol)
}

//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly || windows)

package flock

import "os"

// TryLock always succeeds here: nothing excludes other processes.
func TryLock(*os.File) (bool, error) { return true, nil }

// Unlock does nothing here.
func Unlock(*os.File) error { return nil }

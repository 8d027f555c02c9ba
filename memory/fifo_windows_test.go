//go:build windows

package memory

import "errors"

// mkfifo fails: Windows has no named pipes in the file system, and the
// test that wants one skips.
func mkfifo(string) error { return errors.New("no named pipes in the file system on Windows") }

//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package rewrite

import (
	"io/fs"
	"syscall"
)

// linkCount returns how many names the file has (1 where it cannot tell).
func linkCount(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

//go:build unix

package index

import (
	"io/fs"
	"syscall"
)

// links returns how many names the file has, or 1 when it cannot tell.
func links(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

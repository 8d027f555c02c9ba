package contain

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path"
	"syscall"
)

// readDirTyped reads d's entries with getdents64(2), whose records carry
// each entry's type; an entry of unknown type (some file systems report
// none) is lstat'ed through root. name is d's path in root.
func readDirTyped(d *os.File, root *os.Root, name string) ([]fs.DirEntry, error) {
	rc, err := d.SyscallConn()
	if err != nil {
		return nil, err
	}
	var entries []fs.DirEntry
	var readErr error
	ctlErr := rc.Control(func(fd uintptr) { entries, readErr = readDirents(int(fd), root, name) })
	if readErr == nil {
		readErr = ctlErr
	}
	return entries, readErr
}

// readDirents reads the entries of the directory open as fd from its
// current offset, as readDirTyped does.
func readDirents(fd int, root *os.Root, name string) ([]fs.DirEntry, error) {
	var entries []fs.DirEntry
	buf := make([]byte, 8192)
	for {
		n, err := syscall.ReadDirent(fd, buf)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return entries, &fs.PathError{Op: "readdirent", Path: name, Err: err}
		}
		if n <= 0 {
			return entries, nil
		}
		parseDirents(buf[:n], func(entry string, typ fs.FileMode, known bool) {
			if !known {
				fi, err := root.Lstat(path.Join(name, entry))
				if err != nil {
					return // gone since it was listed
				}
				typ = fi.Mode().Type()
			}
			entries = append(entries, &dirEntry{root: root, parent: name, name: entry, typ: typ})
		})
	}
}

// parseDirents calls fn with each entry in buf, a run of linux_dirent64
// records (inode, offset, record length, type, NUL-terminated name),
// leaving out "." and ".."; known is false for DT_UNKNOWN. A record that
// does not fit what is left of buf ends the parse.
func parseDirents(buf []byte, fn func(name string, typ fs.FileMode, known bool)) {
	const head = 19 // d_ino, d_off, d_reclen, d_type
	for len(buf) >= head {
		reclen := int(binary.NativeEndian.Uint16(buf[16:18]))
		if reclen < head || reclen > len(buf) {
			return
		}
		rec := buf[:reclen]
		buf = buf[reclen:]
		if binary.NativeEndian.Uint64(rec[0:8]) == 0 {
			continue // a deleted entry
		}
		name := rec[head:]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		if len(name) == 0 || string(name) == "." || string(name) == ".." {
			continue
		}
		typ, known := direntMode(rec[18])
		fn(string(name), typ, known)
	}
}

// direntMode turns a d_type into the type bits of a FileMode.
func direntMode(t byte) (fs.FileMode, bool) {
	switch t {
	case syscall.DT_REG:
		return 0, true
	case syscall.DT_DIR:
		return fs.ModeDir, true
	case syscall.DT_LNK:
		return fs.ModeSymlink, true
	case syscall.DT_FIFO:
		return fs.ModeNamedPipe, true
	case syscall.DT_SOCK:
		return fs.ModeSocket, true
	case syscall.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, true
	case syscall.DT_BLK:
		return fs.ModeDevice, true
	}
	return 0, false
}

package fsx

import (
	"io/fs"
	"os"
	"syscall"
)

// OpenFileNoFollow is [os.OpenFile] that never opens through a symbolic
// link at name's last element: where name is a link, it fails and leaves
// the link's target alone, created or not. Links in the directories above
// name are followed. On Windows it also refuses any other reparse point
// (a junction, a cloud placeholder) at name.
//
// On Unix this is open(2) with O_NOFOLLOW. On Windows the file is opened
// with FILE_FLAG_OPEN_REPARSE_POINT, which opens a link itself rather than
// its target, and refused when the handle is a reparse point: there is no
// moment in which the target is touched.
func OpenFileNoFollow(name string, flag int, perm fs.FileMode) (*os.File, error) {
	f, err := os.OpenFile(name, flag|noFollow, perm)
	if err != nil {
		return nil, err
	}
	if err := refuseReparse(f, name); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// OpenDirNoFollow opens the directory name for reading its entries, and
// fails, without blocking, when name is a symbolic link or not a
// directory: on Unix with O_DIRECTORY|O_NOFOLLOW, on Windows as
// [OpenFileNoFollow] does, then refusing a handle that is not a directory.
// Links in the directories above name are followed.
func OpenDirNoFollow(name string) (*os.File, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|noFollow|onlyDir, 0)
	if err != nil {
		return nil, err
	}
	if err := refuseReparse(f, name); err != nil {
		f.Close()
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.IsDir() {
		f.Close()
		if err == nil {
			err = &fs.PathError{Op: "open", Path: name, Err: syscall.ENOTDIR}
		}
		return nil, err
	}
	return f, nil
}

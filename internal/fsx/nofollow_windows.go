//go:build windows

package fsx

import (
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/windows"
)

// noFollow makes CreateFile open a link (any reparse point) itself rather
// than what it points to; refuseReparse then refuses it. Opening a file
// does not block here, so a directory is checked once open (onlyDir adds
// nothing).
const (
	noFollow = syscall.FILE_FLAG_OPEN_REPARSE_POINT
	onlyDir  = 0
)

// refuseReparse fails when f, opened with noFollow, is a reparse point: a
// symbolic link or junction opened as itself.
func refuseReparse(f *os.File, name string) error {
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(windows.Handle(f.Fd()), &info); err != nil {
		return &fs.PathError{Op: "open", Path: name, Err: err}
	}
	if info.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 {
		return &fs.PathError{Op: "open", Path: name, Err: syscall.ELOOP}
	}
	return nil
}

// openNoFollow opens name below the root and refuses a link at its last
// element: the root passes FILE_FLAG_OPEN_REPARSE_POINT on, so it opens a
// link there as itself rather than following it, and refuseReparse
// refuses it.
func (o *OS) openNoFollow(name string, flag int, perm fs.FileMode) (*os.File, error) {
	f, err := o.root.OpenFile(clean(name), flag|noFollow, perm)
	if err != nil {
		return nil, err
	}
	if err := refuseReparse(f, name); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

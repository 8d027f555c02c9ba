//go:build !linux

package contain

import (
	"io"
	"io/fs"
	"os"
)

// openBase leaves every file to the root (errLink): without openat(2) the
// directory cannot open it alone.
func openBase(int, string, string) (*os.File, error) { return nil, errLink }

// sizeAt leaves every file to the root.
func sizeAt(int, string) (size int64, regular, done bool) { return 0, false, false }

// openDirAt leaves every directory to the root (errLink).
func openDirAt(int, string) (int, error) { return -1, errLink }

// closeFd is not called here: every held directory is the root's.
func closeFd(int) {}

// readDirAt reads the entries of the held directory d from its start.
func readDirAt(d heldDir, _ *os.Root, _ string) ([]fs.DirEntry, error) {
	if d.read {
		if _, err := d.f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
	}
	return d.f.ReadDir(-1)
}

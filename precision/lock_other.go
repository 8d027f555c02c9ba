//go:build !unix

package precision

import (
	"errors"
	"os"
)

func tryLock(*os.File) (bool, error) {
	return false, errors.New("generation lock not supported on this system")
}

func unlock(*os.File) {}

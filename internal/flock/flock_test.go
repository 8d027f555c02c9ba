//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly || windows

package flock

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTwoOpensExclude: the lock belongs to the open file, so a second open
// in the same process is refused until the first unlocks.
func TestTwoOpensExclude(t *testing.T) {
	p := filepath.Join(t.TempDir(), "lock")
	open := func() *os.File {
		f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	a, b := open(), open()
	if ok, err := TryLock(a); !ok || err != nil {
		t.Fatalf("first lock: %v %v", ok, err)
	}
	if ok, err := TryLock(b); ok || err != nil {
		t.Fatalf("second open locked while the first holds it: %v %v", ok, err)
	}
	if err := Unlock(a); err != nil {
		t.Fatal(err)
	}
	if ok, err := TryLock(b); !ok || err != nil {
		t.Fatalf("lock after unlock: %v %v", ok, err)
	}
}

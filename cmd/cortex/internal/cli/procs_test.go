package cli

import (
	"runtime"
	"testing"
)

// TestSpareProcessor: one processor more than the workers, unless the
// environment sets GOMAXPROCS.
func TestSpareProcessor(t *testing.T) {
	old := runtime.GOMAXPROCS(3)
	defer runtime.GOMAXPROCS(old)
	if n := spareProcessor(func(string) string { return "" }); n != 3 || runtime.GOMAXPROCS(0) != 4 {
		t.Errorf("unset: %d workers, GOMAXPROCS %d; want 3 and 4", n, runtime.GOMAXPROCS(0))
	}
	runtime.GOMAXPROCS(3)
	if n := spareProcessor(func(k string) string { return map[string]string{"GOMAXPROCS": "3"}[k] }); n != 3 || runtime.GOMAXPROCS(0) != 3 {
		t.Errorf("GOMAXPROCS=3: %d workers, GOMAXPROCS %d; want 3 and 3", n, runtime.GOMAXPROCS(0))
	}
}

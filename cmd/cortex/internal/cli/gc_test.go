package cli

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// TestDeferFirstCollection: the collector's percent is firstGCPercent
// until a collection, then 100 again; with GOGC set, it is not touched.
func TestDeferFirstCollection(t *testing.T) {
	gogc := func() uint64 {
		s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	t.Setenv("GOGC", "")
	deferFirstCollection()
	if got := gogc(); got != firstGCPercent {
		t.Fatalf("before a collection: GOGC %d, want %d", got, firstGCPercent)
	}
	runtime.GC()
	deadline := time.Now().Add(10 * time.Second)
	for gogc() != 100 {
		if time.Now().After(deadline) {
			t.Fatalf("after a collection: GOGC %d, want 100", gogc())
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	t.Setenv("GOGC", "150")
	deferFirstCollection()
	if got := gogc(); got != 100 {
		t.Errorf("with GOGC set: %d, want it left at 100", got)
	}
}

// TestBatchCollection: a batch command's collector runs at
// batchGCPercent under a limit of a third of the machine's memory, and the
// first collection keeps that percent; with GOGC or GOMEMLIMIT set,
// neither is touched.
func TestBatchCollection(t *testing.T) {
	if physicalMemory() <= 0 {
		t.Skip("the machine's memory is not known here")
	}
	gogc := func() uint64 {
		s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	oldPercent, oldLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
	defer func() {
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
		steadyGC.Store(0)
	}()
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	batchCollection()
	if got := gogc(); got != batchGCPercent || steadyGCPercent() != batchGCPercent {
		t.Errorf("GOGC %d, after the first collection %d, want %d", got, steadyGCPercent(), batchGCPercent)
	}
	if got, want := debug.SetMemoryLimit(-1), physicalMemory()/3; got != want {
		t.Errorf("memory limit %d, want %d", got, want)
	}
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(oldLimit)
	steadyGC.Store(0)
	t.Setenv("GOMEMLIMIT", "1GiB")
	batchCollection()
	if got := gogc(); got != 100 || debug.SetMemoryLimit(-1) != oldLimit {
		t.Errorf("with GOMEMLIMIT set: GOGC %d, want both left as they were", got)
	}
}

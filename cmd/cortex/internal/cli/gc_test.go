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

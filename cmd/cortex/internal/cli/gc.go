package cli

import (
	"os"
	"runtime"
	"runtime/debug"
	"sync/atomic"
)

// deferFirstCollection paces the garbage collector for one command: the
// first collection waits for an 8 MB heap rather than the runtime's 4 MB
// (GOGC scales that minimum, and firstGCPercent is twice the default),
// and the default pacing holds from then on. A command that allocates a few
// megabytes and exits then spends nothing on collections that would free
// memory it is about to give back anyway, and a long one keeps the usual
// bound on its heap after its first collection. A GOGC in the environment
// is left as the user set it.
func deferFirstCollection() {
	if os.Getenv("GOGC") != "" {
		return
	}
	debug.SetGCPercent(firstGCPercent)
	runtime.AddCleanup(new(gcSentinel), func(int) { debug.SetGCPercent(steadyGCPercent()) }, 0)
}

// steadyGC is the percent the first collection leaves: 0 for the
// runtime's 100, or a batch command's (batchCollection).
var steadyGC atomic.Int32

func steadyGCPercent() int {
	if p := steadyGC.Load(); p > 0 {
		return int(p)
	}
	return 100
}

// batchCollection paces the collector of a batch command (cortex index)
// for time over memory: a collection when the heap has grown by three
// times what the last one left live rather than by as much (GOGC 300),
// under a soft limit of a third of the machine's memory, near which the
// collector runs as often as it must to stay under it. A GOGC or
// GOMEMLIMIT in the environment is left as the user set it, as is the
// pacing where the machine's memory is not known.
func batchCollection() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	mem := physicalMemory()
	if mem <= 0 {
		return
	}
	debug.SetMemoryLimit(mem / 3)
	steadyGC.Store(batchGCPercent)
	debug.SetGCPercent(batchGCPercent)
}

// batchGCPercent is batchCollection's GOGC.
const batchGCPercent = 300

// firstGCPercent lets the heap reach 8 MB before the first collection.
const firstGCPercent = 200

// A gcSentinel is garbage from the start, so the first collection finds
// it; it is too large for the tiny allocator, which could keep it alive
// next to live objects.
type gcSentinel [64]byte

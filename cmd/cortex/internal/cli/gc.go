package cli

import (
	"os"
	"runtime"
	"runtime/debug"
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
	runtime.AddCleanup(new(gcSentinel), func(int) { debug.SetGCPercent(100) }, 0)
}

// firstGCPercent lets the heap reach 8 MB before the first collection.
const firstGCPercent = 200

// A gcSentinel is garbage from the start, so the first collection finds
// it; it is too large for the tiny allocator, which could keep it alive
// next to live objects.
type gcSentinel [64]byte

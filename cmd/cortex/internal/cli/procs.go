package cli

import (
	"os"
	"runtime"
	"sync"
)

// searchWorkers returns how many workers a structural search runs: one
// per processor the process had, after giving it one processor more,
// once. A worker parsing in C holds its processor as a system call does,
// and the runtime's monitor takes a processor back from a call after
// 20 µs unless another is idle, handing it to a thread it wakes, and
// wakes every 20 µs itself while it keeps doing so. With a processor to
// spare, none is taken back (docs/benchmarks.md counts the thread
// switches saved). A GOMAXPROCS in the environment is left as the user
// set it.
var searchWorkers = sync.OnceValue(func() int { return spareProcessor(os.Getenv) })

// spareProcessor raises GOMAXPROCS by one unless getenv names a value
// for it, and returns the number of processors before.
func spareProcessor(getenv func(string) string) int {
	n := runtime.GOMAXPROCS(0)
	if getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(n + 1)
	}
	return n
}

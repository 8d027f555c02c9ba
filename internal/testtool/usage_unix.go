//go:build unix

package testtool

import (
	"runtime"
	"syscall"
	"time"
)

// CPUTime returns the CPU time (user and system, every thread) this
// process has used so far; 0 when the system does not say.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// PeakRSSKB returns this process's peak resident memory in KiB; 0 when
// the system does not say.
func PeakRSSKB() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) / 1024 // bytes there, KiB elsewhere
	}
	return int64(ru.Maxrss)
}

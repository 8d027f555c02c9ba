//go:build windows

package testtool

import (
	"time"

	"golang.org/x/sys/windows"
)

// CPUTime returns the CPU time (user and kernel, every thread) this
// process has used so far; 0 when the system does not say.
func CPUTime() time.Duration {
	var created, exited, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(windows.CurrentProcess(), &created, &exited, &kernel, &user); err != nil {
		return 0
	}
	ticks := func(t windows.Filetime) int64 { return int64(t.HighDateTime)<<32 | int64(t.LowDateTime) }
	return time.Duration(ticks(kernel)+ticks(user)) * 100 // Filetime ticks are 100 ns
}

// PeakRSSKB returns 0: this package does not measure peak memory on
// Windows.
func PeakRSSKB() int64 { return 0 }

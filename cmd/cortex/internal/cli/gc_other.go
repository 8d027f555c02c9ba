//go:build !linux

package cli

// physicalMemory returns the machine's memory in bytes, 0 if unknown: it
// is not read outside Linux.
func physicalMemory() int64 { return 0 }

//go:build cgo

package syntax

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
)

// BenchmarkParse parses the Go files of the standard library's net/http
// package: bytes/s, and nodes per parse.
func BenchmarkParse(b *testing.B) {
	files, err := filepath.Glob(filepath.Join(testtool.GOROOT(b), "src", "net", "http", "*.go"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no sources: %v", err)
	}
	var srcs [][]byte
	size := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
		size += len(src)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	nodes := 0
	for b.Loop() {
		nodes = 0
		for _, src := range srcs {
			t, err := Parse(Go, src)
			if err != nil {
				b.Fatal(err)
			}
			nodes += t.Len()
		}
	}
	b.ReportMetric(float64(nodes), "nodes/op")
}

//go:build cgo

package symbols

import (
	"os"
	"testing"

	"github.com/codecortex/codecortex/syntax"
)

// BenchmarkExtract extracts every Go file of cobra v1.10.2 and of
// prometheus v0.308.0 (from the module cache, downloaded when missing):
// files/s and MB/s for the whole of Extract (parse and read), and for the
// read alone on trees parsed beforehand (ExtractTree), with allocations.
func BenchmarkExtract(b *testing.B) {
	for _, mod := range []struct{ name, mod string }{
		{"cobra", "github.com/spf13/cobra@v1.10.2"},
		{"prometheus", "github.com/prometheus/prometheus@v0.308.0"},
	} {
		dir := moduleDir(b, mod.mod)
		files := sourceFiles(b, dir, ".go")
		srcs := make([][]byte, len(files))
		size := 0
		for i, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			srcs[i], size = src, size+len(src)
		}
		b.Run(mod.name+"/extract", func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				for i, src := range srcs {
					if _, err := Extract(files[i], src); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(len(files)*b.N)/b.Elapsed().Seconds(), "files/s")
		})
		trees := make([]*syntax.Tree, len(files))
		for i, src := range srcs {
			t, err := syntax.Parse(syntax.Go, src)
			if err != nil {
				b.Fatal(err)
			}
			trees[i] = t
		}
		b.Run(mod.name+"/read", func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				for i, t := range trees {
					ExtractTree(files[i], t)
				}
			}
			b.ReportMetric(float64(len(files)*b.N)/b.Elapsed().Seconds(), "files/s")
		})
	}
}

package ignore

import (
	"io/fs"
	"os"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
)

// BenchmarkWalkPrometheus asks a new Tree about every path of a real
// repository (prometheus, 1,500 files, eight .gitignore files of a few
// lines) as a walk does: a repository as most are, where the compiled
// lookups must cost no more than running the few rules did.
func BenchmarkWalkPrometheus(b *testing.B) {
	dir := testtool.ModuleDir(b, "github.com/prometheus/prometheus@v0.308.0")
	fsys := os.DirFS(dir)
	type entry struct {
		path  string
		isDir bool
	}
	var entries []entry
	fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && p != "." {
			entries = append(entries, entry{p, d.IsDir()})
		}
		return nil
	})
	b.ResetTimer()
	for b.Loop() {
		t := NewTree(fsys)
		for _, e := range entries {
			t.Match(e.path, e.isDir)
		}
	}
}

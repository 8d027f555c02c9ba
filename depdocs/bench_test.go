package depdocs

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkLargestLockfile parses the corpus's largest lockfile, axios's
// 1.7 MB package-lock.json (version 2, 1 900 packages).
func BenchmarkLargestLockfile(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "corpus", "node", "axios", "package-lock.json"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("package-lock.json", data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScanCorpus scans the whole corpus (every manifest and lockfile
// of six ecosystems, 5.5 MB) as a project: walk, read, parse, join.
func BenchmarkScanCorpus(b *testing.B) {
	dir := filepath.Join("testdata", "corpus")
	b.ReportAllocs()
	var n int
	for b.Loop() {
		p, err := Scan(dir, ScanOptions{})
		if err != nil {
			b.Fatal(err)
		}
		n = len(p.Deps)
	}
	b.ReportMetric(float64(n), "deps")
}

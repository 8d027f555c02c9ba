package rewrite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// benchTree writes 50 Go files of one package, each calling oldAPI ten
// times among other code, into dir.
func benchTree(b *testing.B, dir string) {
	b.Helper()
	files := map[string]string{"go.mod": "module example.com/bench\n\ngo 1.22\n"}
	for f := range 50 {
		var sb strings.Builder
		fmt.Fprintf(&sb, "package p%d\n\nimport \"fmt\"\n\n", f%5)
		for fn := range 10 {
			fmt.Fprintf(&sb, "// F%d_%d does a little work.\nfunc F%d_%d(xs []int) int {\n\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x * %d\n\t}\n\tfmt.Println(oldAPI(total, %d))\n\treturn total\n}\n\n", f, fn, f, fn, fn, fn)
		}
		fmt.Fprintf(&sb, "func oldAPI(a, b int) int { return a + b }\n\nfunc newAPI(a, b int) int { return a + b }\n")
		files[fmt.Sprintf("p%d/f%02d.go", f%5, f)] = sb.String()
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPreviewApply previews and applies a rewrite of 500 matches
// across 50 files on disk (syncs included), validation excluded: search,
// template and syntax checks, limits, impact before and after, the stored
// preview, hash re-verification, the journal and the atomic replacement,
// the index refresh and the audit event.
func BenchmarkPreviewApply(b *testing.B) {
	requireSyntax(b)
	ctx := context.Background()
	req := Request{Pattern: "oldAPI($A, $B)", Template: "newAPI($A, $B)", Language: "go"}
	var preview, apply time.Duration
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		benchTree(b, dir)
		r, err := Open(Options{Dir: dir, SkipValidation: true})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		t0 := time.Now()
		p, err := r.Preview(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		res, err := r.Apply(ctx, p.ID, Authorization{Principal: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		b.StopTimer()
		preview += t1.Sub(t0)
		apply += t2.Sub(t1)
		if len(p.Files) != 50 || p.Matches != 500 || res.Outcome != Applied {
			b.Fatalf("%d files, %d matches, %s", len(p.Files), p.Matches, res.Outcome)
		}
		r.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(preview.Milliseconds())/float64(b.N), "preview-ms/op")
	b.ReportMetric(float64(apply.Milliseconds())/float64(b.N), "apply-ms/op")
}

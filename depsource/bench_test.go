package depsource

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
)

// pflagProvider reads a project that requires pflag v1.0.9 from the
// module cache that holds it.
func pflagProvider(b *testing.B) *Provider {
	mod := testtool.ModuleDir(b, "github.com/spf13/pflag@v1.0.9")
	cache := strings.TrimSuffix(mod, filepath.FromSlash("/github.com/spf13/pflag@v1.0.9"))
	dir := testtool.WriteTree(b, map[string]string{
		"go.mod": "module example.com/app\n\ngo 1.21\n\nrequire github.com/spf13/pflag v1.0.9\n",
	})
	return New(Options{Dir: dir, GoModCache: cache})
}

// BenchmarkFindGo finds pflag.FlagSet in the module cache's pflag v1.0.9
// (42 non-test files, one defining it), the project's go.mod and go.sum
// read each time, the module cache given.
func BenchmarkFindGo(b *testing.B) {
	p := pflagProvider(b)
	ctx := context.Background()
	for b.Loop() {
		res, err := p.Find(ctx, "pflag.FlagSet")
		if err != nil || len(res.Definitions) != 1 {
			b.Fatalf("%v %+v", err, res)
		}
	}
}

// BenchmarkOutlineGo outlines pflag v1.0.9 (42 non-test files, every one
// parsed), the project's go.mod read each time, the module cache given.
func BenchmarkOutlineGo(b *testing.B) {
	p := pflagProvider(b)
	ctx := context.Background()
	for b.Loop() {
		res, err := p.Outline(ctx, "pflag", OutlineOptions{})
		if err != nil || len(res.Definitions) < 400 {
			b.Fatalf("%v %d", err, len(res.Definitions))
		}
	}
}

// BenchmarkCheckRecord checks one record of pflag's outline against its
// module's directory, as the engine checks each.
func BenchmarkCheckRecord(b *testing.B) {
	p := pflagProvider(b)
	res, err := p.Outline(context.Background(), "pflag", OutlineOptions{})
	if err != nil || len(res.Definitions) == 0 {
		b.Fatal(err)
	}
	r := res.Definitions[0].Record()
	for b.Loop() {
		if err := p.CheckRecord(&r); err != nil {
			b.Fatal(err)
		}
	}
}

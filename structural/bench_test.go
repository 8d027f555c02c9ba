//go:build cgo

package structural

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkSearch runs one pattern over the tree named by
// CODECORTEX_BENCH_DIR (such as prometheus from the module cache, see
// scripts/bench-structural.sh), without and with the parse cache.
func BenchmarkSearch(b *testing.B) {
	dir := os.Getenv("CODECORTEX_BENCH_DIR")
	if dir == "" {
		b.Skip("set CODECORTEX_BENCH_DIR to a source tree")
	}
	for _, bc := range []struct{ name, pattern string }{
		{"selective", "errors.Is($E, context.Canceled)"},
		{"common", "if err != nil { return $$$ }"},
		{"never", "zzNeverMatches($A, $B)"},
		// No literal: every file parsed, every call a match (80,410 on
		// prometheus); cached, it measures matching and building matches.
		{"literal-free", "$F($$$A)"},
	} {
		all := Limits{MaxMatches: 1 << 30}
		b.Run(bc.name+"/cold", func(b *testing.B) {
			for b.Loop() {
				e := NewBuiltin(BuiltinOptions{CacheBytes: -1})
				if _, err := e.Search(context.Background(), Request{Root: dir, Pattern: bc.pattern, Language: Go, Limits: all}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bc.name+"/cached", func(b *testing.B) {
			e := NewBuiltin(BuiltinOptions{CacheBytes: 1 << 30})
			req := Request{Root: dir, Pattern: bc.pattern, Language: Go, Limits: all}
			if _, err := e.Search(context.Background(), req); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := e.Search(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCompile compiles Go patterns, which are read both at the top
// level and in a function body, and a Python one, read once.
func BenchmarkCompile(b *testing.B) {
	for _, bc := range []struct {
		lang    Language
		pattern string
	}{
		{Go, "fmt.Println($X)"},
		{Go, "func ($R $T) $NAME($$$P) error { $$$ }"},
		{Python, "print($$$ARGS)"},
	} {
		b.Run(string(bc.lang)+"/"+bc.pattern, func(b *testing.B) {
			for b.Loop() {
				if _, err := Compile(bc.pattern, bc.lang); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCompileNested compiles the nested pattern, x+x+...+x,
// at two sizes: the time and bytes per compile grow by the same factor as
// the terms.
func BenchmarkCompileNested(b *testing.B) {
	for _, terms := range []int{5000, 20000} {
		b.Run(fmt.Sprint(terms), func(b *testing.B) {
			pat := sumPattern(terms)
			for b.Loop() {
				if _, err := Compile(pat, Go); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLongLine searches the one-line files (a minified
// JavaScript file, a Go function of one line) at two sizes: time, memory
// and the bytes of Lines per search grow linearly with the calls.
func BenchmarkLongLine(b *testing.B) {
	for _, bc := range []struct {
		name, file, pattern string
		lang                Language
		src                 func(int) string
	}{
		{"js", "b.min.js", "a($X)", JavaScript, minifiedJS},
		{"go", "long.go", "fn($X)", Go, longGoLine},
	} {
		for _, calls := range []int{10000, 40000} {
			b.Run(fmt.Sprintf("%s/%d", bc.name, calls), func(b *testing.B) {
				dir := b.TempDir()
				if err := os.WriteFile(filepath.Join(dir, bc.file), []byte(bc.src(calls)), 0o644); err != nil {
					b.Fatal(err)
				}
				req := Request{Root: dir, Pattern: bc.pattern, Language: bc.lang, Limits: Limits{MaxMatches: 1 << 20}}
				var lines int
				for b.Loop() {
					res, err := NewBuiltin(BuiltinOptions{CacheBytes: -1}).Search(context.Background(), req)
					if err != nil {
						b.Fatal(err)
					}
					lines = 0
					for _, m := range res.Matches {
						lines += len(m.Lines)
					}
				}
				b.ReportMetric(float64(lines), "lines-bytes/op")
			})
		}
	}
}

// BenchmarkNestedRecords searches a JSON file of objects nested n deep
// for {$$$A} and makes every match's record: each match spans all the
// objects inside it, and its record costs what its excerpts show, so time
// grows linearly with the depth (it grew with its square while a multi
// capture's array was written whole before being cut).
func BenchmarkNestedRecords(b *testing.B) {
	for _, depth := range []int{1500, 3000} {
		b.Run(fmt.Sprint(depth), func(b *testing.B) {
			var src strings.Builder
			for i := range depth {
				fmt.Fprintf(&src, `{"k%d": [1, 2, 3], "n": `, i)
			}
			src.WriteString("0" + strings.Repeat("}", depth))
			dir := b.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "deep.json"), []byte(src.String()), 0o644); err != nil {
				b.Fatal(err)
			}
			req := Request{Root: dir, Pattern: "{$$$A}", Language: JSON, Limits: Limits{MaxMatches: 1 << 20}}
			for b.Loop() {
				res, err := NewBuiltin(BuiltinOptions{CacheBytes: -1}).Search(context.Background(), req)
				if err != nil {
					b.Fatal(err)
				}
				var attrs [][2]string
				for i := range res.Matches {
					_, attrs = res.Matches[i].RecordParts(BuiltinName, req.Pattern, attrs[:0])
				}
			}
		})
	}
}

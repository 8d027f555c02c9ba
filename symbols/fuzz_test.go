//go:build cgo

package symbols

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuzzBytes bounds what the fuzz target parses: tree-sitter's error
// recovery makes long garbage slow to parse, not more interesting.
const maxFuzzBytes = 8 << 10

// fuzzPaths name a file of each language the fuzz target reads.
var fuzzPaths = []string{"a.go", "a.py", "a.js", "a.ts", "a.tsx", "a.rs", "A.java", "a.c", "a.cpp",
	"A.cs", "a.rb", "a.php", "a.sh", "A.kt", "a.json", "a.h"}

// FuzzExtract: any bytes, read as any language, extract without a panic
// into a file whose invariants hold (File.Validate: names, kinds, ranges
// within the source and well ordered, names inside their definitions,
// doc lines at or above them), with signatures on one line.
func FuzzExtract(f *testing.F) {
	fixtures, _ := filepath.Glob(filepath.Join("testdata", "*", "*"))
	for _, fx := range fixtures {
		if strings.HasSuffix(fx, ".golden") {
			continue
		}
		src, err := os.ReadFile(fx)
		if err != nil {
			f.Fatal(err)
		}
		for i, p := range fuzzPaths {
			if filepath.Ext(p) == filepath.Ext(fx) {
				f.Add(uint8(i), src)
			}
		}
	}
	for i := range fuzzPaths {
		f.Add(uint8(i), []byte(""))
		f.Add(uint8(i), []byte("class A { def f( \xff\xfe é日 } fn x() -> {"))
	}
	f.Fuzz(func(t *testing.T, lang uint8, src []byte) {
		if len(src) > maxFuzzBytes {
			return
		}
		path := fuzzPaths[int(lang)%len(fuzzPaths)]
		file, err := Extract(path, src)
		if err != nil {
			t.Fatal(err)
		}
		if err := file.Validate(len(src)); err != nil {
			t.Fatal(err)
		}
		for _, s := range file.Symbols {
			if strings.ContainsAny(s.Signature, "\n\r") || len([]rune(s.Signature)) > MaxSignature {
				t.Fatalf("%s: signature %q", s.Name, s.Signature)
			}
		}
	})
}

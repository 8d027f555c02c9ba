//go:build cgo

package symbols

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/codecortex/codecortex/syntax"
	"github.com/google/go-cmp/cmp"
)

func TestExtractUnsupported(t *testing.T) {
	for _, p := range []string{"README.md", "Makefile", "a/b.txt", "x.GO", "weird\nname.zz"} {
		t.Run(p, func(t *testing.T) {
			_, err := Extract(p, []byte("hello"))
			if !errors.Is(err, ErrUnsupported) {
				t.Fatalf("Extract(%q) = %v, want ErrUnsupported", p, err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q holds a line break", err)
			}
		})
	}
}

// TestExtractTreeSameAsExtract: reading a tree parsed beforehand gives
// what Extract gives, for every fixture.
func TestExtractTreeSameAsExtract(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*"))
	for _, f := range files {
		if strings.HasSuffix(f, ".golden") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Extract(f, src)
		if err != nil {
			t.Fatal(err)
		}
		lang, _ := syntax.Detect(f, src)
		tree, err := syntax.Parse(lang, src)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, ExtractTree(f, tree)); diff != "" {
			t.Errorf("%s (-Extract +ExtractTree):\n%s", f, diff)
		}
	}
}

// TestBrokenFile: a file with a syntax error still gives the definitions
// around the error, and says it has errors.
func TestBrokenFile(t *testing.T) {
	src := []byte("package a\n\nfunc Good() {}\n\nfunc Broken( {\n\nfunc Later() {}\n\ntype T struct{ X int }\n")
	f, err := Extract("a.go", src)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Errors {
		t.Error("Errors is false")
	}
	if err := f.Validate(len(src)); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, s := range f.Symbols {
		names[s.Name] = true
	}
	for _, want := range []string{"Good", "T"} {
		if !names[want] {
			t.Errorf("%s missing from %v", want, names)
		}
	}
}

// TestSignatureBounded: a head longer than MaxSignature is cut, with an
// ellipsis, on one line.
func TestSignatureBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("package a\n\nfunc Long(\n")
	for i := range 100 {
		b.WriteString("\targ")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(" int, // a comment\n")
	}
	b.WriteString(") {}\n")
	f, err := Extract("a.go", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Symbols) != 1 {
		t.Fatalf("%d symbols", len(f.Symbols))
	}
	sig := f.Symbols[0].Signature
	if n := len([]rune(sig)); n != MaxSignature || !strings.HasSuffix(sig, "…") || strings.ContainsAny(sig, "\n\t") ||
		strings.Contains(sig, "comment") || !strings.HasPrefix(sig, "func Long(arg int, argx int,") {
		t.Errorf("signature of %d code points: %q", n, sig)
	}
}

// TestExtractConcurrent: Extract is safe for concurrent use; every
// goroutine gets what a serial run gets.
func TestExtractConcurrent(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*"))
	type job struct {
		path string
		src  []byte
		want *File
	}
	var jobs []job
	for _, f := range files {
		if strings.HasSuffix(f, ".golden") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Extract(f, src)
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, job{f, src, want})
	}
	errs := make(chan string, 4*len(jobs))
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				j := jobs[(i+w)%len(jobs)]
				got, err := Extract(j.path, j.src)
				if err != nil {
					errs <- err.Error()
					continue
				}
				if diff := cmp.Diff(j.want, got); diff != "" {
					errs <- j.path + ":\n" + diff
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

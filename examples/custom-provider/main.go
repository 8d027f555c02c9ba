// Command custom-provider is a template for a host program that brings its
// own evidence: it implements two providers, runs them side by side, fuses
// their records and prints the packed context a reader model would get,
// with the trace kept apart.
//
//	go run ./examples/custom-provider [-budget 120] [dir]
//
// The "todo" provider reports TODO comments as memory (what the team wrote
// down); the "grep" provider reports every line that mentions TODO as a
// lexical hit. Where both point at the same place, fusion keeps the stronger
// record and files the weaker one under metadata.superseded.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/trust"
)

func main() {
	budget := flag.Int("budget", 120, "token budget of the packed context")
	flag.Parse()
	dir := "."
	if flag.NArg() > 0 {
		dir = flag.Arg(0)
	}
	providers := []evidence.Provider{
		todoProvider{root: dir},
		grepProvider{root: dir, word: "TODO"},
	}
	q := evidence.Query{Text: "what is left to do?"}
	records, reports := evidence.Collect(context.Background(), q, providers, evidence.CollectOptions{})
	fused := evidence.Fuse(records)
	packed := evidence.Pack(fused, *budget)

	fmt.Println("prompt for the reader model:")
	fmt.Println(string(packed.Prompt))
	fmt.Printf("\n%d of %d records in %d of %d tokens\n", packed.Included, len(fused), packed.Used, packed.Budget)
	fmt.Println("\ntrace (kept outside the prompt):")
	for _, t := range packed.Trace {
		fmt.Println("  " + t.Reason())
	}
	fmt.Println("\nproviders:")
	for _, r := range reports {
		b, _ := json.Marshal(r)
		fmt.Println("  " + string(b))
	}
}

// todoProvider reads "// TODO(owner): text" comments in Go files as memory:
// a note the team left, which is inferred at most.
type todoProvider struct{ root string }

func (todoProvider) Name() string { return "todo" }

func (p todoProvider) Gather(ctx context.Context, q evidence.Query) (evidence.Response, error) {
	var out []evidence.Record
	err := scanLines(ctx, p.root, func(path string, line int, text string) {
		i := strings.Index(text, "// TODO")
		if i < 0 || !strings.HasSuffix(path, ".go") {
			return
		}
		col := utf8.RuneCountInString(text[:i]) + 1
		out = append(out, evidence.Record{
			Kind: evidence.Memory, Provider: "todo", Provenance: trust.Memory,
			Trust: trust.Inferred, Confidence: 0.8,
			Path: path, StartLine: line, StartColumn: col,
			EndLine: line, EndColumn: utf8.RuneCountInString(text) + 1,
			Metadata: evidence.Metadata{Excerpt: strings.TrimSpace(text[i+2:])},
		})
	})
	return evidence.Response{Records: out}, err
}

// grepProvider reports every line containing a word: a lexical coincidence,
// which is weak however many times it matches.
type grepProvider struct{ root, word string }

func (grepProvider) Name() string { return "grep" }

func (p grepProvider) Gather(ctx context.Context, q evidence.Query) (evidence.Response, error) {
	var out []evidence.Record
	err := scanLines(ctx, p.root, func(path string, line int, text string) {
		i := strings.Index(text, "// "+p.word)
		if i < 0 {
			return
		}
		col := utf8.RuneCountInString(text[:i]) + 1
		out = append(out, evidence.Record{
			Kind: evidence.Reference, Provider: "grep", Provenance: trust.Lexical,
			Trust: trust.Weak, Confidence: 0.5,
			Path: path, StartLine: line, StartColumn: col,
			EndLine: line, EndColumn: utf8.RuneCountInString(text) + 1,
			Metadata: evidence.Metadata{Excerpt: strings.TrimSpace(text)},
		})
	})
	return evidence.Response{Records: out}, err
}

// scanLines calls fn for every line of every regular text file under root,
// with root-relative slash paths and one-based line numbers. It skips hidden
// directories and does not follow symbolic links.
func scanLines(ctx context.Context, root string, fn func(path string, line int, text string)) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || ctx.Err() != nil {
			return err
		}
		if d.IsDir() {
			if p != root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for n := 1; sc.Scan(); n++ {
			if !utf8.Valid(sc.Bytes()) {
				return nil // not text
			}
			fn(filepath.ToSlash(rel), n, sc.Text())
		}
		return nil
	})
}

package memory

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/evidence"
)

// benchMemory writes n entries straight to disk, as a clone of a team's
// memory would hold them: words from a vocabulary of 2,000, a third of
// them scoped to a path, a third to a symbol, types and ages mixed.
func benchMemory(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	entries := filepath.Join(dir, filepath.FromSlash(EntriesDir))
	if err := os.MkdirAll(entries, 0o755); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	vocab := make([]string, 2000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%dx%s", i, strings.Repeat("q", i%5))
	}
	var audit strings.Builder
	for i := range n {
		words := make([]string, 8+rng.IntN(12))
		for j := range words {
			words[j] = vocab[rng.IntN(len(vocab))]
		}
		e := Entry{Type: Types()[i%4], Text: strings.Join(words, " "), Author: "dev",
			Created: t0.Add(-time.Duration(rng.IntN(400)) * day)}
		switch i % 3 {
		case 0:
			e.Scope.Paths = []string{fmt.Sprintf("pkg%d/file%d.go", i%50, i%400)}
		case 1:
			e.Scope.Symbols = []string{fmt.Sprintf("Type%d.Method%d", i%300, i%7)}
		}
		e.Digest = e.ComputeDigest()
		e.ID = IDFor(e.Digest)
		if err := os.WriteFile(filepath.Join(entries, e.ID+".json"), encodeEntry(&e), 0o644); err != nil {
			b.Fatal(err)
		}
		// Each line sealed, as the user's cortex writes it: recall checks
		// every seal.
		audit.WriteString(sealedLine(b, testSeal, "remember", e, "dev", t0) + "\n")
	}
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(AuditLog)), []byte(audit.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkRecall10k is a warm recall over 10,000 memories: the entries
// are loaded once, each query then matches all of them.
func BenchmarkRecall10k(b *testing.B) {
	dir := benchMemory(b, 10000)
	s := openStore(b, dir, nil)
	if ms, err := s.Recall(Query{Limit: -1}); err != nil || len(ms) != 10000 {
		b.Fatalf("Recall = %d, %v", len(ms), err)
	}
	for _, q := range []struct {
		name string
		q    Query
	}{
		{"path", Query{Path: "pkg7/file107.go"}},
		{"symbol", Query{Symbol: "Type42.Method0"}},
		{"text", Query{Text: "why w17x w1234xqqqq and w5xqqqqq?"}},
		{"all", Query{Path: "pkg7/file107.go", Symbol: "Method3", Text: "w17x w1234xqqqq"}},
	} {
		b.Run(q.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Recall(q.q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRecall10kCold is the first recall of a process: every entry
// file read, parsed, checked and indexed, and the audit log's 10,000
// sealed lines read and their seals checked.
func BenchmarkRecall10kCold(b *testing.B) {
	dir := benchMemory(b, 10000)
	for b.Loop() {
		s, err := Open(Options{Dir: dir, Seal: testSeal})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Recall(Query{Text: "w17x"}); err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// BenchmarkAttach10k attaches memories to an answer of 20 records.
func BenchmarkAttach10k(b *testing.B) {
	dir := benchMemory(b, 10000)
	s := openStore(b, dir, nil)
	var recs []evidence.Record
	for i := range 20 {
		recs = append(recs, evidence.Record{Kind: evidence.Reference, Path: fmt.Sprintf("pkg%d/file%d.go", i, i*7),
			StartLine: 1, StartColumn: 1, EndLine: 1, EndColumn: 2, Symbol: fmt.Sprintf("Type%d.Method%d", i, i%7)})
	}
	if _, err := s.Attach(context.Background(), recs); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.Attach(context.Background(), recs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAuditLogWorstCase reads an audit log shipped with a repository
// to slow every command down: as much as is read (8 MiB), every line
// carrying a seal to check, none of them valid.
func BenchmarkAuditLogWorstCase(b *testing.B) {
	line := `{"op":"accept","id":"m0123456789abcdef","digest":"sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef","type":"gotcha","who":"x","when":"2024-03-01T09:00:00Z","seal":"s1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}` + "\n"
	data := []byte(strings.Repeat(line, maxAuditRead/len(line)))
	s := &Store{opts: Options{Seal: testSeal}}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if revs := s.reviewsIn(data); len(revs) != 0 {
			b.Fatal("a forged seal reviewed an entry")
		}
	}
}

package structural

import (
	"context"
	"sync"
	"testing"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/evidence/evidencetest"
	"github.com/codecortex/codecortex/internal/testtool"
)

// lockedSymbols is a symbol searcher safe for concurrent use that answers
// every question with the same records.
type lockedSymbols struct {
	mu    sync.Mutex
	calls [][]string
	resp  evidence.Response
}

func (l *lockedSymbols) SearchSymbols(_ context.Context, names []string) (evidence.Response, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, names)
	return l.resp, nil
}

func conformanceTree(t *testing.T) string {
	return testtool.WriteTree(t, map[string]string{
		"a.py":     "# é 日本 😀\nold_api(1, 2)\nx = old_api(old_api(3))\n",
		"b/c.go":   "package c\n\n// 😀 old_api(9)\nfunc f() { old_api(\"é\", 2) }\n",
		"d/e.ts":   "const s = \"日本\"; old_api(s);\n",
		"notes.md": "old_api( is mentioned here\n",
	})
}

// TestConformance runs the evidencetest kit over the Provider: its
// structural answer (the fallback without cgo), its fallback when
// structural search is disabled, and its answer to questions in words,
// with a symbol searcher whose records it passes on under its own name.
func TestConformance(t *testing.T) {
	root := conformanceTree(t)
	patterns := []evidence.Query{
		{Pattern: "old_api($$$A)"},
		{Pattern: "old_api($X)", Language: "python"},
		{Pattern: "old_api($X)", Language: "ts"},
		{Pattern: "never_called($X)"},
		{Pattern: "old_api($X)", Language: "cobol"},
	}
	words := []evidence.Query{
		{Text: "who calls old_api?"},
		{Text: "where is `f` defined", Language: "go"},
		{Text: "what changed in this file?"},
		{Symbol: "old_api"},
		{},
	}
	symbols := &lockedSymbols{resp: evidence.Response{Records: []evidence.Record{symbolRecord("a.py", 2)}}}
	t.Run("structural", func(t *testing.T) {
		p := New(Options{Dir: root})
		resp, err := p.Gather(context.Background(), patterns[0])
		if err != nil {
			t.Fatal(err)
		}
		// a.py holds three calls (one nested), c.go one outside its comment,
		// e.ts one; without cgo the answer is the lexical fallback, which
		// also finds the comment.
		if n := len(resp.Records); n < 5 {
			t.Fatalf("%d records, want at least 5: %+v", n, resp.Report)
		}
		evidencetest.TestProvider(t, p, root, patterns...)
	})
	t.Run("fallback", func(t *testing.T) {
		evidencetest.TestProvider(t, New(Options{Dir: root, Disabled: true, Symbols: symbols}), root, patterns...)
	})
	t.Run("words", func(t *testing.T) {
		evidencetest.TestProvider(t, New(Options{Dir: root, Symbols: symbols}), root, words...)
	})
}

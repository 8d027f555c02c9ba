package structural

import (
	"context"
	"testing"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/evidence/evidencetest"
	"github.com/codecortex/codecortex/internal/testtool"
)

// searchProvider answers a query's Text as a pattern, so the conformance kit
// can check the records structural search emits: valid, within the
// structural ceiling (or weak, for the fallback), and located inside the
// root on real lines and columns.
type searchProvider struct {
	root string
	opts Options
}

func (searchProvider) Name() string { return ProviderName }

func (p searchProvider) Gather(ctx context.Context, q evidence.Query) (evidence.Response, error) {
	a, err := Search(ctx, p.opts, Request{Root: p.root, Pattern: q.Text})
	if err != nil {
		return evidence.Response{}, err
	}
	recs := a.Records(q.Text)
	for i := range recs {
		recs[i].Provider = ProviderName
	}
	return evidence.Response{Records: recs, Report: a.Report}, nil
}

func TestConformance(t *testing.T) {
	root := testtool.WriteTree(t, map[string]string{
		"a.py":     "# é 日本 😀\nold_api(1, 2)\nx = old_api(old_api(3))\n",
		"b/c.go":   "package c\n\n// 😀 old_api(9)\nfunc f() { old_api(\"é\", 2) }\n",
		"d/e.ts":   "const s = \"日本\"; old_api(s);\n",
		"notes.md": "old_api( is mentioned here\n",
	})
	queries := []evidence.Query{{Text: "old_api($$$A)"}, {Text: "old_api($X)"}, {Text: "never_called($X)"}}
	t.Run("builtin", func(t *testing.T) {
		p := searchProvider{root: root}
		resp, err := p.Gather(context.Background(), queries[0])
		if err != nil {
			t.Fatal(err)
		}
		// a.py holds three calls (one nested), c.go one outside its comment,
		// e.ts one; without cgo the answer is the lexical fallback, which
		// also finds the comment and the Markdown mention.
		if n := len(resp.Records); n < 5 {
			t.Fatalf("%d records, want at least 5: %+v", n, resp.Report)
		}
		evidencetest.TestProvider(t, p, root, queries...)
	})
	t.Run("lexical fallback", func(t *testing.T) {
		evidencetest.TestProvider(t, searchProvider{root: root, opts: Options{Disabled: true}}, root, queries...)
	})
}

package redact

import (
	"strings"
	"testing"
)

// benchText is diagnostic-like JSON without credentials, about 10 KB.
var benchText = strings.Repeat(`{"layer": "precision intelligence", "state": "stale", "reason": "index older than 3 files", "path": "internal/contain/contain.go", "guidance": "run scip-go --output index.scip"}`+"\n", 55)

func BenchmarkStringClean(b *testing.B) {
	r := New("Zq8-v&x<9/y+z=w")
	b.SetBytes(int64(len(benchText)))
	for b.Loop() {
		r.String(benchText)
	}
}

// The same text with a credential-bearing line every few lines.
func BenchmarkStringWithCredentials(b *testing.B) {
	text := strings.ReplaceAll(benchText, `"stale"`, `"token=abc Authorization: Bearer xyz0123456789 Zq8-v&x<9/y+z=w"`)
	r := New("Zq8-v&x<9/y+z=w")
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		r.String(text)
	}
}

// Adversarial: 64 KB of repeated secret-sounding names, every one a
// candidate match. The work grows linearly (RE2 semantics).
func BenchmarkStringAdversarial(b *testing.B) {
	text := strings.Repeat(`"token":"`, 1<<16/9)
	r := New()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		r.String(text)
	}
}

// Source code as a structural search prints it: short mixed-case strings,
// some holding a name such as key or token without a value after it.
var codeText = []string{
	`labels.New(key, value)`, `h.Set(ts, lset.Hash())`, `p.Token(tokenKey)`, `fmt.Errorf("bad key %q", k)`,
	`cache.Get(ctx, req.APIKey)`, `strings.HasPrefix(l.Name, "__")`, `require.NoError(t, err)`, `auth.Wrap(handler)`,
}

func BenchmarkStringCode(b *testing.B) {
	r := New("Zq8-v&x<9/y+z=w")
	n := 0
	for _, s := range codeText {
		n += len(s)
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, s := range codeText {
			r.String(s)
		}
	}
}

package memory

import (
	"strings"
	"testing"
)

// An entry file is outside input (a teammate's commit, a hand edit): the
// parser never panics, and what it accepts is intact and encodes back to
// an entry it accepts again.
func FuzzParseEntry(f *testing.F) {
	e := Entry{Type: Decision, Text: "Use SQLite", Reason: "no server", Author: "ada", Created: t0,
		Scope: Scope{Paths: []string{"index", "*.sql"}, Symbols: []string{"Store.Open"}}}
	e.Digest = e.ComputeDigest()
	e.ID = IDFor(e.Digest)
	f.Add(encodeEntry(&e))
	f.Add([]byte(`{"version":1}`))
	f.Add([]byte(`{"version":1,"id":"m0","digest":"sha256:","type":"gotcha","text":"x","author":"a","created":"2024-01-01T00:00:00Z","extra":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ParseEntry(data)
		if err != nil {
			return
		}
		if err := got.check(); err != nil {
			t.Fatalf("accepted an entry that does not check: %v", err)
		}
		again, err := ParseEntry(encodeEntry(&got))
		if err != nil || again.Digest != got.Digest || again.ID != got.ID {
			t.Fatalf("re-encoding changed the entry: %v", err)
		}
	})
}

func FuzzParseAuditLine(f *testing.F) {
	f.Add([]byte(`{"op":"remember","id":"m0123456789abcdef","digest":"sha256:0123456789abcdef00","type":"gotcha","who":"ada","when":"2024-01-01T00:00:00Z"}`))
	f.Add([]byte(`{"op":"forget","id":"m0123456789abcdef","digest":"","who":"ada","when":"2024-01-01T00:00:00Z","why":"x"}`))
	f.Fuzz(func(t *testing.T, ln []byte) {
		l, err := parseAuditLine(ln)
		if err != nil {
			return
		}
		if !ValidID(l.ID) || l.Who == "" || l.When.IsZero() || l.Op != "remember" && l.Op != "forget" {
			t.Fatalf("accepted %+v", l)
		}
	})
}

// Recall's word splitting and scope matching take any text and any path.
func FuzzRecallMatching(f *testing.F) {
	f.Add("why did we pick AuthService.refresh_token?", "internal/cli/x.go", "*.go", "Engine.Ask")
	f.Fuzz(func(t *testing.T, text, p, scopePath, sym string) {
		for _, w := range queryTerms(text) {
			if w == "" || w != strings.ToLower(w) {
				t.Fatalf("term %q", w)
			}
		}
		le := &loadedEntry{Entry: Entry{Scope: Scope{Paths: []string{scopePath}, Symbols: []string{sym}}}, symbolsLower: []string{strings.ToLower(sym)}}
		if v := le.coversPath(p); v < 0 || v > 1 {
			t.Fatalf("coversPath = %v", v)
		}
		if v := le.coversSymbol(text); v < 0 || v > 1 {
			t.Fatalf("coversSymbol = %v", v)
		}
		_ = SymbolName(text)
	})
}

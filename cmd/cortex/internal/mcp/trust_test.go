package mcp

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTrustRulesHold opens a project whose configuration names a program
// (an "ast-grep" that leaves a mark when run): untrusted, no tool runs it
// and doctor says what was withheld; trusted, structural search runs it.
func TestTrustRulesHold(t *testing.T) {
	dir := fixture(t)
	mark := filepath.Join(t.TempDir(), "ran")
	spy := filepath.Join(t.TempDir(), "ast-grep")
	if err := os.WriteFile(spy, []byte("#!/bin/sh\ntouch "+mark+"\necho 'ast-grep 0.51.1'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".codecortex"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := `{"structural":{"command":"` + spy + `"}}`
	if err := os.WriteFile(filepath.Join(dir, ".codecortex", "config.json"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	search := map[string]any{"pattern": "$S.Add($X)", "language": "go"}
	t.Run("untrusted", func(t *testing.T) {
		s := newServer(t, dir, Options{Project: openProject(t, dir, false, nil)})
		cs := connect(t, s, ReadOnly)
		for _, c := range everyCall {
			call(t, cs, c.name, c.args)
		}
		call(t, cs, "cortex_structural_search", search)
		if _, err := os.Stat(mark); err == nil {
			t.Fatal("a tool ran the program an untrusted configuration names")
		}
		doc := decode[doctorResult](t, "cortex_doctor", call(t, cs, "cortex_doctor", map[string]any{}))
		if doc.Trust.Trusted || len(doc.Trust.Withheld) == 0 {
			t.Errorf("trust %+v, want untrusted with what was withheld", doc.Trust)
		}
	})
	t.Run("trusted", func(t *testing.T) {
		s := newServer(t, dir, Options{Project: openProject(t, dir, true, nil)})
		call(t, connect(t, s, ReadOnly), "cortex_structural_search", search)
		if _, err := os.Stat(mark); err != nil {
			t.Errorf("the trusted configuration's program did not run: %v", err)
		}
	})
}

package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/syntax"
)

// A rewrite is previewed on the read-only surface, shown by id, and
// applied on the mutating surface only, as the server's principal.
func TestRewriteTools(t *testing.T) {
	if !syntax.Available {
		t.Skip("built without cgo: no structural engine to match with")
	}
	dir := fixture(t)
	s := newServer(t, dir, Options{Principal: "ada"})
	ro := connect(t, s, ReadOnly)
	prev := decode[previewResult](t, "", call(t, ro, "cortex_rewrite_preview",
		map[string]any{"pattern": `$S.Add("pear")`, "template": `$S.Add("plum")`, "language": "go"}))
	if prev.ID == "" || prev.Files != 1 || prev.Matches != 1 || len(prev.Diffs) != 1 ||
		!strings.Contains(prev.Diffs[0].Diff, `+	s.Add("plum")`) {
		t.Fatalf("preview: %+v", prev)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "main.go")); strings.Contains(string(b), "plum") {
		t.Fatal("a preview changed the file")
	}
	shown := decode[previewResult](t, "", call(t, ro, "cortex_rewrite_show", map[string]any{"id": prev.ID}))
	if shown.ID != prev.ID || shown.Diffs[0].Diff != prev.Diffs[0].Diff {
		t.Errorf("show: %+v", shown)
	}
	// Refused: a template with an unbound metavariable.
	if res := call(t, ro, "cortex_rewrite_preview", map[string]any{"pattern": `$S.Add($X)`, "template": `$S.Add($Y)`, "language": "go"}); !res.IsError {
		t.Errorf("an unbound metavariable was previewed: %s", text(res))
	}
	// Apply exists on the mutating surface only (TestSurfaces checks the
	// read-only surface lists no such tool).
	got := decode[applyResult](t, "", call(t, connect(t, s, Mutating), "cortex_rewrite_apply", map[string]any{"id": prev.ID}))
	if got.Outcome != "applied" || got.FilesChanged != 1 || got.MatchesApplied != 1 {
		t.Errorf("apply: %+v", got)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "main.go")); !strings.Contains(string(b), `s.Add("plum")`) {
		t.Errorf("main.go after apply:\n%s", b)
	}
	audit, _ := os.ReadFile(filepath.Join(dir, ".codecortex", "rewrite", "audit.jsonl"))
	if !strings.Contains(string(audit), `"principal":"ada"`) || !strings.Contains(string(audit), prev.ID) {
		t.Errorf("audit:\n%s", audit)
	}
}

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/internal/testtool"
)

func indexProject(t *testing.T) string {
	t.Helper()
	return testtool.WriteTree(t, map[string]string{
		"auth/session.go": "package auth\n\n// Session is a signed-in user's session.\ntype Session struct{ ID string }\n\n// validateSession checks a session.\nfunc validateSession(s *Session) error { return nil }\n\nvar _ = validateSession(nil)\n",
		"web/handler.ts":  "export class Handler {\n  serve(path: string): string { return path }\n}\n",
		"README.md":       "Sessions are validated before every request.\n",
	})
}

func TestIndexCommand(t *testing.T) {
	if !cgoBuild {
		t.Skip("symbols need the built-in parser")
	}
	dir := indexProject(t)
	code, out, errs := run(t, dir, nil, "index")
	if code != ExitOK || !strings.Contains(out, "3 files") || !strings.Contains(out, "freshness   fresh") || !strings.Contains(errs, "3 files indexed") {
		t.Fatalf("index: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = run(t, dir, nil, "index", "--status", "--json")
	var st index.Status
	if code != ExitOK || json.Unmarshal([]byte(out), &st) != nil || st.Files != 3 || st.Symbols < 4 || st.Identity.Git {
		t.Errorf("status: exit %d %+v\n%s", code, st, out)
	}
	// An edit is seen by the next query, never served as current.
	if err := os.WriteFile(filepath.Join(dir, "auth/session.go"), []byte("package auth\n\nfunc refreshToken() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = run(t, dir, nil, "search", "refresh token")
	if code != ExitOK || !strings.HasPrefix(out, "auth/session.go:3-3  definition  function auth.refreshToken") {
		t.Errorf("search after an edit: exit %d\n%s", code, out)
	}
}

// TestIndexStatusForeign plants a database in the storage directory, as a
// repository could ship it: cortex index --status names it as foreign,
// and the command that rebuilds past it says so.
func TestIndexStatusForeign(t *testing.T) {
	dir := indexProject(t)
	if code, out, errs := run(t, dir, nil, "index"); code != ExitOK {
		t.Fatalf("index: exit %d\n%s%s", code, out, errs)
	}
	planted := filepath.Join(dir, index.StorageDir, "0123456789abcdef.db")
	if err := os.WriteFile(planted, []byte("SQLite format 3\x00planted"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, dir, nil, "index", "--status")
	if code != ExitOK || !strings.Contains(out, "foreign") || !strings.Contains(out, index.StorageDir+"/0123456789abcdef.db") {
		t.Errorf("status: exit %d\n%s%s", code, out, errs)
	}
}

func TestSymbolsCommand(t *testing.T) {
	if !cgoBuild {
		t.Skip("symbols need the built-in parser")
	}
	dir := indexProject(t)
	code, out, errs := run(t, dir, nil, "symbols", "auth")
	want := "auth/session.go\n  4  struct type Session struct\n    4  field ID string\n  7  function func validateSession(s *Session) error\n"
	if code != ExitOK || out != want {
		t.Errorf("symbols auth: exit %d\n%q\nwant\n%q\n%s", code, out, want, errs)
	}
	code, out, _ = run(t, dir, nil, "symbols", "--json", "web/handler.ts")
	if code != ExitOK || !strings.Contains(out, `"name": "Handler"`) || !strings.Contains(out, `"name": "serve"`) {
		t.Errorf("symbols --json: exit %d\n%s", code, out)
	}
	if code, _, _ := run(t, dir, nil, "symbols", "missing.go"); code != ExitUsage {
		t.Errorf("symbols of a missing path: exit %d, want %d", code, ExitUsage)
	}
}

// search searches words in the local index and patterns by syntax: one
// command, each reading what the user typed.
func TestSearchTextOrPattern(t *testing.T) {
	if !cgoBuild {
		t.Skip("symbols need the built-in parser")
	}
	dir := indexProject(t)
	code, out, _ := run(t, dir, nil, "search", "validate", "session")
	if code != ExitOK || !strings.HasPrefix(out, "auth/session.go:6-8  definition  function auth.validateSession") {
		t.Errorf("text search: exit %d\n%s", code, out)
	}
	code, out, _ = run(t, dir, nil, "search", "--json", "validate session")
	var doc struct {
		Mode string      `json:"mode"`
		Hits []index.Hit `json:"hits"`
	}
	if code != ExitOK || json.Unmarshal([]byte(out), &doc) != nil || doc.Mode != "text" || len(doc.Hits) == 0 || doc.Hits[0].Symbol != "auth.validateSession" {
		t.Errorf("text search --json: exit %d\n%s", code, out)
	}
	code, out, _ = run(t, dir, nil, "search", "validateSession($S)")
	if code != ExitOK || !strings.Contains(out, "auth/session.go:9:9: var _ = validateSession(nil)") {
		t.Errorf("a pattern with a metavariable is structural: exit %d\n%s", code, out)
	}
	if code, _, _ := run(t, dir, nil, "search", "--text", "validateSession($S)"); code != ExitOK {
		t.Errorf("--text reads a pattern as words: exit %d", code)
	}
	if code, _, _ := run(t, dir, nil, "search", "zzz_nothing"); code != ExitFail {
		t.Errorf("no hit: exit %d, want %d", code, ExitFail)
	}
}

// def by name answers from the local index when no SCIP index does, at
// the tier syntax deserves.
func TestDefByNameFromLocalIndex(t *testing.T) {
	if !cgoBuild {
		t.Skip("symbols need the built-in parser")
	}
	dir := indexProject(t)
	code, out, errs := run(t, dir, nil, "def", "validateSession")
	if code != ExitOK || out != "auth/session.go:7:6-7:21\tstructural\tauth.validateSession\n" {
		t.Errorf("def from the local index: exit %d\n%q\n%s", code, out, errs)
	}
}

// TestOverLimitIgnoreFileShown: a .gitignore past its limits leaves its
// directory out, and every command that walks says so on the terminal.
func TestOverLimitIgnoreFileShown(t *testing.T) {
	dir := t.TempDir()
	big := "*.log\n" + strings.Repeat("padding-that-matches-nothing\n", 40_000)
	for name, content := range map[string]string{
		"a.go":           "package a\n\nfunc Quokka() {}\n",
		"big/.gitignore": big,
		"big/b.go":       "package b\n\nfunc Quokka() {}\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"index"}, {"index", "--status"}, {"search", "--text", "Quokka"}, {"symbols", "big"}, {"sg", "-p", "func Quokka() {}", "-l", "go"},
	} {
		_, stdout, stderr := run(t, dir, nil, args...)
		if out := stdout + stderr; !strings.Contains(out, "ignore file big/.gitignore is not applied") || !strings.Contains(out, "every path under big/") {
			t.Errorf("cortex %s does not say big/ is left out:\n%s", strings.Join(args, " "), out)
		}
		if strings.Contains(stdout, "big/b.go") {
			t.Errorf("cortex %s answers from big/b.go:\n%s", strings.Join(args, " "), stdout)
		}
	}
}

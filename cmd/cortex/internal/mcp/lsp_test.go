package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
)

// The MCP server starts one language server per language, on the first
// question that needs it, and reuses it for every later question of any
// session; cortex_doctor shows it running with the version its handshake
// gave. The server is pyright through a wrapper that logs each start.
func TestLanguageServerReused(t *testing.T) {
	pyright := testtool.Require(t, "pyright-langserver", "bash .ci/install-precision.sh")
	dir := testtool.WriteTree(t, map[string]string{
		"pyproject.toml": "[project]\nname = \"m\"\n",
		"a.py":           "def greet():\n    return 1\n",
		"b.py":           "from a import greet\n\nx = greet()\n",
	})
	starts := filepath.Join(t.TempDir(), "starts.log")
	// Named as pyright's server is, which the provider recognises (it waits
	// for pyright to list the workspace before asking it).
	wrapper := filepath.Join(t.TempDir(), "pyright-langserver")
	script := "#!/bin/sh\necho started >>'" + starts + "'\nexec '" + pyright + "' \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := `{"precision_index": {"language_server_timeout_seconds": 60, "language_servers": {"python": ["` + wrapper + `", "--stdio"]}}}`
	testtool.WriteFiles(t, dir, map[string]string{".codecortex/config.json": cfg})
	s := newServer(t, dir, Options{Project: openProject(t, dir, true, nil), LanguageServer: true})
	questions := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"relation": "references", "path": "a.py", "line": 1, "column": 5}, "b.py"},
		{map[string]any{"relation": "definition", "path": "b.py", "line": 3, "column": 5}, "a.py"},
	}
	for i, q := range questions {
		cs := connect(t, s, ReadOnly) // a session each
		res := call(t, cs, "cortex_navigate", q.args)
		if res.IsError || !strings.Contains(text(res), "near_exact") || !strings.Contains(text(res), q.want) {
			t.Errorf("question %d: %s", i, text(res))
		}
	}
	doctor := text(call(t, connect(t, s, ReadOnly), "cortex_doctor", map[string]any{}))
	if !strings.Contains(doctor, wrapper+" --stdio: found at ") || !strings.Contains(doctor, "pyright") || !strings.Contains(doctor, ", running") {
		t.Errorf("cortex_doctor does not show the running server:\n%s", doctor)
	}
	log, err := os.ReadFile(starts)
	if err != nil || strings.Count(string(log), "started") != 1 {
		t.Errorf("the language server started %d times, want once (%v)", strings.Count(string(log), "started"), err)
	}
}

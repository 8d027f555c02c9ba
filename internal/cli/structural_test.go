package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/testtool"
)

func structuralProject(t *testing.T, config string) string {
	t.Helper()
	files := map[string]string{
		"a.py": "def f():\n    old_api(1, 2)\n    # old_api(3) is only mentioned\n",
		"b.py": "x = 1\n",
	}
	if config != "" {
		files[".codecortex/config.json"] = config
	}
	return testtool.WriteTree(t, files)
}

func TestStructuralCommands(t *testing.T) {
	if !cgoBuild {
		t.Skip("the built-in engine needs cgo")
	}
	dir := structuralProject(t, "")
	tests := []struct {
		name     string
		args     []string
		code     int
		contains string
	}{
		{"search finds the call, not the comment", []string{"search", "old_api($$$A)", "--lang", "python"}, ExitOK, "a.py:2:5:     old_api(1, 2)"},
		{"ast-grep style flags", []string{"structural", "-p", "old_api($$$A)", "-l", "py"}, ExitOK, "a.py:2:5:"},
		{"flags after paths", []string{"search", "old_api($X, $Y)", "a.py", "--lang", "python"}, ExitOK, "a.py:2:5:"},
		{"no match", []string{"search", "new_api($X)", "--lang", "python"}, ExitFail, ""},
		{"invalid pattern is a usage error", []string{"search", "old_api(", "--lang", "python"}, ExitUsage, ""},
		{"unknown language", []string{"search", "x", "--lang", "cobol"}, ExitUsage, ""},
		{"missing pattern", []string{"structural", "-l", "python"}, ExitUsage, ""},
		{"rewrite previews a diff", []string{"search", "old_api($$$A)", "--lang", "python", "--rewrite", "new_api(ctx, $$$A)"}, ExitOK,
			"--- a/a.py\n+++ b/a.py\n@@ -2,1 +2,1 @@\n-    old_api(1, 2)\n+    new_api(ctx, 1, 2)\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, dir, nil, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, errs)
			}
			if !strings.Contains(out, tc.contains) {
				t.Errorf("stdout lacks %q:\n%s", tc.contains, out)
			}
		})
	}
	b, err := os.ReadFile(filepath.Join(dir, "a.py"))
	if err != nil || !strings.Contains(string(b), "old_api(1, 2)") {
		t.Errorf("--rewrite changed the file: %q %v", b, err)
	}
}

func TestStructuralJSONRecords(t *testing.T) {
	if !cgoBuild {
		t.Skip("the built-in engine needs cgo")
	}
	dir := structuralProject(t, "")
	code, out, _ := run(t, dir, nil, "search", "old_api($$$A)", "--lang", "python", "--json")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 1 {
		t.Fatalf("want one record, got:\n%s", out)
	}
	var r evidence.Record
	if err := json.Unmarshal([]byte(lines[0]), &r); err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	got := []any{r.Kind, string(r.Provenance), r.Trust.String(), r.Path, r.StartLine, r.StartColumn, r.Metadata.Attributes["capture.A"]}
	want := []any{evidence.StructuralMatch, "structural-match", "structural", "a.py", 2, 5, `["1","2"]`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("record (-want +got):\n%s", diff)
	}
}

func TestStructuralDisabledFallsBack(t *testing.T) {
	dir := structuralProject(t, `{"structural":{"enabled":false}}`)
	code, out, _ := run(t, dir, nil, "search", "old_api($X)", "--lang", "python")
	if code != ExitOK || !strings.Contains(out, "without structural precision") || !strings.Contains(out, "a.py:3:7:") {
		t.Fatalf("exit %d, stdout:\n%s", code, out)
	}
	_, out, _ = run(t, dir, nil, "search", "old_api($X)", "--lang", "python", "--json")
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var r evidence.Record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if r.Trust.String() != "weak" || r.Provenance != "lexical" {
			t.Errorf("fallback record %+v is not weak lexical evidence", r)
		}
	}
}

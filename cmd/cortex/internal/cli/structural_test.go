package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
		{"sg is structural", []string{"sg", "-p", "old_api($$$A)", "-l", "py"}, ExitOK, "a.py:2:5:"},
		{"flags after paths", []string{"search", "old_api($X, $Y)", "a.py", "--lang", "python"}, ExitOK, "a.py:2:5:"},
		{"no match", []string{"search", "new_api($X)", "--lang", "python"}, ExitFail, ""},
		{"invalid pattern is a usage error", []string{"search", "old_api(", "--lang", "python"}, ExitUsage, ""},
		{"unknown language", []string{"search", "x", "--lang", "cobol"}, ExitUsage, ""},
		{"missing pattern", []string{"structural", "-l", "python"}, ExitUsage, ""},
		{"a template that does not parse is refused", []string{"search", "old_api($$$A)", "--lang", "python", "--rewrite", "new_api($$$A"}, ExitUsage, ""},
		{"a template with an unbound metavariable is refused", []string{"search", "old_api($$$A)", "--lang", "python", "--rewrite", "new_api($B)"}, ExitUsage, ""},
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
	code, out, _ := run(t, dir, nil, "search", "old_api($$$A)", "--lang", "python", "--json=stream")
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

	// --json is one document: the pattern, the records and the report.
	_, out, _ = run(t, dir, nil, "search", "old_api($$$A)", "--lang", "python", "--json")
	var doc structuralJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Records) != 1 || doc.Records[0].Location() != r.Location() || doc.Pattern != "old_api($$$A)" || doc.Report.State != evidence.Available {
		t.Errorf("--json document: %+v", doc)
	}
}

func TestStructuralDisabledFallsBack(t *testing.T) {
	dir := structuralProject(t, `{"structural":{"enabled":false}}`)
	code, out, _ := run(t, dir, nil, "search", "old_api($X)", "--lang", "python")
	if code != ExitOK || !strings.Contains(out, "without structural precision") || !strings.Contains(out, "a.py:3:7:") {
		t.Fatalf("exit %d, stdout:\n%s", code, out)
	}
	_, out, _ = run(t, dir, nil, "search", "old_api($X)", "--lang", "python", "--json=stream")
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

const oldAPISym = "scip-go gomod example.com/m v1.0.0 `example.com/m`/OldAPI()."

// oldAPIProject is a Go file that defines and calls OldAPI, and mentions
// it in a comment, with a scip-go index of it dated after the source and a
// configuration that switches structural search off.
func oldAPIProject(t *testing.T) string {
	t.Helper()
	dir := testtool.WriteTree(t, map[string]string{".codecortex/config.json": `{"structural":{"enabled":false}}`})
	writeIndexed(t, dir, "m.go", "package m\n\nfunc OldAPI(x int) {}\n\n// OldAPI(2) is only mentioned\nvar _ = func() int { OldAPI(1); return 0 }\n",
		oldAPISym, []int32{2, 5, 11}, []int32{5, 21, 27})
	acceptIndex(t, dir)
	return dir
}

// With structural search off, `cortex search` answers from text and from
// the precision index: the symbol records are the index's, exact while it
// is fresh (the comment is a text hit, never a symbol record), and the
// output still says the answer lacks structural precision.
func TestSearchFallbackWithSymbols(t *testing.T) {
	dir := oldAPIProject(t)
	code, out, errOut := run(t, dir, nil, "search", "OldAPI($X)", "--lang", "go")
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{
		"without structural precision",
		"m.go:5:4: // OldAPI(2) is only mentioned",
		"warning: symbol fallback",
		"m.go:3:6-3:12\texact\tm.OldAPI\n",
		"m.go:6:22-6:28\texact\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout does not have %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "2 symbol records for OldAPI") {
		t.Errorf("stderr %q", errOut)
	}

	_, out, _ = run(t, dir, nil, "search", "OldAPI($X)", "--lang", "go", "--json=stream")
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var r evidence.Record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if err := r.Validate(); err != nil {
			t.Error(err)
		}
		got = append(got, fmt.Sprintf("%s %s %s %s %v", r.Provenance, r.Trust, r.Kind, r.Location(), r.Exact))
	}
	want := []string{
		"lexical weak structural_match m.go:3:6-3:12 false",
		"lexical weak structural_match m.go:5:4-5:10 false",
		"lexical weak structural_match m.go:6:22-6:28 false",
		"precision-index exact definition m.go:3:6-3:12 true",
		"precision-index exact reference m.go:6:22-6:28 true",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}

	// A source changed after the index: the symbol records are stale.
	now := time.Now()
	os.Chtimes(filepath.Join(dir, "m.go"), now, now)
	_, out, errOut = run(t, dir, nil, "search", "OldAPI($X)", "--lang", "go")
	if !strings.Contains(out, "m.go:3:6-3:12\tinferred_high (stale)\t") || !strings.Contains(errOut, "symbol search: stale") {
		t.Errorf("stale index: stdout\n%s\nstderr %q", out, errOut)
	}
}

// Without an index the fallback is lexical only and says why the symbol
// half is missing; with precision off it does not ask at all.
func TestSearchFallbackWithoutIndex(t *testing.T) {
	tests := []struct {
		name, config, inStderr string
	}{
		{"no index", `{"structural":{"enabled":false}}`, "note: symbol search: unavailable — symbol search failed: no precision index"},
		{"precision disabled", `{"structural":{"enabled":false},"precision_index":{"enabled":false}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := structuralProject(t, tt.config)
			code, out, errOut := run(t, dir, nil, "search", "old_api($X)", "--lang", "python")
			if code != ExitOK || !strings.Contains(out, "without structural precision") || strings.Contains(out, "symbol fallback") {
				t.Fatalf("exit %d, stdout:\n%s", code, out)
			}
			if tt.inStderr == "" && strings.Contains(errOut, "symbol") {
				t.Errorf("stderr mentions symbol search with precision off: %q", errOut)
			}
			if !strings.Contains(errOut, tt.inStderr) {
				t.Errorf("stderr %q does not have %q", errOut, tt.inStderr)
			}
		})
	}
}

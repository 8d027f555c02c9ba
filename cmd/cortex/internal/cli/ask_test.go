package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/evidence"
)

// TestAskJSONWithinBudget: the document ask --json prints, whole, fits its
// --budget, on one line, and says what the budget left out.
func TestAskJSONWithinBudget(t *testing.T) {
	dir := t.TempDir()
	var src strings.Builder
	src.WriteString("package p\n\nfunc run() {}\n\nfunc main() {\n")
	for range 400 {
		src.WriteString("\trun()\n")
	}
	src.WriteString("}\n")
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/p\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, budget := range []int{800, 3000} {
		code, out, errs := run(t, dir, nil, "ask", "--json", "--budget", fmt.Sprint(budget), "who calls run?")
		var ans struct {
			Records []evidence.Record
			Omitted map[string]int
		}
		if code != ExitOK || json.Unmarshal([]byte(out), &ans) != nil {
			t.Fatalf("budget %d: exit %d\n%.500s\n%s", budget, code, out, errs)
		}
		if n := evidence.EstimateTokens(len(out)); n > budget {
			t.Errorf("budget %d: the document is %d tokens", budget, n)
		}
		if strings.Count(out, "\n") != 1 {
			t.Errorf("budget %d: the document is %d lines, want one", budget, strings.Count(out, "\n"))
		}
		if len(ans.Records) == 0 || ans.Omitted[codecortex.OmittedForBudget] == 0 {
			t.Errorf("budget %d: %d records, omitted %v", budget, len(ans.Records), ans.Omitted)
		}
	}
}

package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/graph"
	"github.com/codecortex/codecortex/internal/mermaid"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/syntax"
)

func TestImpact(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":       "module example.com/m\n\ngo 1.22\n",
		"core.go":      "package m\n\nfunc Parse(s string) int {\n\treturn len(s)\n}\n",
		"use.go":       "package m\n\nfunc Load() int {\n\treturn Parse(\"x\")\n}\n",
		"core_test.go": "package m\n\nimport \"testing\"\n\nfunc TestParse(t *testing.T) {\n\tParse(\"y\")\n}\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := run(t, dir, nil, "impact", "core.go:4")
	if code != ExitOK {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	for _, want := range []string{"affected (1):", "function Parse", "use.go:4", "function Load", "core_test.go#TestParse"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, errOut = run(t, dir, nil, "impact", "--json", "Parse", "--depth", "1")
	if code != ExitOK {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	var im graph.Impact
	if err := json.Unmarshal([]byte(out), &im); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	// Load, TestParse, and the test file by its tests edge.
	if len(im.Affected) != 1 || len(im.Callers) != 3 || im.Depth != 1 || im.Mix.InferredHigh != 3 {
		t.Errorf("impact: %+v", im)
	}
	code, out, errOut = run(t, dir, nil, "impact", "--format", "mermaid", "core.go:4")
	if code != ExitOK {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	chart, err := mermaid.Parse(out)
	if err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if n := chart.Nodes[chart.Order[0]]; n.Class != "changed" || !strings.HasPrefix(n.Label, "function Parse\ncore.go:3") || len(chart.Edges) == 0 {
		t.Errorf("mermaid impact: %+v\n%s", chart, out)
	}
	if code, _, _ := run(t, dir, nil, "impact", "--format", "svg", "Parse"); code != ExitUsage {
		t.Errorf("--format svg: exit %d, want %d", code, ExitUsage)
	}
	if code, out, _ := run(t, dir, nil, "impact", "--format", "json", "Parse"); code != ExitOK || json.Unmarshal([]byte(out), &im) != nil {
		t.Errorf("--format json: exit %d: %s", code, out)
	}
	if code, _, _ := run(t, dir, nil, "impact", "NoSuchThing"); code != ExitFail {
		t.Errorf("unknown symbol: exit %d, want %d", code, ExitFail)
	}
	if code, _, _ := run(t, dir, nil, "impact"); code != ExitUsage {
		t.Errorf("no target: exit %d, want %d", code, ExitUsage)
	}
	if code, _, _ := run(t, dir, nil, "impact", "Parse", "--depth", "99"); code != ExitUsage {
		t.Errorf("--depth 99: exit %d, want %d", code, ExitUsage)
	}
}

// TestImpactSince: --since takes each changed file by the lines that
// differ, so a function the edit did not touch is not affected.
func TestImpactSince(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	git := testtool.Require(t, "git", "apt-get install git")
	dir := testtool.WriteTree(t, map[string]string{
		"go.mod":  "module example.com/m\n\ngo 1.22\n",
		"core.go": "package m\n\nfunc Parse(s string) int {\n\treturn len(s)\n}\n\nfunc Other() int {\n\treturn 1\n}\n",
		"use.go":  "package m\n\nfunc Load() int {\n\treturn Parse(\"x\") + Other()\n}\n",
	})
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-q", "-m", "start"}} {
		cmd := exec.Command(git, append([]string{"-c", "user.name=Ada", "-c", "user.email=ada@example.com"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	os.WriteFile(filepath.Join(dir, "core.go"), []byte("package m\n\nfunc Parse(s string) int {\n\treturn len(s) + 1\n}\n\nfunc Other() int {\n\treturn 1\n}\n"), 0o644)
	code, out, errOut := run(t, dir, nil, "impact", "--since", "HEAD", "--json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	var im graph.Impact
	if err := json.Unmarshal([]byte(out), &im); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var affected []string
	for _, h := range im.Affected {
		affected = append(affected, h.Name)
	}
	if len(affected) != 1 || affected[0] != "Parse" {
		t.Errorf("affected %v, want [Parse] (Other is unchanged)\n%s", affected, out)
	}
	if !strings.Contains(strings.Join(im.Notes, "\n"), "1 by the lines that differ") {
		t.Errorf("notes %q", im.Notes)
	}
}

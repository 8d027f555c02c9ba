package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/memory"
	"github.com/codecortex/codecortex/validation"
)

// gitProject is a Go module in a git repository with two commits, the
// second a squash of pull request #7, and an uncommitted edit.
func gitProject(t *testing.T) string {
	t.Helper()
	git := testtool.Require(t, "git", "apt-get install git")
	dir := testtool.WriteTree(t, map[string]string{
		"go.mod":  "module example.com/g\n\ngo 1.22\n",
		"main.go": "package main\n\nfunc main() {}\n",
	})
	g := func(args ...string) {
		t.Helper()
		cmd := exec.Command(git, append([]string{"-c", "user.name=Ada", "-c", "user.email=ada@example.com"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	g("init", "-q")
	g("add", ".")
	g("commit", "-q", "-m", "Start")
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() { println(1) }\n"), 0o644)
	g("commit", "-q", "-am", "Print a number (#7)")
	os.WriteFile(filepath.Join(dir, "new.go"), []byte("package main\n"), 0o644)
	return dir
}

func TestHistoryCommand(t *testing.T) {
	dir := gitProject(t)
	code, out, errs := run(t, dir, nil, "history", "main.go:3")
	if code != ExitOK || !strings.Contains(out, "main.go: 2 commits") || !strings.Contains(out, "Print a number (#7)  [#7]") ||
		!strings.Contains(out, "lines 3-3:") {
		t.Errorf("history main.go:3: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = run(t, dir, nil, "history")
	if code != ExitOK || !strings.Contains(out, "untracked new.go") {
		t.Errorf("history: exit %d\n%s", code, out)
	}
	code, out, _ = run(t, dir, nil, "history", "--since", "HEAD~1", "--json")
	var doc historyJSON
	if code != ExitOK || json.Unmarshal([]byte(out), &doc) != nil || doc.Changes == nil || len(doc.Changes.Commits) != 1 || doc.Changes.Commits[0].PR == nil {
		t.Errorf("history --since HEAD~1: exit %d\n%s", code, out)
	}
	if code, _, _ := run(t, dir, nil, "history", "--since", "no-such-rev"); code != ExitUsage {
		t.Errorf("an unknown revision: exit %d, want %d", code, ExitUsage)
	}
	if code, _, _ := run(t, t.TempDir(), nil, "history"); code != ExitFail {
		t.Errorf("outside git: exit %d, want %d", code, ExitFail)
	}
}

func TestMemoryCommands(t *testing.T) {
	dir := gitProject(t)
	env := map[string]string{"CODECORTEX_AUTHOR": "ada"}
	code, out, errs := run(t, dir, env, "remember", "--type", "decision", "--reason", "one binary", "--path", "main.go", "--json", "main stays tiny")
	var e memory.Entry
	if code != ExitOK || json.Unmarshal([]byte(out), &e) != nil || e.Author != "ada" || e.Scope.Paths[0] != "main.go" {
		t.Fatalf("remember: exit %d\n%s%s", code, out, errs)
	}
	if code, _, _ := run(t, dir, env, "remember", "--type", "whim", "x"); code != ExitUsage {
		t.Errorf("a bad type: exit %d", code)
	}
	code, out, _ = run(t, dir, env, "recall", "--path", "main.go")
	if code != ExitOK || !strings.Contains(out, e.ID) || !strings.Contains(out, "because one binary") {
		t.Errorf("recall: exit %d\n%s", code, out)
	}
	if code, out, _ := run(t, dir, env, "memory", "verify"); code != ExitOK || !strings.Contains(out, "1 entries, 1 intact") {
		t.Errorf("verify: exit %d\n%s", code, out)
	}
	if code, _, _ := run(t, dir, env, "forget", e.ID); code != ExitUsage {
		t.Errorf("forget without a reason: exit %d", code)
	}
	if code, _, errs := run(t, dir, env, "forget", e.ID, "--reason", "obsolete"); code != ExitOK {
		t.Errorf("forget: exit %d %s", code, errs)
	}
	if code, _, _ := run(t, dir, env, "recall", "--path", "main.go"); code != ExitFail {
		t.Errorf("recall after forget: exit %d", code)
	}
	audit, _ := os.ReadFile(filepath.Join(dir, ".codecortex/memory/audit.log"))
	if !strings.Contains(string(audit), "obsolete") || strings.Contains(string(audit), "main stays tiny") {
		t.Errorf("audit log:\n%s", audit)
	}
}

func TestValidateCommand(t *testing.T) {
	dir := gitProject(t)
	code, out, errs := run(t, dir, nil, "validate")
	if code != ExitOK || !strings.Contains(out, "passed  go build") || !strings.Contains(out, "passed  go vet") {
		t.Fatalf("validate: exit %d\n%s%s", code, out, errs)
	}
	os.WriteFile(filepath.Join(dir, "bad.go"), []byte("package main\n\nvar x int = \"s\"\n"), 0o644)
	code, out, _ = run(t, dir, nil, "validate", "--json")
	var o validation.Outcome
	if code != ExitFail || json.Unmarshal([]byte(out), &o) != nil || o.Passed || len(o.Results[0].Diagnostics) == 0 ||
		o.Results[0].Diagnostics[0].Path != "bad.go" || o.Results[0].Diagnostics[0].Line != 3 {
		t.Errorf("validate a broken module: exit %d\n%s", code, out)
	}
	// A question is answered from the stored results; it runs nothing.
	code, out, _ = run(t, dir, nil, "ask", "--json", "does it build?")
	if !strings.Contains(out, `"kind": "validation"`) || !strings.Contains(out, "bad.go") {
		t.Errorf("ask after validate: exit %d\n%s", code, out)
	}
}

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
)

var renameFiles = map[string]string{
	"go.mod": "module example.com/m\n\ngo 1.22\n",
	"cart/cart.go": `package cart

type Cart struct{ items []string }

func (c *Cart) Add(s string) { c.items = append(c.items, s) }

func (c *Cart) Total() int { return len(c.items) }
`,
	"main.go": `package main

import "example.com/m/cart"

func main() {
	c := &cart.Cart{}
	c.Add("a")
	println(c.Total())
}
`,
}

// renamePlanJSON is what a machine reads of cortex rename --json.
type renamePlanJSON struct {
	ID    string `json:"id"`
	Tier  string `json:"tier"`
	Files []struct {
		Path  string `json:"path"`
		Edits []struct {
			Line, Column int
			Tier         string `json:"tier"`
			Inferred     bool   `json:"inferred"`
		} `json:"edits"`
	} `json:"files"`
	Conflicts []struct {
		Kind, Path, Reason string
		Line               int
	} `json:"conflicts"`
	Guidance string `json:"guidance"`
}

func decodePlan(t *testing.T, stdout string) renamePlanJSON {
	t.Helper()
	var p renamePlanJSON
	if err := json.Unmarshal([]byte(stdout), &p); err != nil {
		t.Fatalf("rename --json printed no document: %v\n%s", err, stdout)
	}
	return p
}

// cortex rename with only name matches refuses and says what would make
// it precise; with --allow-inferred it previews, marking every edit
// inferred, in text and in the --json document (id, edits by file with
// their tier, conflicts); onto a taken name it is refused at the
// declaration with nothing written; the preview applies with cortex
// rewrite apply ID --yes.
func TestRenameCommand(t *testing.T) {
	if !cgoBuild {
		t.Skip("a rename from name matches finds the declaration in the syntax index, which needs cgo")
	}
	dir := testtool.WriteTree(t, renameFiles)
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	was := read("cart/cart.go") + read("main.go")

	code, stdout, stderr := run(t, dir, nil, "rename", "Cart.Total", "Size")
	if code != ExitFail || !strings.Contains(stdout, "imprecise") || !strings.Contains(stdout, "--allow-inferred") {
		t.Errorf("rename with name matches only (exit %d):\n%s%s", code, stdout, stderr)
	}

	code, stdout, stderr = run(t, dir, nil, "rename", "--allow-inferred", "Cart.Total", "Size")
	if code != ExitOK || !strings.Contains(stdout, "inferred edit cart/cart.go:7:16") || !strings.Contains(stdout, "inferred edit main.go:8:12") ||
		!strings.Contains(stdout, "apply it with: cortex rewrite apply ") {
		t.Errorf("rename --allow-inferred (exit %d):\n%s%s", code, stdout, stderr)
	}

	code, stdout, stderr = run(t, dir, nil, "rename", "--json", "--allow-inferred", "Cart.Total", "Add")
	taken := decodePlan(t, stdout)
	if code != ExitFail || taken.ID != "" || len(taken.Conflicts) == 0 || taken.Conflicts[0].Kind != "declared" ||
		taken.Conflicts[0].Path != "cart/cart.go" || taken.Conflicts[0].Line != 5 {
		t.Errorf("rename onto Cart.Add (exit %d): %+v\n%s", code, taken, stderr)
	}
	if read("cart/cart.go")+read("main.go") != was {
		t.Fatal("a refused or previewed rename changed the files")
	}

	code, stdout, stderr = run(t, dir, nil, "rename", "--json", "--allow-inferred", "Cart.Total", "Size")
	plan := decodePlan(t, stdout)
	edits := map[string]int{}
	for _, f := range plan.Files {
		for _, e := range f.Edits {
			edits[f.Path]++
			if !e.Inferred || e.Tier == "" || e.Tier == "exact" || e.Tier == "near_exact" {
				t.Errorf("%s:%d:%d: tier %q, inferred %v", f.Path, e.Line, e.Column, e.Tier, e.Inferred)
			}
		}
	}
	if code != ExitOK || plan.ID == "" || len(plan.Conflicts) != 0 || edits["cart/cart.go"] != 1 || edits["main.go"] != 1 {
		t.Fatalf("rename --json (exit %d): %+v\n%s", code, plan, stderr)
	}
	code, stdout, stderr = run(t, dir, nil, "rewrite", "apply", plan.ID, "--yes", "--no-validate")
	if code != ExitOK || !strings.Contains(read("main.go"), "c.Size()") || !strings.Contains(read("cart/cart.go"), "func (c *Cart) Size() int") {
		t.Errorf("rewrite apply (exit %d):\n%s%s\n%s", code, stdout, stderr, read("main.go"))
	}
}

// With --lsp and no SCIP index the edits come from gopls, each near_exact.
func TestRenameCommandLanguageServer(t *testing.T) {
	testtool.Require(t, "gopls", "bash .ci/install-precision.sh")
	dir := testtool.WriteTree(t, renameFiles)
	writeConfig(t, dir, `{"precision_index": {"language_server_timeout_seconds": 60}}`)
	code, stdout, stderr := run(t, dir, nil, "rename", "--json", "--lsp", "cart/cart.go:7:16", "Size")
	plan := decodePlan(t, stdout)
	n := 0
	for _, f := range plan.Files {
		for _, e := range f.Edits {
			n++
			if e.Tier != "near_exact" || e.Inferred {
				t.Errorf("%s:%d:%d: tier %q, inferred %v", f.Path, e.Line, e.Column, e.Tier, e.Inferred)
			}
		}
	}
	if code != ExitOK || plan.ID == "" || plan.Tier != "near_exact" || n != 2 {
		t.Errorf("rename --lsp (exit %d): %+v\n%s", code, plan, stderr)
	}
}

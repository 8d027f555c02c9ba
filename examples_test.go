package codecortex

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/precision"
	"github.com/codecortex/codecortex/seal"
)

// TestComposeAllFromOutside builds examples/compose-all as a module of its
// own in a directory outside this repository, its replace directive
// pointed at this checkout, and runs it on a small Go project indexed with
// scip-go. Outside the module, an import of an internal package cannot
// build, so this proves a host composes every layer with public APIs.
func TestComposeAllFromOutside(t *testing.T) {
	gobin := testtool.Require(t, "go", "install Go")
	scipGo := testtool.Require(t, "scip-go", "bash .ci/install-precision.sh")
	repo, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}

	// The example, copied where no go.mod of this repository is above it.
	src := filepath.Join("examples", "compose-all")
	work := t.TempDir()
	for _, name := range []string{"main.go", "go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "go.mod" {
			re := regexp.MustCompile(`(?m)^replace github.com/codecortex/codecortex => .*$`)
			if !re.Match(b) {
				t.Fatal("examples/compose-all/go.mod has no replace directive for the repository")
			}
			b = re.ReplaceAll(b, []byte("replace github.com/codecortex/codecortex => "+repo))
		}
		if err := os.WriteFile(filepath.Join(work, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	bin := filepath.Join(work, "compose-all")
	build := exec.CommandContext(ctx, gobin, "build", "-o", bin, ".")
	build.Dir = work
	build.Env = append(os.Environ(), "GOFLAGS=-mod=readonly", "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the example outside the repository failed: %v\n%s", err, out)
	}

	// A project with an index, a manifest and a question about both.
	proj := testtool.WriteTree(t, map[string]string{
		"go.mod":       "module example.com/shop\n\ngo 1.22\n",
		"cart/cart.go": "package cart\n\n// Cart holds items.\ntype Cart struct{ items []string }\n\n// Add puts an item in the cart.\nfunc (c *Cart) Add(item string) { c.items = append(c.items, item) }\n",
		"main.go":      "package main\n\nimport \"example.com/shop/cart\"\n\nfunc main() {\n\tvar c cart.Cart\n\tc.Add(\"apple\")\n}\n",
		"package.json": `{"name": "shop-ui", "dependencies": {"left-pad": "^1.3.0"}}`,
	})
	index := exec.CommandContext(ctx, scipGo, "--output", "index.scip")
	index.Dir = proj
	if out, err := index.CombinedOutput(); err != nil {
		t.Fatalf("scip-go: %v\n%s", err, out)
	}
	// The user who generated the index vouches for it, with the key the
	// example's process will find.
	xdg := t.TempDir()
	pv := precision.New(precision.Options{Dir: proj, NoSnapshot: true, Seal: seal.KeyStore{Path: filepath.Join(xdg, "codecortex", "seal.key")}})
	if _, err := pv.Accept(ctx); err != nil {
		t.Fatal(err)
	}
	pv.Close()
	run := exec.CommandContext(ctx, bin, "-C", proj, "-pos", "main.go:7:4", "-text", "where is Cart.Add defined? does left-pad matter?")
	run.Env = append(os.Environ(), "XDG_CONFIG_HOME="+xdg)
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("compose-all: %v\n%s", err, out)
	}
	got := string(out)
	for _, want := range []string{
		"question: main.go:7:4",
		"precision: available",
		`"kind":"definition","trust":"exact"`, // Add's definition, from the index
		"cart/cart.go",
		"question: where is Cart.Add defined?",
		"structural: ",
		"local-index: available",
		`"symbol":"cart.Cart.Add"`, // the local index's chunk that defines Add
		"dependency-manifests: available",
		"left-pad",
		"dependency-docs: disabled",
		"graph: available",
		"history: ",
		"memory: available",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

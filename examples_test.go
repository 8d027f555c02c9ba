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

// TestExamplesFromOutside builds the host templates examples/compose-all
// and examples/compose-by-hand as a module of their own in a directory
// outside this repository, its replace directive pointed at this
// checkout, and runs each on a small Go project indexed with scip-go.
// Outside the module, an import of an internal package cannot build, so
// this proves a host composes the layers, through the engine or by hand,
// with public APIs alone.
func TestExamplesFromOutside(t *testing.T) {
	gobin := testtool.Require(t, "go", "install Go")
	scipGo := testtool.Require(t, "scip-go", "bash .ci/install-precision.sh")
	repo, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}

	// The examples, copied where no go.mod of this repository is above
	// them, in a module that requires this one (replaced by the checkout)
	// at the versions of its requirements, with its checksums: the build
	// needs no network.
	work := t.TempDir()
	examples := []string{"compose-all", "compose-by-hand"}
	for _, name := range examples {
		b, err := os.ReadFile(filepath.Join("examples", name, "main.go"))
		if err != nil {
			t.Fatal(err)
		}
		testtool.WriteFiles(t, work, map[string]string{name + "/main.go": string(b)})
	}
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile("go.sum")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^module .*$`)
	if !re.Match(mod) {
		t.Fatal("go.mod has no module line")
	}
	mod = re.ReplaceAll(mod, []byte("module example.com/hosts"))
	mod = append(mod, "\nrequire github.com/codecortex/codecortex v0.0.0\n\nreplace github.com/codecortex/codecortex => "+repo+"\n"...)
	testtool.WriteFiles(t, work, map[string]string{"go.mod": string(mod), "go.sum": string(sum)})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	bins := filepath.Join(work, "bin")
	build := exec.CommandContext(ctx, gobin, "build", "-o", bins+string(filepath.Separator), "./...")
	build.Dir = work
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOPROXY=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the examples outside the repository failed: %v\n%s", err, out)
	}

	// A project with a precision index.
	proj := testtool.WriteTree(t, map[string]string{
		"go.mod":       "module example.com/shop\n\ngo 1.22\n",
		"cart/cart.go": "package cart\n\n// Cart holds items.\ntype Cart struct{ items []string }\n\n// Add puts an item in the cart.\nfunc (c *Cart) Add(item string) { c.items = append(c.items, item) }\n",
		"main.go":      "package main\n\nimport \"example.com/shop/cart\"\n\nfunc main() {\n\tvar c cart.Cart\n\tc.Add(\"apple\")\n}\n",
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
	// What each example prints: the definition of Add, from the precision
	// index, for the position and for the question in words (where the
	// local index's own finding is filed under it), and each layer's
	// state.
	want := []string{
		"question: main.go:7:4",
		"precision: available, 1 records",
		`"kind":"definition","trust":"exact","via":"precision-index","loc":"cart/cart.go:7:16-7:19"`,
		"question: where is Cart.Add defined?",
		"local-index: available, 1 records",
	}
	for _, name := range examples {
		t.Run(name, func(t *testing.T) {
			run := exec.CommandContext(ctx, filepath.Join(bins, name), "-C", proj, "-pos", "main.go:7:4", "-text", "where is Cart.Add defined?")
			run.Env = append(os.Environ(), "XDG_CONFIG_HOME="+xdg)
			out, err := run.CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v\n%s", name, err, out)
			}
			got := string(out)
			for _, w := range want {
				if !strings.Contains(got, w) {
					t.Errorf("output lacks %q:\n%s", w, got)
				}
			}
		})
	}
}

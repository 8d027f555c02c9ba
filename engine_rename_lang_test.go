package codecortex

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/rewrite"
	"github.com/codecortex/codecortex/trust"
)

// renameTSFiles and renamePyFiles are small TypeScript and Python
// projects, each with two classes that have an add method, so that only
// a rename by identity leaves Basket.add alone.
var renameTSFiles = map[string]string{
	"tsconfig.json": `{"compilerOptions": {"target": "es2020", "module": "commonjs", "strict": true, "noEmit": true}, "include": ["src"]}` + "\n",
	"src/cart.ts": `export class Cart {
  private items: string[] = [];

  add(item: string): void {
    this.items.push(item);
  }

  count(): number {
    return this.items.length;
  }
}

export class Basket {
  n = 0;
  add(item: string): void {
    this.n += item.length;
  }
}

export function fill(c: Cart, items: string[]): number {
  let total = 0;
  for (const it of items) {
    c.add(it);
    total++;
  }
  return total;
}
`,
	"src/main.ts": `import { Cart, Basket, fill } from "./cart";

const c = new Cart();
c.add("apple");
const b = new Basket();
b.add("plum");
console.log(c.count(), fill(c, ["fig"]));
`,
}

var renamePyFiles = map[string]string{
	"shop/__init__.py": "",
	"shop/cart.py": `class Cart:
    def __init__(self):
        self.items = []

    def add(self, item):
        self.items.append(item)

    def count(self):
        return len(self.items)


class Basket:
    def __init__(self):
        self.n = 0

    def add(self, item):
        self.n += 1


def fill(c: Cart, items):
    total = 0
    for it in items:
        c.add(it)
        total += 1
    return total
`,
	"main.py": `from shop.cart import Basket, Cart, fill


def main():
    c = Cart()
    c.add("apple")
    b = Basket()
    b.add("plum")
    print(c.count(), fill(c, ["fig"]))
`,
}

// indexWith indexes dir with the language's real SCIP indexer and
// vouches for the index.
func indexWith(t *testing.T, lang, dir string) {
	t.Helper()
	var exe string
	var args []string
	switch lang {
	case "typescript":
		exe = testtool.Require(t, "scip-typescript", "bash .ci/install-precision.sh")
		args = []string{"index", "--output", "index.scip"}
	case "python":
		exe = testtool.Require(t, "scip-python", "bash .ci/install-precision.sh")
		// An empty environment: no pip run, as precision's real-index tests do.
		env := filepath.Join(t.TempDir(), "environment.json")
		if err := os.WriteFile(env, []byte("[]"), 0o644); err != nil {
			t.Fatal(err)
		}
		args = []string{"index", ".", "--project-name", "shop", "--project-version", "0.1.0", "--environment", env, "--output", "index.scip"}
	}
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", exe, err, out)
	}
	acceptIndex(t, dir)
}

// TestRenameOtherLanguages renames a method in TypeScript and Python from
// their real SCIP indexes: onto a taken name it is refused with nothing
// written; otherwise it applies, Basket.add is left alone, the project
// still type-checks (tsc, when installed; Python compiles), and the
// re-indexed new name has as many references as the old.
func TestRenameOtherLanguages(t *testing.T) {
	tests := []struct {
		lang   string
		files  map[string]string
		check  []string // a command that must pass after the rename; skipped when absent
		sample string   // a file, to see Basket.add left alone
		keep   string
	}{
		{"typescript", renameTSFiles, []string{"tsc", "--noEmit", "-p", "."}, "src/main.ts", `b.add("plum")`},
		{"python", renamePyFiles, []string{"python3", "-m", "compileall", "-q", "."}, "main.py", `b.add("plum")`},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			dir := testtool.WriteTree(t, tt.files)
			indexWith(t, tt.lang, dir)
			e := openEngine(t, dir, Options{})
			sample := func() string { b, _ := os.ReadFile(filepath.Join(dir, tt.sample)); return string(b) }
			was := sample()
			plan, err := e.Rename(ctx, RenameRequest{Target: Target{Symbol: "Cart.add"}, NewName: "count"})
			if !errors.Is(err, ErrRenameRefused) || plan.Conflicts[0].Kind != ConflictDeclared || sample() != was {
				t.Fatalf("a rename onto Cart.count: %v %+v", err, plan)
			}
			old := countRefs(t, e, "Cart.add")
			plan, err = e.Rename(ctx, RenameRequest{Target: Target{Symbol: "Cart.add"}, NewName: "put"})
			if err != nil {
				t.Fatalf("%v %+v", err, plan.Conflicts)
			}
			if plan.Tier != trust.Exact || plan.Edits() != old || old < 3 {
				t.Fatalf("tier %s, %d edits for %d references", plan.Tier, plan.Edits(), old)
			}
			if res, err := e.ApplyRewrite(ctx, plan.ID, rewrite.Authorization{Principal: "alice", SkipValidation: true}); err != nil || !res.OK() {
				t.Fatalf("apply: %v %+v", err, res)
			}
			if s := sample(); s == was || !strings.Contains(s, tt.keep) {
				t.Errorf("%s after the rename:\n%s", tt.sample, s)
			}
			if exe, err := exec.LookPath(tt.check[0]); err == nil {
				cmd := exec.Command(exe, tt.check[1:]...)
				cmd.Dir = dir
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("%v after the rename: %v\n%s", tt.check, err, out)
				}
			} else {
				t.Logf("%s is not installed: the project is not checked after the rename", tt.check[0])
			}
			indexWith(t, tt.lang, dir)
			if n := countRefs(t, openEngine(t, dir, Options{}), "Cart.put"); n != old {
				t.Errorf("Cart.put has %d references after the rename, Cart.add had %d", n, old)
			}
		})
	}
}

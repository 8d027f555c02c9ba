package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/syntax"
)

// The template previews a migration and a host edit, refuses to apply
// without a principal, and applies both with one.
func TestGuardedMigration(t *testing.T) {
	if !syntax.Available {
		t.Skip("the built-in structural engine needs cgo")
	}
	dir := testtool.WriteTree(t, map[string]string{
		"app.py":       "import api\n\n\ndef main():\n    api.old_api(1, 2)\n    api.old_api(api.old_api(3))\n",
		"CHANGELOG.md": "# Changes\n",
	})
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // no user trust store
	ctx := context.Background()
	var out bytes.Buffer
	err := run(ctx, []string{"-C", dir, "-p", "api.old_api($$$A)", "-r", "api.new_api($$$A)", "-l", "python", "-note", "- old_api is now new_api"}, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, want := range []string{"-    api.old_api(1, 2)\n", "+    api.new_api(1, 2)\n", "2 matches in 1 files (1 nested", "+- old_api is now new_api\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	ids := regexp.MustCompile(`preview ([0-9a-f]{24}) expires`).FindAllStringSubmatch(out.String(), -1)
	if len(ids) != 2 {
		t.Fatalf("preview ids: %v\n%s", ids, out.String())
	}
	if err := run(ctx, []string{"-C", dir, "-apply", ids[0][1]}, &out); err == nil {
		t.Fatal("an apply without a principal was not refused")
	}
	for _, id := range ids {
		out.Reset()
		if err := run(ctx, []string{"-C", dir, "-apply", id[1], "-as", "alice"}, &out); err != nil {
			t.Fatalf("apply %s: %v\n%s", id[1], err, out.String())
		}
		if !strings.Contains(out.String(), "applied: ") {
			t.Errorf("apply output:\n%s", out.String())
		}
	}
	for name, want := range map[string]string{
		"app.py":       "import api\n\n\ndef main():\n    api.new_api(1, 2)\n    api.new_api(api.old_api(3))\n",
		"CHANGELOG.md": "# Changes\n- old_api is now new_api\n",
	} {
		if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) != want {
			t.Errorf("%s:\n%s\nwant:\n%s", name, b, want)
		}
	}
}

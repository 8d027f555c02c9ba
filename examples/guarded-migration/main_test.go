package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/rewrite"
	"github.com/codecortex/codecortex/syntax"
)

// TestMain keeps the tests away from the user's seal key.
func TestMain(m *testing.M) {
	cleanup := testtool.IsolateUserConfig()
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// TestPreviewThenApply runs the template on a small Python project: the
// preview changes nothing and prints the diff and an id for the migration
// and for the changelog line; an apply without a principal is refused;
// the apply as alice replaces the calls, and validation is skipped (the
// project has no commands to run).
func TestPreviewThenApply(t *testing.T) {
	if !syntax.Available {
		t.Skip("the built-in structural engine needs cgo")
	}
	ctx := context.Background()
	dir := testtool.WriteTree(t, map[string]string{
		"app.py":       "from lib import old_api\n\nprint(old_api(1, 2))\nold_api(3)\n",
		"CHANGELOG.md": "# Changes\n",
	})
	var out strings.Builder
	if err := run(ctx, []string{"-C", dir, "-p", "old_api($$$A)", "-r", "new_api($$$A)", "-l", "python", "-note", "- old_api is now new_api"}, &out); err != nil {
		t.Fatalf("preview: %v\n%s", err, out.String())
	}
	ids := regexp.MustCompile(`(?m)^preview ([0-9a-f]{24}) expires`).FindAllStringSubmatch(out.String(), -1)
	if len(ids) != 2 || !strings.Contains(out.String(), "+print(new_api(1, 2))") || !strings.Contains(out.String(), "+- old_api is now new_api") {
		t.Fatalf("the preview's output:\n%s", out.String())
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "app.py")); !strings.Contains(string(b), "old_api(3)") {
		t.Fatalf("the preview changed app.py:\n%s", b)
	}

	out.Reset()
	if err := run(ctx, []string{"-C", dir, "-apply", ids[0][1]}, &out); !errors.Is(err, rewrite.ErrUnauthorized) {
		t.Errorf("an apply without a principal: %v, want rewrite.ErrUnauthorized", err)
	}
	out.Reset()
	if err := run(ctx, []string{"-C", dir, "-apply", ids[0][1], "-as", "alice"}, &out); err != nil {
		t.Fatalf("apply: %v\n%s", err, out.String())
	}
	for _, want := range []string{"applied: 2 matches in 1 files", "validation: skipped", "reindex: local index none"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the apply's output lacks %q:\n%s", want, out.String())
		}
	}
	want := "from lib import old_api\n\nprint(new_api(1, 2))\nnew_api(3)\n"
	if b, _ := os.ReadFile(filepath.Join(dir, "app.py")); string(b) != want {
		t.Errorf("app.py after the apply:\n%s\nwant\n%s", b, want)
	}
}

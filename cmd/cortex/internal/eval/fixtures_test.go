package eval

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/config"
	"github.com/codecortex/codecortex/internal/testtool"
)

// The shipped fixtures, each asked in the state it describes; every one
// must reach its gate. The figures are logged for the README.
func TestCobraFixtures(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes cobra v1.10.2 with scip-go")
	}
	scipGo := testtool.Require(t, "scip-go", "bash .ci/install-precision.sh")
	gobin := testtool.Require(t, "go", "install Go")
	dir := testtool.ModuleCopy(t, testtool.Cobra)
	run(t, dir, gobin, "mod", "download")
	run(t, dir, scipGo, "--output", "index.scip")
	// Sources older than the index, as after a real indexing run.
	setTimes(t, dir, time.Now().Add(-time.Hour), ".go")
	acceptIndex(t, dir)
	gitHistory(t, dir)

	check(t, dir, "testdata/cobra.json")

	setTimes(t, dir, time.Now().Add(time.Hour), ".go")
	check(t, dir, "testdata/cobra-stale.json")

	if err := os.Remove(filepath.Join(dir, "index.scip")); err != nil {
		t.Fatal(err)
	}
	check(t, dir, "testdata/cobra-noindex.json")
}

// This repository's own fixture, on a copy of its sources with no
// precision index.
func TestThisRepositoryFixture(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes this repository")
	}
	dir := t.TempDir()
	err := filepath.WalkDir("../../../..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("../../../..", p)
		if d.IsDir() {
			if n := d.Name(); rel != "." && (strings.HasPrefix(n, ".") || n == "testdata") {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		if !strings.HasSuffix(p, ".go") && rel != "go.mod" && rel != "README.md" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	gitHistory(t, dir)
	check(t, dir, "testdata/codecortex.json")
}

// gitHistory commits the tree and then edits README.md, so that "what
// changed?" has one answer.
func gitHistory(t *testing.T, dir string) {
	t.Helper()
	git := testtool.Require(t, "git", "apt-get install git")
	run(t, dir, git, "init", "-q")
	// The precision index is a build artifact, kept out as projects do.
	if err := os.WriteFile(filepath.Join(dir, ".git", "info", "exclude"), []byte("index.scip\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, dir, git, "add", ".")
	run(t, dir, git, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "import")
	f, err := os.OpenFile(filepath.Join(dir, "README.md"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\nOne more line.\n")
	f.Close()
}

func check(t *testing.T, dir, fixture string) {
	t.Helper()
	fh, err := os.Open(fixture)
	if err != nil {
		t.Fatal(err)
	}
	fx, err := Parse(fh)
	fh.Close()
	if err != nil {
		t.Fatal(err)
	}
	eng, err := codecortex.Open(dir, codecortex.Options{Project: config.ProjectOptions{Trust: config.TrustNever}})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	res, err := Run(context.Background(), eng, fx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: top-1 %.0f%%, top-3 %.0f%%, tier %.0f%%, %d of %d tokens (the cited files: %d), %d questions",
		res.Name, 100*res.Top1, 100*res.Top3, 100*res.Tier, res.TokensUsed, res.TokensBudget, res.TokensCited, res.Cases)
	for _, f := range res.Failures {
		t.Logf("  miss %q: want %s, got %s (rank %d): %s", f.Question, f.Want, f.Got, f.Rank, f.Why)
	}
	if !res.Passed {
		t.Errorf("%s is below its gate %+v", fixture, fx.Gate)
	}
}

func run(t *testing.T, dir, exe string, args ...string) {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", exe, args, err, out)
	}
}

func setTimes(t *testing.T, dir string, when time.Time, ext string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ext) {
			os.Chtimes(p, when, when)
		}
		return nil
	})
}

package depdocs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
)

// copyCorpus copies corpus files (relative to testdata/corpus) into a new
// temporary directory, keeping their relative paths, and returns it.
func copyCorpus(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join("testdata", "corpus", filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestGoBuildListTruth reproduces the Go truth rows that only the module
// graph gives (modules go.mod does not name) with the go command's
// minimal version selection, fetching go.mod files through the module
// proxy. etcd's workspace modules, which the corpus lacks, come from
// testdata/etcd (the same commit): 177 modules in module mode, 557 with
// go.work.
func TestGoBuildListTruth(t *testing.T) {
	testtool.Require(t, "go", "the Go toolchain (already on CI machines)")
	tools := []string{"go/tools/go.mod", "go/tools/go.sum", "go/tools/gopls/go.mod", "go/tools/gopls/go.sum"}
	for _, c := range []struct {
		truth, dir string
		etcd       bool
		workspace  bool
	}{
		{"go__tools__go.mod.tsv", "go/tools", false, false},
		{"go__tools__gopls__go.mod.tsv", "go/tools/gopls", false, false},
		{"go__etcd__go.mod.tsv", ".", true, false},
		{"go__etcd__go.work(workspace-mode).tsv", ".", true, true},
	} {
		t.Run(c.truth, func(t *testing.T) {
			var dir string
			if c.etcd {
				dir = copyTestdata(t, "etcd")
			} else {
				dir = copyCorpus(t, tools...)
			}
			f, err := GoBuildList(context.Background(), dir, c.dir, GoBuildOptions{Online: true, Workspace: c.workspace})
			if err != nil {
				t.Fatal(err)
			}
			if want := map[bool]Mode{false: ModeModule, true: ModeWorkspace}[c.workspace]; f.Mode != want {
				t.Errorf("mode %q, want %q", f.Mode, want)
			}
			rows := readTruth(t, c.truth)
			for _, r := range rows {
				if r.relation == "main-module" {
					r.declared = ""
				}
				found := false
				for i := range f.Deps {
					if matches(r, &f.Deps[i]) || r.relation == "main-module" && f.Deps[i].Name == r.name && f.Deps[i].Relation == Root {
						found = true
					}
				}
				if !found {
					t.Errorf("line %d: %s %s %s not in the build list", r.line, r.name, r.resolved, r.relation)
				}
			}
			if len(f.Deps) != len(rows) {
				t.Errorf("build list has %d modules, truth %d", len(f.Deps), len(rows))
			}
		})
	}
}

// TestGoWorkspaceMode: go.work switches the scan to workspace mode and
// names its modules.
func TestGoWorkspaceMode(t *testing.T) {
	p, err := Scan(copyCorpus(t, "go/etcd/go.work", "go/etcd/go.mod", "go/etcd/api/go.mod"), ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.GoMode != ModeWorkspace {
		t.Errorf("GoMode = %q, want workspace", p.GoMode)
	}
	var work *File
	for _, f := range p.Files {
		if f.Format == FormatGoWork {
			work = f
		}
	}
	if work == nil || len(work.Includes) != 14 || !strings.HasSuffix(work.Includes[1], "api/go.mod") {
		t.Fatalf("go.work includes = %v", work)
	}
}

// TestAddGoBuildList: the project's go.mod rows give way to the build list
// (gopls: 43 modules where go.mod names 29), in module mode.
func TestAddGoBuildList(t *testing.T) {
	testtool.Require(t, "go", "the Go toolchain (already on CI machines)")
	dir := copyCorpus(t, "go/tools/go.mod", "go/tools/go.sum", "go/tools/gopls/go.mod", "go/tools/gopls/go.sum")
	p, err := Scan(dir, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p.AddGoBuildList(context.Background(), dir, GoBuildOptions{Online: true})
	if len(p.Errors) != 0 {
		t.Fatal(p.Errors)
	}
	n := 0
	for _, d := range p.Deps {
		if d.File == "go/tools/gopls/go.mod" {
			n++
		}
	}
	if n != 43 || p.GoMode != ModeModule {
		t.Errorf("%d rows for gopls, mode %s; want 43, module", n, p.GoMode)
	}
}

// copyTestdata copies a directory of testdata into a new temporary
// directory and returns it.
func copyTestdata(t *testing.T, name string) string {
	t.Helper()
	dst := t.TempDir()
	src := filepath.Join("testdata", name)
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

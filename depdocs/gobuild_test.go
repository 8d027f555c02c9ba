package depdocs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/mod/modfile"

	"github.com/codecortex/codecortex/internal/contain"

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

// hashTree returns the content hash of every file and the names of every
// directory under dir, keyed by slash path.
func hashTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			out[rel+"/"] = "dir"
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		out[rel] = hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGoBuildListLeavesProjectAlone: computing the build list writes
// nothing in the project, not even what the go command writes as it
// resolves (a missing go line, go.sum, go.work.sum): the whole tree hashes
// the same before and after, in module and workspace mode, on real
// modules and on one whose go.mod has no go line and no go.sum.
func TestGoBuildListLeavesProjectAlone(t *testing.T) {
	testtool.Require(t, "go", "the Go toolchain (already on CI machines)")
	bare := func() string {
		return writeProject(t, map[string]string{"go.mod": "module example.com/m\n\nrequire github.com/pkg/errors v0.9.1\n"})
	}
	for _, c := range []struct {
		name      string
		dir       func() string
		rel       string
		workspace bool
		check     func(t *testing.T, f *File)
	}{
		{"no go line, no go.sum", bare, ".", false, func(t *testing.T, f *File) {
			var got []string
			for _, d := range f.Deps {
				got = append(got, fmt.Sprintf("%s %s %s line %d", d.Name, d.Resolved, d.Relation, d.Line))
			}
			want := []string{"example.com/m  root line 1", "github.com/pkg/errors v0.9.1 direct line 3"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		}},
		{"gopls", func() string {
			return copyCorpus(t, "go/tools/go.mod", "go/tools/go.sum", "go/tools/gopls/go.mod", "go/tools/gopls/go.sum")
		}, "go/tools/gopls", false, nil},
		{"etcd module", func() string { return copyTestdata(t, "etcd") }, ".", false, nil},
		{"etcd workspace", func() string { return copyTestdata(t, "etcd") }, ".", true, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := c.dir()
			before := hashTree(t, dir)
			f, err := GoBuildList(context.Background(), dir, c.rel, GoBuildOptions{Online: true, Workspace: c.workspace})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(before, hashTree(t, dir)); diff != "" {
				t.Errorf("the project changed (-before +after)\n%s", diff)
			}
			if len(f.Deps) < 2 {
				t.Errorf("build list of %d modules", len(f.Deps))
			}
			if c.check != nil {
				c.check(t, f)
			}
			// The project scan's build list leaves it alone too.
			p, err := Scan(dir, ScanOptions{})
			if err != nil {
				t.Fatal(err)
			}
			p.AddGoBuildList(context.Background(), dir, GoBuildOptions{Online: true})
			if len(p.Errors) != 0 {
				t.Error(p.Errors)
			}
			if diff := cmp.Diff(before, hashTree(t, dir)); diff != "" {
				t.Errorf("AddGoBuildList changed the project (-before +after)\n%s", diff)
			}
		})
	}
}

// TestGoWorkCopy: the copy of go.work names the workspace's directories
// (use and local replace) by absolute path, so the go command reads the
// project's modules while its own writes go to the copy.
func TestGoWorkCopy(t *testing.T) {
	dir := writeProject(t, map[string]string{
		"go.work": "go 1.22\n\nuse (\n\t.\n\t./a\n)\n\nreplace x.org/y v1.0.0 => ./y\nreplace x.org/z => x.org/w v1.2.0\n",
	})
	root, err := openDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	tmp := t.TempDir()
	flags, gowork, err := copyGoFiles(root, "", root.Dir(), tmp, true)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(gowork)
	if err != nil {
		t.Fatal(err)
	}
	wf, err := modfile.ParseWork("go.work", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range wf.Use {
		got = append(got, "use "+u.Path)
	}
	for _, r := range wf.Replace {
		got = append(got, "replace "+r.Old.Path+" => "+r.New.Path+" "+r.New.Version)
	}
	want := []string{"use " + root.Dir(), "use " + filepath.Join(root.Dir(), "a"),
		"replace x.org/y => " + filepath.Join(root.Dir(), "y") + " ", "replace x.org/z => x.org/w v1.2.0"}
	if diff := cmp.Diff(want, got); diff != "" || filepath.Dir(gowork) != tmp || !slices.Equal(flags, []string{"-mod=readonly"}) {
		t.Errorf("go.work copy %s, flags %v (-want +got)\n%s", gowork, flags, diff)
	}
}

// TestGoBuildListStaysInside: the module directory must be inside the
// project; a missing go.mod is an error before the go command runs.
func TestGoBuildListStaysInside(t *testing.T) {
	dir := writeProject(t, map[string]string{"a/go.mod": "module a\n", "b/x.txt": "x"})
	if _, err := GoBuildList(context.Background(), filepath.Join(dir, "a"), "../b", GoBuildOptions{}); !errors.Is(err, contain.ErrEscape) {
		t.Errorf("escaping directory: %v", err)
	}
	if _, err := GoBuildList(context.Background(), dir, "b", GoBuildOptions{}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("no go.mod: %v", err)
	}
}

package contain

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestMkdirStateRefusesLinks: a link shipped where state lives (the state
// directory itself, or one under it) is refused, never followed, and
// nothing is created where it points.
func TestMkdirStateRefusesLinks(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		p     string
	}{
		{"state directory is a link", func(t *testing.T, dir string) {
			mkdir(t, filepath.Join(dir, "src"))
			symlink(t, "src", filepath.Join(dir, ".codecortex"))
		}, ".codecortex/index"},
		{"a directory under it is a link", func(t *testing.T, dir string) {
			mkdir(t, filepath.Join(dir, ".codecortex"))
			mkdir(t, filepath.Join(dir, "src"))
			symlink(t, "../src", filepath.Join(dir, ".codecortex", "index"))
		}, ".codecortex/index"},
		{"the last element is a link to git", func(t *testing.T, dir string) {
			mkdir(t, filepath.Join(dir, ".git", "hooks"))
			mkdir(t, filepath.Join(dir, ".codecortex", "rewrite"))
			symlink(t, "../../.git/hooks", filepath.Join(dir, ".codecortex", "rewrite", "journal"))
		}, ".codecortex/rewrite/journal"},
		{"an element is a file", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, ".codecortex"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}, ".codecortex/memory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tt.setup(t, dir)
			r, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			before := listTree(t, dir)
			err = r.MkdirState(tt.p, 0o755)
			if !errors.Is(err, ErrLinkedState) {
				t.Fatalf("MkdirState(%q) = %v, want ErrLinkedState", tt.p, err)
			}
			if err := r.WriteStateFile(tt.p+"/x", []byte("state"), 0o644); !errors.Is(err, ErrLinkedState) {
				t.Fatalf("WriteStateFile under %q = %v, want ErrLinkedState", tt.p, err)
			}
			if after := listTree(t, dir); after != before {
				t.Errorf("the tree changed:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

func TestMkdirStateCreates(t *testing.T) {
	dir := t.TempDir()
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.MkdirState(".codecortex/a/b", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := r.MkdirState(".codecortex/a/b", 0o755); err != nil {
		t.Fatalf("a second MkdirState: %v", err)
	}
	if fi, err := os.Stat(filepath.Join(dir, ".codecortex", "a", "b")); err != nil || !fi.IsDir() {
		t.Fatalf("not created: %v", err)
	}
}

// TestWriteStateFileReplacesLink: a link at the state file's own name is
// replaced by the file; what it pointed to keeps its content.
func TestWriteStateFileReplacesLink(t *testing.T) {
	dir := t.TempDir()
	mkdir(t, filepath.Join(dir, ".codecortex"))
	target := filepath.Join(dir, "main.go")
	if err := os.WriteFile(target, []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	symlink(t, "../main.go", filepath.Join(dir, ".codecortex", "state.json"))
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.WriteStateFile(".codecortex/state.json", []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "package main\n" {
		t.Errorf("the link's target was written: %q", b)
	}
	fi, err := os.Lstat(filepath.Join(dir, ".codecortex", "state.json"))
	if err != nil || !fi.Mode().IsRegular() {
		t.Errorf("the state file is not a regular file: %v %v", fi, err)
	}
}

func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, old, new string) {
	t.Helper()
	if err := os.Symlink(old, new); err != nil {
		t.Fatal(err)
	}
}

// listTree names every entry under dir with its type and size.
func listTree(t *testing.T, dir string) string {
	t.Helper()
	var out string
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out += rel + " " + fi.Mode().String() + "\n"
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

package contain

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// TestDirCacheOpensWhatFSOpens: a DirCache opens what the root's FS
// opens, with the same content, and refuses what it refuses (links out,
// absolute links, "..", loops), whatever directory it has open before.
func TestDirCacheOpensWhatFSOpens(t *testing.T) {
	fx := newFixture(t)
	names := []string{
		"file.txt", "dir/file.txt", "dir/sub/deep.txt", "dir/sub/.keep", "．．/x.txt", "emptydir/.gitignore",
		"in-rel/sub/deep.txt", "in-abs/file.txt", "in-given/file.txt", "chain-in/file.txt",
		"deeplink/deep.txt", "dir/link-sub/deep.txt", "to-root/file.txt", "dir/up/file.txt",
		"link-file", "rel-back", "dangling-in", "missing.txt", "dir/missing.txt", "nodir/x",
		"out-abs/secret.txt", "out-rel/secret.txt", "out-file", "out-root/etc/passwd", "chain-out/secret.txt",
		"dir/up2/outside/secret.txt", "leave-back", "dangling-out", "self", "loop-a",
		"../outside/secret.txt", "/etc/passwd", "dir/../file.txt", "", ".", "dir", "dir/",
	}
	read := func(open func(string) (fs.File, error), name string) (string, bool) {
		f, err := open(name)
		if err != nil {
			return "", false
		}
		defer f.Close()
		b, err := io.ReadAll(f)
		if err != nil {
			return "", false
		}
		return string(b), true
	}
	fsys := fx.root.FS()
	c := fx.root.DirCache()
	defer c.Close()
	for round := range 3 {
		rand.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
		for _, name := range names {
			want, wantOK := read(fsys.Open, name)
			got, gotOK := read(c.Open, name)
			if got != want || gotOK != wantOK {
				t.Errorf("round %d: %q: DirCache read %q (ok %v), FS %q (ok %v)", round, name, got, gotOK, want, wantOK)
			}
		}
	}
	if _, ok := read(c.Open, "out-file"); ok {
		t.Error("DirCache read a link to a file outside the root")
	}
}

// TestDirCacheSize: a DirCache gives the size of the regular files the
// root lstats, and nothing for a directory, a link (inside or out), a
// missing file or a path that leaves the root, whatever directory it has
// open before.
func TestDirCacheSize(t *testing.T) {
	fx := newFixture(t)
	names := []string{
		"file.txt", "dir/file.txt", "dir/sub/deep.txt", "dir/sub/.keep", "emptydir/.gitignore",
		"link-file", "out-file", "dangling-in", "dir", "dir/sub", "missing.txt", "nodir/x",
		"../outside/secret.txt", "/etc/passwd", "dir/../file.txt", "", ".", "in-abs/file.txt",
	}
	c := fx.root.DirCache()
	defer c.Close()
	for round := range 3 {
		rand.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
		for _, name := range names {
			var want int64
			wantOK := false
			if fs.ValidPath(name) {
				if fi, err := fx.root.root.Lstat(name); err == nil && fi.Mode().IsRegular() {
					want, wantOK = fi.Size(), true
				}
			}
			if got, ok := c.Size(name); got != want || ok != wantOK {
				t.Errorf("round %d: Size(%q) = %d, %v; the root's lstat says %d, %v", round, name, got, ok, want, wantOK)
			}
		}
	}
	if size, ok := c.Size("file.txt"); !ok || size == 0 {
		t.Errorf("Size(file.txt) = %d, %v: the fixture's file is not empty", size, ok)
	}
}

// TestDirCacheReadDirSameAsFS: a DirCache lists what the root's FS
// lists, the same entries with the same types in the same order, and
// fails where it fails (links out, absolute links, loops, files, paths
// that leave the root), whatever directories it holds before; listing a
// directory twice lists it whole twice.
func TestDirCacheReadDirSameAsFS(t *testing.T) {
	fx := newFixture(t)
	dirs := []string{".", "dir", "dir/sub", "dir", "emptydir", "in-rel", "in-rel/sub", "in-abs", "in-given", "chain-in",
		"deeplink", "dir/link-sub", "dir/up", "to-root", "to-root/dir/sub", "out-abs", "out-rel", "chain-out", "self",
		"loop-a", "missing", "dir/missing", "file.txt", "dir/file.txt", "../outside", "/", "", "dir/", "dir/../dir"}
	fsys := fx.root.FS().(fs.ReadDirFS)
	c := fx.root.DirCache()
	defer c.Close()
	for round := range 4 {
		rand.Shuffle(len(dirs), func(i, j int) { dirs[i], dirs[j] = dirs[j], dirs[i] })
		for _, dir := range dirs {
			we, werr := fsys.ReadDir(dir)
			ge, gerr := c.ReadDir(dir)
			if (werr == nil) != (gerr == nil) || werr != nil && errors.Is(werr, fs.ErrNotExist) != errors.Is(gerr, fs.ErrNotExist) {
				t.Errorf("round %d: %q: error %v, the FS's %v", round, dir, gerr, werr)
				continue
			}
			if got, want := entryList(ge), entryList(we); got != want {
				t.Errorf("round %d: %q: DirCache lists %s, the FS %s", round, dir, got, want)
			}
		}
	}
}

func entryList(es []fs.DirEntry) string {
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "%s:%v ", e.Name(), e.Type())
	}
	return b.String()
}

// TestDirCacheHoldsFew: a DirCache walking a tree deeper than maxHeld
// holds at most maxHeld directories open, reads what is at the bottom,
// and holds none after Close.
func TestDirCacheHoldsFew(t *testing.T) {
	fx := newFixture(t)
	deep := "d"
	for range 2 * maxHeld {
		deep += "/d"
	}
	must(t, os.MkdirAll(filepath.Join(fx.real, filepath.FromSlash(deep)), 0o755))
	must(t, os.WriteFile(filepath.Join(fx.real, filepath.FromSlash(deep), "f.txt"), []byte("bottom"), 0o644))
	c := fx.root.DirCache()
	p := "."
	for elem := range strings.SplitSeq(deep, "/") {
		p = path.Join(p, elem)
		if _, err := c.ReadDir(p); err != nil {
			t.Fatal(err)
		}
		if len(c.held) > maxHeld {
			t.Fatalf("at %d elements deep the cache holds %d directories, want at most %d", strings.Count(p, "/")+1, len(c.held), maxHeld)
		}
	}
	if b, err := c.ReadFile(deep + "/f.txt"); err != nil || string(b) != "bottom" {
		t.Fatalf("ReadFile at the bottom: %q, %v", b, err)
	}
	if b, err := c.ReadFile("dir/sub/deep.txt"); err != nil || string(b) != "deep" {
		t.Fatalf("ReadFile back near the root: %q, %v", b, err)
	}
	c.Close()
	if len(c.held) != 0 {
		t.Fatalf("after Close the cache holds %d directories", len(c.held))
	}
}

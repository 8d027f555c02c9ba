package contain

import (
	"io"
	"io/fs"
	"math/rand/v2"
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

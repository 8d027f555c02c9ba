package contain

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestFastSameAsSlow: a root that opens paths without links in one
// openat2(2) answers Rel, Check, Stat, ReadFile and its FS's Stat and
// ReadFile as a root without that way does, for the fixture's files,
// directories, links (in, out, dangling, looping), "..", absolute paths
// and missing files; and it takes the fast way for a plain file.
func TestFastSameAsSlow(t *testing.T) {
	fx := newFixture(t)
	if err := syscall.Mkfifo(filepath.Join(fx.real, "dir", "pipe"), 0o644); err != nil {
		t.Logf("no named pipe: %v", err)
	}
	slow, err := Open(fx.given)
	must(t, err)
	defer slow.Close()
	slow.fast.close()
	if _, ok := fx.root.fast.readFile("dir/sub/deep.txt"); !ok && !noOpenat2.Load() {
		t.Fatal("the fast way did not read a plain file")
	}
	paths := []string{"file.txt", "dir/file.txt", "dir/sub/deep.txt", "dir/sub/", "dir", "dir/sub/.keep", "．．/x.txt",
		"dir/../file.txt", "dir/sub/../../file.txt", "../project/file.txt", "missing.txt", "dir/missing/x",
		"in-rel/file.txt", "in-abs/sub/deep.txt", "in-given/file.txt", "deeplink/deep.txt", "dir/link-sub/deep.txt",
		"dir/up/file.txt", "dir/up2/x", "to-root/file.txt", "link-file", "rel-back", "out-abs/secret.txt", "out-rel",
		"out-file", "out-root/etc", "chain-out/x", "chain-in/file.txt", "self", "loop-a", "dangling-out", "dangling-in",
		"leave-back", "file.txt/x", ".", "", "a\x00b", filepath.Join(fx.real, "dir/file.txt"),
		filepath.Join(fx.given, "dir/sub/deep.txt"), filepath.Join(fx.outside, "secret.txt")}
	for _, p := range paths {
		gr, gerr := fx.root.Rel(p)
		wr, werr := slow.Rel(p)
		if gr != wr || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Errorf("Rel(%q) = %q, %v; the slow way %q, %v", p, gr, gerr, wr, werr)
		}
		if g, w := fx.root.Check(p), slow.Check(p); fmt.Sprint(g) != fmt.Sprint(w) {
			t.Errorf("Check(%q) = %v; the slow way %v", p, g, w)
		}
		gi, gerr := fx.root.Stat(p)
		wi, werr := slow.Stat(p)
		if info(gi) != info(wi) || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Errorf("Stat(%q) = %s, %v; the slow way %s, %v", p, info(gi), gerr, info(wi), werr)
		}
		gd, gerr := fx.root.ReadFile(p)
		wd, werr := slow.ReadFile(p)
		if !bytes.Equal(gd, wd) || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Errorf("ReadFile(%q) = %q, %v; the slow way %q, %v", p, gd, gerr, wd, werr)
		}
		gfs, wfs := fx.root.FS(), slow.FS()
		gi, gerr = fs.Stat(gfs, p)
		wi, werr = fs.Stat(wfs, p)
		if info(gi) != info(wi) || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Errorf("FS Stat(%q) = %s, %v; the slow way %s, %v", p, info(gi), gerr, info(wi), werr)
		}
		gd, gerr = fs.ReadFile(gfs, p)
		wd, werr = fs.ReadFile(wfs, p)
		if !bytes.Equal(gd, wd) || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Errorf("FS ReadFile(%q) = %q, %v; the slow way %q, %v", p, gd, gerr, wd, werr)
		}
	}
	// A named pipe is stated, never waited on.
	if _, err := os.Lstat(filepath.Join(fx.real, "dir", "pipe")); err == nil {
		done := make(chan bool)
		go func() {
			_, ok := fx.root.fast.readFile("dir/pipe")
			done <- ok
		}()
		select {
		case ok := <-done:
			if ok {
				t.Error("the fast way read a named pipe")
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the fast way waited on a named pipe")
		}
		gi, gerr := fx.root.Stat("dir/pipe")
		wi, werr := slow.Stat("dir/pipe")
		if info(gi) != info(wi) || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Errorf("Stat(pipe) = %s, %v; the slow way %s, %v", info(gi), gerr, info(wi), werr)
		}
	}
}

// TestFastAfterClose: a closed root opens nothing the fast way.
func TestFastAfterClose(t *testing.T) {
	fx := newFixture(t)
	r, err := Open(fx.given)
	must(t, err)
	r.Close()
	if _, ok := r.fast.readFile("file.txt"); ok {
		t.Error("a closed root read a file the fast way")
	}
	if _, err := r.ReadFile("file.txt"); err == nil {
		t.Error("a closed root read a file")
	}
}

// info is what a comparison of two FileInfos looks at.
func info(fi fs.FileInfo) string {
	if fi == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%s %d %v %v", fi.Name(), fi.Size(), fi.Mode(), fi.ModTime().UnixNano())
}

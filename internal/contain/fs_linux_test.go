package contain

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFSReadDirSameAsRoot: the root's ReadDir lists what os.Root's does,
// every entry with the same name, type and Info, in order: for the
// fixture's files, directories and links (in, out, dangling, looping),
// a named pipe, a directory whose entries take several reads, and
// directories reached through links; and it fails where os.Root's does.
func TestFSReadDirSameAsRoot(t *testing.T) {
	fx := newFixture(t)
	many := filepath.Join(fx.real, "many")
	must(t, os.Mkdir(many, 0o755))
	for i := range 600 {
		must(t, os.WriteFile(filepath.Join(many, fmt.Sprintf("%03d-%s.txt", i, strings.Repeat("n", 40))), nil, 0o644))
	}
	if err := syscall.Mkfifo(filepath.Join(fx.real, "dir", "pipe"), 0o644); err != nil {
		t.Logf("no named pipe: %v", err)
	}
	want := fx.root.root.FS().(fs.ReadDirFS)
	got := fx.root.FS().(fs.ReadDirFS)
	for _, dir := range []string{".", "dir", "dir/sub", "many", "emptydir", "in-rel", "deeplink", "dir/link-sub", "dir/up",
		"to-root", "out-abs", "in-abs", "missing", "file.txt", "self", "../outside", "/", ""} {
		we, werr := want.ReadDir(dir)
		ge, gerr := got.ReadDir(dir)
		if (werr == nil) != (gerr == nil) || werr != nil && errors.Is(werr, fs.ErrNotExist) != errors.Is(gerr, fs.ErrNotExist) {
			t.Errorf("%q: error %v, os.Root's %v", dir, gerr, werr)
			continue
		}
		if len(ge) != len(we) {
			t.Errorf("%q: %d entries, os.Root's %d", dir, len(ge), len(we))
			continue
		}
		for i := range we {
			w, g := we[i], ge[i]
			wi, wierr := w.Info()
			gi, gierr := g.Info()
			if g.Name() != w.Name() || g.Type() != w.Type() || g.IsDir() != w.IsDir() || (wierr == nil) != (gierr == nil) ||
				wierr == nil && (gi.Mode() != wi.Mode() || gi.Size() != wi.Size() || gi.Name() != wi.Name()) {
				t.Errorf("%q entry %d: %v, os.Root's %v", dir, i, g, w)
			}
		}
	}
}

// FuzzParseDirents: any bytes parse without a panic into names that are
// not empty, "." or ".." and hold no NUL; records built the kernel's way
// come back whole, with their types.
func FuzzParseDirents(f *testing.F) {
	rec := func(ino uint64, typ byte, name string) []byte {
		n := (19 + len(name) + 1 + 7) &^ 7
		b := make([]byte, n)
		binary.NativeEndian.PutUint64(b[0:8], ino)
		binary.NativeEndian.PutUint16(b[16:18], uint16(n))
		b[18] = typ
		copy(b[19:], name)
		return b
	}
	f.Add(append(rec(1, syscall.DT_DIR, "."), rec(2, syscall.DT_REG, "a.go")...), "b")
	f.Add(rec(3, syscall.DT_UNKNOWN, "x"), "")
	f.Add([]byte{1, 2, 3}, "c")
	f.Fuzz(func(t *testing.T, buf []byte, name string) {
		parseDirents(buf, func(n string, typ fs.FileMode, known bool) {
			if n == "" || n == "." || n == ".." || strings.IndexByte(n, 0) >= 0 {
				t.Fatalf("entry %q", n)
			}
		})
		if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "\x00") || len(name) > 255 {
			return
		}
		var got []string
		parseDirents(append(rec(7, syscall.DT_LNK, name), rec(8, syscall.DT_REG, "z")...), func(n string, typ fs.FileMode, known bool) {
			got = append(got, fmt.Sprintf("%s %v %v", n, typ, known))
		})
		want := []string{fmt.Sprintf("%s %v true", name, fs.ModeSymlink), fmt.Sprintf("z %v true", fs.FileMode(0))}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("parsed %q, want %q", got, want)
		}
	})
}

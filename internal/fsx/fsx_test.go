package fsx

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestReplaceFileAndFaults(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	// ReplaceFile's operations, in order: create, write, chmod, sync,
	// close, rename, syncdir. Failing each leaves a.txt old and no
	// temporary file; with none failing, a.txt is new with its mode.
	for k := 1; k <= 8; k++ {
		f := &Faulty{FS: root, FailAt: k}
		err := ReplaceFile(f, "a.txt", "a.tmp", []byte("new"), 0o640)
		b, _ := os.ReadFile(filepath.Join(dir, "a.txt"))
		_, tmpErr := os.Stat(filepath.Join(dir, "a.tmp"))
		switch {
		case k <= 6: // before or at the rename
			if !errors.Is(err, ErrInjected) || string(b) != "old" || tmpErr == nil {
				t.Errorf("op %d: %v, a.txt %q, temporary file left: %v\n%v", k, err, b, tmpErr == nil, f.Log())
			}
		case k == 7: // the directory sync fails after the rename
			if !errors.Is(err, ErrInjected) || string(b) != "new" {
				t.Errorf("op %d: %v, a.txt %q", k, err, b)
			}
			os.WriteFile(filepath.Join(dir, "a.txt"), []byte("old"), 0o600)
		default:
			if err != nil || string(b) != "new" || f.Ops() != 7 {
				t.Errorf("op %d: %v, a.txt %q after %d ops", k, err, b, f.Ops())
			}
			fi, _ := os.Stat(filepath.Join(dir, "a.txt"))
			if fi.Mode().Perm() != 0o640 {
				t.Errorf("mode %v, want 0640", fi.Mode().Perm())
			}
		}
	}
}

func TestFaultyPersistAndHeal(t *testing.T) {
	root, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	f := &Faulty{FS: root, FailAt: 2, Persist: true}
	var got []bool
	for _, name := range []string{"a", "b", "c"} {
		got = append(got, f.MkdirAll(name, 0o755) == nil)
	}
	f.Heal()
	got = append(got, f.MkdirAll("d", 0o755) == nil)
	if diff := cmp.Diff([]bool{true, false, false, true}, got); diff != "" {
		t.Errorf("succeeded (-want +got):\n%s", diff)
	}
}

// TestNoFollow: a log or lock file that is a symbolic link, even one
// pointing inside the root, is refused, and the link's target is neither
// written nor created; a plain file is opened.
func TestNoFollow(t *testing.T) {
	opens := map[string]func(o *OS, name string) (io.Closer, error){
		"Append":   func(o *OS, name string) (io.Closer, error) { return o.Append(name, 0o644) },
		"OpenLock": func(o *OS, name string) (io.Closer, error) { return o.OpenLock(name) },
		"OpenFileNoFollow": func(o *OS, name string) (io.Closer, error) {
			return OpenFileNoFollow(filepath.Join(o.root.Name(), filepath.FromSlash(name)), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		},
	}
	for name, open := range opens {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.Mkdir(filepath.Join(dir, "state"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "source.go"), []byte("package x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			for link, target := range map[string]string{"state/log": "../source.go", "state/dangling": "../created"} {
				if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
					t.Skipf("no symbolic links here: %v", err)
				}
			}
			o, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer o.Close()
			for _, link := range []string{"state/log", "state/dangling"} {
				if f, err := open(o, link); err == nil {
					f.Close()
					t.Errorf("%s(%s) opened a symbolic link", name, link)
				}
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "source.go")); string(b) != "package x\n" {
				t.Errorf("the link's target changed: %q", b)
			}
			if _, err := os.Lstat(filepath.Join(dir, "created")); err == nil {
				t.Errorf("the dangling link's target was created")
			}
			f, err := open(o, "state/plain")
			if err != nil {
				t.Fatalf("%s(state/plain): %v", name, err)
			}
			f.Close()
			if fi, err := os.Lstat(filepath.Join(dir, "state", "plain")); err != nil || !fi.Mode().IsRegular() {
				t.Errorf("state/plain after %s: %v, %v", name, fi, err)
			}
		})
	}
}

// TestOpenDirNoFollow: a directory opens; a link to one, a file and (where
// there are any) a FIFO are refused, the FIFO without waiting for a writer.
func TestOpenDirNoFollow(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	refused := []string{"file"}
	if err := os.Symlink("sub", filepath.Join(dir, "link")); err == nil {
		refused = append(refused, "link")
	}
	if err := mkfifo(filepath.Join(dir, "fifo")); err == nil {
		refused = append(refused, "fifo")
	}
	f, err := OpenDirNoFollow(sub)
	if err != nil {
		t.Fatalf("OpenDirNoFollow(sub): %v", err)
	}
	f.Close()
	for _, name := range refused {
		done := make(chan error, 1)
		go func() {
			f, err := OpenDirNoFollow(filepath.Join(dir, name))
			if err == nil {
				f.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("OpenDirNoFollow(%s) opened it", name)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("OpenDirNoFollow(%s) blocks", name)
		}
	}
}

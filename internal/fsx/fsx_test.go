package fsx

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

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

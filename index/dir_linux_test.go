package index

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDirRootRefusesLinks: a directory below the walk's root opens only
// through real directories, never through a symbolic link, wherever the
// link is in its path.
func TestDirRootRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	for _, d := range []string{"real/sub", "real/deeper/sub"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(outside, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"inlink": filepath.Join(dir, "real"), "outlink": outside, "real/last": filepath.Join(dir, "real/sub")} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	root, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.close()
	tests := []struct {
		rel string
		ok  bool
	}{
		{".", true},
		{"real", true},
		{"real/sub", true},
		{"real/deeper/sub", true},
		{"inlink", false},
		{"inlink/sub", false},
		{"outlink/sub", false},
		{"real/last", false},
		{"real/../..", false},
		{"missing", false},
	}
	for _, tt := range tests {
		t.Run(tt.rel, func(t *testing.T) {
			d, err := root.open(tt.rel)
			if noOpenat2.Load() {
				t.Skip("the kernel refuses openat2: links are refused in the last component only")
			}
			if (err == nil) != tt.ok {
				t.Fatalf("open(%q): %v, want ok %v", tt.rel, err, tt.ok)
			}
			if err == nil {
				if _, err := d.entries(); err != nil {
					t.Errorf("entries: %v", err)
				}
				d.close()
			}
		})
	}
}

//go:build unix

package index

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFIFOInStorage puts FIFOs where the index looks for its database
// and its write-ahead log: SQLite would block opening one; the index
// reports and removes them instead.
func TestFIFOInStorage(t *testing.T) {
	for _, suffix := range []string{"", "-wal", "-shm"} {
		t.Run("db"+suffix, func(t *testing.T) {
			dir := writeTree(t, project)
			ix := openTest(t, dir, func(o *Options) { o.Seal = testKey(t, 7) })
			id, err := readIdentity(dir)
			if err != nil {
				t.Fatal(err)
			}
			active, err := ix.seal.name(id.Key())
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, StorageDir, active)
			if suffix != "" {
				plantDatabase(t, dir, p, plant{})
			}
			if err := syscall.Mkfifo(p+suffix, 0o644); err != nil {
				t.Skip("no FIFOs here:", err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			res, err := ix.Lookup(ctx, "validateSession")
			if err != nil || len(res.Definitions) != 1 {
				t.Fatalf("lookup: %+v, %v", res, err)
			}
			if !slices.ContainsFunc(res.Freshness.Diagnostics, func(d string) bool {
				return strings.Contains(d, active) && strings.Contains(d, "not a regular file")
			}) {
				t.Errorf("diagnostics %q", res.Freshness.Diagnostics)
			}
		})
	}
}

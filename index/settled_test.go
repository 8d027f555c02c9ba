package index

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestNextProcessSeesChanges: a refresh that finds nothing to do records
// so, and the next Index (as a new process) trusts the record only while
// the tree is as it was: every kind of change made in between is indexed
// by its first query.
func TestNextProcessSeesChanges(t *testing.T) {
	ctx := context.Background()
	later := time.Now().Add(-30 * time.Minute)
	tests := []struct {
		name   string
		change func(t *testing.T, dir string)
		mod    func(*Options)
		query  string
		want   []string // paths of the hits
		// indexed and removed are what the next query's refresh did.
		indexed, removed int
	}{
		{
			name: "edit of the same size",
			change: func(t *testing.T, dir string) {
				p := filepath.Join(dir, "docs/guide.md")
				writeFile(t, dir, "docs/guide.md", strings.Replace(project["docs/guide.md"], "validate", "zanzibar", 1))
				os.Chtimes(p, later, later)
			},
			query:   "zanzibar",
			want:    []string{"docs/guide.md"},
			indexed: 1,
		},
		{
			name:    "new file",
			change:  func(t *testing.T, dir string) { writeFile(t, dir, "new/zanzibar.md", "zanzibar\n") },
			query:   "zanzibar",
			want:    []string{"new/zanzibar.md"},
			indexed: 1,
		},
		{
			name: "deleted file",
			change: func(t *testing.T, dir string) {
				if err := os.Remove(filepath.Join(dir, "docs/guide.md")); err != nil {
					t.Fatal(err)
				}
			},
			query:   "request",
			want:    nil,
			removed: 1,
		},
		{
			name:    "extractor changed",
			change:  func(t *testing.T, dir string) {},
			mod:     func(o *Options) { o.ExtractorVersion = "fake-2" },
			query:   "validateSession",
			want:    []string{"auth/session.go", "web/server.go"},
			indexed: len(project),
		},
		{
			name:   "nothing",
			change: func(t *testing.T, dir string) {},
			query:  "validateSession",
			want:   []string{"auth/session.go", "web/server.go"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeTree(t, project)
			first := openTest(t, dir, nil)
			if fr, err := first.Refresh(ctx); err != nil || fr.State != Fresh {
				t.Fatalf("first refresh: %+v, %v", fr, err)
			}
			// A second query finds nothing to do, as a later process would.
			if _, err := first.Refresh(ctx); err != nil {
				t.Fatal(err)
			}
			first.Close()
			tt.change(t, dir)
			next := openTest(t, dir, tt.mod)
			res, err := next.Search(ctx, tt.query, SearchOptions{})
			if err != nil || res.Freshness.State != Fresh {
				t.Fatalf("search: %+v, %v", res.Freshness, err)
			}
			if diff := cmp.Diff(tt.want, sortedPaths(res.Hits)); diff != "" {
				t.Errorf("hits (-want +got):\n%s", diff)
			}
			if fr := res.Freshness; fr.Indexed != tt.indexed || fr.Removed != tt.removed {
				t.Errorf("indexed %d, removed %d; want %d, %d", fr.Indexed, fr.Removed, tt.indexed, tt.removed)
			}
		})
	}
}

// TestSettledSkipsRows: an Index opened on an unchanged tree, after a
// refresh that found nothing to do, answers without reading the file
// rows.
func TestSettledSkipsRows(t *testing.T) {
	ctx := context.Background()
	dir := writeTree(t, project)
	first := openTest(t, dir, nil)
	for range 2 {
		if _, err := first.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
	}
	first.Close()
	next := openTest(t, dir, nil)
	fr, err := next.Refresh(ctx)
	if err != nil || fr.State != Fresh || fr.Files != len(project) {
		t.Fatalf("refresh: %+v, %v", fr, err)
	}
	next.mu.Lock()
	defer next.mu.Unlock()
	if st := next.stores[next.active]; st == nil || st.cache != nil {
		t.Errorf("the refresh read the file rows")
	}
}

// TestSettledAfterRacyRead: a file indexed moments after it was written
// keeps no mtime in its row, so the refresh that indexed it records no
// settled state: a same-size edit that keeps the file's mtime (as a
// coarse clock can) is still seen by the next process.
func TestSettledAfterRacyRead(t *testing.T) {
	ctx := context.Background()
	for attempt := 0; ; attempt++ {
		dir := writeTree(t, project)
		first := openTest(t, dir, nil)
		if _, err := first.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "docs/guide.md")
		writeFile(t, dir, "docs/guide.md", strings.Replace(project["docs/guide.md"], "validate", "zanzibar", 1))
		if _, err := first.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		first.mu.Lock()
		rows, _, err := first.stores[first.active].cachedRows(ctx)
		first.mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		if rows["docs/guide.md"].mtime != 0 { // read too late to be racy
			first.Close()
			if attempt == 10 {
				t.Skip("the machine is too slow to read a file within the racy window")
			}
			continue
		}
		first.Close()
		writeFile(t, dir, "docs/guide.md", strings.Replace(project["docs/guide.md"], "validate", "kalahari", 1))
		os.Chtimes(p, fi.ModTime(), fi.ModTime())
		next := openTest(t, dir, nil)
		res, err := next.Search(ctx, "kalahari", SearchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"docs/guide.md"}, hitPaths(res.Hits)); diff != "" {
			t.Errorf("hits (-want +got):\n%s", diff)
		}
		return
	}
}

func sortedPaths(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Path)
	}
	slices.Sort(out)
	return out
}

// TestSpeculativeAnswer: a new Index over a tree that has not changed
// since a refresh found nothing to do answers from the query it ran while
// walking; over a changed tree it answers after indexing the change, with
// the edit in the answer, even when the query it ran while walking had
// finished.
func TestSpeculativeAnswer(t *testing.T) {
	ctx := context.Background()
	testHookWalked = func(st *store) {
		if st.spec != nil {
			<-st.spec.done
		}
	}
	t.Cleanup(func() { testHookWalked = nil })
	dir := writeTree(t, project)
	first := openTest(t, dir, nil)
	for range 2 {
		if _, err := first.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
	}
	first.Close()
	search := func(q string) ([]string, int64) {
		t.Helper()
		ix := openTest(t, dir, nil)
		defer ix.Close()
		res, err := ix.Search(ctx, q, SearchOptions{})
		if err != nil || res.Freshness.State != Fresh {
			t.Fatalf("search %q: %+v, %v", q, res.Freshness, err)
		}
		return sortedPaths(res.Hits), ix.speculated.Load()
	}
	if got, spec := search("validateSession"); !cmp.Equal(got, []string{"auth/session.go", "web/server.go"}) || spec != 1 {
		t.Errorf("unchanged tree: hits %v, speculative answers %d; want both files, 1", got, spec)
	}
	writeFile(t, dir, "docs/guide.md", "zanzibar\n")
	later := time.Now().Add(-time.Minute)
	os.Chtimes(filepath.Join(dir, "docs/guide.md"), later, later)
	if got, spec := search("zanzibar"); !cmp.Equal(got, []string{"docs/guide.md"}) || spec != 0 {
		t.Errorf("after an edit: hits %v, speculative answers %d; want the edited file, 0", got, spec)
	}
	if got, spec := search("zanzibar"); !cmp.Equal(got, []string{"docs/guide.md"}) || spec != 1 {
		t.Errorf("after the edit was indexed: hits %v, speculative answers %d; want the edited file, 1", got, spec)
	}
}

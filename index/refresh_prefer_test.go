package index

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestPreferFirst: the changed files that mention a query's word move to
// the front, in their order, and the rest keep theirs behind them.
func TestPreferFirst(t *testing.T) {
	files := map[string]string{}
	var disk []diskFile
	for i := range 40 {
		p := fmt.Sprintf("f%02d.go", i)
		files[p] = "package p\n\nfunc F() {}\n"
		if i%13 == 5 {
			files[p] = "package p\n\nfunc WANTED() {}\n" // upper case: the match ignores case
		}
		disk = append(disk, diskFile{path: p})
	}
	ix := openTest(t, writeTree(t, files), nil)
	ix.preferFirst(disk, []string{"wanted", "x"}, time.Now().Add(time.Hour))
	var got []string
	for _, f := range disk {
		got = append(got, f.path)
	}
	want := []string{"f05.go", "f18.go", "f31.go"}
	for i := range 40 {
		if i%13 != 5 {
			want = append(want, fmt.Sprintf("f%02d.go", i))
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}

	// Words too short to select anything, or none, leave the order alone.
	before := append([]diskFile(nil), disk...)
	ix.preferFirst(disk, []string{"go"}, time.Now().Add(time.Hour))
	ix.preferFirst(disk, nil, time.Now().Add(time.Hour))
	if diff := cmp.Diff(before, disk, cmp.AllowUnexported(diskFile{})); diff != "" {
		t.Errorf("short words reordered (-before +after):\n%s", diff)
	}
}

// TestLookupBudgetPrefersTheName: a lookup whose budget lets only part of
// a large first build be indexed still finds the definition, because the
// files that mention the name are indexed first. The tree is large enough
// that indexing it whole takes many times the budget.
func TestLookupBudgetPrefersTheName(t *testing.T) {
	files := map[string]string{}
	filler := strings.Repeat("// filler text that is indexed as a comment chunk\n", 400)
	for i := range 400 {
		files[fmt.Sprintf("a/f%04d.go", i)] = fmt.Sprintf("package a\n\n%s// F%d is filler.\nfunc F%d() int { return %d }\n", filler, i, i, i)
	}
	if raceEnabled {
		t.Skip("the race detector slows reading and indexing unevenly; TestPreferFirst covers the order")
	}
	// The database exists already, so the budget goes to the files.
	dir := writeTree(t, map[string]string{"go.mod": "module m\n"})
	ix := openTest(t, dir, func(o *Options) { o.Budget = 300 * time.Millisecond })
	if _, err := ix.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	files["a/b/c/d/e/last.go"] = "package z\n\nfunc Needle() {}\n"
	for p, c := range files {
		writeFile(t, dir, p, c)
	}
	res, err := ix.Lookup(context.Background(), "Needle")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Definitions) != 1 || res.Definitions[0].Path != "a/b/c/d/e/last.go" {
		t.Fatalf("Lookup(Needle) = %+v, freshness %s, %d pending", res.Definitions, res.Freshness.State, res.Freshness.PendingCount)
	}
	t.Logf("freshness %s, %d of %d files pending", res.Freshness.State, res.Freshness.PendingCount, res.Freshness.Files)
}

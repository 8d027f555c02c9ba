package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestFocusOrder: a focus reads the changed files for the words and puts
// those that mention one first, the one that looks like it defines the
// name ahead of those that use it, a whole word as written ahead of a
// part of one; the files that mention none are apart; words too short to
// select anything select nothing.
func TestFocusOrder(t *testing.T) {
	files := map[string]string{}
	var disk []diskFile
	for i := range 40 {
		p := fmt.Sprintf("f%02d.go", i)
		switch i {
		case 3:
			files[p] = "package p\n\nvar x = WantedThing()\n" // a part of another name
		case 7:
			files[p] = "package p\n\nfunc g() { Wanted() }\n" // a use
		case 21:
			files[p] = "package p\n\nfunc (r *T) Wanted() {}\n" // its definition
		case 30:
			files[p] = "package p\n\n// wanted, in another case\n"
		default:
			files[p] = "package p\n\nfunc F() {}\n"
		}
		disk = append(disk, diskFile{path: p})
	}
	ix := openTest(t, writeTree(t, files), nil)
	f := ix.focus(disk, focusTerms([]string{"Wanted", "nothing"}), time.Now().Add(time.Hour))
	var got []string
	for _, d := range f.first {
		got = append(got, d.path)
	}
	if diff := cmp.Diff([]string{"f21.go", "f07.go", "f03.go", "f30.go"}, got); diff != "" {
		t.Errorf("first (-want +got):\n%s", diff)
	}
	if len(f.rest) != 36 || f.focus.Matched != 4 || f.focus.Unread != 0 {
		t.Errorf("rest %d, matched %d, unread %d; want 36, 4, 0", len(f.rest), f.focus.Matched, f.focus.Unread)
	}
	// A second scan for the same word, in another case, reads nothing:
	// the memo answers for every file whose size and mtime are the same.
	os.Remove(filepath.Join(ix.Dir(), "f21.go"))
	again := ix.focus(disk, focusTerms([]string{"wanted"}), time.Now().Add(time.Hour))
	if len(again.first) != 4 || again.first[0].path != "f21.go" {
		t.Errorf("from the memo: first = %v, want f21.go and 3 more", again.first)
	}
	got = nil
	for _, ft := range focusTerms([]string{"go", "x", "Go", "abc", "ABC", "abd", "T.abd", "(*T).Abd", "a b"}) {
		got = append(got, strings.Join(append(ft.quals, ft.name), "."))
	}
	if diff := cmp.Diff([]string{"abc", "abd", "T.abd"}, got); diff != "" {
		t.Errorf("focusTerms (-want +got):\n%s", diff)
	}
	// A deadline already passed still reads every file when that takes
	// less than focusScanMin.
	late := ix.focus(disk, focusTerms([]string{"absent"}), time.Now().Add(-time.Second))
	if len(late.first) != 0 || late.focus.Unread != 0 || len(late.rest) != 40 {
		t.Errorf("past deadline: first %d, unread %d, rest %d; want 0, 0, 40", len(late.first), late.focus.Unread, len(late.rest))
	}
}

// TestFocusCarriers: a file that re-exports modules wholesale (export *
// from, pub use m::*) is indexed after the files that mention a name,
// since an import of the name may go through it; another file stays apart.
func TestFocusCarriers(t *testing.T) {
	files := map[string]string{
		"a.ts":     "import { Wanted } from './index'\nWanted()\n",
		"core.ts":  "export function Wanted() {}\n",
		"index.ts": "export * from './core'\n",
		"lib.rs":   "pub use crate::m::*;\n",
		"other.ts": "export const x = 1\n",
	}
	var disk []diskFile
	for _, p := range []string{"a.ts", "core.ts", "index.ts", "lib.rs", "other.ts"} {
		disk = append(disk, diskFile{path: p})
	}
	ix := openTest(t, writeTree(t, files), nil)
	f := ix.focus(disk, focusTerms([]string{"Wanted"}), time.Now().Add(time.Hour))
	var got []string
	for _, d := range f.first {
		got = append(got, d.path)
	}
	if diff := cmp.Diff([]string{"core.ts", "a.ts", "index.ts", "lib.rs"}, got); diff != "" {
		t.Errorf("first (-want +got):\n%s", diff)
	}
	if len(f.rest) != 1 || f.rest[0].path != "other.ts" || f.focus.Matched != 2 {
		t.Errorf("rest %v, matched %d; want other.ts alone, 2", f.rest, f.focus.Matched)
	}
}

// TestFocusQualifiers: among the files that define a name, those that
// also mention the qualifiers asked for come first; then files the syntax
// floor parses before others, and files that are not tests before tests.
func TestFocusQualifiers(t *testing.T) {
	files := map[string]string{
		"a.go":      "package p\n\nfunc (u *Other) Run() {}\n",
		"b.go":      "package p\n\nfunc (d *DB) Run() {}\n",
		"b_test.go": "package p\n\nfunc (d *DB) Run() {}\n",
		"c.md":      "func (d *DB) Run()\n",
		"d.go":      "package p\n\nfunc g(d *DB) { d.Run() }\n",
	}
	var disk []diskFile
	for _, p := range []string{"a.go", "b.go", "b_test.go", "c.md", "d.go"} {
		disk = append(disk, diskFile{path: p})
	}
	ix := openTest(t, writeTree(t, files), nil)
	f := ix.focus(disk, focusTerms([]string{"DB.Run"}), time.Now().Add(time.Hour))
	var got []string
	for _, d := range f.first {
		got = append(got, d.path)
	}
	if diff := cmp.Diff([]string{"b.go", "b_test.go", "c.md", "a.go", "d.go"}, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

// TestDefLike: the lines that look like they define a name, in the
// languages the index parses, and the uses that do not.
func TestDefLike(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"func Name(x int) {", true},
		{"func (e *Engine) Name(ctx context.Context) (Query, error) {", true},
		{"type Name struct {", true},
		{"def Name(self):", true},
		{"  def self.Name", true},
		{"class Name(Base):", true},
		{"pub fn Name<'a>(x: &'a str) -> bool {", true},
		{"pub struct Name {", true},
		{"export function Name(a, b) {", true},
		{"export const Name = (a) => a", true},
		{"  Name(a, b) {", true},
		{"json_t *Name(void)", true},
		{"    public static Document Name(String html) {", true},
		{"static int Name(int x);", false}, // a prototype: the definition is elsewhere
		{"x := Name(1)", false},
		{"return Name(a)", false},
		{"  Name(a, b)", false},
		{"if Name(a) {", false},
		{"foo.Name(a) {", false},
		{"int y = Name(3);", false},
		{"// Name does things", false},
	} {
		i := strings.Index(tc.line, "Name")
		if got := defLike([]byte(tc.line), i, len("Name")); got != tc.want {
			t.Errorf("defLike(%q) = %v, want %v", tc.line, got, tc.want)
		}
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

// TestFocusedLookup: on a tree far ahead of its index, a lookup indexes
// only the files that mention the name, says so in its freshness, and
// the provider's report names the files read and says the rest are not
// indexed yet; a search for a word no file holds leaves the index as it
// is and says that none mentions it.
func TestFocusedLookup(t *testing.T) {
	files := map[string]string{"go.mod": "module m\n"}
	for i := range 60 {
		files[fmt.Sprintf("a/f%02d.go", i)] = fmt.Sprintf("package a\n\nfunc F%02d() int { return %d }\n", i, i)
	}
	files["b/def.go"] = "package b\n\n// Needle is found.\nfunc Needle() {}\n"
	files["c/use.go"] = "package c\n\nfunc g() { b.Needle() }\n"
	dir := writeTree(t, files)
	ix := openTest(t, dir, func(o *Options) { o.Budget = 5 * time.Second })
	res, err := ix.Lookup(context.Background(), "Needle")
	if err != nil {
		t.Fatal(err)
	}
	fr := res.Freshness
	if len(res.Definitions) != 1 || res.Definitions[0].Path != "b/def.go" {
		t.Fatalf("Lookup(Needle) = %+v", res.Definitions)
	}
	if fr.Focus == nil || fr.Focus.Matched != 2 || fr.Focus.IndexedCount != 2 || fr.Indexed != 2 || fr.PendingCount != 61 {
		t.Fatalf("freshness %+v, focus %+v; want 2 matched and indexed, 61 pending", fr, fr.Focus)
	}
	if diff := cmp.Diff([]string{"b/def.go", "c/use.go"}, fr.Focus.Indexed); diff != "" {
		t.Errorf("indexed (-want +got):\n%s", diff)
	}
	rep := freshnessReport(fr, nil)
	for _, want := range []string{"first contact", "b/def.go, c/use.go", "the other 61 do not mention them"} {
		if !strings.Contains(rep.Reason, want) {
			t.Errorf("report %q does not say %q", rep.Reason, want)
		}
	}
	// The names in the context focus a query that has none of its own.
	ctx := WithNames(context.Background(), "F07")
	facts, err := ix.Facts(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if f := facts.Freshness.Focus; f == nil || f.IndexedCount != 1 || f.Indexed[0] != "a/f07.go" || len(facts.Files) != 3 {
		t.Fatalf("Facts with F07 in the context: focus %+v, %d files", f, len(facts.Files))
	}
	sres, err := ix.Search(context.Background(), "nowhere", SearchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if f := sres.Freshness.Focus; f == nil || f.Matched != 0 || sres.Freshness.Indexed != 0 || len(sres.Hits) != 0 {
		t.Fatalf("search for a word no file holds: focus %+v, freshness %+v", f, sres.Freshness)
	}
	if rep := freshnessReport(sres.Freshness, nil); !strings.Contains(rep.Reason, "none mentions them") {
		t.Errorf("report %q does not say that none mentions it", rep.Reason)
	}
}

// TestFocusPastBudget: with no time left for a refresh, a lookup on a
// tree far ahead of its index still reads it for the name and indexes the
// files that mention it most (focusAtLeast), so that the definition is
// found.
func TestFocusPastBudget(t *testing.T) {
	files := map[string]string{"go.mod": "module m\n"}
	for i := range 60 {
		files[fmt.Sprintf("a/f%02d.go", i)] = fmt.Sprintf("package a\n\nfunc F%02d() int { return %d }\n", i, i)
	}
	files["b/def.go"] = "package b\n\nfunc Needle() {}\n"
	files["c/use.go"] = "package c\n\nfunc g() { b.Needle() }\n"
	files["d/more.go"] = "package d\n\nvar x = b.Needle\n"
	dir := writeTree(t, files)
	ix := openTest(t, dir, func(o *Options) { o.Budget = time.Nanosecond })
	res, err := ix.Lookup(context.Background(), "Needle")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Definitions) != 1 || res.Definitions[0].Path != "b/def.go" {
		t.Fatalf("Lookup(Needle) = %+v, focus %+v", res.Definitions, res.Freshness.Focus)
	}
	if f := res.Freshness.Focus; f == nil || f.Matched != 3 || f.IndexedCount != focusAtLeast {
		t.Fatalf("focus %+v: want 3 matched, %d indexed", f, focusAtLeast)
	}
}

// TestFocusDefinersPastBudget: with no time left, every file that looks
// like it defines the name (up to focusDefinersAtLeast) is indexed, not
// only focusAtLeast of them, so that an ambiguous name's every definition
// is found however loaded the machine is; a file that only uses it waits.
func TestFocusDefinersPastBudget(t *testing.T) {
	files := map[string]string{"go.mod": "module m\n"}
	for i := range 60 {
		files[fmt.Sprintf("a/f%02d.go", i)] = fmt.Sprintf("package a\n\nfunc F%02d() int { return %d }\n", i, i)
	}
	for _, d := range []string{"b", "c", "d", "e"} {
		files[d+"/def.go"] = "package " + d + "\n\nfunc Needle() {}\n"
	}
	files["u/use.go"] = "package u\n\nfunc g() { b.Needle() }\n"
	dir := writeTree(t, files)
	ix := openTest(t, dir, func(o *Options) { o.Budget = time.Nanosecond })
	res, err := ix.Lookup(context.Background(), "Needle")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Definitions) != 4 {
		t.Fatalf("Lookup(Needle) = %+v, focus %+v", res.Definitions, res.Freshness.Focus)
	}
	if f := res.Freshness.Focus; f == nil || f.Matched != 5 || f.IndexedCount != 4 {
		t.Fatalf("focus %+v: want 5 matched, the 4 definers indexed", f)
	}
}

package index

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/internal/testtool"
)

// project is a small tree of the fake language the tests' extractor reads.
var project = map[string]string{
	"go.mod": "module example.com/shop\n\ngo 1.22\n",
	"auth/session.go": `package auth

import "time"

// validateSession checks that a session is still valid.
// It never refreshes it.
func validateSession(s *Session) error {
	if s.expires.Before(time.Now()) {
		return errExpired
	}
	return nil
}

type Session struct {
	expires time.Time
}

func (s *Session) Refresh() {
	s.expires = time.Now().Add(time.Hour)
}
`,
	"web/server.go": `package web

type HTTPServer struct {
	addr string
}

func NewHTTPServer(addr string) *HTTPServer {
	return &HTTPServer{addr: addr}
}

func (h *HTTPServer) handle(s *auth.Session) {
	if err := validateSession(s); err != nil {
		return
	}
}
`,
	"other/session.go": `package other

// Session is another package's session.
type Session struct{}
`,
	"docs/guide.md": "# Guide\n\nEvery request must validate the session before it reads the cart.\n",
}

func hitPaths(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Path)
	}
	return out
}

func TestSearch(t *testing.T) {
	dir := writeTree(t, project)
	ix := openTest(t, dir, nil)
	ctx := context.Background()
	tests := []struct {
		query string
		// first is the expected first hit and how it matched.
		firstPath, firstMatch string
		// also are paths that must be among the hits; never those that
		// must not.
		also, never []string
	}{
		// The definition of validateSession ranks above its mention in
		// web/server.go and the prose in the guide.
		{query: "validate session", firstPath: "auth/session.go", firstMatch: MatchDefinition,
			also: []string{"web/server.go", "docs/guide.md"}},
		{query: "validateSession", firstPath: "auth/session.go", firstMatch: MatchDefinition, also: []string{"web/server.go"}},
		{query: "validate_session", firstPath: "auth/session.go", firstMatch: MatchDefinition},
		// "http server" matches HTTPServer through its sub-tokens.
		{query: "http server", firstPath: "web/server.go", firstMatch: MatchDefinition},
		{query: "where is the HTTPServer defined?", firstPath: "web/server.go", firstMatch: MatchDefinition},
		// A word in a symbol's name: a symbol hit, above mere text.
		{query: "refresh", firstPath: "auth/session.go", firstMatch: MatchDefinition},
		{query: "cart", firstPath: "docs/guide.md", firstMatch: MatchText, never: []string{"auth/session.go"}},
		{query: "nothing matches this", never: []string{"auth/session.go", "web/server.go", "docs/guide.md", "other/session.go"}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			res, err := ix.Search(ctx, tt.query, SearchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Freshness.State != Fresh {
				t.Errorf("freshness %s, want fresh", res.Freshness.State)
			}
			paths := hitPaths(res.Hits)
			if tt.firstPath != "" {
				if len(res.Hits) == 0 {
					t.Fatalf("no hits, want %s first", tt.firstPath)
				}
				if h := res.Hits[0]; h.Path != tt.firstPath || h.Match != tt.firstMatch {
					t.Errorf("first hit %s (%s), want %s (%s); hits %v", h.Path, h.Match, tt.firstPath, tt.firstMatch, paths)
				}
			}
			for _, p := range tt.also {
				if !slices.Contains(paths, p) {
					t.Errorf("hits %v lack %s", paths, p)
				}
			}
			for _, p := range tt.never {
				if slices.Contains(paths, p) {
					t.Errorf("hits %v hold %s", paths, p)
				}
			}
			// Within a match class, scores never increase.
			for i := 1; i < len(res.Hits); i++ {
				a, b := res.Hits[i-1], res.Hits[i]
				if a.Match == b.Match && a.Score < b.Score {
					t.Errorf("hit %d (%v) scores below hit %d (%v) in the same class", i-1, a.Score, i, b.Score)
				}
			}
		})
	}
}

func TestSearchExcerptIsTheChunkOnDisk(t *testing.T) {
	dir := writeTree(t, project)
	ix := openTest(t, dir, nil)
	res, err := ix.Search(context.Background(), "validateSession", SearchOptions{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	h := res.Hits[0]
	lines := strings.Split(project["auth/session.go"], "\n")
	want := strings.Join(lines[h.StartLine-1:h.EndLine], "\n")
	if diff := cmp.Diff(want, h.Excerpt); diff != "" {
		t.Errorf("excerpt (-want +got):\n%s", diff)
	}
	if h.StartLine != 5 || h.Symbol != "auth.validateSession" || h.SymbolKind != "function" {
		t.Errorf("hit %+v: want the chunk of auth.validateSession from its comment on line 5", h)
	}
}

func TestLookup(t *testing.T) {
	dir := writeTree(t, project)
	ix := openTest(t, dir, nil)
	type def struct{ Path, Name, Container, Package, Match string }
	tests := []struct {
		name string
		want []def
	}{
		{"Session", []def{{"auth/session.go", "Session", "", "auth", "exact"}, {"other/session.go", "Session", "", "other", "exact"}}},
		{"auth.Session", []def{{"auth/session.go", "Session", "", "auth", "exact"}}},
		{"example.com/shop/other.Session", []def{{"other/session.go", "Session", "", "other", "exact"}}},
		{"Session.Refresh", []def{{"auth/session.go", "Refresh", "Session", "auth", "exact"}}},
		{"(*Session).Refresh", []def{{"auth/session.go", "Refresh", "Session", "auth", "exact"}}},
		{"auth.Session.Refresh", []def{{"auth/session.go", "Refresh", "Session", "auth", "exact"}}},
		{"Session::Refresh()", []def{{"auth/session.go", "Refresh", "Session", "auth", "exact"}}},
		{"HTTPServer.handle", []def{{"web/server.go", "handle", "HTTPServer", "web", "exact"}}},
		{"validatesession", []def{{"auth/session.go", "validateSession", "", "auth", "case-insensitive"}}},
		{"AUTH.session", []def{{"auth/session.go", "Session", "", "auth", "case-insensitive"}}},
		{"nope.Refresh", []def{{"auth/session.go", "Refresh", "Session", "auth", "name"}}},
		{"Missing", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ix.Lookup(context.Background(), tt.name)
			if err != nil {
				t.Fatal(err)
			}
			var got []def
			for _, d := range res.Definitions {
				got = append(got, def{d.Path, d.Name, d.Container, d.Package, d.Match})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Lookup(%q) (-want +got):\n%s", tt.name, diff)
			}
		})
	}
	if _, err := ix.Lookup(context.Background(), "a b"); !errors.Is(err, ErrEmptyQuery) {
		t.Errorf("Lookup of a non-name: %v, want ErrEmptyQuery", err)
	}
}

func TestOutline(t *testing.T) {
	dir := writeTree(t, project)
	ix := openTest(t, dir, nil)
	res, err := ix.Outline(context.Background(), "auth")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range res.Definitions {
		got = append(got, d.QualifiedName())
	}
	want := []string{"auth.validateSession", "auth.Session", "auth.Session.Refresh"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outline (-want +got):\n%s", diff)
	}
	if _, err := ix.Outline(context.Background(), "../x"); err == nil {
		t.Error("an outline of a path outside the root did not fail")
	}
}

// TestFreshness edits, adds, renames and deletes files between queries:
// every answer reflects the disk.
func TestFreshness(t *testing.T) {
	dir := writeTree(t, project)
	ix := openTest(t, dir, nil)
	ctx := context.Background()
	find := func(t *testing.T, q string) []string {
		t.Helper()
		res, err := ix.Search(ctx, q, SearchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Freshness.State != Fresh {
			t.Fatalf("freshness %+v", res.Freshness)
		}
		return hitPaths(res.Hits)
	}
	if got := find(t, "zanzibar"); len(got) != 0 {
		t.Fatalf("hits before the edit: %v", got)
	}
	t.Run("edit", func(t *testing.T) {
		writeFile(t, dir, "web/server.go", project["web/server.go"]+"\n// zanzibar routes\n")
		if got := find(t, "zanzibar"); !cmp.Equal(got, []string{"web/server.go"}) {
			t.Errorf("hits %v", got)
		}
	})
	t.Run("add", func(t *testing.T) {
		writeFile(t, dir, "new/dir/x.go", "package x\n\nfunc Zanzibar() {}\n")
		res, err := ix.Lookup(ctx, "Zanzibar")
		if err != nil || len(res.Definitions) != 1 || res.Definitions[0].Path != "new/dir/x.go" {
			t.Fatalf("lookup after add: %+v, %v", res.Definitions, err)
		}
	})
	t.Run("rename", func(t *testing.T) {
		if err := os.Rename(filepath.Join(dir, "new/dir/x.go"), filepath.Join(dir, "new/y.go")); err != nil {
			t.Fatal(err)
		}
		res, err := ix.Lookup(ctx, "Zanzibar")
		if err != nil || len(res.Definitions) != 1 || res.Definitions[0].Path != "new/y.go" {
			t.Fatalf("lookup after rename: %+v, %v", res.Definitions, err)
		}
	})
	t.Run("edit away", func(t *testing.T) {
		writeFile(t, dir, "web/server.go", project["web/server.go"])
		if got := find(t, "zanzibar"); !cmp.Equal(got, []string{"new/y.go"}) {
			t.Errorf("hits %v", got)
		}
	})
	t.Run("delete", func(t *testing.T) {
		if err := os.RemoveAll(filepath.Join(dir, "new")); err != nil {
			t.Fatal(err)
		}
		if got := find(t, "zanzibar"); len(got) != 0 {
			t.Errorf("hits after delete: %v", got)
		}
		res, _ := ix.Refresh(ctx)
		if res.Files != len(project) {
			t.Errorf("index holds %d files, want %d", res.Files, len(project))
		}
	})
	t.Run("touch without a change reindexes nothing", func(t *testing.T) {
		later := time.Now().Add(time.Hour)
		os.Chtimes(filepath.Join(dir, "auth/session.go"), later, later)
		fr, err := ix.Refresh(ctx)
		if err != nil || fr.Indexed != 0 || fr.State != Fresh {
			t.Fatalf("refresh after touch: %+v, %v", fr, err)
		}
		st, _ := ix.Status(ctx)
		// (Files edited a moment ago may still count as pending: their
		// mtime is too recent to trust. The touched file's is not.)
		if st.Symbols != 7 || slices.Contains(st.Freshness.Pending, "auth/session.go") {
			t.Errorf("after touch: %d symbols, want 7; pending %v", st.Symbols, st.Freshness.Pending)
		}
	})
}

// TestBudget: with no time to index, the answer says partial and lists
// the pending files; an edited file still answers, marked stale, with its
// excerpt read from disk as it is now.
func TestBudget(t *testing.T) {
	dir := writeTree(t, project)
	ctx := context.Background()
	hurried := openTest(t, dir, func(o *Options) { o.Budget = time.Nanosecond })
	res, err := hurried.Search(ctx, "validate", SearchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fr := res.Freshness
	wantPending := []string{"auth/session.go", "docs/guide.md", "go.mod", "other/session.go", "web/server.go"}
	if fr.State != Partial || fr.PendingCount != len(project) || !cmp.Equal(fr.Pending, wantPending) {
		t.Fatalf("cold freshness %+v, want partial with every file pending", fr)
	}
	if len(res.Hits) != 0 {
		t.Errorf("hits from files never indexed: %v", hitPaths(res.Hits))
	}

	patient := openTest(t, dir, nil)
	if fr, err := patient.Update(ctx); err != nil || fr.State != Fresh || fr.Indexed != len(project) {
		t.Fatalf("update: %+v, %v", fr, err)
	}
	edited := strings.Replace(project["auth/session.go"], "checks that a session is still valid", "CHANGED ON DISK", 1)
	writeFile(t, dir, "auth/session.go", edited)
	res, err = hurried.Search(ctx, "validateSession", SearchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Freshness.State != Partial || !cmp.Equal(res.Freshness.Pending, []string{"auth/session.go"}) {
		t.Fatalf("freshness after an edit %+v", res.Freshness)
	}
	var h *Hit
	for i := range res.Hits {
		if res.Hits[i].Path == "auth/session.go" {
			h = &res.Hits[i]
		}
	}
	if h == nil || !h.Stale {
		t.Fatalf("hits %+v: want auth/session.go, stale", res.Hits)
	}
	if !strings.Contains(h.Excerpt, "CHANGED ON DISK") {
		t.Errorf("excerpt %q is not the file on disk", h.Excerpt)
	}
	if fr, err := patient.Refresh(ctx); err != nil || fr.State != Fresh || fr.Indexed != 1 {
		t.Errorf("refresh: %+v, %v", fr, err)
	}
}

// TestWalk: .gitignore files (nested, negated, changed between queries),
// binaries, oversized files, links out of the root and never-entered
// directories.
func TestWalk(t *testing.T) {
	outside := testtool.WriteTree(t, map[string]string{"secret.go": "package s // quokka outside\n"})
	dir := testtool.WriteTree(t, map[string]string{
		".gitignore":                            "build/\n*.log\n!keep.log\n",
		"src/.gitignore":                        "private.txt\n",
		"src/a.go":                              "package a // quokka a\n",
		"src/private.txt":                       "quokka private\n",
		"src/deep/private.txt":                  "quokka deep private\n",
		"build/out.go":                          "package out // quokka build\n",
		"run.log":                               "quokka log\n",
		"keep.log":                              "quokka kept log\n",
		"node_modules/m/index.js":               "// quokka module\n",
		"env/pyvenv.cfg":                        "home = /usr/bin\n",
		"env/lib/python3.11/site-packages/m.py": "# quokka venv\n",
		"big.txt":                               "quokka big " + strings.Repeat("x", 5000) + "\n",
		"bin.dat":                               "quokka\x00binary\n",
	})
	for _, l := range [][2]string{{outside, "out"}, {filepath.Join(outside, "secret.go"), "secret.go"}, {"src/a.go", "inside-link.go"}} {
		if err := os.Symlink(l[0], filepath.Join(dir, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	ageTree(t, dir) // so that the walk reuses directory listings
	ix := openTest(t, dir, func(o *Options) { o.MaxFileSize = 1000 })
	ctx := context.Background()
	paths := func() []string {
		t.Helper()
		res, err := ix.Search(ctx, "quokka", SearchOptions{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		got := hitPaths(res.Hits)
		sort.Strings(got)
		return got
	}
	if diff := cmp.Diff([]string{"keep.log", "src/a.go"}, paths()); diff != "" {
		t.Errorf("indexed (-want +got):\n%s", diff)
	}
	st, err := ix.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// .gitignore, src/.gitignore, src/a.go, keep.log, bin.dat (skipped as binary).
	if st.Files != 5 || st.Skipped != 1 {
		t.Errorf("status: %d files, %d skipped; want 5 and 1", st.Files, st.Skipped)
	}
	t.Run("a .gitignore changed between queries", func(t *testing.T) {
		writeFile(t, dir, "src/.gitignore", "# nothing\n")
		if diff := cmp.Diff([]string{"keep.log", "src/a.go", "src/deep/private.txt", "src/private.txt"}, paths()); diff != "" {
			t.Errorf("indexed (-want +got):\n%s", diff)
		}
		writeFile(t, dir, ".gitignore", "*.log\n")
		if diff := cmp.Diff([]string{"build/out.go", "src/a.go", "src/deep/private.txt", "src/private.txt"}, paths()); diff != "" {
			t.Errorf("indexed (-want +got):\n%s", diff)
		}
	})
}

func TestProgress(t *testing.T) {
	dir := writeTree(t, project)
	var calls [][2]int
	ix := openTest(t, dir, func(o *Options) { o.Progress = func(done, total int) { calls = append(calls, [2]int{done, total}) } })
	if _, err := ix.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(calls) != len(project) {
		t.Fatalf("progress called %d times, want %d: %v", len(calls), len(project), calls)
	}
	for i, c := range calls {
		if c != [2]int{i + 1, len(project)} {
			t.Errorf("call %d: %v, want %v", i, c, [2]int{i + 1, len(project)})
		}
	}
}

// TestWritesOnlyUnderCodecortex: indexing and querying change nothing in
// the tree but .codecortex/, whose index directory ignores itself.
func TestWritesOnlyUnderCodecortex(t *testing.T) {
	dir := writeTree(t, project)
	snapshot := func() map[string]string {
		out := map[string]string{}
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			rel, _ := filepath.Rel(dir, p)
			switch rel {
			case ".codecortex":
				return filepath.SkipDir
			case ".": // gains the .codecortex entry
				return nil
			}
			fi, _ := d.Info()
			out[rel] = fi.ModTime().String() + fi.Mode().String()
			return nil
		})
		return out
	}
	before := snapshot()
	ix := openTest(t, dir, nil)
	ctx := context.Background()
	ix.Update(ctx)
	ix.Search(ctx, "session", SearchOptions{})
	ix.Lookup(ctx, "Session")
	ix.Status(ctx)
	if diff := cmp.Diff(before, snapshot()); diff != "" {
		t.Errorf("the tree changed outside .codecortex (-before +after):\n%s", diff)
	}
	gi, err := os.ReadFile(filepath.Join(dir, ".codecortex/index/.gitignore"))
	if err != nil || string(gi) != "*\n" {
		t.Errorf(".codecortex/index/.gitignore = %q, %v", gi, err)
	}
}

func TestTextOnly(t *testing.T) {
	dir := writeTree(t, project)
	t.Chdir(dir)
	ix, err := Open(Options{TextOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	fr, err := ix.Update(context.Background())
	if err != nil || fr.State != Fresh {
		t.Fatalf("update: %+v, %v", fr, err)
	}
	res, err := ix.Search(context.Background(), "validateSession", SearchOptions{})
	if err != nil || len(res.Hits) == 0 || res.Hits[0].Match != MatchText {
		t.Fatalf("text-only search: %+v, %v", res.Hits, err)
	}
	st, _ := ix.Status(context.Background())
	if st.Symbols != 0 || st.Extractor != "" {
		t.Errorf("text-only index has %d symbols, extractor %q", st.Symbols, st.Extractor)
	}
}

// TestExtractorChangeReindexes: turning the extractor on reindexes every
// file with symbols on the next update.
func TestExtractorChangeReindexes(t *testing.T) {
	dir := writeTree(t, project)
	ctx := context.Background()
	text := openTest(t, dir, func(o *Options) { o.Extract = nil })
	if _, err := text.Update(ctx); err != nil {
		t.Fatal(err)
	}
	text.Close()
	ix := openTest(t, dir, nil)
	fr, err := ix.Update(ctx)
	if err != nil || fr.Indexed != len(project) {
		t.Fatalf("update with an extractor: %+v, %v", fr, err)
	}
	if res, _ := ix.Lookup(ctx, "Session"); len(res.Definitions) != 2 {
		t.Errorf("definitions after the extractor was turned on: %+v", res.Definitions)
	}
}

func TestClosed(t *testing.T) {
	ix := openTest(t, writeTree(t, project), nil)
	ix.Close()
	if _, err := ix.Search(context.Background(), "x", SearchOptions{}); !errors.Is(err, ErrClosed) {
		t.Errorf("search after Close: %v, want ErrClosed", err)
	}
	if err := ix.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// TestAheadSlots checks that a file read ahead of the writer holds slots
// by its size, never more than there are.
func TestAheadSlots(t *testing.T) {
	for _, c := range []struct {
		size int64
		want int
	}{{-1, 1}, {0, 1}, {aheadUnit - 1, 1}, {aheadUnit, 2}, {DefaultMaxFileSize, 17}, {1 << 40, 64}} {
		if got := aheadSlots(c.size, 64); got != c.want {
			t.Errorf("aheadSlots(%d, 64) = %d, want %d", c.size, got, c.want)
		}
	}
}

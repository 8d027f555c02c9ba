package rewrite

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/structural"
	"github.com/codecortex/codecortex/syntax"
	"github.com/google/go-cmp/cmp"
)

// requireSyntax skips a test that needs the built-in grammars in a build
// without cgo.
func requireSyntax(t testing.TB) {
	t.Helper()
	if !syntax.Available {
		t.Skip("the built-in structural engine needs cgo")
	}
}

// project is a small Go module whose calls to oldAPI a rewrite turns into
// newAPI.
var project = map[string]string{
	"go.mod": "module example.com/shop\n\ngo 1.22\n",
	"api/api.go": `package api

// OldAPI is the old entry point.
func OldAPI(x int) int { return x }

// NewAPI is the new one.
func NewAPI(x int) int { return x }
`,
	"cart/cart.go": `package cart

import "example.com/shop/api"

// Total adds up the items.
func Total(items []int) int {
	sum := 0
	for _, it := range items {
		sum += api.OldAPI(it)
	}
	return sum + api.OldAPI(api.OldAPI(0))
}
`,
	"cart/cart_test.go": `package cart

import "testing"

func TestTotal(t *testing.T) {
	if Total([]int{1, 2}) != 3 {
		t.Fatal("wrong total")
	}
}
`,
	"main.go": `package main

import (
	"fmt"

	"example.com/shop/api"
)

func main() {
	fmt.Println(api.OldAPI(1))
}
`,
}

var migration = Request{Pattern: "api.OldAPI($X)", Template: "api.NewAPI($X)", Language: "go"}

// openTest opens a rewriter on dir that skips validation and is closed
// with the test.
func openTest(t testing.TB, dir string, edit func(*Options)) *Rewriter {
	t.Helper()
	opts := Options{Dir: dir, SkipValidation: true}
	if edit != nil {
		edit(&opts)
	}
	r, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// fataler is what both testing.TB and *rapid.T offer.
type fataler interface {
	Helper()
	Fatal(args ...any)
}

// snapshot returns every file under dir outside .codecortex, by
// slash-separated relative path.
func snapshot(t fataler, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() && (rel == ".codecortex" || rel == ".git") {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			out[rel] = "-> " + target
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[rel] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestPreviewAndApply(t *testing.T) {
	requireSyntax(t)
	dir := testtool.WriteTree(t, project)
	if err := os.Chmod(filepath.Join(dir, "main.go"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := openTest(t, dir, nil)
	ctx := context.Background()
	before := snapshot(t, dir)
	p, err := r.Preview(ctx, migration)
	if err != nil {
		t.Fatal(err)
	}
	// Previewing writes nothing in the tree.
	if diff := cmp.Diff(before, snapshot(t, dir)); diff != "" {
		t.Fatalf("preview changed the tree (-want +got):\n%s", diff)
	}
	var paths []string
	for _, f := range p.Files {
		paths = append(paths, f.Path)
	}
	if diff := cmp.Diff([]string{"cart/cart.go", "main.go"}, paths); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	// cart.go: OldAPI(it), and OldAPI(OldAPI(0)) whose inner match is
	// left to the outer one's rewrite; main.go: OldAPI(1).
	if p.Matches != 3 || p.SkippedInner != 1 {
		t.Errorf("matches %d, skipped inner %d; want 3 and 1", p.Matches, p.SkippedInner)
	}
	wantDiff := `--- a/main.go
+++ b/main.go
@@ -7,5 +7,5 @@
 )
 
 func main() {
-	fmt.Println(api.OldAPI(1))
+	fmt.Println(api.NewAPI(1))
 }
`
	if diff := cmp.Diff(wantDiff, p.Files[1].Diff); diff != "" {
		t.Errorf("main.go diff (-want +got):\n%s", diff)
	}
	if p.Impact == nil || len(p.Impact.Symbols) == 0 {
		t.Fatalf("impact %+v", p.Impact)
	}
	if got := p.Impact.Symbols[0]; got.Name != "Total" || got.Path != "cart/cart.go" {
		t.Errorf("first affected symbol %+v, want Total in cart/cart.go", got)
	}
	if len(p.Impact.Tests) != 1 || p.Impact.Tests[0].Path != "cart/cart_test.go" {
		t.Errorf("tests %+v, want cart/cart_test.go", p.Impact.Tests)
	}
	// The stored preview is the one returned.
	shown, err := r.Show(p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(p, shown); diff != "" {
		t.Errorf("stored preview (-want +got):\n%s", diff)
	}

	res, err := r.Apply(ctx, p.ID, Authorization{Principal: "alice", Via: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Applied || res.FilesChanged != 2 || res.MatchesApplied != 3 || res.SkippedInner != 1 || !res.OK() {
		t.Errorf("result %+v", res)
	}
	after := snapshot(t, dir)
	want := map[string]string{}
	for k, v := range before {
		want[k] = v
	}
	want["main.go"] = strings.Replace(before["main.go"], "api.OldAPI(1)", "api.NewAPI(1)", 1)
	want["cart/cart.go"] = strings.Replace(strings.Replace(before["cart/cart.go"], "api.OldAPI(it)", "api.NewAPI(it)", 1),
		"api.OldAPI(api.OldAPI(0))", "api.NewAPI(api.OldAPI(0))", 1)
	if diff := cmp.Diff(want, after); diff != "" {
		t.Errorf("tree after apply (-want +got):\n%s", diff)
	}
	fi, err := os.Stat(filepath.Join(dir, "main.go"))
	if err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("main.go mode %v (%v), want 0755 kept", fi.Mode(), err)
	}
	// No temporary file, no journal is left.
	if ents, _ := os.ReadDir(filepath.Join(dir, JournalDir)); len(ents) != 0 {
		t.Errorf("journal left: %v", ents)
	}
	evs, bad, err := r.Audit()
	if err != nil || bad != 0 || len(evs) != 1 {
		t.Fatalf("audit %+v, %d bad, %v", evs, bad, err)
	}
	ev := evs[0]
	if ev.Principal != "alice" || ev.Via != "test" || ev.PreviewID != p.ID || ev.Outcome != Applied || len(ev.Files) != 2 ||
		ev.Files[1].Before != p.Files[1].SHA256 || ev.Files[1].After != p.Files[1].NewSHA256 {
		t.Errorf("audit event %+v", ev)
	}
	b, err := os.ReadFile(filepath.Join(dir, StateDir, ".gitignore"))
	if err != nil || !strings.Contains(string(b), "*") {
		t.Errorf(".gitignore %q %v", b, err)
	}
	// Applying again is refused: the files are not the preview's any more.
	if _, err := r.Apply(ctx, p.ID, Authorization{Principal: "alice"}); !errors.Is(err, ErrChanged) {
		t.Errorf("second apply: %v, want ErrChanged", err)
	}
}

// TestRefusals covers every step's refusal: nothing is written in the
// tree, and each error says which refusal it is.
func TestRefusals(t *testing.T) {
	requireSyntax(t)
	ctx := context.Background()
	alice := Authorization{Principal: "alice"}
	tests := []struct {
		name string
		// opts changes the options; nil keeps them.
		opts func(*Options)
		// act makes the refused call.
		act  func(t *testing.T, s *refusalSetup) error
		want error
		// apply says the refused call is an apply, which is audited.
		apply bool
		// also checks more of the error.
		also func(t *testing.T, err error)
	}{
		{name: "invalid pattern", want: structural.ErrInvalidPattern, act: func(t *testing.T, s *refusalSetup) error {
			_, err := s.r.Preview(ctx, Request{Pattern: "api.OldAPI(", Template: "x", Language: "go"})
			return err
		}},
		{name: "unbound metavariable", want: structural.ErrTemplate, act: func(t *testing.T, s *refusalSetup) error {
			_, err := s.r.Preview(ctx, Request{Pattern: "api.OldAPI($X)", Template: "api.NewAPI($Y)", Language: "go"})
			return err
		}, also: func(t *testing.T, err error) {
			var te *structural.TemplateError
			if !errors.As(err, &te) || te.Var != "Y" {
				t.Errorf("%v: want a TemplateError naming Y", err)
			}
		}},
		{name: "no language", want: ErrInvalidRequest, act: func(t *testing.T, s *refusalSetup) error {
			_, err := s.r.Preview(ctx, Request{Pattern: "api.OldAPI($X)", Template: "api.NewAPI($X)"})
			return err
		}},
		{name: "template that does not parse", want: structural.ErrTemplate, act: func(t *testing.T, s *refusalSetup) error {
			_, err := s.r.Preview(ctx, Request{Pattern: "api.OldAPI($X)", Template: "api.NewAPI($X", Language: "go"})
			return err
		}},
		{name: "structural search disabled: no structural matches", opts: func(o *Options) { o.Matcher = structural.New(structural.Options{Disabled: true}) }, want: ErrNotStructural, act: func(t *testing.T, s *refusalSetup) error {
			_, err := s.r.Preview(ctx, migration)
			return err
		}},
		{name: "no match", want: ErrNoChanges, act: func(t *testing.T, s *refusalSetup) error {
			_, err := s.r.Preview(ctx, Request{Pattern: "api.Gone($X)", Template: "api.NewAPI($X)", Language: "go"})
			return err
		}},
		{name: "max_rewrite_files", opts: func(o *Options) { o.Limits.MaxFiles = 1 }, want: ErrLimit, act: func(t *testing.T, s *refusalSetup) error {
			_, err := s.r.Preview(ctx, migration)
			return err
		}, also: wantLimit(LimitFiles, 1, 2)},
		{name: "max_rewrite_matches", opts: func(o *Options) { o.Limits.MaxMatches = 2 }, want: ErrLimit, act: func(t *testing.T, s *refusalSetup) error {
			_, err := s.r.Preview(ctx, migration)
			return err
		}, also: wantLimit(LimitMatches, 2, 3)},
		// Each edit removes its match and inserts as many bytes:
		// api.OldAPI(it) 14, api.OldAPI(api.OldAPI(0)) 25, api.OldAPI(1) 13.
		{name: "max_rewrite_bytes", opts: func(o *Options) { o.Limits.MaxBytes = 103 }, want: ErrLimit, act: func(t *testing.T, s *refusalSetup) error {
			_, err := s.r.Preview(ctx, migration)
			return err
		}, also: wantLimit(LimitBytes, 103, 2*(14+25+13))},
		{name: "path escaping the root", want: ErrUnsafePath, act: func(t *testing.T, s *refusalSetup) error {
			_, err := s.r.Preview(ctx, Request{Pattern: migration.Pattern, Template: migration.Template, Language: "go", Paths: []string{"../elsewhere"}})
			return err
		}, also: func(t *testing.T, err error) {
			if !errors.Is(err, contain.ErrEscape) {
				t.Errorf("%v: want contain.ErrEscape", err)
			}
		}},
		{name: "host edit escaping the root", want: ErrUnsafePath, act: func(t *testing.T, s *refusalSetup) error {
			_, err := s.r.PreviewEdits(ctx, "escape", []structural.Edit{{Path: "../x.go", StartByte: 0, EndByte: 0, New: "x"}})
			return err
		}},
		{name: "host edit of a dependency's installed copy", want: ErrUnsafePath, act: func(t *testing.T, s *refusalSetup) error {
			for _, p := range []string{"node_modules/uuid/dist/v4.js", ".venv/lib/python3.12/site-packages/six.py"} {
				full := filepath.Join(s.dir, filepath.FromSlash(p))
				if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(full, []byte("function v4() {}\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				_, err := s.r.PreviewEdits(ctx, "dependency", []structural.Edit{{Path: p, StartByte: 9, EndByte: 11, Old: "v4", New: "v5"}})
				if !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), "dependency's installed copy") {
					t.Fatalf("%s: %v", p, err)
				}
			}
			_, err := s.r.PreviewEdits(ctx, "dependency", []structural.Edit{{Path: "node_modules/uuid/dist/v4.js", StartByte: 9, EndByte: 11, Old: "v4", New: "v5"}})
			return err
		}},
		{name: "host edit of a missing file", want: ErrInvalidRequest, act: func(t *testing.T, s *refusalSetup) error {
			_, err := s.r.PreviewEdits(ctx, "missing", []structural.Edit{{Path: "nothere.go", New: "package x\n"}})
			return err
		}},
		{name: "host edits that no longer match", want: structural.ErrStaleEdit, act: func(t *testing.T, s *refusalSetup) error {
			_, err := s.r.PreviewEdits(ctx, "stale", []structural.Edit{{Path: "main.go", StartByte: 0, EndByte: 7, Old: "pockage", New: "package"}})
			return err
		}},
		{name: "symlinked file", want: ErrUnsafePath, act: func(t *testing.T, s *refusalSetup) error {
			if err := os.Symlink("main.go", filepath.Join(s.dir, "link.go")); err != nil {
				t.Fatal(err)
			}
			_, err := s.r.PreviewEdits(ctx, "through a link", []structural.Edit{{Path: "link.go", StartByte: 0, EndByte: 7, Old: "package", New: "package"}})
			return err
		}, also: func(t *testing.T, err error) {
			if !strings.Contains(err.Error(), "symbolic link") {
				t.Errorf("%v: want it to say symbolic link", err)
			}
		}},
		{name: "symlinked file named in the pattern's paths", want: ErrUnsafePath, act: func(t *testing.T, s *refusalSetup) error {
			if err := os.Symlink("main.go", filepath.Join(s.dir, "link.go")); err != nil {
				t.Fatal(err)
			}
			_, err := s.r.Preview(ctx, Request{Pattern: migration.Pattern, Template: migration.Template, Language: "go", Paths: []string{"link.go"}})
			return err
		}},
		{name: "file replaced by a symlink after the preview", apply: true, want: ErrUnsafePath, act: func(t *testing.T, s *refusalSetup) error {
			mustPreview(t, s.r, s)
			target := filepath.Join(s.dir, "elsewhere.go")
			if err := os.Rename(filepath.Join(s.dir, "main.go"), target); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("elsewhere.go", filepath.Join(s.dir, "main.go")); err != nil {
				t.Fatal(err)
			}
			_, err := s.r.Apply(ctx, s.p.ID, alice)
			return err
		}},
		{name: "hard-linked file", want: ErrUnsafePath, act: func(t *testing.T, s *refusalSetup) error {
			if err := os.Link(filepath.Join(s.dir, "main.go"), filepath.Join(s.dir, "copy.go.txt")); err != nil {
				t.Fatal(err)
			}
			_, err := s.r.Preview(ctx, migration)
			return err
		}},
		{name: "expired preview", apply: true, want: ErrExpired, act: func(t *testing.T, s *refusalSetup) error {
			mustPreview(t, s.r, s)
			*s.now = s.now.Add(DefaultPreviewTTL)
			_, err := s.r.Apply(ctx, s.p.ID, alice)
			return err
		}},
		{name: "preview ttl from the options", opts: func(o *Options) { o.PreviewTTL = time.Minute }, apply: true, want: ErrExpired, act: func(t *testing.T, s *refusalSetup) error {
			mustPreview(t, s.r, s)
			*s.now = s.now.Add(time.Minute)
			_, err := s.r.Apply(ctx, s.p.ID, alice)
			return err
		}},
		{name: "unknown preview", apply: true, want: ErrUnknownPreview, act: func(t *testing.T, s *refusalSetup) error {
			_, err := s.r.Apply(ctx, "0123456789abcdef01234567", alice)
			return err
		}},
		{name: "malformed preview id", apply: true, want: ErrUnknownPreview, act: func(t *testing.T, s *refusalSetup) error {
			_, err := s.r.Apply(ctx, "../../etc/passwd", alice)
			return err
		}},
		{name: "missing authorization", apply: true, want: ErrUnauthorized, act: func(t *testing.T, s *refusalSetup) error {
			mustPreview(t, s.r, s)
			_, err := s.r.Apply(ctx, s.p.ID, Authorization{Via: "test"})
			return err
		}},
		{name: "allow_apply false", opts: func(o *Options) { o.DenyApply = true }, apply: true, want: ErrApplyDisabled, act: func(t *testing.T, s *refusalSetup) error {
			mustPreview(t, s.r, s)
			_, err := s.r.Apply(ctx, s.p.ID, alice)
			return err
		}},
		{name: "file edited after the preview", apply: true, want: ErrChanged, act: func(t *testing.T, s *refusalSetup) error {
			mustPreview(t, s.r, s)
			appendFile(t, filepath.Join(s.dir, "main.go"), "// edited\n")
			_, err := s.r.Apply(ctx, s.p.ID, alice)
			return err
		}, also: func(t *testing.T, err error) {
			var ce *ChangedError
			if !errors.As(err, &ce) || ce.Path != "main.go" || ce.Deleted {
				t.Errorf("%v: want a ChangedError for main.go", err)
			}
		}},
		{name: "file deleted after the preview", apply: true, want: ErrChanged, act: func(t *testing.T, s *refusalSetup) error {
			mustPreview(t, s.r, s)
			if err := os.Remove(filepath.Join(s.dir, "main.go")); err != nil {
				t.Fatal(err)
			}
			_, err := s.r.Apply(ctx, s.p.ID, alice)
			return err
		}, also: func(t *testing.T, err error) {
			var ce *ChangedError
			if !errors.As(err, &ce) || ce.Path != "main.go" || !ce.Deleted {
				t.Errorf("%v: want a ChangedError for main.go, deleted", err)
			}
		}},
		{name: "another apply in progress", apply: true, want: ErrBusy, act: func(t *testing.T, s *refusalSetup) error {
			mustPreview(t, s.r, s)
			other := openTest(t, s.dir, nil)
			release, err := other.lock()
			if err != nil {
				t.Fatal(err)
			}
			defer release()
			_, err = s.r.Apply(ctx, s.p.ID, alice)
			return err
		}},
		{name: "damaged preview", apply: true, want: ErrCorruptPreview, act: func(t *testing.T, s *refusalSetup) error {
			mustPreview(t, s.r, s)
			name := filepath.Join(s.dir, PreviewDir, s.p.ID+".json")
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			// The diff the user saw says NewAPI; the edits now say Evil.
			b = []byte(strings.Replace(string(b), `"new": "api.NewAPI(1)"`, `"new": "api.EvilA(1)"`, 1))
			if err := os.WriteFile(name, b, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = s.r.Apply(ctx, s.p.ID, alice)
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := testtool.WriteTree(t, project)
			now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			s := &refusalSetup{dir: dir, now: &now}
			r := openTest(t, dir, func(o *Options) {
				o.Now = func() time.Time { return *s.now }
				if tt.opts != nil {
					tt.opts(o)
				}
			})
			s.r = r
			err := tt.act(t, s)
			if !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
			if tt.also != nil {
				tt.also(t, err)
			}
			// Nothing of the project was rewritten.
			got := snapshot(t, dir)
			for name, content := range project {
				if got[name] != content && !(name == "main.go" && strings.Contains(tt.name, "after the preview")) {
					t.Errorf("%s changed:\n%s", name, got[name])
				}
			}
			if ents, _ := os.ReadDir(filepath.Join(dir, JournalDir)); len(ents) != 0 {
				t.Errorf("journal left: %v", ents)
			}
			// A refused apply is audited as refused, with its reason.
			evs, _, _ := r.Audit()
			for _, ev := range evs {
				if ev.Outcome != Refused || ev.Reason == "" {
					t.Errorf("audit event %+v", ev)
				}
			}
			if tt.apply && len(evs) != 1 {
				t.Errorf("%d audit events of a refused apply, want 1", len(evs))
			}
		})
	}
}

// refusalSetup is what a refusal case works on.
type refusalSetup struct {
	dir string
	r   *Rewriter
	p   *Preview
	now *time.Time
}

// mustPreview previews the migration into s.p.
func mustPreview(t *testing.T, r *Rewriter, s *refusalSetup) {
	t.Helper()
	p, err := r.Preview(context.Background(), migration)
	if err != nil {
		t.Fatal(err)
	}
	s.p = p
}

func wantLimit(limit string, max, got int64) func(*testing.T, error) {
	return func(t *testing.T, err error) {
		var le *LimitError
		if !errors.As(err, &le) {
			t.Fatalf("%v: want a LimitError", err)
		}
		if diff := cmp.Diff(&LimitError{Limit: limit, Max: max, Got: got}, le); diff != "" {
			t.Errorf("limit error (-want +got):\n%s", diff)
		}
		if !strings.Contains(err.Error(), limit) {
			t.Errorf("%q does not name %s", err, limit)
		}
	}
}

func appendFile(t testing.TB, name, text string) {
	t.Helper()
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

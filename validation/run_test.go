package validation

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/evidence/evidencetest"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/trust"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// brokenModule is a Go module with a build error (sub), a vet finding
// (main), failing tests, a failing subtest and a panicking test (ok).
var brokenModule = map[string]string{
	"go.mod": "module example.com/broken\n\ngo 1.22\n",
	"main.go": `package main

import "fmt"

func main() {
	fmt.Printf("%d\n", "x")
}
`,
	"sub/a.go": `package sub

func F() int {
	return undefinedThing
}
`,
	"ok/ok.go": "package ok\n\nfunc G() int { return 1 }\n",
	"ok/ok_test.go": `package ok

import "testing"

func TestG(t *testing.T) {
	if G() != 2 {
		t.Errorf("G() = %d, want 2", G())
	}
}

func TestSub(t *testing.T) {
	t.Run("a", func(t *testing.T) { t.Fatal("boom") })
	t.Run("b", func(t *testing.T) {})
}

func TestPanic(t *testing.T) {
	var m map[string]int
	m["x"] = 1
}

func TestPasses(t *testing.T) {}
`,
}

var goTest = Command{Name: "go test", Argv: []string{"go", "test", "-json", "-count=1", "./..."}}

type diagRow struct {
	Tool, Where, Test, Message string
}

func rows(ds []Diagnostic) []diagRow {
	var out []diagRow
	for _, d := range ds {
		where := d.Path
		if d.Line > 0 {
			where += ":" + strconv.Itoa(d.Line)
		}
		if d.Column > 0 {
			where += ":" + strconv.Itoa(d.Column)
		}
		out = append(out, diagRow{d.Tool, where, d.Test, d.Message})
	}
	return out
}

func TestRunGo(t *testing.T) {
	testtool.Require(t, "go", "install Go")
	dir := testtool.WriteTree(t, brokenModule)
	cmds := append(Detect(dir), goTest)
	o, err := Run(context.Background(), Options{Dir: dir, Commands: cmds})
	if err != nil {
		t.Fatal(err)
	}
	if o.Passed || len(o.Results) != 3 {
		t.Fatalf("outcome passed %v with %d results", o.Passed, len(o.Results))
	}
	want := [][]diagRow{
		{{"go", "sub/a.go:4:9", "", "undefined: undefinedThing"}},
		{{"go", "main.go:6:14", "", `fmt.Printf format %d has arg "x" of wrong type string`},
			{"vet", "sub/a.go:4:9", "", "undefined: undefinedThing"}},
		{{"go test", "", "", "build failed"}, {"go test", "", "", "build failed"},
			{"go", "main.go:6:14", "", `fmt.Printf format %d has arg "x" of wrong type string`},
			{"go test", "ok/ok_test.go:7", "TestG", "G() = 1, want 2"},
			{"go test", "ok/ok_test.go:12", "TestSub/a", "boom"},
			{"go test", "ok/ok_test.go:18", "TestPanic", "panic: assignment to entry in nil map [recovered, repanicked]"},
			{"go", "sub/a.go:4:9", "", "undefined: undefinedThing"}},
	}
	for i, r := range o.Results {
		if r.Passed || r.ExitCode == 0 || r.Error != "" || r.Duration <= 0 {
			t.Errorf("%s: passed %v exit %d error %q duration %v", r.Name, r.Passed, r.ExitCode, r.Error, r.Duration)
		}
		if diff := cmp.Diff(want[i], rows(r.Diagnostics)); diff != "" {
			t.Errorf("%s diagnostics (-want +got):\n%s", r.Name, diff)
		}
	}
	if got := []string{o.Results[0].Name, o.Results[1].Name}; !cmp.Equal(got, []string{"go build", "go vet"}) {
		t.Errorf("detected %v", got)
	}

	// The outcome is stored, and ignored by git.
	last, err := Last(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(o, last, cmpopts.EquateApproxTime(time.Millisecond)); diff != "" {
		t.Errorf("Last (-run +stored):\n%s", diff)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".codecortex", "validation", ".gitignore")); string(b) != "*\n" {
		t.Errorf(".gitignore = %q", b)
	}

	// As evidence: located diagnostics, converted to code points, and one
	// record per command.
	p := New(Options{Dir: dir})
	resp, err := p.Gather(context.Background(), evidence.Query{Path: "main.go"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range resp.Records {
		if r.Kind != evidence.Validation || r.Provenance != trust.ValidationRun || r.Trust != trust.Structural {
			t.Errorf("record %+v", r)
		}
		got = append(got, r.Location()+" "+r.Metadata.Excerpt)
	}
	wantRecs := []string{
		" go build failed (go build ./...): exit 1, 1 diagnostics, in ",
		"main.go:6:14-6:14 go vet: main.go:6:14: fmt.Printf format %d has arg \"x\" of wrong type string",
		" go vet failed (go vet ./...): exit 1, 2 diagnostics, in ",
		" go test failed (go test -json -count=1 ./...): exit 1, 7 diagnostics, in ",
		"main.go:6:14-6:14 go test: main.go:6:14: fmt.Printf format %d has arg \"x\" of wrong type string",
	}
	trimDuration := func(s string) string {
		if i := strings.LastIndex(s, " in "); i >= 0 && !strings.Contains(s[i:], ":") {
			return s[:i+4]
		}
		return s
	}
	for i := range got {
		got[i] = trimDuration(got[i])
	}
	if diff := cmp.Diff(wantRecs, got, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("records for main.go (-want +got):\n%s", diff)
	}
	evidencetest.TestProvider(t, p, dir, evidence.Query{}, evidence.Query{Path: "ok/ok_test.go"},
		evidence.Query{Kinds: []evidence.Kind{evidence.Validation}}, evidence.Query{Kinds: []evidence.Kind{evidence.Definition}})
}

func TestRunPasses(t *testing.T) {
	testtool.Require(t, "go", "install Go")
	dir := testtool.WriteTree(t, map[string]string{
		"go.mod": "module example.com/fine\n\ngo 1.22\n", "fine.go": "package fine\n\nfunc F() int { return 1 }\n",
		"fine_test.go": "package fine\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) {}\n",
	})
	o, err := Run(context.Background(), Options{Dir: dir, Commands: append(Detect(dir), goTest)})
	if err != nil {
		t.Fatal(err)
	}
	if !o.Passed {
		t.Fatalf("a fine module failed: %+v", o)
	}
	resp, err := New(Options{Dir: dir}).Gather(context.Background(), evidence.Query{Text: "does it build?"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Records) != 3 {
		t.Fatalf("%d records, want one per command", len(resp.Records))
	}
	for _, r := range resp.Records {
		a := r.Metadata.Attributes
		if r.HasLocation() || a["passed"] != "true" || a["exit_code"] != "0" || a["duration_ms"] == "" || !strings.Contains(r.Metadata.Excerpt, " passed (") {
			t.Errorf("passing record %+v", r)
		}
	}
}

// TestHelperProgram is a validation command for the tests below: it notes
// each run in VALIDATION_MARKER, prints VALIDATION_OUT and exits with
// VALIDATION_EXIT. It does nothing unless a test started it.
func TestHelperProgram(t *testing.T) {
	if os.Getenv("VALIDATION_HELPER") != "1" {
		t.Skip("a helper program of the validation tests")
	}
	f, err := os.OpenFile(os.Getenv("VALIDATION_MARKER"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err == nil {
		fmt.Fprintln(f, "ran")
		f.Close()
	}
	fmt.Print(os.Getenv("VALIDATION_OUT"))
	code, _ := strconv.Atoi(os.Getenv("VALIDATION_EXIT"))
	os.Exit(code)
}

// helper returns options whose one command is TestHelperProgram, printing
// out and exiting with code, and the marker file its runs are noted in.
func helper(t *testing.T, dir, out string, code int) (Options, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "runs")
	return Options{Dir: dir,
		Commands: []Command{{Name: "check", Argv: []string{exe, "-test.run=^TestHelperProgram$"}}},
		Env:      []string{"VALIDATION_HELPER=1", "VALIDATION_MARKER=" + marker, "VALIDATION_OUT=" + out, "VALIDATION_EXIT=" + strconv.Itoa(code)},
	}, marker
}

func runs(marker string) int {
	b, _ := os.ReadFile(marker)
	return strings.Count(string(b), "ran")
}

// Answering a question never runs a command: only Run does, or Gather
// when the host allowed it and the query asks for validation by kind.
func TestGatherNeverRunsUnlessAsked(t *testing.T) {
	dir := testtool.WriteTree(t, map[string]string{"f.go": "package f\n\nvar x = 1\n"})
	opts, marker := helper(t, dir, "f.go:3:5: x declared and not used\n", 1)
	p := New(opts)
	ctx := context.Background()
	for _, q := range []evidence.Query{{Text: "does it build?"}, {Kinds: []evidence.Kind{evidence.Validation}}, {Path: "f.go"}} {
		_, err := p.Gather(ctx, q)
		var ue *evidence.UnavailableError
		if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "no validation has run") {
			t.Errorf("Gather(%+v) before any run = %v, want unavailable: no validation has run", q, err)
		}
	}
	if n := runs(marker); n != 0 {
		t.Fatalf("Gather ran the command %d times", n)
	}
	if _, err := p.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if n := runs(marker); n != 1 {
		t.Fatalf("Run ran the command %d times", n)
	}
	resp, err := p.Gather(ctx, evidence.Query{Kinds: []evidence.Kind{evidence.Validation}})
	if err != nil || len(resp.Records) != 2 || runs(marker) != 1 {
		t.Errorf("Gather after Run: %d records, %v, %d runs; want the stored 2, no new run", len(resp.Records), err, runs(marker))
	}

	opts.RunOnQuery = true
	p = New(opts)
	if _, err := p.Gather(ctx, evidence.Query{Text: "does it build?"}); err != nil || runs(marker) != 1 {
		t.Errorf("RunOnQuery, a query of any kind: %v, %d runs; want no new run", err, runs(marker))
	}
	if _, err := p.Gather(ctx, evidence.Query{Kinds: []evidence.Kind{evidence.Validation}}); err != nil || runs(marker) != 2 {
		t.Errorf("RunOnQuery, a query for validation: %v, %d runs; want a new run", err, runs(marker))
	}
}

func TestStaleAndOutside(t *testing.T) {
	dir := testtool.WriteTree(t, map[string]string{"f.go": "package f\n\nvar x = \"é😀\" + y\n", "g.go": "package f\n"})
	outside := filepath.Join(t.TempDir(), "elsewhere.go")
	out := "f.go:3:19: undefined: y\n" + outside + ":1:1: outside\n../up.go:2:2: above\n" + filepath.Join(dir, "g.go") + ":1:1: absolute inside\nf.go:99:1: past the end\n"
	opts, _ := helper(t, dir, out, 1)
	o, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	r := o.Results[0]
	if r.Dropped != 2 || len(r.Diagnostics) != 3 {
		t.Fatalf("kept %v, dropped %d; want 3 kept, 2 dropped", rows(r.Diagnostics), r.Dropped)
	}
	p := New(opts)
	locs := func() (map[string]bool, evidence.Report) {
		resp, err := p.Gather(context.Background(), evidence.Query{})
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]bool{}
		for _, rec := range resp.Records {
			if rec.HasLocation() {
				m[rec.Location()] = rec.Stale
			}
		}
		return m, resp.Report
	}
	// Byte column 19 is code point 15 ("var x = \"é😀\" + y": é 2 bytes,
	// 😀 4); line 99 is past the end, so that record has no location.
	got, rep := locs()
	if diff := cmp.Diff(map[string]bool{"f.go:3:15-3:15": false, "g.go:1:1-1:1": false}, got); diff != "" || rep.State != "" {
		t.Errorf("locations (-want +got):\n%s\nreport %+v", diff, rep)
	}
	later := o.Started.Add(time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "f.go"), later, later); err != nil {
		t.Fatal(err)
	}
	got, rep = locs()
	if diff := cmp.Diff(map[string]bool{"f.go:3:15-3:15": true, "g.go:1:1-1:1": false}, got); diff != "" {
		t.Errorf("after f.go changed (-want +got):\n%s", diff)
	}
	if rep.State != evidence.StaleState || !strings.Contains(rep.Reason, "1 diagnostics are in files changed since") || rep.Guidance == "" {
		t.Errorf("report after a change = %+v", rep)
	}
	evidencetest.TestProvider(t, p, dir, evidence.Query{}, evidence.Query{Path: "f.go"})
}

func TestDetectAndRefuse(t *testing.T) {
	fakeTSC := func(dir string) string {
		t.Helper()
		p := filepath.Join(dir, "tsc")
		marker := filepath.Join(dir, "ran")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\necho ran > '"+marker+"'\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return marker
	}
	project := testtool.WriteTree(t, map[string]string{"tsconfig.json": "{}", "go.mod": "module m\n"})
	inside := filepath.Join(project, "node_modules", ".bin")
	insideMarker := fakeTSC(inside)
	outsideBin := t.TempDir()
	fakeTSC(outsideBin)
	names := func(cs []Command) []string {
		var out []string
		for _, c := range cs {
			out = append(out, strings.Join(c.Argv, " "))
		}
		return out
	}
	t.Setenv("PATH", inside+string(os.PathListSeparator)+os.Getenv("PATH"))
	if diff := cmp.Diff([]string{"go build ./...", "go vet ./..."}, names(Detect(project))); diff != "" {
		t.Errorf("Detect with only the project's own tsc (-want +got):\n%s", diff)
	}
	o, err := Run(context.Background(), Options{Dir: project, Commands: []Command{{Argv: []string{"tsc"}}, {Argv: []string{"./node_modules/.bin/tsc"}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range o.Results {
		if r.Passed || !strings.Contains(r.Error, "program inside the project refused") {
			t.Errorf("%v: passed %v error %q; want refused", r.Argv, r.Passed, r.Error)
		}
	}
	if _, err := os.Stat(insideMarker); err == nil {
		t.Error("the project's own tsc ran")
	}
	t.Setenv("PATH", outsideBin+string(os.PathListSeparator)+os.Getenv("PATH"))
	if diff := cmp.Diff([]string{"go build ./...", "go vet ./...", "tsc --noEmit --pretty false -p " + project}, names(Detect(project))); diff != "" {
		t.Errorf("Detect with a tsc outside the project (-want +got):\n%s", diff)
	}
	if cs := Detect(t.TempDir()); len(cs) != 0 {
		t.Errorf("Detect of an empty directory = %v", names(cs))
	}
	if _, err := Run(context.Background(), Options{Dir: t.TempDir()}); !errors.Is(err, ErrNoCommands) {
		t.Errorf("Run with nothing to run = %v, want ErrNoCommands", err)
	}
}

func TestFormatOf(t *testing.T) {
	for argv, want := range map[string]string{
		"go test -json ./...":   "go-test-json",
		"go test -json=true .":  "go-test-json",
		"go test ./...":         "go",
		"/usr/bin/go vet ./...": "go",
		"tsc --noEmit":          "tsc",
		"/x/vue-tsc":            "tsc",
		"make check":            "",
	} {
		if got := formatOf(Command{Argv: strings.Fields(argv)}); got != want {
			t.Errorf("formatOf(%q) = %q, want %q", argv, got, want)
		}
	}
}

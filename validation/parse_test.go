package validation

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The testdata files are real output, recorded from go 1.26 (go build,
// go vet and go test -json on a module with a build error, a vet finding,
// failing tests, a failing subtest and a panic) and from tsc 5.9.3 (plain,
// pretty and a configuration error).
func testdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseGoOutput(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []Diagnostic
	}{
		{"go-build.txt", []Diagnostic{
			{Path: "sub/a.go", Line: 4, Column: 9, Message: "undefined: undefinedThing", Severity: "error", Tool: "go"},
		}},
		{"go-vet.txt", []Diagnostic{
			{Path: "sub/a.go", Line: 4, Column: 9, Message: "undefined: undefinedThing", Severity: "error", Tool: "vet"},
			{Path: "main.go", Line: 6, Column: 14, Message: `fmt.Printf format %d has arg "x" of wrong type string`, Severity: "error", Tool: "go"},
		}},
	} {
		if diff := cmp.Diff(tc.want, ParseGoOutput(testdata(t, tc.file))); diff != "" {
			t.Errorf("ParseGoOutput(%s) (-want +got):\n%s", tc.file, diff)
		}
	}
	// Shapes the recordings lack: no column, a continuation, go: lines,
	// go.mod, "./" paths.
	out := "./x.go:3: missing return\n" +
		"y.go:1:2: cannot use v (variable of type int) as string value\n\thave int\n\twant string\n" +
		"go: updates to go.mod needed; to update it:\n\tgo mod tidy\n" +
		"go.mod:3: unknown directive: modul\n" +
		"note: not a diagnostic\n"
	want := []Diagnostic{
		{Path: "./x.go", Line: 3, Message: "missing return", Severity: "error", Tool: "go"},
		{Path: "y.go", Line: 1, Column: 2, Message: "cannot use v (variable of type int) as string value\nhave int\nwant string", Severity: "error", Tool: "go"},
		{Message: "go: updates to go.mod needed; to update it:\ngo mod tidy", Severity: "error", Tool: "go"},
		{Path: "go.mod", Line: 3, Message: "unknown directive: modul", Severity: "error", Tool: "go"},
	}
	if diff := cmp.Diff(want, ParseGoOutput([]byte(out))); diff != "" {
		t.Errorf("ParseGoOutput (-want +got):\n%s", diff)
	}
}

func TestParseGoTestJSON(t *testing.T) {
	got, err := ParseGoTestJSON(testdata(t, "go-test.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Diagnostic{
		{Path: "sub/a.go", Line: 4, Column: 9, Message: "undefined: undefinedThing", Severity: "error", Tool: "go"},
		{Path: "./main.go", Line: 6, Column: 14, Message: `fmt.Printf format %d has arg "x" of wrong type string`, Severity: "error", Tool: "go"},
		{Package: "example.com/vmod", Message: "build failed", Severity: "error", Tool: "go test"},
		{Package: "example.com/vmod/sub", Message: "build failed", Severity: "error", Tool: "go test"},
		{Package: "example.com/vmod/ok", Test: "TestG", Path: "ok_test.go", Line: 7, Message: "G() = 1, want 2", Severity: "error", Tool: "go test"},
		{Package: "example.com/vmod/ok", Test: "TestSub/a", Path: "ok_test.go", Line: 12, Message: "boom", Severity: "error", Tool: "go test"},
		{Package: "example.com/vmod/ok", Test: "TestPanic", Path: "/tmp/vmod/ok/ok_test.go", Line: 18,
			Message: "panic: assignment to entry in nil map [recovered, repanicked]", Severity: "error", Tool: "go test"},
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Diagnostic{}, "Output")); diff != "" {
		t.Errorf("ParseGoTestJSON (-want +got):\n%s", diff)
	}
	if o := got[4].Output; o != "    ok_test.go:7: G() = 1, want 2" {
		t.Errorf("TestG output = %q", o)
	}
	if _, err := ParseGoTestJSON([]byte("ok  \texample.com/m\t0.1s\n")); err == nil {
		t.Error("output without events parsed")
	}
}

func TestParseTSCOutput(t *testing.T) {
	want := []Diagnostic{
		{Path: "src/a.ts", Line: 1, Column: 7, Message: "Type 'string' is not assignable to type 'number'.", Severity: "error", Code: "TS2322", Tool: "tsc"},
		{Path: "src/a.ts", Line: 2, Column: 34, Message: "Property 'lenght' does not exist on type 'string'. Did you mean 'length'?", Severity: "error", Code: "TS2551", Tool: "tsc"},
		{Path: "src/a.ts", Line: 3, Column: 20, Message: "Argument of type 'number' is not assignable to parameter of type 'string'.", Severity: "error", Code: "TS2345", Tool: "tsc"},
		{Path: "src/a.ts", Line: 5, Column: 22, Message: "Object literal may only specify known properties, and 'y' does not exist in type 'A'.", Severity: "error", Code: "TS2353", Tool: "tsc"},
	}
	if diff := cmp.Diff(want, ParseTSCOutput(testdata(t, "tsc-plain.txt"))); diff != "" {
		t.Errorf("plain (-want +got):\n%s", diff)
	}
	// The pretty format: same diagnostics, related locations appended to
	// the message they belong to.
	if diff := cmp.Diff(want, ParseTSCOutput(testdata(t, "tsc-pretty.txt")), cmpopts.IgnoreFields(Diagnostic{}, "Message")); diff != "" {
		t.Errorf("pretty (-want +got):\n%s", diff)
	}
	global := []Diagnostic{{Message: "The specified path does not exist: '/tmp/nonexist'.", Severity: "error", Code: "TS5058", Tool: "tsc"}}
	if diff := cmp.Diff(global, ParseTSCOutput(testdata(t, "tsc-global.txt"))); diff != "" {
		t.Errorf("global (-want +got):\n%s", diff)
	}
	more := "lib/b.tsx(10,3): warning TS6133: 'x' is declared but its value is never read.\n" +
		"lib/c d.ts(1,1): error TS1005: ';' expected.\n  Continued here.\n"
	wantMore := []Diagnostic{
		{Path: "lib/b.tsx", Line: 10, Column: 3, Message: "'x' is declared but its value is never read.", Severity: "warning", Code: "TS6133", Tool: "tsc"},
		{Path: "lib/c d.ts", Line: 1, Column: 1, Message: "';' expected.\nContinued here.", Severity: "error", Code: "TS1005", Tool: "tsc"},
	}
	if diff := cmp.Diff(wantMore, ParseTSCOutput([]byte(more))); diff != "" {
		t.Errorf("more (-want +got):\n%s", diff)
	}
}

func TestCodePointColumn(t *testing.T) {
	line := "s := \"é😀\" + x"
	// Worked out: s(1) space(2) :(3) =(4) space(5) "(6) é(7) 😀(8) "(9) space(10) +(11) space(12) x(13).
	// Bytes: é is 2, 😀 is 4, so x is byte 17; UTF-16: 😀 is 2 units, so x is unit 14.
	for _, tc := range []struct {
		col  int
		tool string
		want int
	}{
		{1, "go", 1}, {17, "go", 13}, {17, "vet", 13}, {14, "tsc", 13}, {8, "tsc", 8}, {10, "tsc", 9},
		{13, "other", 13}, {0, "go", 0}, {40, "go", 36}, {40, "tsc", 39},
	} {
		if got := codePointColumn(line, tc.col, tc.tool); got != tc.want {
			t.Errorf("codePointColumn(%d, %s) = %d, want %d", tc.col, tc.tool, got, tc.want)
		}
	}
}

// TestExpressionsCompile: every expression compiles (they are compiled on
// first use, not when the package starts; one that does not panics here).
func TestExpressionsCompile(t *testing.T) {
	for _, re := range []func() *regexp.Regexp{goLine, testFileLine, frameLine, tscLine, ansi, tscGlobal} {
		re()
	}
}

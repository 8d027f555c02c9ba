package validation

import (
	"bufio"
	"bytes"
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// A Diagnostic is one problem a validation command reported. Path is as
// the tool printed it in a parser's result (relative to the directory the
// command ran in, or to a test's package directory, or absolute), and
// relative to the project root in a [Result].
type Diagnostic struct {
	Path    string `json:"path,omitempty"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Message string `json:"message"`
	// Severity is "error" or "warning".
	Severity string `json:"severity"`
	// Code is the tool's code for the problem, such as "TS2322".
	Code string `json:"code,omitempty"`
	// Tool says which output it came from: "go" (the compiler or go
	// command), "vet", "go test" or "tsc".
	Tool string `json:"tool"`
	// Package and Test name a failing test (go test -json).
	Package string `json:"package,omitempty"`
	Test    string `json:"test,omitempty"`
	// Output is a failing test's output, cut short.
	Output string `json:"output,omitempty"`
}

// maxMessage bounds a diagnostic's message and maxOutput a test's output.
const (
	maxMessage = 2000
	maxOutput  = 4000
)

// lazyRegexp compiles expr on first use: the package's expressions would
// otherwise be compiled at start-up by every command that links it.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// goLine matches "file.go:12:5: message" and "file.go:12: message", with
// an optional "vet: " before it. The file must end in a Go-ish extension
// or be a path, so that "note: x" lines are not taken.
var goLine = lazyRegexp(`^(?:vet: )?([^\s:][^:]*?\.(?:go|s|c|h|cc|cpp|mod|work|tmpl|y)):(\d+)(?::(\d+))?: (.*)$`)

// ParseGoOutput reads what the go command, the compiler and go vet print:
// "path.go:line:col: message" (the column optional, a "vet: " prefix
// allowed), continuation lines starting with a tab appended to the
// message before them, "# package" headers skipped, and any other line
// starting with "go: " or "vet: " a diagnostic without a location.
// Every diagnostic is an error; Tool is "vet" for a line that says vet,
// "go" otherwise.
func ParseGoOutput(out []byte) []Diagnostic {
	var diags []Diagnostic
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		ln := strings.TrimRight(sc.Text(), "\r")
		switch {
		case ln == "" || strings.HasPrefix(ln, "# "):
			continue
		case strings.HasPrefix(ln, "\t") || strings.HasPrefix(ln, "        "):
			if n := len(diags); n > 0 {
				diags[n-1].Message = clip(diags[n-1].Message+"\n"+strings.TrimSpace(ln), maxMessage)
			}
			continue
		}
		tool := "go"
		if strings.HasPrefix(ln, "vet: ") {
			tool = "vet"
		}
		if m := goLine().FindStringSubmatch(ln); m != nil {
			line, _ := strconv.Atoi(m[2])
			col, _ := strconv.Atoi(m[3])
			if line > 0 && line < 1<<30 && col < 1<<30 {
				diags = append(diags, Diagnostic{Path: m[1], Line: line, Column: col,
					Message: clip(m[4], maxMessage), Severity: "error", Tool: tool})
				continue
			}
		}
		if strings.HasPrefix(ln, "go: ") || strings.HasPrefix(ln, "vet: ") || strings.HasPrefix(ln, "package ") {
			diags = append(diags, Diagnostic{Message: clip(ln, maxMessage), Severity: "error", Tool: tool})
		}
	}
	return diags
}

// A testEvent is one line of go test -json output (test2json, and the go
// command's build events).
type testEvent struct {
	Action     string
	Package    string
	ImportPath string
	Test       string
	Output     string
}

// testFileLine matches where t.Error and t.Fatal say a failure is:
// "    name_test.go:12: message".
var testFileLine = lazyRegexp(`^\s+([^\s:/\\]+\.go):(\d+): ?(.*)$`)

// frameLine matches a stack frame's location: "\t/abs/path/file.go:18 +0x28".
var frameLine = lazyRegexp(`^\t(\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?$`)

// ParseGoTestJSON reads go test -json output and returns one diagnostic
// per failing test (Tool "go test"): its package and name, its output
// (without the === and --- lines), the message of its first failure, and
// where the output says the failure is: the file and line t.Error or
// t.Fatal printed (a file name in the package's directory), or else the
// first stack frame of a panic in a _test.go or non-runtime file (an
// absolute path). A test whose subtests failed is left out for them. A
// package that failed without a failing test (a build failure, a
// TestMain exit) is a diagnostic without a test; the compiler's build
// output in the stream is read with [ParseGoOutput]. Lines that are not
// JSON are skipped; the error is for output that holds no event at all.
func ParseGoTestJSON(out []byte) ([]Diagnostic, error) {
	st, err := readTestEvents(out)
	if err != nil {
		return nil, err
	}
	diags := ParseGoOutput([]byte(st.build.String()))
	// A test whose subtest failed is reported through the subtest.
	hasFailedChild := map[testKey]bool{}
	for _, k := range st.failed {
		for i := strings.LastIndexByte(k.test, '/'); i > 0; i = strings.LastIndexByte(k.test[:i], '/') {
			hasFailedChild[testKey{k.pkg, k.test[:i]}] = true
		}
	}
	seen := map[testKey]bool{}
	for _, k := range st.failed {
		if seen[k] || hasFailedChild[k] {
			continue
		}
		seen[k] = true
		text := ""
		if b := st.outputs[k]; b != nil {
			text = b.String()
		}
		if k.test != "" {
			diags = append(diags, failedTest(k, text))
			continue
		}
		if st.failedPkgWithTest[k.pkg] {
			continue // the failing tests say it
		}
		msg := firstMeaningful(text)
		switch {
		case strings.Contains(text, "[build failed]"):
			msg = "build failed"
		case strings.Contains(text, "[setup failed]"):
			msg = "setup failed"
		case msg == "":
			msg = "package failed"
		}
		diags = append(diags, Diagnostic{Package: k.pkg, Message: clip(msg, maxMessage), Severity: "error",
			Tool: "go test", Output: clip(text, maxOutput)})
	}
	return diags, nil
}

// A testKey names a test of a package ("" for the package itself).
type testKey struct{ pkg, test string }

// testEvents are what a go test -json stream says of its tests.
type testEvents struct {
	outputs           map[testKey]*strings.Builder // the first 64 KiB of each test's output
	failed            []testKey                    // in the order they failed
	failedPkgWithTest map[string]bool              // packages with a failing test
	build             strings.Builder              // the build output
}

// readTestEvents reads a go test -json stream; lines that are not JSON
// are skipped, and a stream without any event is an error.
func readTestEvents(out []byte) (*testEvents, error) {
	st := &testEvents{outputs: map[testKey]*strings.Builder{}, failedPkgWithTest: map[string]bool{}}
	events := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	for sc.Scan() {
		ln := bytes.TrimSpace(sc.Bytes())
		if len(ln) == 0 || ln[0] != '{' {
			continue
		}
		var ev testEvent
		if json.Unmarshal(ln, &ev) != nil {
			continue
		}
		events++
		switch ev.Action {
		case "build-output":
			st.build.WriteString(ev.Output)
		case "output":
			k := testKey{ev.Package, ev.Test}
			b := st.outputs[k]
			if b == nil {
				b = &strings.Builder{}
				st.outputs[k] = b
			}
			if b.Len() < 64<<10 {
				b.WriteString(ev.Output)
			}
		case "fail":
			st.failed = append(st.failed, testKey{ev.Package, ev.Test})
			if ev.Test != "" {
				st.failedPkgWithTest[ev.Package] = true
			}
		}
	}
	if events == 0 {
		return nil, errNoEvents
	}
	return st, nil
}

// failedTest returns the diagnostic of the failed test k whose output is
// text: the output without the === and --- lines, and the file, line and
// message of the first failure it prints, or else the first stack frame
// of a panic outside the runtime and testing.
func failedTest(k testKey, text string) Diagnostic {
	d := Diagnostic{Package: k.pkg, Test: k.test, Severity: "error", Tool: "go test"}
	var kept []string
	for _, ln := range strings.Split(text, "\n") {
		t := strings.TrimSpace(ln)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- FAIL") || strings.HasPrefix(t, "--- PASS") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		kept = append(kept, ln)
		if d.Path != "" {
			continue
		}
		if m := testFileLine().FindStringSubmatch(ln); m != nil {
			if n, err := strconv.Atoi(m[2]); err == nil && n > 0 && n < 1<<30 {
				d.Path, d.Line, d.Message = m[1], n, clip(m[3], maxMessage)
			}
		}
	}
	if d.Path == "" { // a panic: the first frame outside the runtime and testing
		for _, ln := range kept {
			m := frameLine().FindStringSubmatch(ln)
			if m == nil || strings.Contains(m[1], "/src/runtime/") || strings.Contains(m[1], "/src/testing/") {
				continue
			}
			if n, err := strconv.Atoi(m[2]); err == nil && n > 0 && n < 1<<30 {
				d.Path, d.Line = m[1], n
				break
			}
		}
	}
	if d.Message == "" {
		d.Message = clip(firstMeaningful(strings.Join(kept, "\n")), maxMessage)
	}
	if d.Message == "" {
		d.Message = "test failed"
	}
	d.Output = clip(strings.Join(kept, "\n"), maxOutput)
	return d
}

// firstMeaningful returns the first line of text that says something:
// not blank, not a test runner's === or --- line, not "FAIL".
func firstMeaningful(text string) string {
	for _, ln := range strings.Split(text, "\n") {
		t := strings.TrimSpace(ln)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- ") || t == "FAIL" || strings.HasPrefix(t, "FAIL\t") {
			continue
		}
		return t
	}
	return ""
}

// tscLine matches tsc's plain format, "src/a.ts(3,7): error TS2322: msg",
// and its pretty format without colour, "src/a.ts:3:7 - error TS2322: msg".
var tscLine = lazyRegexp(`^(\S(?:.*?\S)?)(?:\((\d+),(\d+)\): |:(\d+):(\d+) - )(error|warning|message) (TS\d+): (.*)$`)

// ansi matches a terminal colour sequence, which tsc --pretty prints.
var ansi = lazyRegexp("\x1b\\[[0-9;]*[A-Za-z]")

// tscGlobal matches a diagnostic without a file: "error TS5058: msg".
var tscGlobal = lazyRegexp(`^(error|warning) (TS\d+): (.*)$`)

// ParseTSCOutput reads tsc's output ("--pretty false", and the pretty
// format, colours removed): one diagnostic per "file(line,col): error
// TSnnnn: message" line, continuation lines (indented) appended to its
// message, and "error TSnnnn: message" lines as diagnostics without a
// location. Tool is "tsc"; Severity the one tsc printed ("message" counts
// as a warning).
func ParseTSCOutput(out []byte) []Diagnostic {
	var diags []Diagnostic
	out = ansi().ReplaceAll(out, nil)
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		ln := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(ln) == "" {
			continue
		}
		if m := tscLine().FindStringSubmatch(ln); m != nil {
			ls, cs := m[2], m[3]
			if ls == "" {
				ls, cs = m[4], m[5]
			}
			line, err1 := strconv.Atoi(ls)
			col, err2 := strconv.Atoi(cs)
			if err1 == nil && err2 == nil && line > 0 && col > 0 && line < 1<<30 && col < 1<<30 {
				sev := m[6]
				if sev == "message" {
					sev = "warning"
				}
				diags = append(diags, Diagnostic{Path: m[1], Line: line, Column: col, Severity: sev, Code: m[7],
					Message: clip(m[8], maxMessage), Tool: "tsc"})
				continue
			}
		}
		if m := tscGlobal().FindStringSubmatch(ln); m != nil {
			diags = append(diags, Diagnostic{Severity: m[1], Code: m[2], Message: clip(m[3], maxMessage), Tool: "tsc"})
			continue
		}
		if (ln[0] == ' ' || ln[0] == '\t') && len(diags) > 0 {
			diags[len(diags)-1].Message = clip(diags[len(diags)-1].Message+"\n"+strings.TrimSpace(ln), maxMessage)
		}
	}
	return diags
}

// clip cuts s to at most n bytes at a character boundary and makes it
// valid UTF-8 without control characters other than newline and tab.
func clip(s string, n int) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	s = strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f {
			return -1
		}
		return r
	}, s)
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// sortDiagnostics orders diagnostics by path, line, column and message.
func sortDiagnostics(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := &ds[i], &ds[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return a.Message < b.Message
	})
}

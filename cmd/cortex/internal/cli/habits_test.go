package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/structural"
)

// runIn runs cortex as if started in wd, without -C.
func runIn(t *testing.T, wd string, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &Env{Stdout: &out, Stderr: &errb, Wd: wd, Getenv: func(k string) string { return env[k] }}
	code = Run(context.Background(), args, e)
	return code, out.String(), errb.String()
}

// Flags may follow the arguments, as with go test, git and ast-grep, and
// "--" ends them.
func TestFlagsAnywhere(t *testing.T) {
	dir := precisionProject(t)
	for _, args := range [][]string{
		{"def", "m.go:5:9", "--json"},
		{"def", "--json", "m.go:5:9"},
		{"--json", "def", "m.go:5:9"},
		{"def", "m.go:5:9", "-json"},
	} {
		code, out, errs := run(t, dir, nil, args...)
		if code != ExitOK {
			t.Errorf("cortex %q: exit %d\n%s", args, code, errs)
			continue
		}
		var doc codecortex.Located
		if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Records) != 1 {
			t.Errorf("cortex %q: %v\n%s", args, err, out)
		}
		if !strings.HasSuffix(out, "}\n") {
			t.Errorf("cortex %q: JSON does not end in a newline: %q", args, out[max(0, len(out)-10):])
		}
	}
	// -C after the command.
	if code, _, errs := runIn(t, t.TempDir(), nil, "def", "m.go:5:9", "-C", dir); code != ExitOK {
		t.Errorf("-C after the command: exit %d\n%s", code, errs)
	}
	// After --, a leading dash is an argument.
	if code, _, errs := run(t, dir, nil, "def", "--", "--json"); code != ExitOK && code != ExitFail {
		t.Errorf("-- ends flags: exit %d\n%s", code, errs)
	} else if strings.Contains(errs, "flag provided") {
		t.Errorf("-- did not end the flags: %s", errs)
	}
}

// Every command prints one JSON document with --json, errors included,
// with the same exit codes.
func TestJSONErrors(t *testing.T) {
	dir := precisionProject(t)
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"def", "--json", "m.go:x:1"}, ExitUsage, "LINE and COL"},
		{[]string{"def", "--json"}, ExitUsage, "missing arguments"},
		{[]string{"def", "--json", "--bogus", "m.go:5:9"}, ExitUsage, "flag provided but not defined"},
		{[]string{"--json", "nope"}, ExitUsage, `unknown command "nope"`},
		{[]string{"def", "--json", "../outside.go:1:1"}, ExitUsage, "root"},
		{[]string{"deps", "--json", "why"}, ExitUsage, "unexpected arguments"},
		{[]string{"deps", "--json", "why", "nothing-such"}, ExitFail, "not a dependency"},
		{[]string{"version", "--json=stream"}, ExitUsage, "one document"},
	}
	if cgoBuild { // without the parser, a pattern cannot be judged invalid
		tests = append(tests, struct {
			args []string
			code int
			msg  string
		}{[]string{"search", "--json", "old_api(", "--lang", "python"}, ExitUsage, "pattern"})
	}
	for _, tt := range tests {
		code, out, errs := run(t, dir, nil, tt.args...)
		if code != tt.code {
			t.Errorf("cortex %q: exit %d, want %d\n%s%s", tt.args, code, tt.code, out, errs)
		}
		var doc errorJSON
		dec := json.NewDecoder(strings.NewReader(out))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&doc); err != nil || dec.More() {
			t.Errorf("cortex %q: stdout is not one error document (%v):\n%s", tt.args, err, out)
			continue
		}
		if doc.Error.ExitCode != tt.code || !strings.Contains(doc.Error.Message, tt.msg) || !strings.HasSuffix(out, "\n") {
			t.Errorf("cortex %q: error %+v, want exit %d and %q", tt.args, doc.Error, tt.code, tt.msg)
		}
	}
	// A missing -C is a bad argument, in JSON too.
	code, out, _ := run(t, filepath.Join(t.TempDir(), "absent"), nil, "doctor", "--json")
	if code != ExitUsage || !strings.Contains(out, `"exit_code": 2`) {
		t.Errorf("missing -C: exit %d\n%s", code, out)
	}
}

// Help lists the languages the build really has.
func TestHelpListsEveryLanguage(t *testing.T) {
	for _, args := range [][]string{{"structural", "--help"}, {"search", "-h"}} {
		code, out, _ := run(t, t.TempDir(), nil, args...)
		if code != ExitOK {
			t.Fatalf("cortex %q: exit %d", args, code)
		}
		for _, l := range structural.Languages() {
			if !strings.Contains(out, string(l)) {
				t.Errorf("cortex %q does not list %s:\n%s", args, l, out)
			}
		}
	}
}

// Run from a subdirectory, cortex finds the project root by walking up,
// and command-line paths are relative to where it started.
func TestRootFromSubdirectory(t *testing.T) {
	dir := precisionProject(t)
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub", "deeper")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	writeConfig(t, dir, `{"structural": {"max_rewrite_files": 3}}`)
	code, out, errs := runIn(t, sub, nil, "def", "../../m.go:5:9")
	if code != ExitOK || !strings.Contains(out, "m.go:3:14-3:19") {
		t.Errorf("def from a subdirectory: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = runIn(t, sub, nil, "config", "--json")
	real, _ := filepath.EvalSymlinks(dir)
	if code != ExitOK || !strings.Contains(out, `"root": "`+real+`"`) || !strings.Contains(out, `"max_rewrite_files": 3`) {
		t.Errorf("config from a subdirectory did not find the root's configuration:\n%s", out)
	}
	// -C names the root exactly, without walking up.
	code, out, _ = run(t, sub, nil, "config", "--json")
	if code != ExitOK || strings.Contains(out, `"max_rewrite_files": 3`) {
		t.Errorf("-C walked up:\n%s", out)
	}
}

// A malformed configuration is reported by every command, one line on
// standard error.
func TestMalformedConfigReportedByEveryCommand(t *testing.T) {
	dir := precisionProject(t)
	writeConfig(t, dir, `{"structural": {"max_rewrite_files": "fifty"}}`)
	for _, args := range [][]string{{"def", "m.go:5:9"}, {"deps"}, {"precision-status"}, {"search", "Héllo", "--lang", "go"}} {
		_, _, errs := run(t, dir, nil, args...)
		if n := strings.Count(errs, "max_rewrite_files"); n != 1 {
			t.Errorf("cortex %q: the configuration error appears %d times on stderr, want once:\n%s", args, n, errs)
		}
	}
}

// File names and lines with control characters are escaped in human
// output: nothing raw reaches the terminal.
func TestControlCharactersEscaped(t *testing.T) {
	if !cgoBuild {
		t.Skip("the built-in engine needs cgo")
	}
	name := "a\x1b[31mred\nx.py"
	dir := testtool.WriteTree(t, map[string]string{name: "old_api(1)  # \x1b]0;title\x07\n"})
	code, out, errs := run(t, dir, nil, "search", "old_api($X)", "--lang", "python")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if strings.ContainsAny(out+errs, "\x1b\x07") {
		t.Errorf("raw control characters reached the output: %q", out)
	}
	if !strings.Contains(out, `a\x1b[31mred\x0ax.py:1:1: old_api(1)  # \x1b]0;title\x07`) {
		t.Errorf("escaped name and line missing: %q", out)
	}
}

func TestSafe(t *testing.T) {
	for in, want := range map[string]string{
		"plain/path.go":  "plain/path.go",
		"tab\tkept":      "tab\tkept",
		"esc\x1b[2J":     `esc\x1b[2J`,
		"nl\nx":          `nl\x0ax`,
		"del\x7f":        `del\x7f`,
		"c1\u0085":       `c1\x85`,
		"bidi\u202eevil": `bidi\u202eevil`,
		"bad\xffutf8":    `bad\xffutf8`,
		"日本 😀":           "日本 😀",
	} {
		if got := safe(in); got != want {
			t.Errorf("safe(%q) = %q, want %q", in, got, want)
		}
	}
}

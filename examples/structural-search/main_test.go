package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/structural"
)

// search runs the command in a directory holding files and returns its
// exit code, standard output and standard error.
func search(t *testing.T, files map[string]string, args ...string) (int, string, string) {
	t.Helper()
	if err := structural.NewBuiltin(structural.BuiltinOptions{}).Available(); err != nil {
		t.Skip(err)
	}
	t.Chdir(testtool.WriteTree(t, files))
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, 0, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

var tree = map[string]string{
	"app.py":     "print(1)\nif ok:\n    print(x, y < z)\n",
	"lib/lib.py": "def f():\n    return len(xs)\n",
	"main.go":    "package main\n\nfunc main() { print(1) }\n",
}

func TestText(t *testing.T) {
	code, out, errs := search(t, tree, "-p", "print($$$A)", "-l", "py")
	want := "app.py:1:1: print(1)\napp.py:3:5: print(x, y < z)\n"
	if code != 0 || out != want || errs != "" {
		t.Errorf("exit %d, stdout\n%s\nstderr %q; want exit 0 and\n%s", code, out, errs, want)
	}
}

// Each JSON line decodes into the match it was written from: the second
// one's captured arguments, with the comma between them, are the source's.
func TestJSON(t *testing.T) {
	code, out, _ := search(t, tree, "-p", "print($$$A)", "-l", "python", "--json", "app.py")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || len(lines) != 2 {
		t.Fatalf("exit %d, %d lines:\n%s", code, len(lines), out)
	}
	var m structural.Match
	if err := json.Unmarshal([]byte(lines[1]), &m); err != nil {
		t.Fatal(err)
	}
	a, ok := m.Capture("A")
	if m.Path != "app.py" || m.Text != "print(x, y < z)" || m.Range.StartByte != 20 || !ok || a.Text != "x, y < z" || len(a.Nodes) != 3 {
		t.Errorf("decoded %+v", m)
	}
	if err := m.Validate(); err != nil {
		t.Error(err)
	}
}

func TestNothingFound(t *testing.T) {
	if code, out, _ := search(t, tree, "-p", "open($A)", "-l", "py"); code != 1 || out != "" {
		t.Errorf("exit %d, stdout %q; want 1 and nothing", code, out)
	}
}

func TestMaxMatches(t *testing.T) {
	code, out, errs := search(t, tree, "-p", "$F($$$A)", "-l", "py", "--max-matches", "1")
	if code != 0 || strings.Count(out, "\n") != 1 || !strings.Contains(errs, "(limit max_matches)") {
		t.Errorf("exit %d, stdout %q, stderr %q; want one match and a note", code, out, errs)
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-p", "print($$$", "-l", "py"}, "invalid python pattern"},
		{[]string{"-p", "x", "-l", "cobol"}, `unknown language "cobol"`},
		{[]string{"-p", "x"}, "usage:"},
		{[]string{"-p", "x", "-l", "py", "../elsewhere"}, "climbs out of the root"},
	} {
		code, out, errs := search(t, tree, tc.args...)
		if code != 2 || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and %q", tc.args, code, out, errs, tc.want)
		}
	}
}

package history

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
)

// configCases are configuration files whose reading is easy to get wrong.
// Each is checked against the expected entries here and against git's own
// reading of it (TestParseConfigAgreesWithGit).
var configCases = []struct {
	name, in string
	want     []configEntry // nil with bad
	bad      bool
}{
	{name: "a clone's", in: "[core]\n\trepositoryformatversion = 0\n\tbare = false\n[remote \"origin\"]\n\turl = https://x/y.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n",
		want: []configEntry{{Key: "core.repositoryformatversion", Value: "0", Line: 2}, {Key: "core.bare", Value: "false", Line: 3},
			{Key: "remote.origin.url", Value: "https://x/y.git", Line: 5}, {Key: "remote.origin.fetch", Value: "+refs/heads/*:refs/remotes/origin/*", Line: 6}}},
	{name: "upper case and odd spaces", in: "[CORE]  \n  FSMonitor\t=   /x/hook   \n[Filter \"Evil\"]\n\tClean=a  b\t\tc ; comment\n",
		want: []configEntry{{Key: "core.fsmonitor", Value: "/x/hook", Line: 2}, {Key: "filter.Evil.clean", Value: "a  b  c", Line: 4}}},
	{name: "deprecated subsection syntax lower-cases it", in: "[filter.EVIL]\nclean = x\n",
		want: []configEntry{{Key: "filter.evil.clean", Value: "x", Line: 2}}},
	{name: "quoted subsection with escapes", in: "[filter \"a\\\"b\\\\c\\d\"]\n\tclean = x\n",
		want: []configEntry{{Key: "filter.a\"b\\cd.clean", Value: "x", Line: 2}}},
	{name: "subsection with dots and =", in: "[filter \"odd=name.x\"]\n\tclean = x\n",
		want: []configEntry{{Key: "filter.odd=name.x.clean", Value: "x", Line: 2}}},
	{name: "key on the header's line", in: "[core] fsmonitor = /hook\n[diff]external=/x",
		want: []configEntry{{Key: "core.fsmonitor", Value: "/hook", Line: 1}, {Key: "diff.external", Value: "/x", Line: 2}}},
	{name: "continuation lines", in: "[core]\n\tfsmonitor = /a\\\n/b\\\n  c\n\tbare\n",
		want: []configEntry{{Key: "core.fsmonitor", Value: "/a/b  c", Line: 2}, {Key: "core.bare", NoValue: true, Line: 5}}},
	{name: "quotes, escapes and comments", in: "[a]\n\tb = \" x ; y \" # c\n\tc = \\t\\n\\b\\\\\\\"\n\td =\n",
		want: []configEntry{{Key: "a.b", Value: " x ; y ", Line: 2}, {Key: "a.c", Value: "\t\n\b\\\"", Line: 3}, {Key: "a.d", Value: "", Line: 4}}},
	{name: "multi-valued", in: "[include]\n\tpath = /a\n\tpath = /b\n[includeIf \"gitdir:/x/\"]\n\tpath = /etc/passwd\n",
		want: []configEntry{{Key: "include.path", Value: "/a", Line: 2}, {Key: "include.path", Value: "/b", Line: 3},
			{Key: "includeif.gitdir:/x/.path", Value: "/etc/passwd", Line: 5}}},
	{name: "CRLF line ends and a BOM", in: "\xef\xbb\xbf[core]\r\n\tbare = true\r\n\tx = a\rb\r\n",
		want: []configEntry{{Key: "core.bare", Value: "true", Line: 2}, {Key: "core.x", Value: "a b", Line: 3}}},
	{name: "comments and blank lines", in: "# c\n; d\n\n[a]   # e\n  b # f\n",
		bad: true}, // a key followed by a comment without "=" is an error in git
	{name: "a key before any section", in: "x = 1\n[a]\nb = 2\n",
		want: []configEntry{{Key: "x", Value: "1", Line: 1}, {Key: "a.b", Value: "2", Line: 3}}},
	{name: "empty", in: "", want: nil},
	{name: "an unclosed quote", in: "[a]\nb = \"x\n", bad: true},
	{name: "an unknown escape", in: "[a]\nb = \\q\n", bad: true},
	{name: "a header without ]", in: "[a\n", bad: true},
	{name: "a space before the section", in: "[ a]\nb = 1\n", bad: true},
	{name: "an unquoted subsection", in: "[a b]\nc = 1\n", bad: true},
	{name: "more after the subsection", in: "[a \"b\" c]\nd = 1\n", bad: true},
	{name: "a subsection cut by a line end", in: "[a \"b\nc\"]\n", bad: true},
	{name: "an empty section", in: "[]\n", bad: true},
	{name: "a key that starts with a digit", in: "[a]\n1b = 2\n", bad: true},
	{name: "a key with an underscore", in: "[a]\nb_c = 2\n", bad: true},
	{name: "a partial BOM", in: "\xef\xbb[a]\n", bad: true},
	{name: "a NUL byte", in: "[a]\nb = x\x00y\n", bad: true},
	{name: "a section with a dot only", in: "[.]\nb = 1\n", want: []configEntry{{Key: "..b", Value: "1", Line: 2}}},
	{name: "a value ending in a backslash at the end", in: "[a]\nb = x\\", want: []configEntry{{Key: "a.b", Value: "x", Line: 2}}},
	{name: "no final line end", in: "[a]\nb", want: []configEntry{{Key: "a.b", NoValue: true, Line: 2}}},
}

func TestParseConfig(t *testing.T) {
	for _, tc := range configCases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseConfig([]byte(tc.in))
			if tc.bad {
				var se *configSyntaxError
				if !errors.As(err, &se) {
					t.Fatalf("parseConfig = %+v, %v; want a syntax error", got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("parseConfig (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseConfigTooLarge(t *testing.T) {
	big := "[a]\n" + strings.Repeat("b = c\n", maxConfigSize/6+1)
	if _, err := parseConfig([]byte(big)); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("a %d-byte file: %v, want refused as too large", len(big), err)
	}
}

// gitReads returns the entries git reads from a configuration file
// (without lines), or ok false when git refuses it.
func gitReads(t testing.TB, gitPath, dir string, data []byte) (entries []configEntry, ok bool) {
	t.Helper()
	f := filepath.Join(dir, "config")
	if err := os.WriteFile(f, data, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := safeexec.Run(context.Background(), safeexec.Invocation{
		Path: gitPath, Args: []string{"config", "--file", f, "--no-includes", "-z", "--list"}, Dir: dir,
		Env: []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME=" + dir}, Timeout: time.Minute})
	if err != nil {
		var xe *safeexec.ExitError
		if errors.As(err, &xe) {
			return nil, false
		}
		t.Fatal(err)
	}
	for _, rec := range splitNUL(res.Stdout) {
		k, v, hasValue := strings.Cut(rec, "\n")
		entries = append(entries, configEntry{Key: k, Value: v, NoValue: !hasValue})
	}
	return entries, true
}

func withoutLines(es []configEntry) []configEntry {
	out := make([]configEntry, len(es))
	for i, e := range es {
		e.Line = 0
		out[i] = e
	}
	return out
}

// The parser reads every case as git does: the same entries where git
// accepts the file, a refusal where git refuses it.
func TestParseConfigAgreesWithGit(t *testing.T) {
	gitPath := testtool.Require(t, "git", "apt-get install git")
	dir := t.TempDir()
	for _, tc := range configCases {
		t.Run(tc.name, func(t *testing.T) {
			want, gitOK := gitReads(t, gitPath, dir, []byte(tc.in))
			got, err := parseConfig([]byte(tc.in))
			switch {
			case !gitOK && err == nil:
				t.Errorf("git refuses the file, the parser reads %+v", got)
			case gitOK && err != nil && !strings.Contains(tc.in, "\x00"):
				t.Errorf("git reads %+v, the parser refuses: %v", want, err)
			case gitOK && err == nil:
				if diff := cmp.Diff(want, withoutLines(got), cmp.Comparer(func(a, b []configEntry) bool {
					return len(a) == 0 && len(b) == 0 || cmp.Equal(a, b)
				})); diff != "" {
					t.Errorf("git (-) and the parser (+) differ:\n%s", diff)
				}
			}
		})
	}
}

// FuzzParseConfig checks that the parser never panics, that what it
// returns is canonical, and, with git installed, that where both git and
// the parser read a file they read the same entries (a file git reads and
// the parser refuses, or the reverse, is safe: one of the two declines).
func FuzzParseConfig(f *testing.F) {
	for _, tc := range configCases {
		f.Add([]byte(tc.in))
	}
	gitPath, _ := safeexec.LookPath("git")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := parseConfig(data)
		if err != nil {
			return
		}
		for _, e := range got {
			section, _, name := splitKey(e.Key)
			if section != strings.ToLower(section) || name != strings.ToLower(name) || name == "" {
				t.Errorf("key %q is not canonical", e.Key)
			}
			if e.NoValue && e.Value != "" {
				t.Errorf("key %q has no value but %q", e.Key, e.Value)
			}
		}
		if gitPath == "" {
			return
		}
		want, ok := gitReads(t, gitPath, dir, data)
		if ok && !cmp.Equal(want, withoutLines(got), cmp.Comparer(func(a, b []configEntry) bool {
			return len(a) == 0 && len(b) == 0 || cmp.Equal(a, b)
		})) {
			t.Errorf("git and the parser differ on %q:\n%s", data, cmp.Diff(want, withoutLines(got)))
		}
	})
}

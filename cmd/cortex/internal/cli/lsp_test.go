package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/internal/testtool"
)

// refs --lsp asks the language server of the file's language: pyright for
// Python, typescript-language-server for TypeScript; references include
// the declaration, marked, and the files no question opened.
func TestRefsAskTheFilesLanguageServer(t *testing.T) {
	tests := []struct {
		name, server string
		files        map[string]string
		at           string
		want         string
	}{
		{"python", "pyright-langserver", map[string]string{
			"pyproject.toml": "[project]\nname = \"m\"\n",
			"a.py":           "def greet():\n    return 1\n",
			"b.py":           "from a import greet\n\nx = greet()\n",
		}, "a.py:1:5", "a.py:1:5-1:10\tnear_exact\t\t(declaration)\nb.py:1:15-1:20\tnear_exact\nb.py:3:5-3:10\tnear_exact\n"},
		{"typescript", "typescript-language-server", map[string]string{
			"tsconfig.json": `{"compilerOptions": {"strict": true}, "include": ["src"]}`,
			"src/a.ts":      "export function greet(): number { return 1 }\n",
			"src/b.ts":      "import { greet } from \"./a\";\n\nexport const x = greet();\n",
		}, "src/a.ts:1:17", "src/a.ts:1:17-1:22\tnear_exact\t\t(declaration)\nsrc/b.ts:1:10-1:15\tnear_exact\nsrc/b.ts:3:18-3:23\tnear_exact\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			testtool.Require(t, tt.server, "bash .ci/install-precision.sh")
			dir := testtool.WriteTree(t, tt.files)
			// A generous wait: the server starts slowly on a machine busy
			// with the rest of the tests.
			writeConfig(t, dir, `{"precision_index": {"language_server_timeout_seconds": 60}}`)
			code, stdout, stderr := run(t, dir, nil, "refs", "--lsp", tt.at)
			if code != ExitOK || stdout != tt.want {
				t.Errorf("refs --lsp %s (exit %d):\n%q\nwant %q\n%s", tt.at, code, stdout, tt.want, stderr)
			}
		})
	}
}

// def --lsp and impl --lsp ask the file's language server too:
// typescript-language-server answers an interface's and a method's
// implementations; pyright has no implementation request, and the answer
// says so instead of passing for an empty one.
func TestDefImplAskTheFilesLanguageServer(t *testing.T) {
	py := map[string]string{
		"pyproject.toml": "[project]\nname = \"m\"\n",
		"a.py":           "class Shape:\n    def area(self):\n        return 0\n\n\ndef greet():\n    return 1\n",
		"b.py":           "from a import Shape, greet\n\n\nclass Sq(Shape):\n    def area(self):\n        return greet()\n",
	}
	ts := map[string]string{
		"tsconfig.json": `{"compilerOptions": {"strict": true}, "include": ["src"]}`,
		"src/a.ts":      "export interface Shape {\n  area(): number\n}\n\nexport function greet(): number { return 1 }\n",
		"src/b.ts":      "import { Shape, greet } from \"./a\";\n\nexport class Sq implements Shape {\n  area(): number { return greet() }\n}\n",
	}
	tests := []struct {
		name, server string
		files        map[string]string
		args         []string
		code         int
		want         string // the whole standard output, or with code 1 what the output says
	}{
		{"python def", "pyright-langserver", py, []string{"def", "--lsp", "b.py:6:16"}, ExitOK, "a.py:6:5-6:10\tnear_exact\n"},
		{"python impl", "pyright-langserver", py, []string{"impl", "--lsp", "a.py:2:9"}, ExitFail,
			"language server: pyright-langserver does not answer implementation requests (method not found)"},
		{"typescript def", "typescript-language-server", ts, []string{"def", "--lsp", "src/b.ts:4:27"}, ExitOK, "src/a.ts:5:17-5:22\tnear_exact\n"},
		{"typescript impl of an interface", "typescript-language-server", ts, []string{"impl", "--lsp", "src/a.ts:1:18"}, ExitOK, "src/b.ts:3:14-3:16\tnear_exact\n"},
		{"typescript impl of a method", "typescript-language-server", ts, []string{"impl", "--lsp", "src/a.ts:2:3"}, ExitOK, "src/b.ts:4:3-4:7\tnear_exact\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			testtool.Require(t, tt.server, "bash .ci/install-precision.sh")
			dir := testtool.WriteTree(t, tt.files)
			writeConfig(t, dir, `{"precision_index": {"language_server_timeout_seconds": 60}}`)
			code, stdout, stderr := run(t, dir, nil, tt.args...)
			if code != tt.code || (code == ExitOK && stdout != tt.want) || (code != ExitOK && !strings.Contains(stdout+stderr, tt.want)) {
				t.Errorf("%v (exit %d, want %d):\n%q\nwant %q\n%s", tt.args, code, tt.code, stdout, tt.want, stderr)
			}
		})
	}
}

// A language server that does not answer in time is given up after the
// configured bound, the answer says so, and its process is ended. The
// server is a real process that never answers: a script that records its
// pid and becomes sleep.
func TestSlowLanguageServerGivenUp(t *testing.T) {
	testtool.Require(t, "sh", "install a POSIX shell")
	testtool.Require(t, "sleep", "install coreutils")
	tmp := t.TempDir()
	pidFile := filepath.Join(tmp, "pid")
	server := filepath.Join(tmp, "slow-server")
	if err := os.WriteFile(server, []byte("#!/bin/sh\necho $$ >'"+pidFile+"'\nexec sleep 600\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := testtool.WriteTree(t, map[string]string{"a.py": "def greet():\n    return 1\n"})
	writeConfig(t, dir, `{"precision_index": {"language_server_timeout_seconds": 1, "language_servers": {"python": ["`+server+`"]}}}`)
	start := time.Now()
	code, stdout, stderr := run(t, dir, nil, "refs", "--lsp", "--trust-config", "any", "a.py:1:5")
	took := time.Since(start)
	out := stdout + stderr
	for _, want := range []string{"language server " + server + " did not initialise", "did not answer in time", "no answer to initialize within 1s"} {
		if !strings.Contains(out, want) {
			t.Errorf("the answer does not say %q (exit %d):\n%s", want, code, out)
		}
	}
	// Without cgo no parser reads a.py, and a text match of the word at
	// the position answers instead: the exit code tells only with one.
	if cgoBuild && code != ExitFail || took > 30*time.Second {
		t.Errorf("exit %d after %s, want %d within the bound", code, took, ExitFail)
	}
	pid, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the server never started: %v", err)
	}
	if _, err := os.Stat("/proc/self"); err == nil {
		if _, err := os.Stat("/proc/" + strings.TrimSpace(string(pid))); err == nil {
			t.Errorf("the server (pid %s) is still running after the command", strings.TrimSpace(string(pid)))
		}
	}
}

// doctor lists each language server, and a configured one that is
// missing needs a fix.
func TestDoctorListsLanguageServers(t *testing.T) {
	dir := testtool.WriteTree(t, map[string]string{"a.py": "x = 1\n"})
	writeConfig(t, dir, `{"precision_index": {"language_servers": {"python": ["no-such-pyright-xyz", "--stdio"], "rust": []}}}`)
	code, stdout, stderr := run(t, dir, nil, "doctor", "--trust-config", "any")
	if code != ExitFail {
		t.Errorf("doctor exit %d, want %d for a missing configured server:\n%s%s", code, ExitFail, stdout, stderr)
	}
	for _, want := range []string{"server python: no-such-pyright-xyz --stdio: not found", "install no-such-pyright-xyz", "server go: "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("doctor does not say %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "server rust") {
		t.Errorf("a language turned off is listed:\n%s", stdout)
	}
}

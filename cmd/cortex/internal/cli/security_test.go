package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/internal/testtool"
)

// spy writes an executable script that records each run in a marker file
// and returns the script's path and a function that counts the runs.
func spy(t *testing.T, name, body string) (path string, runs func() int) {
	t.Helper()
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	path = filepath.Join(dir, name)
	script := "#!/bin/sh\necho run >> " + marker + "\n" + body + "\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path, func() int {
		b, _ := os.ReadFile(marker)
		return strings.Count(string(b), "run\n")
	}
}

// trustEnv is an environment whose trust store lives in a temporary
// directory.
func trustEnv(t *testing.T, more map[string]string) map[string]string {
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir()}
	for k, v := range more {
		env[k] = v
	}
	return env
}

// A repository's configuration runs nothing until the user trusts it, and
// doctor and status commands run what it names never, trusted or not.
func TestConfigRunsNothingUntilTrusted(t *testing.T) {
	sg, sgRuns := spy(t, "evil-sg", `echo "ast-grep 0.51.1"`)
	gen, genRuns := spy(t, "evil-gen", "exit 1")
	ls, lsRuns := spy(t, "evil-ls", "exit 1")
	dir := precisionProject(t)
	os.Remove(filepath.Join(dir, "index.scip"))
	writeConfig(t, dir, fmt.Sprintf(`{
		"structural": {"command": %q},
		"precision_index": {"path": "index.scip", "auto_generate": true, "generator_command": [%q, "--output", "index.scip"], "language_server": [%q]}
	}`, sg, gen, ls))
	env := trustEnv(t, nil)
	runs := func() []int { return []int{sgRuns(), genRuns(), lsRuns()} }

	untrusted := [][]string{
		{"doctor"}, {"doctor", "--json"}, {"precision-status"}, {"config"}, {"trust", "--show"},
		{"def", "m.go:5:9"}, {"def", "--lsp", "m.go:5:9"}, {"refs", "Héllo"}, {"callers", "Héllo"},
		{"search", "Héllo($$$A)", "--lang", "go"}, {"structural", "-p", "Héllo($$$A)", "-l", "go"}, {"deps"},
	}
	for _, args := range untrusted {
		_, _, errs := run(t, dir, env, args...)
		if got := runs(); !cmp.Equal(got, []int{0, 0, 0}) {
			t.Fatalf("cortex %q ran a program of an untrusted configuration: runs %v\n%s", args, got, errs)
		}
		if args[0] == "def" || args[0] == "search" {
			if !strings.Contains(errs, "not trusted") || !strings.Contains(errs, "cortex trust") {
				t.Errorf("cortex %q does not say what was withheld and how to allow it:\n%s", args, errs)
			}
		}
	}

	if code, out, errs := run(t, dir, env, "trust"); code != ExitOK || !strings.Contains(out, "trusted") || !strings.Contains(out, sg) {
		t.Fatalf("cortex trust: exit %d\n%s%s", code, out, errs)
	}
	// Trusted: doctor and the status command still run nothing.
	for _, args := range [][]string{{"doctor"}, {"doctor", "--json"}, {"precision-status"}, {"config"}} {
		run(t, dir, env, args...)
		if got := runs(); !cmp.Equal(got, []int{0, 0, 0}) {
			t.Fatalf("cortex %q ran a configured program: runs %v", args, got)
		}
	}
	// Trusted: the commands that use them do run them.
	run(t, dir, env, "search", "Héllo($$$A)", "--lang", "go")
	run(t, dir, env, "def", "m.go:5:9")
	run(t, dir, env, "def", "--lsp", "m.go:5:9")
	if got := runs(); got[0] == 0 || got[1] == 0 || got[2] == 0 {
		t.Errorf("trusted configuration's programs did not run: runs %v", got)
	}

	// An edit needs trust again.
	before := runs()
	writeConfig(t, dir, fmt.Sprintf(`{"structural": {"command": %q, "max_rewrite_files": 9}}`, sg))
	_, _, errs := run(t, dir, env, "search", "Héllo($$$A)", "--lang", "go")
	if got := runs(); got[0] != before[0] || !strings.Contains(errs, "not trusted") {
		t.Errorf("an edited configuration kept its trust: runs %v → %v\n%s", before, got, errs)
	}
	// Explicit trust for this run, by digest or any.
	run(t, dir, env, "search", "--trust-config", "any", "Héllo($$$A)", "--lang", "go")
	afterAny := runs()
	if afterAny[0] == before[0] {
		t.Errorf("--trust-config any did not trust: runs %v", afterAny)
	}
	env["CODECORTEX_TRUST_CONFIG"] = "sha256:0000"
	_, _, errs = run(t, dir, env, "search", "Héllo($$$A)", "--lang", "go")
	if got := runs(); got[0] != afterAny[0] || !strings.Contains(errs, "not trusted") {
		t.Errorf("a wrong pinned digest trusted the configuration: runs %v\n%s", got, errs)
	}
}

// An untrusted configuration can neither enable the network layer nor
// choose its endpoint or key variable.
func TestConfigSendsNothingUntilTrusted(t *testing.T) {
	var hits atomic.Int32
	var auth atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		auth.Store(r.Header.Get("Authorization"))
		w.WriteHeader(404)
	}))
	defer srv.Close()
	dir := depsProject(t, fmt.Sprintf(`{"dependency_docs":{"enabled":true,"base_url":%q,"api_key_env":"MY_OTHER_SECRET"}}`, srv.URL))
	const secret = "other-secret-0123456789"
	env := trustEnv(t, map[string]string{"MY_OTHER_SECRET": secret})
	code, out, errs := run(t, dir, env, "docs", "next", "hooks")
	if hits.Load() != 0 {
		t.Fatalf("an untrusted configuration sent %d requests (Authorization %q)", hits.Load(), auth.Load())
	}
	if code != ExitFail || !strings.Contains(out, "disabled") || !strings.Contains(errs, "not trusted") {
		t.Errorf("untrusted docs: exit %d\n%s%s", code, out, errs)
	}
	// Trusted, the key goes to the endpoint it was configured for (loopback
	// over http is allowed for tests).
	if code, _, errs := run(t, dir, env, "trust"); code != ExitOK {
		t.Fatalf("trust: %s", errs)
	}
	run(t, dir, env, "docs", "next", "hooks")
	if hits.Load() == 0 || auth.Load() != "Bearer "+secret {
		t.Errorf("trusted docs: %d requests, Authorization %q", hits.Load(), auth.Load())
	}
}

// treeHash hashes every file and link under dir but .codecortex, by path.
func treeHash(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			if d.Name() == ".codecortex" {
				return filepath.SkipDir
			}
			out[rel+"/"] = "dir"
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			out[rel] = "link " + target
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fi, _ := d.Info()
		sum := sha256.Sum256(b)
		out[rel] = hex.EncodeToString(sum[:]) + " " + fi.Mode().String()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Nothing writes to the project but .codecortex: every command, on real
// projects, leaves every other file exactly as it was. Each command must
// have a case here, so a new command cannot skip the check.
func TestCommandsWriteOnlyCodecortex(t *testing.T) {
	goMod := testtool.WriteTree(t, map[string]string{
		// No go line: the go command run with -mod=mod would add one.
		"go.mod":  "module example.com/w\n\nrequire github.com/pkg/errors v0.9.1\n",
		"main.go": "package main\n\nimport _ \"github.com/pkg/errors\"\n\nfunc main() {}\n",
	})
	projects := map[string]string{"precision": precisionProject(t), "deps": depsProject(t, ""), "gomod": goMod,
		"cobra": testtool.ModuleCopy(t, testtool.Cobra)}
	fixture := filepath.Join(t.TempDir(), "fixture.json")
	if err := os.WriteFile(fixture, []byte(`{"name": "t", "gate": {}, "cases": [{"question": "where is Héllo defined?", "expect": {"path": "m.go"}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string][][]string{
		"ask":              {{"ask", "where is Héllo defined?"}, {"ask", "--json", "--trace", "who calls Héllo?"}, {"ask", "what changed in m.go?"}},
		"eval":             {{"eval", fixture}},
		"index":            {{"index"}, {"index", "--status", "--json"}},
		"history":          {{"history"}, {"history", "m.go:1-2", "--json"}},
		"impact":           {{"impact", "m.go:1-2"}, {"impact", "--json", "Héllo"}, {"impact", "--since", "HEAD"}},
		"remember":         {{"remember", "--type", "gotcha", "--path", ".", "mind the cache"}},
		"recall":           {{"recall", "cache"}, {"recall", "--json"}},
		"forget":           {{"forget", "m0000000000000000", "--reason", "gone"}},
		"memory":           {{"memory", "verify"}},
		"validate":         {{"validate"}},
		"mcp":              {{"mcp", "--mutating"}}, // a usage error here; internal/mcp's tests cover the server
		"symbols":          {{"symbols"}, {"symbols", "--json", "."}},
		"map":              {{"map"}, {"map", "--json", "--budget", "300"}, {"map", "--format", "mermaid"}},
		"version":          {{"version"}},
		"doctor":           {{"doctor"}, {"doctor", "--json"}},
		"config":           {{"config"}, {"config", "--json"}},
		"trust":            {{"trust", "--show"}, {"trust"}, {"trust", "--revoke"}},
		"precision-status": {{"precision-status"}},
		"def":              {{"def", "m.go:5:9"}, {"def", "--json", "Héllo"}},
		"refs":             {{"refs", "m.go:3:14"}, {"refs", "--no-declaration", "Héllo"}},
		"impl":             {{"impl", "m.go:3:14"}},
		"callers":          {{"callers", "m.go:3:14"}, {"callers", "--json", "Héllo"}},
		"search":           {{"search", "Héllo", "--lang", "go"}, {"search", "x", "--rewrite", "y", "--lang", "go"}, {"search", "hello world"}},
		"structural":       {{"structural", "-p", "$F($$$A)", "-l", "go", "--rewrite", "g($$$A)"}, {"sg", "-p", "x", "--json"}},
		"deps":             {{"deps"}, {"deps", "--build-list"}, {"deps", "--json", "--build-list"}, {"deps", "why", "next"}},
		"docs":             {{"docs", "next", "app router"}},
		"rename":           {{"rename", "Héllo", "Hi"}, {"rename", "--json", "m.go:3:14", "Other"}, {"rename", "--allow-inferred", "Héllo", "Hi"}},
		"rewrite":          {{"rewrite", "preview", "-p", "$F($$$A)", "-r", "g($$$A)", "-l", "go"}, {"rewrite", "apply", "0123456789abcdef01234567", "--yes"}, {"rewrite", "recover"}},
	}
	for _, c := range commands() {
		if _, ok := cases[c.name]; !ok {
			t.Errorf("command %s has no case in this test", c.name)
		}
	}
	names := make([]string, 0, len(projects))
	for n := range projects {
		names = append(names, n)
	}
	sort.Strings(names)
	env := trustEnv(t, nil)
	for _, name := range names {
		dir := projects[name]
		before := treeHash(t, dir)
		for _, cmdName := range sortedCaseNames(cases) {
			for _, args := range cases[cmdName] {
				run(t, dir, env, args...)
				if diff := cmp.Diff(before, treeHash(t, dir)); diff != "" {
					t.Fatalf("cortex %q on the %s project changed files outside .codecortex (-before +after):\n%s", args, name, diff)
				}
			}
		}
	}
}

func sortedCaseNames(m map[string][][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// The repository's own git configuration is trusted apart from the
// configuration file: a setting that could run a program makes history
// decline until cortex trust (the project has no .codecortex/config.json
// at all), trust --show lists it with what is switched off anyway, an
// edit needs trust again, and neither the filter nor the ssh command ever
// runs.
func TestGitConfigNeedsTrust(t *testing.T) {
	dir := gitProject(t)
	sshCmd, sshRuns := spy(t, "evil-ssh", "exit 1")
	filter, filterRuns := spy(t, "evil-filter", "cat")
	git := testtool.Require(t, "git", "apt-get install git")
	cfg := func(args ...string) {
		t.Helper()
		cmd := exec.Command(git, append([]string{"config"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git config %v: %v\n%s", args, err, out)
		}
	}
	cfg("core.sshCommand", sshCmd)
	cfg("filter.evil.clean", filter)
	os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte("*.go filter=evil\n"), 0o644)
	env := trustEnv(t, nil)
	ranNothing := func(when string) {
		t.Helper()
		if n, m := sshRuns(), filterRuns(); n+m != 0 {
			t.Fatalf("%s: the repository's git configuration ran a program (ssh %d, filter %d)", when, n, m)
		}
	}

	for _, args := range [][]string{{"history", "main.go:3"}, {"history", "--since", "HEAD~1"}, {"impact", "--since", "HEAD~1"}} {
		code, out, errs := run(t, dir, env, args...)
		if code != ExitFail || !strings.Contains(errs, "core.sshcommand") || !strings.Contains(errs, "cortex trust") {
			t.Errorf("untrusted %v: exit %d\n%s%s", args, code, out, errs)
		}
	}
	ranNothing("untrusted")
	code, out, errs := run(t, dir, env, "trust", "--show")
	if code != ExitOK || !strings.Contains(out, "core.sshcommand = "+fmt.Sprintf("%q", sshCmd)) ||
		!strings.Contains(out, "switched off") || !strings.Contains(out, "filter.evil.clean") {
		t.Errorf("trust --show: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := run(t, dir, env, "trust"); code != ExitOK || !strings.Contains(out, "trusted: recorded") {
		t.Fatalf("trust: exit %d\n%s%s", code, out, errs)
	}
	for _, args := range [][]string{{"history", "main.go:3"}, {"history", "--since", "HEAD~1"}, {"ask", "what changed since HEAD~1?"}} {
		if code, out, errs := run(t, dir, env, args...); code != ExitOK {
			t.Errorf("trusted %v: exit %d\n%s%s", args, code, out, errs)
		}
	}
	ranNothing("trusted")

	// An edit of a setting that needs trust needs trust again; one of an
	// inert setting does not.
	cfg("branch.master.remote", "origin")
	if code, _, errs := run(t, dir, env, "history", "main.go"); code != ExitOK {
		t.Errorf("after an inert edit: exit %d\n%s", code, errs)
	}
	cfg("core.sshCommand", sshCmd+" -v")
	if code, _, errs := run(t, dir, env, "history", "main.go"); code != ExitFail || !strings.Contains(errs, "core.sshcommand") {
		t.Errorf("after an edit: exit %d\n%s", code, errs)
	}
	if code, _, errs := run(t, dir, env, "--trust-config", "any", "history", "main.go"); code != ExitOK {
		t.Errorf("--trust-config any: exit %d\n%s", code, errs)
	}
	run(t, dir, env, "trust")
	if code, out, _ := run(t, dir, env, "trust", "--revoke"); code != ExitOK || !strings.Contains(out, "revoked") {
		t.Errorf("trust --revoke: exit %d\n%s", code, out)
	}
	if code, _, _ := run(t, dir, env, "history", "main.go"); code != ExitFail {
		t.Errorf("after --revoke: exit %d, want %d", code, ExitFail)
	}
	ranNothing("at the end")
}

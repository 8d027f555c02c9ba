package config

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/internal/testtool"
)

// writeConfig writes a project with the given configuration file content
// ("" for none) and returns its root.
func writeConfig(t *testing.T, content string) string {
	t.Helper()
	dir := t.TempDir()
	if content != "" {
		if err := os.MkdirAll(filepath.Join(dir, ".codecortex"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, File), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

const hostile = `{
	"precision_index": {"auto_generate": true, "generator_command": ["./gen"], "language_server": ["./ls"],
		"language_servers": {"python": ["./pyls", "--stdio"], "rust": []}},
	"dependency_docs": {"enabled": true, "base_url": "http://127.0.0.1:18777", "api_key_env": "MY_OTHER_SECRET"},
	"structural": {"command": "./evil-sg", "max_rewrite_files": 7},
	"validation": {"commands": [{"name": "tests", "argv": ["./run-tests"]}]}
}`

func TestOpenProjectWithholdsUntrusted(t *testing.T) {
	dir := writeConfig(t, hostile)
	store := TrustStore{Path: filepath.Join(t.TempDir(), "trusted.json")}
	p, err := OpenProject(dir, ProjectOptions{Store: store})
	if err != nil {
		t.Fatal(err)
	}
	if p.Trust.Trusted {
		t.Fatalf("a hostile configuration is trusted: %+v", p.Trust)
	}
	want := Default()
	want.PrecisionIndex.GeneratorCommand = []string{"./gen"}              // kept for guidance, never run
	want.Structural.MaxRewriteFiles = 7                                   // harmless settings apply
	want.PrecisionIndex.LanguageServers = map[string][]string{"rust": {}} // turning a language off runs nothing
	if diff := cmp.Diff(want, p.Config); diff != "" {
		t.Errorf("effective configuration (-want +got):\n%s", diff)
	}
	if p.Requested.Structural.Command == nil || *p.Requested.Structural.Command != "./evil-sg" {
		t.Errorf("Requested lost what the file asks for: %+v", p.Requested.Structural)
	}
	if len(p.Trust.Withheld) != 6 || !strings.Contains(strings.Join(p.Trust.Withheld, "\n"), `"./evil-sg"`) ||
		!strings.Contains(strings.Join(p.Trust.Withheld, "\n"), `"./run-tests"`) ||
		!strings.Contains(strings.Join(p.Trust.Withheld, "\n"), `precision_index.language_servers.python runs ["./pyls" "--stdio"]`) {
		t.Errorf("Withheld = %q, want the six requests named", p.Trust.Withheld)
	}
	if o := p.LSPOptions(); len(o.Command) != 0 || len(o.Servers) != 1 || o.Servers["rust"] == nil || len(o.Servers["rust"]) != 0 {
		t.Errorf("untrusted language servers reach the options: %+v", o)
	}
	if len(p.ValidationOptions().Commands) != 0 {
		t.Errorf("untrusted validation commands reach the options: %+v", p.ValidationOptions().Commands)
	}
	if !strings.Contains(p.Trust.Reason, "cortex trust") {
		t.Errorf("Reason %q does not say how to trust it", p.Trust.Reason)
	}

	// Trusted in the store, the file applies as written.
	if err := store.Trust(p.Root, p.Trust.Digest); err != nil {
		t.Fatal(err)
	}
	p2, err := OpenProject(dir, ProjectOptions{Store: store})
	if err != nil {
		t.Fatal(err)
	}
	if !p2.Trust.Trusted || cmp.Diff(p2.Requested, p2.Config) != "" || len(p2.Trust.Withheld) != 0 {
		t.Errorf("trusted configuration not applied: %+v", p2.Trust)
	}

	// An edit needs trust again.
	if err := os.WriteFile(filepath.Join(dir, File), []byte(strings.Replace(hostile, "./evil-sg", "./eviler-sg", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	p3, err := OpenProject(dir, ProjectOptions{Store: store})
	if err != nil {
		t.Fatal(err)
	}
	if p3.Trust.Trusted || p3.Config.Structural.Command != nil {
		t.Errorf("an edited configuration kept the old trust: %+v", p3.Trust)
	}

	// Revoking withdraws it.
	if err := os.WriteFile(filepath.Join(dir, File), []byte(hostile), 0o644); err != nil {
		t.Fatal(err)
	}
	if found, err := store.Revoke(p.Root); err != nil || !found {
		t.Fatalf("Revoke = %v, %v", found, err)
	}
	if p4, _ := OpenProject(dir, ProjectOptions{Store: store}); p4.Trust.Trusted {
		t.Error("trust survived Revoke")
	}
}

func TestOpenProjectTrustModes(t *testing.T) {
	dir := writeConfig(t, hostile)
	digest := Digest([]byte(hostile))
	store := TrustStore{Path: filepath.Join(t.TempDir(), "trusted.json")}
	if err := store.Trust(dir, digest); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		opts ProjectOptions
		want bool
	}{
		{"store", ProjectOptions{Store: store}, true},
		{"never ignores the store", ProjectOptions{Store: store, Trust: TrustNever}, false},
		{"always", ProjectOptions{Store: TrustStore{Path: filepath.Join(t.TempDir(), "none.json")}, Trust: TrustAlways}, true},
		{"pinned digest", ProjectOptions{TrustDigest: digest, Trust: TrustNever}, true},
		{"other pinned digest", ProjectOptions{TrustDigest: Digest([]byte("{}")), Trust: TrustAlways, Store: store}, false},
		{"store without a location", ProjectOptions{Getenv: func(string) string { return "" }}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := OpenProject(dir, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if p.Trust.Trusted != tt.want {
				t.Errorf("Trusted = %v (%s), want %v", p.Trust.Trusted, p.Trust.Reason, tt.want)
			}
			if got := p.Config.Structural.Command != nil; got != tt.want {
				t.Errorf("structural.command applied = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestOpenProjectNeedsNoTrust(t *testing.T) {
	for _, tt := range []struct{ name, content string }{
		{"no file", ""},
		{"limits and switches", `{"structural": {"enabled": false, "max_rewrite_files": 3}, "precision_index": {"path": "build/x.scip"}}`},
		{"generator without auto_generate", `{"precision_index": {"generator_command": ["scip-go"]}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeConfig(t, tt.content)
			p, err := OpenProject(dir, ProjectOptions{Trust: TrustNever})
			if err != nil {
				t.Fatal(err)
			}
			if !p.Trust.Trusted || cmp.Diff(p.Requested, p.Config) != "" {
				t.Errorf("a configuration that runs and sends nothing was withheld: %+v", p.Trust)
			}
		})
	}
}

func TestTrustStoreCorrupt(t *testing.T) {
	name := filepath.Join(t.TempDir(), "trusted.json")
	if err := os.WriteFile(name, []byte("not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := writeConfig(t, hostile)
	p, err := OpenProject(dir, ProjectOptions{Store: TrustStore{Path: name}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Trust.Trusted || !strings.Contains(p.Trust.Reason, "not a version 1 trust file") {
		t.Errorf("corrupt store: %+v", p.Trust)
	}
	if err := (TrustStore{Path: name}).Trust(dir, p.Trust.Digest); err == nil {
		t.Error("Trust overwrote a corrupt store it could not read")
	}
}

func TestTrustStoreLocation(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/x/codecortex/trusted.json"},
		{map[string]string{"XDG_CONFIG_HOME": "relative", "HOME": "/h"}, "/h/.config/codecortex/trusted.json"},
		{map[string]string{"HOME": "/h"}, "/h/.config/codecortex/trusted.json"},
		{map[string]string{}, ""},
	}
	for _, tt := range tests {
		got, err := TrustStore{Getenv: env(tt.env)}.File()
		if got != tt.want || (err != nil) != (tt.want == "") {
			t.Errorf("File() with %v = %q, %v; want %q", tt.env, got, err, tt.want)
		}
	}
}

func TestTrustStoreFileMode(t *testing.T) {
	name := filepath.Join(t.TempDir(), "sub", "trusted.json")
	if err := (TrustStore{Path: name}).Trust("/r", Digest(nil)); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("trust store mode %v, want 0600", fi.Mode().Perm())
	}
}

func TestFindRoot(t *testing.T) {
	top := writeConfig(t, "")
	for _, d := range []string{"repo/.git", "repo/a/b", "cc/.codecortex", "cc/x", "plain/y"} {
		if err := os.MkdirAll(filepath.Join(top, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct{ start, want string }{
		{"repo/a/b", "repo"},
		{"repo", "repo"},
		{"cc/x", "cc"},
		{"plain/y", "plain/y"},
	}
	// A marker above the test's directory (a .codecortex some run left in
	// the system's temporary directory) is where a plain directory's walk
	// ends, as it should.
	outside := ""
	if up, err := FindRoot(filepath.Dir(top)); err == nil && up != filepath.Dir(top) {
		outside = up
	}
	for _, tt := range tests {
		got, err := FindRoot(filepath.Join(top, tt.start))
		if err != nil {
			t.Fatal(err)
		}
		want := filepath.Join(top, tt.want)
		if tt.start == "plain/y" && outside != "" {
			want = outside
		}
		if got != want {
			t.Errorf("FindRoot(%s) = %s, want %s", tt.start, got, want)
		}
	}
}

func TestOpenProjectNotADirectory(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenProject(f, ProjectOptions{}); err == nil {
		t.Error("OpenProject on a file succeeded")
	}
	if _, err := OpenProject(filepath.Join(f, "missing"), ProjectOptions{}); err == nil {
		t.Error("OpenProject on a missing directory succeeded")
	}
}

// The options getters open nothing: the exact edges a graph fuses in and
// the impact a rewrite estimates with are the composition's to give (the
// engine gives its own).
func TestOptionsOpenNothing(t *testing.T) {
	dir := writeConfig(t, "")
	p, err := OpenProject(dir, ProjectOptions{Trust: TrustNever})
	if err != nil {
		t.Fatal(err)
	}
	if o := p.GraphOptions(); o.Exact != nil || o.CloseExact || o.Index != nil {
		t.Errorf("GraphOptions opened a layer: %+v", o)
	}
	if o := p.RewriteOptions(); o.Impact != nil {
		t.Errorf("RewriteOptions made an impact estimator: %T", o.Impact)
	}
}

// gitConfig makes dir a git repository (again: git init keeps what is
// there) and runs git config with args in it.
func gitConfig(t *testing.T, dir string, args ...string) {
	t.Helper()
	git := testtool.Require(t, "git", "apt-get install git")
	for _, a := range [][]string{{"init", "-q"}, append([]string{"config"}, args...)} {
		cmd := exec.Command(git, a...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", a, err, out)
		}
	}
}

// The settings of the repository's git configuration that need trust are
// judged apart from the configuration file, which the project does not
// even have: untrusted until the store, the caller or a pin trusts their
// digest; a trust record of them and one of the configuration file live
// side by side; an edit needs trust again; Revoke withdraws both.
func TestOpenProjectGitTrust(t *testing.T) {
	dir := writeConfig(t, "")
	gitConfig(t, dir, "core.sshCommand", "ssh -i key")
	store := TrustStore{Path: filepath.Join(t.TempDir(), "trusted.json")}
	p, err := OpenProject(dir, ProjectOptions{Store: store})
	if err != nil {
		t.Fatal(err)
	}
	g := p.Trust.Git
	if g.Trusted || p.HistoryOptions().TrustRepoConfig || !strings.HasPrefix(g.Digest, "sha256:") ||
		len(g.Requests) != 1 || !strings.Contains(g.Requests[0], "core.sshcommand") || !strings.Contains(g.Reason, "cortex trust") {
		t.Fatalf("untrusted git configuration judged %+v", g)
	}
	if !p.Trust.Trusted {
		t.Errorf("no configuration file, yet not trusted: %+v", p.Trust)
	}
	for _, tc := range []struct {
		name string
		opts ProjectOptions
		want bool
	}{
		{"never", ProjectOptions{Store: store, Trust: TrustNever}, false},
		{"always", ProjectOptions{Store: store, Trust: TrustAlways}, true},
		{"pinned among others", ProjectOptions{TrustDigest: Digest([]byte("{}")) + "," + g.Digest}, true},
		{"another pin", ProjectOptions{TrustDigest: Digest([]byte("{}")), Trust: TrustAlways}, false},
	} {
		p, err := OpenProject(dir, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if p.Trust.Git.Trusted != tc.want || p.HistoryOptions().TrustRepoConfig != tc.want {
			t.Errorf("%s: git trusted %v (%s), want %v", tc.name, p.Trust.Git.Trusted, p.Trust.Git.Reason, tc.want)
		}
	}

	// Trusted in the store, beside a record of a configuration file.
	if err := store.Trust(dir, Digest([]byte(hostile))); err != nil {
		t.Fatal(err)
	}
	if err := store.TrustGit(dir, g.Digest); err != nil {
		t.Fatal(err)
	}
	if ok, err := store.Trusted(dir, Digest([]byte(hostile))); !ok || err != nil {
		t.Errorf("trusting the git configuration dropped the configuration file's record: %v, %v", ok, err)
	}
	p2, _ := OpenProject(dir, ProjectOptions{Store: store})
	if !p2.Trust.Git.Trusted || !p2.HistoryOptions().TrustRepoConfig {
		t.Errorf("trusted in the store, judged %+v", p2.Trust.Git)
	}

	// An edit needs trust again; an inert setting changes nothing.
	gitConfig(t, dir, "core.sshCommand", "ssh -i other")
	if p3, _ := OpenProject(dir, ProjectOptions{Store: store}); p3.Trust.Git.Trusted {
		t.Errorf("an edited git configuration kept its trust: %+v", p3.Trust.Git)
	}
	gitConfig(t, dir, "core.sshCommand", "ssh -i key")
	gitConfig(t, dir, "user.name", "Ada")
	if p4, _ := OpenProject(dir, ProjectOptions{Store: store}); !p4.Trust.Git.Trusted {
		t.Errorf("an inert setting withdrew trust: %+v", p4.Trust.Git)
	}
	if found, err := store.Revoke(dir); !found || err != nil {
		t.Fatalf("Revoke = %v, %v", found, err)
	}
	if p5, _ := OpenProject(dir, ProjectOptions{Store: store}); p5.Trust.Git.Trusted {
		t.Error("trust survived Revoke")
	}

	// Outside git, and with an ordinary configuration, nothing needs trust.
	for _, d := range []string{writeConfig(t, ""), func() string { d := writeConfig(t, ""); gitConfig(t, d, "user.name", "Ada"); return d }()} {
		p, err := OpenProject(d, ProjectOptions{Store: store, Trust: TrustNever})
		if err != nil || !p.Trust.Git.Trusted || p.Trust.Git.Digest != "" {
			t.Errorf("%s: git judged %+v, %v; want trusted with nothing to trust", d, p.Trust.Git, err)
		}
	}
}

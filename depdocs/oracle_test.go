package depdocs

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
)

// npmTree is `npm ls --all --json` output.
type npmTree struct {
	Version      string             `json:"version"`
	Missing      bool               `json:"missing"`
	Dependencies map[string]npmTree `json:"dependencies"`
}

func (n npmTree) collect(name string, into map[string]bool) {
	if name != "" && n.Version != "" && !n.Missing {
		into[name+"@"+n.Version] = true
	}
	for k, c := range n.Dependencies {
		c.collect(k, into)
	}
}

func npmRun(t *testing.T, npm, dir string, args ...string) []byte {
	t.Helper()
	env := safeexec.Environ("PATH", "HOME", "npm_config_registry", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY")
	env = append(env, "npm_config_cache="+filepath.Join(dir, ".npm-cache"), "npm_config_update_notifier=false",
		"npm_config_fund=false", "npm_config_audit=false")
	res, err := safeexec.Run(context.Background(), safeexec.Invocation{Path: npm, Args: args, Dir: dir, Env: env,
		Timeout: 4 * time.Minute, MaxStdout: 32 << 20})
	if err != nil && len(res.Stdout) == 0 {
		t.Fatalf("npm %v: %v\n%s", args, err, res.Stderr)
	}
	return res.Stdout
}

// TestNPMOracle writes a package.json, lets npm resolve it into a fresh
// package-lock.json (versions 2 and 3), and compares our read of the
// lockfile with npm's own `npm ls --all --json --package-lock-only`.
func TestNPMOracle(t *testing.T) {
	npm := testtool.Require(t, "npm", "Node.js 20 and npm are on CI machines (apt or nodesource)")
	for _, lv := range []string{"2", "3"} {
		t.Run("lockfile-v"+lv, func(t *testing.T) {
			dir := t.TempDir()
			pkg := `{"name":"oracle","version":"1.0.0","dependencies":{"chalk":"^4.1.2","debug":"^4.3.4","semver":"7.6.0"},` +
				`"devDependencies":{"ms":"2.1.3","is-number":"^7.0.0"},"optionalDependencies":{"has-flag":"^4.0.0"}}`
			if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(pkg), 0o644); err != nil {
				t.Fatal(err)
			}
			npmRun(t, npm, dir, "install", "--package-lock-only", "--ignore-scripts", "--lockfile-version="+lv)
			out := npmRun(t, npm, dir, "ls", "--all", "--json", "--package-lock-only")
			var tree npmTree
			if err := json.Unmarshal(out, &tree); err != nil {
				t.Fatalf("npm ls: %v\n%s", err, out)
			}
			want := map[string]bool{}
			tree.collect("", want)

			pr, err := Scan(dir, ScanOptions{SkipDirs: []string{".npm-cache"}})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			direct := map[string]string{}
			for _, d := range pr.Deps {
				if d.File != "package-lock.json" {
					t.Errorf("row from %s: the lockfile should subsume package.json", d.File)
				}
				if d.Resolved != "" {
					got[d.Name+"@"+d.Resolved] = true
				}
				if d.Relation == Direct {
					direct[d.Name] = d.Declared + " " + string(d.Scope)
				}
			}
			if diff := cmp.Diff(keys(want), keys(got)); diff != "" {
				t.Errorf("npm ls vs ours (-npm +ours)\n%s", diff)
			}
			wantDirect := map[string]string{"chalk": "^4.1.2 ", "debug": "^4.3.4 ", "semver": "7.6.0 ", "ms": "2.1.3 dev",
				"is-number": "^7.0.0 dev", "has-flag": "^4.0.0 optional"}
			if diff := cmp.Diff(wantDirect, direct); diff != "" {
				t.Errorf("direct dependencies (-want +got)\n%s", diff)
			}
			for _, f := range pr.Files {
				if f.Format == FormatPackageLock && f.FormatVersion != lv {
					t.Errorf("format version %q, want %s", f.FormatVersion, lv)
				}
			}
		})
	}
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestGoModOracle compares our go.mod reader with the go command itself:
// every requirement we read is in `go list -m -json all` at the version we
// say, indirect exactly when we say, replaced exactly when we say.
func TestGoModOracle(t *testing.T) {
	goBin := testtool.Require(t, "go", "the Go toolchain (already on CI machines)")
	for _, dir := range []string{"go/tools", "go/tools/gopls"} {
		t.Run(dir, func(t *testing.T) {
			root := copyCorpus(t, "go/tools/go.mod", "go/tools/go.sum", "go/tools/gopls/go.mod", "go/tools/gopls/go.sum")
			abs := filepath.Join(root, filepath.FromSlash(dir))
			env := append(safeexec.Environ("PATH", "HOME", "GOPATH", "GOMODCACHE", "GOCACHE", "GOPROXY"), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOWORK=off")
			res, err := safeexec.Run(context.Background(), safeexec.Invocation{Path: goBin, Args: []string{"list", "-m", "-json", "all"},
				Dir: abs, Env: env, Timeout: 3 * time.Minute, MaxStdout: 16 << 20})
			if err != nil {
				t.Fatalf("go list: %v\n%s", err, res.Stderr)
			}
			type mod struct {
				Path, Version  string
				Main, Indirect bool
				Replace        *struct{ Path string }
			}
			listed := map[string]mod{}
			dec := json.NewDecoder(bytesReader(res.Stdout))
			for dec.More() {
				var m mod
				if err := dec.Decode(&m); err != nil {
					t.Fatal(err)
				}
				listed[m.Path] = m
			}
			f, err := ReadFile(root, dir+"/go.mod", ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Deps {
				m, ok := listed[d.Name]
				switch {
				case !ok:
					t.Errorf("%s not in go list", d.Name)
				case d.Relation == Root:
					if !m.Main {
						t.Errorf("%s: root, but go list says not main", d.Name)
					}
				case m.Version != d.Resolved || m.Indirect != (d.Relation == Indirect) || (m.Replace != nil) != (d.Source == Replaced):
					t.Errorf("%s: ours %s %s %s; go list %s indirect=%v replaced=%v", d.Name, d.Resolved, d.Relation, d.Source, m.Version, m.Indirect, m.Replace != nil)
				}
			}
		})
	}
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }

package depdocs

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The corpus under testdata/corpus holds real manifests and lockfiles of
// public repositories (testdata/corpus/SOURCES.tsv names each file's
// repository and commit) and, in truth/, every package of each lockfile as
// an independent tool read it (npm ls, go list, js-yaml, tomllib...).

type truthRow struct {
	line                                           int
	eco, name, declared, resolved, relation, scope string
	// alias is the name the code imports when the truth names an alias
	// (which we report as Alias, with the package installed as the name).
	alias string
}

func readTruth(t *testing.T, name string) []truthRow {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "corpus", "truth", name))
	if err != nil {
		t.Fatal(err)
	}
	var rows []truthRow
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "ecosystem\t") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 7 {
			t.Fatalf("%s:%d: %d fields", name, i+1, len(f))
		}
		r := truthRow{line: i + 1, eco: f[0], name: f[1], declared: f[2], resolved: f[3], relation: f[4], scope: f[5]}
		// Aliases: the truth tools name yarn berry's aliased and patched
		// packages by their descriptor ("react-is-18@npm:react-is") and
		// keep pnpm 6's alias reference as the version
		// ("/eslint-plugin-i@2.29.1") and the alias specifier as the
		// constraint ("npm:eslint-plugin-i@^2.29.1"); we name the package
		// installed, with the alias apart and the constraint on the package.
		if i := strings.Index(r.name, "@npm:"); i > 0 {
			r.name, r.alias = r.name[i+len("@npm:"):], r.name[:i]
		}
		if i := strings.Index(r.name, "@patch:"); i > 0 {
			r.name = r.name[i+len("@patch:"):]
		}
		if a := strings.TrimPrefix(r.resolved, "/"); a != r.resolved || strings.LastIndex(a, "@") > 0 && !strings.HasPrefix(a, "link:") {
			if j := strings.LastIndex(a, "@"); j > 0 {
				if a[:j] != r.name {
					r.alias = r.name
				}
				r.name, r.resolved = a[:j], a[j+1:]
			}
		}
		if _, c, ok := npmAlias(r.declared); ok && r.alias != "" {
			r.declared = c
		}
		rows = append(rows, r)
	}
	return rows
}

// readCorpus reads the named corpus files (relative to testdata/corpus)
// and joins them as a project scan would.
func readCorpus(t testing.TB, files ...string) []Dependency {
	t.Helper()
	var fs []*File
	for _, p := range files {
		data, err := os.ReadFile(filepath.Join("testdata", "corpus", filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		name := p
		if path.Base(p) == "valid" { // scalibr's fixtures are named by case
			switch {
			case strings.Contains(p, "packagesconfig"):
				name = path.Dir(p) + "/packages.config"
			case strings.Contains(p, "nugetcpm"):
				name = path.Dir(p) + "/Directory.Packages.props"
			case strings.Contains(p, "csproj"):
				name = path.Dir(p) + "/x.csproj"
			}
		}
		if strings.HasSuffix(p, ".v1.json") {
			name = path.Dir(p) + "/package-lock.json"
		}
		f, err := Parse(name, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Deps {
			if err := d.Validate(); err != nil {
				t.Errorf("%s: %v", p, err)
			}
		}
		fs = append(fs, f)
	}
	return Join(fs)
}

// resolvedOf is the resolved version as the truth files write it: a
// workspace link's target for links.
func resolvedOf(d *Dependency) string {
	if d.Resolved == "" && (d.Source == Workspace || d.Source == Path) && strings.HasPrefix(d.SourceDetail, "link:") {
		return d.SourceDetail
	}
	return d.Resolved
}

func declaredOf(d *Dependency) string {
	if d.Declared == "" && d.Source == Path || d.Declared == "" && d.Source == Workspace && d.SourceDetail != "" && !strings.HasPrefix(d.SourceDetail, "link:") && d.Ecosystem == Cargo {
		return "path:" + d.SourceDetail
	}
	return d.Declared
}

// truthDeclared normalizes a truth file's declared column: tables
// (dumped as JSON) give their "version".
func truthDeclared(s string) string {
	if strings.HasPrefix(s, "{") {
		var m map[string]any
		if json.Unmarshal([]byte(s), &m) == nil {
			v, _ := m["version"].(string)
			return v
		}
	}
	return s
}

func hasGroup(d *Dependency, g string) bool { return slices.Contains(d.Groups, g) }

// matches reports whether d is the dependency a truth row describes, and
// if not, why (for the closest candidate's message).
func matches(r truthRow, d *Dependency) bool {
	if d.Name != r.name || resolvedOf(d) != r.resolved || r.alias != "" && d.Alias != r.alias {
		return false
	}
	if want := truthDeclared(r.declared); want != "" && r.declared != "(main)" && declaredOf(d) != want {
		// PEP 508 strings carry their markers after ";"; we keep those in
		// Markers.
		spec, _, hasMarkers := strings.Cut(want, ";")
		if !hasMarkers || declaredOf(d) != strings.TrimSpace(spec) {
			return false
		}
	}
	rel := r.relation
	switch {
	case strings.HasPrefix(rel, "direct(importer "):
		imp := strings.TrimSuffix(strings.TrimPrefix(rel, "direct(importer "), ")")
		if d.Relation != Direct || d.Importer != imp {
			return false
		}
	case strings.HasPrefix(rel, "direct(workspace root)"):
		if d.Relation != Direct || d.Importer != "." {
			return false
		}
	case rel == "direct" || rel == "Direct":
		if d.Relation != Direct {
			return false
		}
	case rel == "indirect(go.mod)":
		if d.Relation != Indirect {
			return false
		}
	case rel == "transitive" || rel == "Transitive":
		// npm ls and yarn list a direct package's other occurrences as
		// transitive too; only the project itself is excluded.
		if d.Relation == Root {
			return false
		}
	case rel == "main-module" || rel == "root" || rel == "workspace-member" || rel == "workspace":
		if d.Relation != Root {
			return false
		}
	case rel == "top-level(hoisted)":
		if len(d.Via) != 0 {
			return false
		}
	case strings.HasPrefix(rel, "nested-under:"):
		parent := strings.TrimPrefix(rel, "nested-under:")
		if !slices.ContainsFunc(d.Via, func(v string) bool { return strings.HasPrefix(v, parent+"@") }) {
			return false
		}
	}
	return scopeMatches(r.scope, d)
}

func scopeMatches(scope string, d *Dependency) bool {
	s := scope
	// Python: "main (lock groups=a,b)", "group:x (lock groups=…)",
	// "lock groups=a,b", "develop markers=…", "default markers=…".
	var lockGroups []string
	if i := strings.Index(s, "lock groups="); i >= 0 {
		g := strings.TrimSuffix(s[i+len("lock groups="):], ")")
		lockGroups = strings.Split(g, ",")
		s = strings.TrimSpace(strings.TrimSuffix(s[:i], "("))
	}
	for _, g := range lockGroups {
		if !hasGroup(d, g) {
			return false
		}
	}
	if i := strings.Index(s, " markers="); i >= 0 {
		if d.Markers != s[i+len(" markers="):] {
			return false
		}
		s = s[:i]
	}
	switch {
	case s == "":
		return true
	case s == "dependencies" || s == "normal" || s == "main" || s == "prod":
		return d.Scope == Normal || d.Scope == Optional && d.Ecosystem == PyPI
	case s == "devDependencies" || s == "dev" && d.Ecosystem != PyPI:
		return d.Scope == Dev
	case s == "build":
		return d.Scope == Build
	case strings.HasPrefix(s, "target:"):
		t := strings.TrimPrefix(s, "target:")
		i := strings.LastIndexByte(t, ' ')
		return d.Markers == t[:i] && scopeMatches(t[i+1:], d)
	case strings.HasPrefix(s, "group:") || strings.HasPrefix(s, "dev:") || strings.HasPrefix(s, "extra:"):
		_, g, _ := strings.Cut(s, ":")
		return hasGroup(d, g)
	case s == "default":
		return d.Scope == Normal && hasGroup(d, "default") || d.Scope == Normal && d.Relation == Direct
	case s == "develop":
		return d.Scope != Normal || hasGroup(d, "develop")
	case strings.HasPrefix(s, "group="):
		return hasGroup(d, strings.TrimPrefix(s, "group="))
	case strings.HasPrefix(s, "configs="):
		return slices.Equal(d.Groups, strings.Split(strings.TrimPrefix(s, "configs="), ","))
	case strings.HasPrefix(s, "tfm="):
		return hasGroup(d, strings.TrimPrefix(s, "tfm="))
	case s == "go.mod-only":
		return slices.Equal(d.Groups, []string{"go.mod"})
	case s == "zip+go.mod":
		return slices.Equal(d.Groups, []string{"zip"})
	case strings.HasPrefix(s, "replaced=>"):
		return d.Source == Replaced && d.SourceDetail == "=> "+strings.TrimPrefix(s, "replaced=>")
	}
	return false
}

// truthCases pairs each truth file with the corpus files its reader reads.
var truthCases = []struct {
	truth string
	files []string
	// exhaustive: every (name, resolved) we report is also in the truth.
	exhaustive bool
	// nameJoined marks truth files that join manifests to lockfiles by
	// name alone (see TestTruth).
	nameJoined bool
	// skip, if set, excludes truth rows the files cannot reproduce (Go's
	// transitive modules need the module graph: see TestGoBuildListTruth).
	skip func(truthRow) bool
}{
	{"dotnet__Fs.Units__paket.lock.tsv", []string{"dotnet/Fs.Units/paket.lock"}, true, false, nil},
	{"go__tools__go.mod.tsv", []string{"go/tools/go.mod"}, false, false, goNeedsGraph},
	{"go__tools__gopls__go.mod.tsv", []string{"go/tools/gopls/go.mod"}, false, false, goNeedsGraph},
	{"go__etcd__go.mod.tsv", []string{"go/etcd/go.mod"}, false, false, goNeedsGraph},
	{"go__etcd__go.work(workspace-mode).tsv", []string{"go/etcd/go.mod"}, false, false, goNeedsGraph},
	{"go__tools__gopls__go.sum.tsv", []string{"go/tools/gopls/go.sum"}, true, false, nil},
	{"jvm__maybe__gradle.lockfile.tsv", []string{"jvm/maybe/gradle.lockfile"}, true, false, nil},
	{"node__axios__package-lock.json(v2).tsv", []string{"node/axios/package-lock.json"}, true, false, nil},
	{"node__context7@4a0189c5__package-lock.json(v3).tsv", []string{"node/context7@4a0189c5/package-lock.json"}, true, false, nil},
	{"node__context7@af0f9eeb__bun.lock.tsv", []string{"node/context7@af0f9eeb/bun.lock"}, true, false, nil},
	{"node__context7__pnpm-lock(v9).tsv", []string{"node/context7/pnpm-lock.yaml"}, true, false, nil},
	{"node__prettier@7c3433cb__yarn.lock(v1).tsv", []string{"node/prettier@7c3433cb/yarn.lock", "node/prettier@7c3433cb/package.json"}, true, false, nil},
	{"node__prettier__yarn.lock(berry).tsv", []string{"node/prettier/yarn.lock", "node/prettier/package.json"}, true, false, nil},
	{"node__vue-core@fe5d919b__pnpm-lock(v6).tsv", []string{"node/core@fe5d919b/pnpm-lock.yaml"}, true, false, nil},
	{"node__vue-core__pnpm-lock(v9).tsv", []string{"node/core/pnpm-lock.yaml"}, true, false, nil},
	{"python__flask__uv.lock.tsv", []string{"python/flask/uv.lock"}, true, false, nil},
	{"python__pdm__pdm.lock.tsv", []string{"python/pdm/pdm.lock", "python/pdm/pyproject.toml"}, true, false, nil},
	{"python__pipenv__Pipfile.lock.tsv", []string{"python/pipenv/Pipfile.lock", "python/pipenv/Pipfile"}, true, false, nil},
	{"python__pipenv__examples__Pipfile.lock.tsv", []string{"python/pipenv/examples/Pipfile.lock", "python/pipenv/examples/Pipfile"}, true, false, nil},
	{"python__poetry__poetry.lock.tsv", []string{"python/poetry/poetry.lock", "python/poetry/pyproject.toml"}, true, false, nil},
	{"rust__helix__Cargo.lock.tsv", []string{"rust/helix/Cargo.lock", "rust/helix/Cargo.toml", "rust/helix/helix-core/Cargo.toml",
		"rust/helix/helix-term/Cargo.toml", "rust/helix/helix-view/Cargo.toml", "rust/helix/helix-lsp/Cargo.toml", "rust/helix/helix-loader/Cargo.toml"}, true, true, nil},
	{"rust__ripgrep@53279db4__Cargo.lock(v3).tsv", []string{"rust/ripgrep@53279db4/Cargo.lock", "rust/ripgrep@53279db4/Cargo.toml"}, true, true, nil},
	{"rust__ripgrep__Cargo.lock.tsv", []string{"rust/ripgrep/Cargo.lock", "rust/ripgrep/Cargo.toml", "rust/ripgrep/crates/cli/Cargo.toml",
		"rust/ripgrep/crates/grep/Cargo.toml", "rust/ripgrep/crates/ignore/Cargo.toml", "rust/ripgrep/crates/pcre2/Cargo.toml",
		"rust/ripgrep/crates/searcher/Cargo.toml", "rust/ripgrep/crates/printer/Cargo.toml", "rust/ripgrep/crates/regex/Cargo.toml",
		"rust/ripgrep/crates/matcher/Cargo.toml", "rust/ripgrep/crates/globset/Cargo.toml"}, true, true, nil},
	{"rust__ripgrep__fuzz__Cargo.lock.tsv", []string{"rust/ripgrep/fuzz/Cargo.lock", "rust/ripgrep/fuzz/Cargo.toml"}, true, true, nil},
	{"scalibr__nested-dependencies.v1.json(v1).tsv", []string{"scalibr-testdata/osv-scalibr/extractor/filesystem/language/javascript/packagelockjson/testdata/nested-dependencies.v1.json"}, true, false, nil},
	{"scalibr__packages.lock.json.tsv", []string{"scalibr-testdata/osv-scalibr/extractor/filesystem/language/dotnet/packageslockjson/testdata/valid/packages.lock.json"}, true, false, nil},
}

// goNeedsGraph marks the go.mod truth rows that only the module graph
// gives (modules go.mod does not require, and workspace-only main
// modules); TestGoBuildListTruth checks them against the go command.
func goNeedsGraph(r truthRow) bool {
	return r.declared == "" && r.relation != "main-module" || r.relation == "main-module" && r.declared != "(main)"
}

// TestTruth reproduces every row of every truth file of the corpus.
func TestTruth(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join("testdata", "corpus", "truth"))
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, c := range truthCases {
		covered[c.truth] = true
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tsv") && !covered[e.Name()] {
			t.Errorf("truth file %s has no test case", e.Name())
		}
	}
	for _, c := range truthCases {
		t.Run(c.truth, func(t *testing.T) {
			rows := readTruth(t, c.truth)
			deps := readCorpus(t, c.files...)
			checked := 0
			for _, r := range rows {
				if c.skip != nil && c.skip(r) {
					continue
				}
				if strings.HasPrefix(c.truth, "go__etcd__go.work") && r.relation == "main-module" {
					continue
				}
				checked++
				found := false
				for i := range deps {
					if matches(r, &deps[i]) {
						found = true
						break
					}
				}
				if !found && c.nameJoined && r.relation == "direct" {
					// The Cargo truth marks every version of a name direct
					// when a member depends on one of them, and gives each
					// the member's constraint. The lockfile's graph says
					// which version the member uses; accept the row when
					// that version is direct and this one is present.
					var present, other bool
					for i := range deps {
						d := &deps[i]
						if d.Name == r.name && d.Resolved == r.resolved {
							present = true
						}
						if d.Name == r.name && d.Resolved != r.resolved && (d.Relation == Direct || d.Relation == Root) {
							other = true
						}
					}
					if present && other {
						t.Logf("line %d: %s %s: direct by name only in the truth; the lockfile's graph makes it transitive", r.line, r.name, r.resolved)
						found = true
					}
				}
				if !found {
					var near []string
					for i := range deps {
						if deps[i].Name == r.name {
							d := deps[i]
							near = append(near, fmt.Sprintf("{%s decl=%q res=%q %s scope=%q imp=%q groups=%v markers=%q src=%s %q}",
								d.Name, d.Declared, d.Resolved, d.Relation, d.Scope, d.Importer, d.Groups, d.Markers, d.Source, d.SourceDetail))
						}
					}
					t.Errorf("line %d: %s %q %s [%s] [%s] not reproduced; ours: %v", r.line, r.name, r.declared, r.resolved, r.relation, r.scope, near)
				}
			}
			if checked == 0 {
				t.Fatal("no row checked")
			}
			if !c.exhaustive {
				return
			}
			want := map[string]bool{}
			for _, r := range rows {
				want[r.name+"@"+r.resolved] = true
			}
			for i := range deps {
				if k := deps[i].Name + "@" + resolvedOf(&deps[i]); !want[k] {
					t.Errorf("extra: %s (%s) not in the truth file", k, deps[i].Relation)
				}
			}
		})
	}
}

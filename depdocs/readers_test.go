package depdocs

import (
	"errors"

	"fmt"
	"github.com/codecortex/codecortex/internal/contain"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// brief renders a dependency as "name|declared|resolved|relation|scope|source".
func brief(d Dependency) string {
	return strings.Join([]string{d.Name, d.Declared, d.Resolved, string(d.Relation), string(d.Scope), string(d.Source)}, "|")
}

func parseCorpus(t *testing.T, file, as string) *File {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "corpus", filepath.FromSlash(file)))
	if err != nil {
		t.Fatal(err)
	}
	if as == "" {
		as = file
	}
	f, err := Parse(as, data)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Deps {
		if err := d.Validate(); err != nil {
			t.Error(err)
		}
	}
	return f
}

// TestReadersCorpus checks the formats no truth file covers against the
// corpus manifests, by rows each file must yield.
func TestReadersCorpus(t *testing.T) {
	for _, c := range []struct {
		file, as, version string
		want              []string
		count             int
	}{
		{"python/poetry/pyproject.toml", "", "poetry+pep621", []string{
			"poetry-core|@ git+https://github.com/python-poetry/poetry-core.git||direct||git",
			"cachecontrol|(>=0.14.0,<0.15.0)||direct||registry",
			"pytest-xdist|>=3.1||direct|test|registry",
			"pre-commit|>=2.10||direct|dev|registry",
		}, 0},
		{"python/pdm/pyproject.toml", "", "pep621", []string{"blinker|||direct||registry"}, 0},
		{"python/pipenv/Pipfile", "", "", []string{"pytz|*||direct||registry", "sphinx-click|==4.*||direct|dev|registry"}, 0},
		{"python/pdm/tests/fixtures/requirements.txt", "", "", []string{
			"webassets|==2.0|2.0|direct||registry",
			"wtforms|==2.2.1|2.2.1|direct||registry",
			"pip|git+https://github.com/pypa/pip.git@main#egg=pip||direct||git",
			"pep508-package|git+https://github.com/techalchemy/test-project.git@master#egg=pep508-package&subdirectory=parent_folder/pep508-package||direct||git",
		}, 6},
		{"python/warehouse/requirements/deploy.txt", "", "", []string{"bytecode|==0.18.1|0.18.1|direct||registry"}, 0},
		{"python/flask@e7851665/requirements/tests-dev.txt", "", "", []string{
			"werkzeug|https://github.com/pallets/werkzeug/archive/refs/heads/main.tar.gz||direct||url"}, 6},
		{"node/context7/package.json", "", "", nil, 0},
		{"node/axios/package.json", "", "", []string{"follow-redirects|^1.15.6||direct||registry"}, 0},
		{"rust/helix/helix-term/Cargo.toml", "", "", []string{
			"helix-tui|||direct||path", // renamed: tui = { package = "helix-tui" }
		}, 0},
		{"rust/helix/Cargo.toml", "", "workspace", []string{"nucleo|0.5.0||direct||registry"}, 0},
		{"go/tools/gopls/go.mod", "", "go 1.26.0", []string{
			"golang.org/x/tools|v0.48.0|v0.48.0|direct||replaced",
			"golang.org/x/tools/gopls|||root||workspace",
			"golang.org/x/sys|v0.47.0|v0.47.0|indirect||registry",
		}, 29},
		{"scalibr-testdata/osv-scalibr/extractor/filesystem/language/golang/gomod/testdata/replace-mixed.mod", "x/go.mod", "", []string{
			"golang.org/x/net|v1.2.3|v1.2.3|direct||replaced", "golang.org/x/net|v0.5.6|v0.5.6|direct||registry"}, 2},
		{"scalibr-testdata/osv-scalibr/extractor/filesystem/language/golang/gomod/testdata/toolchain-with-suffix.mod", "x/go.mod", "go 1.23.5", []string{
			"github.com/BurntSushi/toml|v1.0.0|v1.0.0|direct||registry"}, 2},
		{"jvm/spring-petclinic/pom.xml", "", "4.0.0", []string{"org.springframework.boot:spring-boot-starter-parent|4.0.3||direct||registry"}, 0},
		{"jvm/gson/gson/pom.xml", "", "4.0.0", []string{"com.google.code.gson:gson-parent|2.14.1-SNAPSHOT||direct||registry"}, 0},
		{"jvm/spring-petclinic/build.gradle", "", "groovy", []string{"org.springframework.boot:spring-boot-starter-cache|||direct||registry"}, 0},
		{"jvm/moshi/gradle/libs.versions.toml", "", "", []string{"com.squareup.okio:okio|3.17.0||direct||registry"}, 0},
		{"jvm/moshi/moshi-adapters/build.gradle.kts", "", "kotlin", []string{"libs.junit|||direct|test|registry"}, 0},
		{"dotnet/Polly/Directory.Packages.props", "", "cpm", nil, 0},
		{"dotnet/Polly/src/Polly.Core/Polly.Core.csproj", "", "sdk", nil, 0},
		{"scalibr-testdata/osv-scalibr/extractor/filesystem/language/dotnet/packagesconfig/testdata/valid", "x/packages.config", "1", nil, 0},
		{"scalibr-testdata/osv-scalibr/extractor/filesystem/language/dotnet/csproj/testdata/valid", "x/x.csproj", "sdk", []string{"LiteDB|5.0.12||direct||registry"}, 1},
		{"scalibr-testdata/osv-scalibr/extractor/filesystem/language/dotnet/nugetcpm/testdata/valid", "x/Directory.Packages.props", "cpm", nil, 0},
		{"scalibr-testdata/osv-scalibr/extractor/filesystem/language/javascript/packagelockjson/testdata/alias.v1.json", "x/package-lock.json", "1", []string{
			"@babel/code-frame||7.0.0|unknown||registry", "string-width||4.2.0|unknown||registry"}, 0},
	} {
		t.Run(c.file, func(t *testing.T) {
			f := parseCorpus(t, c.file, c.as)
			if f.FormatVersion != c.version {
				t.Errorf("FormatVersion = %q, want %q", f.FormatVersion, c.version)
			}
			var got []string
			for _, d := range f.Deps {
				got = append(got, brief(d))
			}
			for _, w := range c.want {
				if !slices.Contains(got, w) {
					t.Errorf("missing %s in\n%s", w, strings.Join(got, "\n"))
				}
			}
			if c.count > 0 && len(f.Deps) != c.count {
				t.Errorf("%d dependencies, want %d:\n%s", len(f.Deps), c.count, strings.Join(got, "\n"))
			}
			if len(f.Deps) == 0 {
				t.Error("no dependencies")
			}
		})
	}
}

// TestParseInline covers the syntax corners of each reader on small inputs.
func TestParseInline(t *testing.T) {
	for _, c := range []struct {
		name, file, src string
		want            []string
	}{
		{"requirements corners", "requirements.txt", "# c\nfoo[bar]>=1.0,<2 ; python_version < '3.9' # tail\n" +
			"-e ./local/pkg\n--index-url https://x\nbaz===1.0 \\\n  --hash=sha256:ab\n-r other.txt\n-c constraints.txt\n",
			[]string{"foo|>=1.0,<2||direct||registry", "pkg|./local/pkg||direct||path", "baz|===1.0|1.0|direct||registry"}},
		{"poetry tables", "pyproject.toml", "[tool.poetry.dependencies]\npython = \"^3.9\"\nrequests = {version = \"^2.31\", optional = true}\nmylib = {path = \"../mylib\"}\n" +
			"[tool.poetry.group.dev.dependencies]\npytest = \"^8\"\n",
			[]string{"requests|^2.31||direct|optional|registry", "mylib|||direct||path", "pytest|^8||direct|dev|registry"}},
		{"cargo renamed and target", "Cargo.toml", "[dependencies]\nfoo = { package = \"real-foo\", version = \"1.2\" }\n" +
			"[target.'cfg(windows)'.dev-dependencies]\nwinapi = \"0.3\"\n[build-dependencies]\ncc = { git = \"https://github.com/rust-lang/cc-rs\" }\n",
			[]string{"real-foo|1.2||direct||registry", "winapi|0.3||direct|dev|registry", "cc|||direct|build|git"}},
		{"package.json workspaces", "package.json", `{"workspaces":{"packages":["packages/*"]},"dependencies":{"a":"^1","b":"file:../b","c":"github:o/c"},"peerDependencies":{"p":"*"}}`,
			[]string{"a|^1||direct||registry", "b|file:../b||direct||path", "c|github:o/c||direct||git", "p|*||direct|peer|registry"}},
		{"package-lock v3 link", "package-lock.json", `{"lockfileVersion":3,"packages":{"":{"dependencies":{"w":"*"}},"node_modules/w":{"resolved":"packages/w","link":true},"packages/w":{"name":"w","version":"0.1.0"}}}`,
			[]string{"w|*|0.1.0|direct||workspace"}},
		{"yarn v1 git", "yarn.lock", "# yarn lockfile v1\n\n\"x@git+https://h/x.git\":\n  version \"1.0.0\"\n  resolved \"git+https://h/x.git#abc\"\n",
			[]string{"x||1.0.0|transitive||git"}},
		{"pnpm v5", "pnpm-lock.yaml", "lockfileVersion: 5.4\nspecifiers:\n  a: ^1.0.0\ndependencies:\n  a: 1.0.1\npackages:\n  /a/1.0.1:\n    dev: false\n  /b/2.0.0_a@1.0.1:\n    dev: true\n",
			[]string{"a|^1.0.0|1.0.1|direct||registry", "b||2.0.0|transitive|dev|registry"}},
		{"bun comments", "bun.lock", "{\n // c\n \"lockfileVersion\": 1, \"workspaces\": {\"\": {\"dependencies\": {\"a\": \"^1\",},},},\n \"packages\": {\"a\": [\"a@1.2.0\", \"\", {}, \"sha\"],},\n}",
			[]string{"a|^1|1.2.0|direct||registry"}},
		{"go.mod replace to path", "go.mod", "module m\n\ngo 1.22\n\nrequire x.org/y v1.0.0\n\nreplace x.org/y => ../y\n\nexclude x.org/z v0.1.0\n",
			[]string{"x.org/y|v1.0.0|v1.0.0|direct||replaced", "m|||root||workspace"}},
		{"pom properties and management", "pom.xml", `<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>a</artifactId><version>1</version>
<properties><dep.version>2.5</dep.version></properties>
<dependencyManagement><dependencies><dependency><groupId>m</groupId><artifactId>n</artifactId><version>${dep.version}</version></dependency></dependencies></dependencyManagement>
<dependencies><dependency><groupId>m</groupId><artifactId>n</artifactId></dependency><dependency><groupId>t</groupId><artifactId>u</artifactId><version>${project.version}</version><scope>test</scope></dependency></dependencies></project>`,
			[]string{"m:n|2.5|2.5|direct||registry", "t:u|1|1|direct|test|registry"}},
		{"gradle forms", "build.gradle", "plugins { id 'java' }\ndependencies {\n  implementation 'a:b:1.0' // x\n  testImplementation(\"c:d:2.0\")\n  api group: 'e', name: 'f', version: '3'\n  implementation project(':core')\n}\n",
			[]string{"a:b|1.0||direct||registry", "c:d|2.0||direct|test|registry", "e:f|3||direct||registry"}},
		{"packages.lock.json", "packages.lock.json", `{"version":2,"dependencies":{"net8.0":{"A":{"type":"Direct","requested":"[1.0.0, )","resolved":"1.0.0","dependencies":{"B":"2.0.0"}},"B":{"type":"Transitive","resolved":"2.0.0"},"P":{"type":"Project"}}}}`,
			[]string{"A|[1.0.0, )|1.0.0|direct||registry", "B||2.0.0|transitive||registry", "P|||root||workspace"}},
		{"paket groups", "paket.lock", "NUGET\n  remote: https://api.nuget.org/v3/index.json\n    A (1.0)\n      B (>= 2.0)\n    B (2.1)\nGROUP Test\nGITHUB\n  remote: o/r\n    src/x.fs (abc123)\n",
			[]string{"A||1.0|unknown||registry", "B||2.1|unknown||registry", "src/x.fs||abc123|unknown||git"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse(c.file, []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range f.Deps {
				if err := d.Validate(); err != nil {
					t.Error(err)
				}
				got = append(got, brief(d))
			}
			for _, w := range c.want {
				if !slices.Contains(got, w) {
					t.Errorf("missing %s in %v", w, got)
				}
			}
		})
	}
}

// TestRequirementsIncludeCycle: -r and -c includes are followed once each,
// so a cycle ends, and every file's requirements are read.
func TestRequirementsIncludeCycle(t *testing.T) {
	dir := writeProject(t, map[string]string{
		"requirements.txt":            "-r requirements/dev.txt\nflask==3.0.0\n",
		"requirements/dev.txt":        "-r ../requirements.txt\n-c constraints.in\npytest==8.0.0\n",
		"requirements/constraints.in": "urllib3<3\n",
	})
	p, err := Scan(dir, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range p.Deps {
		got = append(got, d.File+":"+d.Name)
	}
	want := []string{"requirements.txt:flask", "requirements/constraints.in:urllib3", "requirements/dev.txt:pytest"}
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestMultiVersions: one name resolving to several versions is reported,
// with the direct one named (the corpus pnpm lock has zod 4.1.8 and 4.4.3,
// only 4.4.3 direct).
func TestMultiVersions(t *testing.T) {
	deps := readCorpus(t, "node/context7/pnpm-lock.yaml")
	for _, m := range MultiVersions(deps) {
		if m.Name == "zod" {
			want := MultiVersion{Ecosystem: NPM, Name: "zod", Versions: []string{"4.1.8", "4.4.3"}, Direct: []string{"4.4.3"}}
			if diff := cmp.Diff(want, m); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			return
		}
	}
	t.Fatal("zod not reported")
}

// TestValidate lists the invariants a Dependency enforces.
func TestValidate(t *testing.T) {
	ok := Dependency{Ecosystem: NPM, Name: "a", Resolved: "1.0.0", Source: Registry, Relation: Direct, File: "package.json"}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, mut := range map[string]func(*Dependency){
		"ecosystem": func(d *Dependency) { d.Ecosystem = "cpan" },
		"name":      func(d *Dependency) { d.Name = " " },
		"file":      func(d *Dependency) { d.File = "" },
		"source":    func(d *Dependency) { d.Source = "ftp" },
		"relation":  func(d *Dependency) { d.Relation = "cousin" },
		"scope":     func(d *Dependency) { d.Scope = "prod" },
		"resolved":  func(d *Dependency) { d.Resolved = "1.0 2.0" },
	} {
		d := ok
		mut(&d)
		if err := d.Validate(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestDetect(t *testing.T) {
	for name, want := range map[string]Format{
		"a/requirements-dev.txt": FormatRequirements, "requirements.in": FormatRequirements, "x/package-lock.json": FormatPackageLock,
		"npm-shrinkwrap.json": FormatPackageLock, "App.fsproj": FormatCsproj, "buildscript-gradle.lockfile": FormatGradleLock,
		"gradle/libs.versions.toml": FormatVersionCatalog, "build.gradle.kts": FormatGradle,
	} {
		if got, ok := Detect(name); !ok || got != want {
			t.Errorf("Detect(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	if _, ok := Detect("README.md"); ok {
		t.Error("README.md detected")
	}
	if _, err := Parse("notes.txt", nil); err == nil {
		t.Error("Parse of an unknown format succeeded")
	}
	_ = fmt.Sprint()
}

// TestIndirections: Gradle catalog accessors and NuGet central package
// management are resolved to coordinates and versions by the scan.
func TestIndirections(t *testing.T) {
	deps := readCorpus(t, "jvm/moshi/gradle/libs.versions.toml", "jvm/moshi/moshi-adapters/build.gradle.kts",
		"dotnet/Polly/Directory.Packages.props", "dotnet/Polly/src/Polly.Core/Polly.Core.csproj")
	var got []string
	for _, d := range deps {
		if d.File == "jvm/moshi/moshi-adapters/build.gradle.kts" || d.File == "dotnet/Polly/src/Polly.Core/Polly.Core.csproj" {
			got = append(got, d.Name+" "+d.Declared)
		}
	}
	for _, want := range []string{"junit:junit 4.13.2", "Microsoft.Bcl.AsyncInterfaces 6.0.0"} {
		if !slices.Contains(got, want) {
			t.Errorf("missing %q in %v", want, got)
		}
	}
}

// TestGoSumIsNotTheBuildList: gopls's go.sum has 175 checksum lines for 43
// modules in the build list; reading it never yields a direct or resolved
// claim beyond "this checksum exists".
func TestGoSumIsNotTheBuildList(t *testing.T) {
	f := parseCorpus(t, "go/tools/gopls/go.sum", "")
	if len(f.Deps) != 175 {
		t.Errorf("%d go.sum entries, want 175", len(f.Deps))
	}
	for _, d := range f.Deps {
		if d.Relation != Unknown {
			t.Fatalf("%s: relation %s from go.sum", d.Name, d.Relation)
		}
	}
	if n := len(readTruth(t, "go__tools__gopls__go.mod.tsv")); n != 43 {
		t.Errorf("build list truth has %d modules", n)
	}
}

// TestReadFileLimits: files are read inside the root only, and capped.
func TestReadFileLimits(t *testing.T) {
	dir := writeProject(t, map[string]string{"package.json": `{"dependencies":{"a":"1.0.0"}}`})
	outside := writeProject(t, map[string]string{"package.json": `{}`})
	if err := os.Symlink(filepath.Join(outside, "package.json"), filepath.Join(dir, "linked-package.json")); err != nil {
		t.Skip("no symlinks:", err)
	}
	root := dir
	if _, err := ReadFile(root, "package.json", ReadOptions{MaxFileSize: 10}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the cap: %v", err)
	}
	if _, err := ReadFile(root, "../"+filepath.Base(outside)+"/package.json", ReadOptions{}); !errors.Is(err, contain.ErrEscape) {
		t.Errorf("climbing out: %v", err)
	}
	if _, err := ReadFile(root, "linked-package.json", ReadOptions{Format: FormatPackageJSON}); !errors.Is(err, contain.ErrEscape) {
		t.Errorf("symlink out: %v", err)
	}
	if f, err := ReadFile(root, "package.json", ReadOptions{}); err != nil || len(f.Deps) != 1 {
		t.Errorf("inside: %v %v", f, err)
	}
}

// TestPomParentManagement: a module's unversioned dependency takes the
// version of its parent's dependencyManagement.
func TestPomParentManagement(t *testing.T) {
	deps := readCorpus(t, "jvm/gson/pom.xml", "jvm/gson/gson/pom.xml")
	for _, d := range deps {
		if d.File == "jvm/gson/gson/pom.xml" && d.Name == "junit:junit" {
			if d.Declared == "" || d.Resolved != d.Declared || !strings.Contains(d.SourceDetail, "jvm/gson/pom.xml") {
				t.Errorf("junit: %+v", d)
			}
			return
		}
	}
	t.Fatal("junit not read")
}

// TestOlderLockfiles: package-lock v1 joined with package.json marks only
// top-level packages direct; poetry.lock 1.x's category gives the scope.
func TestOlderLockfiles(t *testing.T) {
	root := writeProject(t, map[string]string{
		"package.json":      `{"dependencies":{"a":"^1.0.0"}}`,
		"package-lock.json": `{"lockfileVersion":1,"dependencies":{"a":{"version":"1.2.0"},"b":{"version":"2.0.0","dependencies":{"a":{"version":"1.0.1"}}}}}`,
		"poetry.lock":       "[[package]]\nname = \"pytest\"\nversion = \"7.0.0\"\ncategory = \"dev\"\n\n[metadata]\ncontent-hash = \"x\"\n",
	})
	p, err := Scan(root, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range p.Deps {
		got = append(got, brief(d))
	}
	for _, want := range []string{"a|^1.0.0|1.2.0|direct||registry", "a||1.0.1|transitive||registry", "pytest||7.0.0|transitive|dev|registry"} {
		if !slices.Contains(got, want) {
			t.Errorf("missing %s in %v", want, got)
		}
	}
}

// TestJoinKeepsLockImporters: a lockfile that names the importer of a
// direct dependency keeps it, even when another member's manifest declares
// the same constraint (context7: zod ^4.4.3 in packages/mcp and, as a dev
// dependency, in packages/tools-ai-sdk).
func TestJoinKeepsLockImporters(t *testing.T) {
	deps := readCorpus(t, "node/context7/pnpm-lock.yaml", "node/context7/package.json", "node/context7/packages/mcp/package.json",
		"node/context7/packages/sdk/package.json", "node/context7/packages/cli/package.json")
	var got []string
	for _, d := range deps {
		if d.Name == "zod" && d.Relation == Direct {
			got = append(got, d.Importer+" "+d.Declared+" "+d.Resolved+" "+string(d.Scope))
		}
	}
	want := []string{"packages/mcp ^4.4.3 4.4.3 ", "packages/tools-ai-sdk ^4.4.3 4.4.3 dev"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestGradleComputedNoted: a declaration the reader cannot read literally
// is reported, not guessed.
func TestGradleComputedNoted(t *testing.T) {
	f, err := Parse("build.gradle", []byte("dependencies {\n  implementation deps.guava\n  implementation 'a:b:1'\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Deps) != 1 || len(f.Notes) != 1 || !strings.Contains(f.Notes[0], "deps.guava") {
		t.Errorf("deps %v notes %v", f.Deps, f.Notes)
	}
}

// A go.sum beside its go.mod adds no dependencies to the project: its lines
// are checksums of every version the go command looked at. Alone, without a
// go.mod, its entries are still reported, with relation unknown.
func TestScanFoldsGoSumIntoGoMod(t *testing.T) {
	sum := "example.com/a v1.0.0 h1:AAAA=\nexample.com/a v1.0.0/go.mod h1:BBBB=\nexample.com/old v0.1.0/go.mod h1:CCCC=\n"
	dir := writeProject(t, map[string]string{
		"go.mod":       "module example.com/m\n\ngo 1.22\n\nrequire example.com/a v1.0.0\n",
		"go.sum":       sum,
		"alone/go.sum": sum,
	})
	pr, err := Scan(dir, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var fromRoot, fromAlone int
	for _, d := range pr.Deps {
		switch d.File {
		case "go.sum":
			fromRoot++
		case "alone/go.sum":
			fromAlone++
		}
	}
	if fromRoot != 0 || fromAlone != 3 {
		t.Errorf("go.sum rows: %d beside go.mod (want 0), %d alone (want 3)", fromRoot, fromAlone)
	}
}

// A Maven module inherits ${…} properties and dependencyManagement versions
// from every parent pom above it, the nearest definition winning.
func TestPomInheritsPropertiesFromParents(t *testing.T) {
	pom := func(parent, body string) string {
		return `<project><modelVersion>4.0.0</modelVersion>` + parent + body + `</project>`
	}
	parentRef := `<parent><groupId>org.example</groupId><artifactId>root</artifactId><version>1.0</version></parent>`
	dir := writeProject(t, map[string]string{
		"pom.xml": pom("", `<groupId>org.example</groupId><artifactId>root</artifactId><version>1.0</version>
			<properties><guava.version>32.0.0-jre</guava.version><junit.version>5.10.0</junit.version><slf4j.version>2.0.9</slf4j.version></properties>
			<dependencyManagement><dependencies>
				<dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>${junit.version}</version></dependency>
			</dependencies></dependencyManagement>
			<modules><module>lib</module></modules>`),
		"lib/pom.xml": pom(parentRef, `<artifactId>lib</artifactId>
			<properties><guava.version>33.2.1-jre</guava.version></properties>
			<modules><module>core</module></modules>`),
		"lib/core/pom.xml": pom(parentRef, `<artifactId>core</artifactId>
			<dependencies>
				<dependency><groupId>com.google.guava</groupId><artifactId>guava</artifactId><version>${guava.version}</version></dependency>
				<dependency><groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId><version>${slf4j.version}</version></dependency>
				<dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><scope>test</scope></dependency>
				<dependency><groupId>x</groupId><artifactId>unknown</artifactId><version>${nowhere.version}</version></dependency>
			</dependencies>`),
	})
	pr, err := Scan(dir, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, d := range pr.Deps {
		if d.File == "lib/core/pom.xml" && d.Relation == Direct {
			got[d.Name] = d.Declared + " → " + d.Resolved
		}
	}
	want := map[string]string{
		"com.google.guava:guava":          "33.2.1-jre → 33.2.1-jre", // lib overrides root
		"org.slf4j:slf4j-api":             "2.0.9 → 2.0.9",           // from root, two levels up
		"org.junit.jupiter:junit-jupiter": "5.10.0 → 5.10.0",         // root's managed ${junit.version}
		"x:unknown":                       "${nowhere.version} → ",   // defined nowhere: kept as written
		"org.example:root":                "1.0 → ",                  // the parent itself
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("core's dependencies (-want +got):\n%s", diff)
	}
}

// Scan does not enter directories .gitignore ignores, but reads a
// lockfile that is ignored by its own name.
func TestScanHonoursGitignore(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		".gitignore":        "dist/\nCargo.lock\n",
		"Cargo.toml":        "[package]\nname = \"app\"\nversion = \"0.1.0\"\n\n[dependencies]\nserde = \"1\"\n",
		"Cargo.lock":        "version = 3\n\n[[package]]\nname = \"serde\"\nversion = \"1.0.200\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n",
		"dist/package.json": `{"dependencies": {"left-pad": "^1.0.0"}}`,
		"web/package.json":  `{"dependencies": {"react": "^18.0.0"}}`,
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pr, err := Scan(dir, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range pr.Files {
		got = append(got, f.Path)
	}
	want := []string{"Cargo.lock", "Cargo.toml", "web/package.json"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files read (-want +got):\n%s", diff)
	}

	// A .gitignore past its limits leaves the directories below it out (the
	// files beside it are read, as an ignored lockfile is), and the
	// project's notes say so.
	big := "*.bak\n" + strings.Repeat("padding-that-matches-nothing\n", 40_000)
	for name, content := range map[string]string{"web/.gitignore": big, "web/app/package.json": `{"dependencies": {"vue": "^3.0.0"}}`} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if pr, err = Scan(dir, ScanOptions{}); err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, f := range pr.Files {
		got = append(got, f.Path)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files read past an over-limit web/.gitignore (-want +got):\n%s", diff)
	}
	if len(pr.Notes) != 1 || !strings.Contains(pr.Notes[0], "web/.gitignore") {
		t.Errorf("notes %q, want one about web/.gitignore", pr.Notes)
	}
}

package depdocs

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// corpusFiles lists every file of testdata/corpus and testdata/etcd that a
// reader handles, with the name to parse it as (scalibr's fixtures are
// named by case, not by format).
func corpusFiles(t testing.TB) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, top := range []string{"corpus", "etcd"} {
		err := filepath.WalkDir(filepath.Join("testdata", top), func(p string, de fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if de.IsDir() {
				if de.Name() == "truth" {
					return filepath.SkipDir
				}
				return nil
			}
			rel := filepath.ToSlash(p)
			name := rel
			if path.Base(rel) == "valid" {
				switch {
				case strings.Contains(rel, "packagesconfig"):
					name = path.Dir(rel) + "/packages.config"
				case strings.Contains(rel, "nugetcpm"):
					name = path.Dir(rel) + "/Directory.Packages.props"
				case strings.Contains(rel, "csproj"):
					name = path.Dir(rel) + "/x.csproj"
				}
			}
			if strings.HasSuffix(rel, ".v1.json") {
				name = path.Dir(rel) + "/package-lock.json"
			}
			if _, ok := Detect(name); ok {
				out[rel] = name
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// lockfileFormats are the formats whose rows are a lockfile's own entries.
var lockfileFormats = map[Format]bool{
	FormatPackageLock: true, FormatYarnLock: true, FormatPNPMLock: true, FormatBunLock: true,
	FormatCargoLock: true, FormatPoetryLock: true, FormatUVLock: true, FormatPDMLock: true,
	FormatPipfileLock: true, FormatGoSum: true, FormatGradleLock: true, FormatNuGetLock: true, FormatPaketLock: true,
}

// needles are the strings a dependency's line must name: its name, its
// alias, and for a Maven coordinate the artifact (a pom spells group and
// artifact on separate lines).
func needles(d Dependency) []string {
	out := []string{d.Name}
	if d.Alias != "" {
		out = append(out, d.Alias)
	}
	if i := strings.LastIndexByte(d.Name, ':'); d.Ecosystem == Maven && i >= 0 {
		out = append(out, d.Name[i+1:])
	}
	return out
}

// norm folds a line and a name alike: PEP 503 for Python (Flask_SQLAlchemy
// is flask-sqlalchemy), exact otherwise.
func norm(eco Ecosystem, s string) string {
	if eco == PyPI {
		return pep503(s)
	}
	return s
}

func namesOn(d Dependency, text string) bool {
	for _, n := range needles(d) {
		if strings.Contains(norm(d.Ecosystem, text), norm(d.Ecosystem, n)) {
			return true
		}
	}
	return false
}

// startsEntry reports whether a lockfile line begins the entry of d: a
// yarn header naming every key of the row, or a line whose first token (after indentation, a TOML `name = `, a
// quote and pnpm 6's leading "/") is the name or alias, followed by a
// character that cannot continue a name ("@", a quote, ":", a space, …), or
// is an install path ending in it (package-lock's "node_modules/…/name",
// bun's "parent/name").
func startsEntry(d Dependency, text string) bool {
	if len(d.Specs) > 0 {
		// A yarn entry's header: unindented, listing every key of the row.
		for _, s := range d.Specs {
			if !strings.Contains(text, s) {
				return false
			}
		}
		return !strings.HasPrefix(text, " ") && strings.HasSuffix(strings.TrimSpace(text), ":")
	}
	t := strings.TrimSpace(text)
	t = strings.TrimPrefix(t, "name = ")
	t = strings.TrimLeft(t, `"'/`)
	key, _, _ := strings.Cut(t, `"`)
	key, _, _ = strings.Cut(key, `'`)
	for _, n := range needles(d)[:min(2, len(needles(d)))] {
		n = norm(d.Ecosystem, n)
		lt := norm(d.Ecosystem, t)
		if strings.HasPrefix(lt, n) && (len(lt) == len(n) || strings.ContainsRune("@\"': (=", rune(lt[len(n)]))) {
			return true
		}
		if strings.HasSuffix(key, "/"+n) {
			return true
		}
	}
	return false
}

// TestLinesCorpus: every dependency every reader takes from a real
// manifest or lockfile of the corpus has a Line, and the line at Line
// names it (its name, alias, or Maven artifact). For lockfiles the line is
// the entry's own: it begins with the entry's key, and two different
// resolutions never share a line.
func TestLinesCorpus(t *testing.T) {
	files := corpusFiles(t)
	if len(files) < 100 {
		t.Fatalf("only %d corpus files", len(files))
	}
	formats := map[Format]int{}
	for rel, name := range files {
		t.Run(rel, func(t *testing.T) {
			data, err := os.ReadFile(filepath.FromSlash(rel))
			if err != nil {
				t.Fatal(err)
			}
			f, err := Parse(name, data)
			if err != nil {
				t.Fatal(err)
			}
			formats[f.Format] += len(f.Deps)
			lines := strings.Split(string(data), "\n")
			owner := map[int]string{}
			for _, d := range f.Deps {
				if d.Line < 1 || d.Line > len(lines) {
					t.Errorf("%s %s: line %d of %d", d.Name, d.Resolved, d.Line, len(lines))
					continue
				}
				text := lines[d.Line-1]
				if !namesOn(d, text) {
					t.Errorf("%s (alias %q) at line %d: %q", d.Name, d.Alias, d.Line, text)
				}
				if !lockfileFormats[f.Format] || d.Resolved == "" {
					continue
				}
				if !startsEntry(d, text) {
					t.Errorf("%s %s at line %d: not the start of its entry: %q", d.Name, d.Resolved, d.Line, text)
				}
				id := d.Name + "@" + d.Resolved
				if o, ok := owner[d.Line]; ok && o != id {
					t.Errorf("line %d holds both %s and %s", d.Line, o, id)
				}
				owner[d.Line] = id
			}
		})
	}
	// Every format with a reader is covered by some corpus file (the
	// corpus's go.work has no replace directive, its only rows; see
	// TestLinesInline).
	for _, r := range readers() {
		if formats[r.format] == 0 && r.format != FormatGoWork {
			t.Errorf("no corpus dependency of format %s", r.format)
		}
	}
}

// decoderKeyLines is an oracle for jsonKeyLines built on encoding/json's
// own tokenizer: the line of each object key, from the offset the decoder
// reports after reading it.
func decoderKeyLines(data []byte) (map[string]int, error) {
	li := newLineIndex(data)
	dec := json.NewDecoder(bytes.NewReader(data))
	out := map[string]int{}
	type frame struct {
		object bool
		n      int
	}
	var stack []frame
	var path []string
	expectKey := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			if len(path) > 0 {
				path = path[:len(path)-1]
			}
			expectKey = len(stack) > 0 && stack[len(stack)-1].object
			continue
		}
		if expectKey {
			key := tok.(string)
			// The key ends just before the offset; its line is the line of
			// its last byte (keys hold no raw line breaks).
			path = append(path, key)
			out[pathKey(path...)] = li.line(int(dec.InputOffset()) - 1)
			expectKey = false
			continue
		}
		// A value: in an array it gets the next index.
		if len(stack) > 0 && !stack[len(stack)-1].object {
			path = append(path, index(stack[len(stack)-1].n))
			stack[len(stack)-1].n++
		}
		if d, ok := tok.(json.Delim); ok {
			stack = append(stack, frame{object: d == '{'})
			expectKey = d == '{'
			continue
		}
		if len(path) > 0 {
			path = path[:len(path)-1]
		}
		expectKey = len(stack) > 0 && stack[len(stack)-1].object
	}
}

// TestJSONKeyLinesOracle: the JSON locator places every key of every JSON
// file of the corpus where encoding/json's tokenizer does.
func TestJSONKeyLinesOracle(t *testing.T) {
	n := 0
	for rel, name := range corpusFiles(t) {
		if f, _ := Detect(name); f != FormatPackageJSON && f != FormatPackageLock && f != FormatPipfileLock && f != FormatNuGetLock {
			continue
		}
		data, err := os.ReadFile(filepath.FromSlash(rel))
		if err != nil {
			t.Fatal(err)
		}
		want, err := decoderKeyLines(data)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if diff := cmp.Diff(want, jsonKeyLines(data, nil)); diff != "" {
			t.Errorf("%s (-want +got)\n%s", rel, diff)
		}
		n++
	}
	if n < 10 {
		t.Errorf("only %d JSON files", n)
	}
}

// TestTOMLPackageLinesOracle: in every TOML lockfile of the corpus the
// locator puts the i-th [[package]] where a plain reading of the text
// does: the first `name = ` line after the i-th `[[package]]` header.
func TestTOMLPackageLinesOracle(t *testing.T) {
	header := regexp.MustCompile(`^\[\[package\]\]\s*$`)
	n := 0
	for rel, name := range corpusFiles(t) {
		if f, _ := Detect(name); f != FormatCargoLock && f != FormatPoetryLock && f != FormatUVLock && f != FormatPDMLock {
			continue
		}
		data, err := os.ReadFile(filepath.FromSlash(rel))
		if err != nil {
			t.Fatal(err)
		}
		var want, got []int
		inPackage := false
		for i, l := range strings.Split(string(data), "\n") {
			switch {
			case header.MatchString(l):
				inPackage = true
			case inPackage && strings.HasPrefix(l, "name = "):
				want = append(want, i+1)
				inPackage = false
			}
		}
		lines := tomlKeyLines(data)
		for i := range want {
			got = append(got, packageLine(lines, i))
		}
		if diff := cmp.Diff(want, got); diff != "" || len(want) == 0 {
			t.Errorf("%s (-want +got)\n%s", rel, diff)
		}
		n++
	}
	if n < 6 {
		t.Errorf("only %d TOML lockfiles", n)
	}
}

// TestLocators covers the syntax corners of the locators on small inputs.
func TestLocators(t *testing.T) {
	toml := "# c\n[dependencies]\na = \"1\"\n\"b.c\" = { version = \"2\", package = 'x' }\nd.workspace = true\n" +
		"[dependencies.e]\nversion = \"3\"\n[target.'cfg(unix)'.dependencies]\nf = \"\"\"\nmulti\nline\"\"\"\ng = [\n  \"one\",\n  # skip\n  'two', \"three\"\n]\n" +
		"[[package]]\nname = \"p0\"\n[package.metadata]\nz = 1\n[[package]]\n\nname = \"p1\"\n"
	got := tomlKeyLines([]byte(toml))
	for path, want := range map[string]int{
		pathKey("dependencies"):                                       2,
		pathKey("dependencies", "a"):                                  3,
		pathKey("dependencies", "b.c"):                                4,
		pathKey("dependencies", "b.c", "package"):                     4,
		pathKey("dependencies", "d"):                                  5,
		pathKey("dependencies", "e"):                                  6,
		pathKey("dependencies", "e", "version"):                       7,
		pathKey("target", "cfg(unix)", "dependencies", "f"):           9,
		pathKey("target", "cfg(unix)", "dependencies", "g"):           12,
		pathKey("target", "cfg(unix)", "dependencies", "g", index(1)): 15,
		pathKey("target", "cfg(unix)", "dependencies", "g", index(2)): 15,
		pathKey("package", index(0), "name"):                          18,
		pathKey("package", index(0), "metadata", "z"):                 20,
		pathKey("package", index(1), "name"):                          23,
	} {
		if got[path] != want {
			t.Errorf("TOML %q: line %d, want %d", strings.ReplaceAll(path, "\x00", "."), got[path], want)
		}
	}
	xml := "<Project>\n  <ItemGroup>\n    <PackageReference\n      Include=\"A\" Version=\"1\" />\n    <PackageReference Include=\"B\">\n" +
		"      <Version>2</Version>\n    </PackageReference>\n  </ItemGroup>\n</Project>\n"
	loc := newItemLocator([]byte(xml), "Project", "PackageReference")
	if a, b, c := loc.next("PackageReference", "A"), loc.next("PackageReference", "B"), loc.next("PackageReference", "C"); a != 4 || b != 5 || c != 0 {
		t.Errorf("XML items at %d, %d, %d; want 4, 5, 0", a, b, c)
	}
	jsonc := []byte("{\n // one\n \"a\": 1, /* two\n three */ \"b\": [\n 1,],\n}\n")
	clean, err := stripJSONC(jsonc)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := jsonKeyLines(clean, nil), map[string]int{"a": 3, "b": 4}; !cmp.Equal(want, got) {
		t.Errorf("JSONC keys %v, want %v (a comment must keep its line breaks)", got, want)
	}
}

// FuzzLocators: the locators never panic or loop on any input, and on
// valid JSON the JSON locator agrees with encoding/json's tokenizer.
func FuzzLocators(f *testing.F) {
	for _, s := range []string{`{"a":{"b":[1,{"c":2}]}}`, "{\n\"a\\\"\": 1}", "a = 1\n[b]\nc = [1, {d = 2}]\n", "[[x]]\n[x.y]\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tomlKeyLines(data)
		xmlElements(data, "a/b")
		got := jsonKeyLines(data, nil)
		if !json.Valid(data) {
			return
		}
		want, err := decoderKeyLines(data)
		if err != nil {
			return
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%q (-want +got)\n%s", data, diff)
		}
	})
}

// TestLinesInline covers the forms the corpus has few of: each case's
// dependency must be at the line whose text is given.
func TestLinesInline(t *testing.T) {
	for _, c := range []struct {
		file, src, name, line string
	}{
		{"go.work", "go 1.22\n\nuse ./a\n\nreplace (\n\tx.org/y v1.0.0 => ./y\n)\n", "x.org/y", "\tx.org/y v1.0.0 => ./y"},
		{"go.mod", "module m\n\nrequire (\n\tx.org/a v1.0.0\n\tx.org/b v1.0.0 // indirect\n)\n", "x.org/b", "\tx.org/b v1.0.0 // indirect"},
		{"requirements.txt", "# top\nflask==3.0.0 \\\n    --hash=sha256:abc\n-e git+https://h/o/r.git#egg=mylib\n", "mylib", "-e git+https://h/o/r.git#egg=mylib"},
		{"requirements.txt", "# top\nFlask_Login==3.0.0 \\\n    --hash=sha256:abc\n", "flask-login", "Flask_Login==3.0.0 \\"},
		{"Cargo.toml", "[package]\nname = \"x\"\n\n[dependencies.serde]\nversion = \"1\"\n", "serde", "[dependencies.serde]"},
		{"Cargo.toml", "[target.'cfg(windows)'.dependencies]\nwinapi = \"0.3\"\n", "winapi", "winapi = \"0.3\""},
		{"pyproject.toml", "[tool.poetry.group.dev.dependencies.pytest]\nversion = \"^8\"\n", "pytest", "[tool.poetry.group.dev.dependencies.pytest]"},
		{"pyproject.toml", "[project]\ndependencies = [\"a\", \"b>=1\",\n  \"c\"]\n", "c", "  \"c\"]"},
		{"Pipfile", "[packages]\nrequests = \"*\"\n[dev-packages]\npytest = {version = \"*\"}\n", "pytest", "pytest = {version = \"*\"}"},
		{"libs.versions.toml", "[libraries.okio]\nmodule = \"com.squareup.okio:okio\"\nversion = \"3\"\n", "com.squareup.okio:okio", "module = \"com.squareup.okio:okio\""},
		{"build.gradle", "dependencies {\n  api group: 'e',\n      name: 'f', version: '3'\n}\n", "e:f", "      name: 'f', version: '3'"},
		{"pom.xml", "<project>\n<dependencies>\n<dependency>\n<groupId>g</groupId>\n<artifactId>a</artifactId>\n</dependency>\n</dependencies>\n</project>\n", "g:a", "<artifactId>a</artifactId>"},
		{"packages.config", "<packages>\n  <package\n     id=\"A\" version=\"1.0\" />\n</packages>\n", "A", "     id=\"A\" version=\"1.0\" />"},
		{"package-lock.json", "{\"lockfileVersion\": 3, \"packages\": {\n\"node_modules/a\": {\"version\": \"1.0.0\",\n \"peerDependencies\": {\n  \"p\": \"^2\"}}}}\n", "p", "  \"p\": \"^2\"}}}}"},
		{"pnpm-lock.yaml", "lockfileVersion: 5.4\nspecifiers:\n  a: ^1.0.0\ndependencies:\n  a: 1.0.1\npackages:\n  /a/1.0.1:\n    dev: false\n", "a", "  a: 1.0.1"},
		{"bun.lock", "{\n // comment\n \"lockfileVersion\": 1,\n \"workspaces\": {\"\": {\"dependencies\": {\n \"a\": \"^1\",},},},\n \"packages\": {\"a\": [\"a@1.2.0\", \"\", {}, \"sha\"],},\n}", "a", " \"a\": \"^1\",},},},"},
	} {
		t.Run(c.file+" "+c.name, func(t *testing.T) {
			f, err := Parse(c.file, []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(c.src, "\n")
			for _, d := range f.Deps {
				if d.Name != c.name {
					continue
				}
				if d.Line < 1 || d.Line > len(lines) || lines[d.Line-1] != c.line {
					got := ""
					if d.Line >= 1 && d.Line <= len(lines) {
						got = lines[d.Line-1]
					}
					t.Errorf("line %d %q, want %q", d.Line, got, c.line)
				}
				return
			}
			t.Errorf("%s not read from %q", c.name, c.src)
		})
	}
}

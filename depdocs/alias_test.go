package depdocs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// aliasRow renders what a test of aliases compares.
type aliasRow struct {
	Alias, Name, Declared, Resolved string
	Relation                        Relation
	SourceDetail                    string
}

func aliasRows(deps []Dependency, keep func(Dependency) bool) []aliasRow {
	var out []aliasRow
	for _, d := range deps {
		if keep(d) {
			out = append(out, aliasRow{d.Alias, d.Name, d.Declared, d.Resolved, d.Relation, d.SourceDetail})
		}
	}
	return out
}

func isLodash(d Dependency) bool { return d.Name == "lodash" }

// TestAliases: an npm alias ("lodash3": "npm:lodash@^3.10.1") is reported
// under the package it installs, with the name the code imports in Alias
// and the constraint on the package in Declared, by every reader that sees
// it, and a lockfile's aliased row joins only the aliased declaration. A
// Cargo rename uses the same field.
func TestAliases(t *testing.T) {
	pkg := `{"dependencies":{"lodash":"^4.17.21","lodash3":"npm:lodash@^3.10.1"}}`
	both := []aliasRow{ // sorted by resolved version
		{"lodash3", "lodash", "^3.10.1", "3.10.1", Direct, ""},
		{"", "lodash", "^4.17.21", "4.17.21", Direct, ""},
	}
	for _, c := range []struct {
		name  string
		files map[string]string
		want  []aliasRow
	}{
		{"package.json", map[string]string{"package.json": pkg}, []aliasRow{
			{"", "lodash", "^4.17.21", "", Direct, ""},
			{"lodash3", "lodash", "^3.10.1", "", Direct, ""},
		}},
		{"package-lock v3", map[string]string{"package.json": pkg, "package-lock.json": `{"lockfileVersion":3,"packages":{
			"":{"dependencies":{"lodash":"^4.17.21","lodash3":"npm:lodash@^3.10.1"}},
			"node_modules/lodash":{"version":"4.17.21"},
			"node_modules/lodash3":{"name":"lodash","version":"3.10.1"}}}`}, both},
		{"package-lock v1", map[string]string{"package.json": pkg, "package-lock.json": `{"lockfileVersion":1,"dependencies":{
			"lodash":{"version":"4.17.21"},
			"lodash3":{"version":"npm:lodash@3.10.1"}}}`}, both},
		{"yarn v1", map[string]string{"package.json": pkg, "yarn.lock": "# yarn lockfile v1\n\n" +
			"lodash@^4.17.21:\n  version \"4.17.21\"\n\n" +
			"\"lodash3@npm:lodash@^3.10.1\":\n  version \"3.10.1\"\n"}, both},
		{"yarn berry", map[string]string{"package.json": pkg, "yarn.lock": "__metadata:\n  version: 8\n\n" +
			"\"lodash@npm:^4.17.21\":\n  version: 4.17.21\n  resolution: \"lodash@npm:4.17.21\"\n\n" +
			"\"lodash3@npm:lodash@^3.10.1\":\n  version: 3.10.1\n  resolution: \"lodash@npm:3.10.1\"\n"}, both},
		{"pnpm v9", map[string]string{"package.json": pkg, "pnpm-lock.yaml": "lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n" +
			"      lodash:\n        specifier: ^4.17.21\n        version: 4.17.21\n" +
			"      lodash3:\n        specifier: npm:lodash@^3.10.1\n        version: lodash@3.10.1\n" +
			"packages:\n  lodash@4.17.21:\n    resolution: {integrity: x}\n  lodash@3.10.1:\n    resolution: {integrity: y}\n"}, both},
		{"bun", map[string]string{"package.json": pkg, "bun.lock": `{"lockfileVersion":1,"workspaces":{"":{"dependencies":{"lodash":"^4.17.21","lodash3":"npm:lodash@^3.10.1"}}},
			"packages":{"lodash":["lodash@4.17.21","",{},"x"],"lodash3":["lodash@3.10.1","",{},"y"]}}`}, both},
	} {
		t.Run(c.name, func(t *testing.T) {
			pr, err := Scan(writeProject(t, c.files), ScanOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, aliasRows(pr.Deps, isLodash)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	t.Run("cargo rename", func(t *testing.T) {
		const crates = "registry+https://github.com/rust-lang/crates.io-index"
		pr, err := Scan(writeProject(t, map[string]string{
			"Cargo.toml": "[package]\nname = \"root\"\n[workspace]\nmembers = [\"a\"]\n" +
				"[workspace.dependencies]\ntui = { package = \"helix-tui\", version = \"1.0\" }\n" +
				"[dependencies]\nfoo = { package = \"real-foo\", version = \"1.2\" }\n",
			"a/Cargo.toml": "[package]\nname = \"a\"\n[dependencies]\ntui = { workspace = true }\n",
			"Cargo.lock": "version = 4\n\n[[package]]\nname = \"a\"\nversion = \"0.1.0\"\ndependencies = [\"helix-tui\"]\n\n" +
				"[[package]]\nname = \"helix-tui\"\nversion = \"1.0.0\"\nsource = \"" + crates + "\"\n\n" +
				"[[package]]\nname = \"real-foo\"\nversion = \"1.2.0\"\nsource = \"" + crates + "\"\n\n" +
				"[[package]]\nname = \"root\"\nversion = \"0.1.0\"\ndependencies = [\"real-foo\"]\n",
		}), ScanOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got := aliasRows(pr.Deps, func(d Dependency) bool { return d.Relation == Direct })
		want := []aliasRow{
			{"tui", "helix-tui", "1.0", "1.0.0", Direct, crates},
			{"foo", "real-foo", "1.2", "1.2.0", Direct, crates},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got)\n%s", diff)
		}
	})
}

// TestYarnAliasSharedEntry: one yarn entry resolving both a name and an
// alias of it is reported once under each (prettier's string-width and
// string-width-cjs).
func TestYarnAliasSharedEntry(t *testing.T) {
	f := parseCorpus(t, "node/prettier/yarn.lock", "")
	got := aliasRows(f.Deps, func(d Dependency) bool { return d.Name == "string-width" && d.Resolved == "4.2.3" })
	want := []aliasRow{
		{"string-width-cjs", "string-width", "", "4.2.3", Transitive, ""},
		{"", "string-width", "", "4.2.3", Transitive, ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

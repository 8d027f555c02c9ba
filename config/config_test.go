package config

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func specExample(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/spec-example.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSpecExample checks that the specification's example file (copied
// verbatim into testdata) is read without a remark, and that the defaults
// are exactly its values — but for path, which defaults to empty, meaning
// "discover", and discovery tries the example's path first.
func TestSpecExample(t *testing.T) {
	cfg, diags := Parse(specExample(t))
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	want := Default()
	want.PrecisionIndex.Path = ".codecortex/precision/index.cortexidx"
	if diff := cmp.Diff(want, cfg); diff != "" {
		t.Errorf("spec example (-want +got):\n%s", diff)
	}

	var spec, def map[string]map[string]any
	if err := json.Unmarshal(specExample(t), &spec); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(Default())
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &def); err != nil {
		t.Fatal(err)
	}
	// Keys later layers added (such as base_url) are not in the spec.
	spec["precision_index"]["path"] = ""
	for section, keys := range spec {
		for k, v := range keys {
			if diff := cmp.Diff(v, def[section][k]); diff != "" {
				t.Errorf("default %s.%s differs from the spec example (-spec +default):\n%s", section, k, diff)
			}
		}
	}
	if err := Default().Validate(); err != nil {
		t.Errorf("Default().Validate() = %v", err)
	}
}

// diag is a diagnostic with the message reduced to a fragment it must hold.
type diag struct {
	Severity Severity
	Section  string
	Contains string
}

func check(t *testing.T, wantCfg Config, wantDiags []diag, cfg Config, diags []Diagnostic) {
	t.Helper()
	if diff := cmp.Diff(wantCfg, cfg); diff != "" {
		t.Errorf("config (-want +got):\n%s", diff)
	}
	var got []diag
	for i, d := range diags {
		g := diag{d.Severity, d.Section, ""}
		if i < len(wantDiags) && strings.Contains(d.Message, wantDiags[i].Contains) {
			g.Contains = wantDiags[i].Contains
		} else {
			g.Contains = d.Message
		}
		got = append(got, g)
	}
	if diff := cmp.Diff(wantDiags, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	if err := cfg.Validate(); err != nil {
		t.Errorf("result does not validate: %v", err)
	}
}

func TestParse(t *testing.T) {
	str := func(s string) *string { return &s }
	with := func(f func(*Config)) Config {
		c := Default()
		f(&c)
		return c
	}
	def := Default()
	// Each malformed section below is paired with a valid change to another
	// section, which must still apply.
	otherApplied := func(c *Config) { c.DependencyDocs.Enabled = true }
	const other = `, "dependency_docs": {"enabled": true}`
	tests := []struct {
		name  string
		in    string
		want  Config
		diags []diag
	}{
		{"empty object", `{}`, def, nil},
		{"only one section", `{"structural": {"max_rewrite_files": 7}}`,
			with(func(c *Config) { c.Structural.MaxRewriteFiles = 7 }), nil},
		{"partial sections keep other defaults", `{"precision_index": {"enabled": false}, "dependency_docs": {"cache_ttl_seconds": 0}}`,
			with(func(c *Config) { c.PrecisionIndex.Enabled = false; c.DependencyDocs.CacheTTLSeconds = 0 }), nil},
		{"every key set", `{
			"precision_index": {"enabled": false, "path": "build/x.scip", "auto_generate": true, "generator_command": ["scip-go", "--output", "build/x.scip"]},
			"dependency_docs": {"enabled": true, "api_key_env": "MY_KEY", "cache_ttl_seconds": 60, "serve_stale_when_offline": false},
			"structural": {"enabled": false, "command": "/usr/local/bin/ast-grep", "max_rewrite_files": 1, "max_rewrite_matches": 2, "max_rewrite_bytes": 3, "preview_ttl_seconds": 4, "allow_apply": false}}`,
			Config{
				PrecisionIndex: Precision{Path: "build/x.scip", AutoGenerate: true, GeneratorCommand: []string{"scip-go", "--output", "build/x.scip"}, LanguageServer: []string{}, LanguageServers: map[string][]string{}},
				DependencyDocs: DependencyDocs{Enabled: true, APIKeyEnv: "MY_KEY", CacheTTLSeconds: 60},
				Structural:     Structural{Command: str("/usr/local/bin/ast-grep"), MaxRewriteFiles: 1, MaxRewriteMatches: 2, MaxRewriteBytes: 3, PreviewTTLSeconds: 4},
				Validation:     Validation{Commands: []ValidationCommand{}},
			}, nil},
		{"validation commands", `{"validation": {"commands": [{"name": "unit", "argv": ["go", "test", "-json", "./..."], "timeout_seconds": 300, "format": "go-test-json"}]}}`,
			with(func(c *Config) {
				c.Validation.Commands = []ValidationCommand{{Name: "unit", Argv: []string{"go", "test", "-json", "./..."}, TimeoutSeconds: 300, Format: "go-test-json"}}
			}), nil},
		{"validation command with an unknown key", `{"validation": {"commands": [{"name": "unit", "argv": ["go"], "timeout": 3}]}` + other + `}`, with(otherApplied),
			[]diag{{SeverityError, "validation", "unknown field"}}},
		{"validation command without argv", `{"validation": {"commands": [{"name": "unit"}]}` + other + `}`, with(otherApplied),
			[]diag{{SeverityError, "validation", "argv is empty"}}},
		{"validation command with a bad format", `{"validation": {"commands": [{"name": "u", "argv": ["x"], "format": "junit"}]}` + other + `}`, with(otherApplied),
			[]diag{{SeverityError, "validation", "format"}}},
		{"null fields mean defaults", `{"precision_index": {"generator_command": null, "enabled": null}, "structural": {"command": null}}`, def, nil},

		// Malformed sections fall back, others apply.
		{"section is an array", `{"structural": [1, 2]` + other + `}`, with(otherApplied),
			[]diag{{SeverityError, "structural", "must be a JSON object, got an array"}}},
		{"section is a string", `{"precision_index": "yes"` + other + `}`, with(otherApplied),
			[]diag{{SeverityError, "precision_index", "got a string"}}},
		{"section is a number", `{"structural": 5` + other + `}`, with(otherApplied),
			[]diag{{SeverityError, "structural", "got a number"}}},
		{"section is null", `{"structural": null` + other + `}`, with(otherApplied),
			[]diag{{SeverityError, "structural", "got null"}}},
		{"bool as string", `{"structural": {"enabled": "false", "max_rewrite_files": 9}` + other + `}`, with(otherApplied),
			[]diag{{SeverityError, "structural", "enabled: expected a boolean, got JSON string"}}},
		{"number as string", `{"structural": {"max_rewrite_files": "50"}` + other + `}`, with(otherApplied),
			[]diag{{SeverityError, "structural", "max_rewrite_files: expected an integer in range"}}},
		{"fraction", `{"structural": {"preview_ttl_seconds": 1.5}` + other + `}`, with(otherApplied),
			[]diag{{SeverityError, "structural", "preview_ttl_seconds"}}},
		{"integer overflow", `{"structural": {"max_rewrite_bytes": 1e30}` + other + `}`, with(otherApplied),
			[]diag{{SeverityError, "structural", "max_rewrite_bytes"}}},
		{"zero limit", `{"structural": {"max_rewrite_files": 0}` + other + `}`, with(otherApplied),
			[]diag{{SeverityError, "structural", "max_rewrite_files: 0 is below 1"}}},
		{"negative limit", `{"structural": {"max_rewrite_matches": -5}` + other + `}`, with(otherApplied),
			[]diag{{SeverityError, "structural", "max_rewrite_matches: -5 is below 1"}}},
		{"huge preview ttl", `{"structural": {"preview_ttl_seconds": 999999999999}` + other + `}`, with(otherApplied),
			[]diag{{SeverityError, "structural", "preview_ttl_seconds: 999999999999 is above"}}},
		{"empty command", `{"structural": {"command": ""}` + other + `}`, with(otherApplied),
			[]diag{{SeverityError, "structural", "command: empty"}}},
		{"command as argv", `{"structural": {"command": ["sg"]}` + other + `}`, with(otherApplied),
			[]diag{{SeverityError, "structural", "command: expected a string"}}},
		{"negative cache ttl", `{"dependency_docs": {"cache_ttl_seconds": -1}, "structural": {"allow_apply": false}}`,
			with(func(c *Config) { c.Structural.AllowApply = false }),
			[]diag{{SeverityError, "dependency_docs", "cache_ttl_seconds: -1 is outside"}}},
		{"bad env var name", `{"dependency_docs": {"enabled": true, "api_key_env": "MY-KEY"}, "structural": {"allow_apply": false}}`,
			with(func(c *Config) { c.Structural.AllowApply = false }),
			[]diag{{SeverityError, "dependency_docs", "api_key_env: not an environment variable name"}}},
		{"env var starting with a digit", `{"dependency_docs": {"api_key_env": "1KEY"}}`, def,
			[]diag{{SeverityError, "dependency_docs", "api_key_env"}}},
		{"empty env var", `{"dependency_docs": {"api_key_env": ""}}`, def,
			[]diag{{SeverityError, "dependency_docs", "api_key_env"}}},
		{"base url", `{"dependency_docs": {"base_url": "http://127.0.0.1:8080/api"}}`,
			with(func(c *Config) { c.DependencyDocs.BaseURL = "http://127.0.0.1:8080/api" }), nil},
		{"base url with credentials", `{"dependency_docs": {"base_url": "https://user:pw@example.com"}}`, def,
			[]diag{{SeverityError, "dependency_docs", "base_url: not an http(s) address without credentials"}}},
		{"base url not http", `{"dependency_docs": {"base_url": "file:///etc/passwd"}}`, def,
			[]diag{{SeverityError, "dependency_docs", "base_url"}}},
		{"absolute index path", `{"precision_index": {"path": "/etc/index.scip"}` + other + `}`, with(otherApplied),
			[]diag{{SeverityError, "precision_index", "is absolute"}}},
		{"escaping index path", `{"precision_index": {"path": "../other/index.scip"}` + other + `}`, with(otherApplied),
			[]diag{{SeverityError, "precision_index", "escapes the project root"}}},
		{"unclean index path", `{"precision_index": {"path": "./index.scip"}` + other + `}`, with(otherApplied),
			[]diag{{SeverityError, "precision_index", "not a clean relative path"}}},
		{"auto_generate without command", `{"precision_index": {"auto_generate": true}` + other + `}`, with(otherApplied),
			[]diag{{SeverityError, "precision_index", "auto_generate is set but generator_command is empty"}}},
		{"generator command as a string", `{"precision_index": {"generator_command": "scip-go --out x"}` + other + `}`, with(otherApplied),
			[]diag{{SeverityError, "precision_index", "generator_command: expected an array of strings"}}},
		{"empty generator argument", `{"precision_index": {"generator_command": ["scip-go", ""]}` + other + `}`, with(otherApplied),
			[]diag{{SeverityError, "precision_index", "generator_command[1]"}}},
		{"two malformed sections", `{"precision_index": [], "structural": {"enabled": 1}` + other + `}`, with(otherApplied),
			[]diag{{SeverityError, "precision_index", "got an array"}, {SeverityError, "structural", "enabled: expected a boolean"}}},

		// Unknown keys and sections are warnings; the rest applies.
		{"unknown key", `{"structural": {"enabled": false, "colour": "blue"}}`,
			with(func(c *Config) { c.Structural.Enabled = false }),
			[]diag{{SeverityWarning, "structural", `unknown key "colour" ignored`}}},
		{"keys are case-sensitive", `{"structural": {"Enabled": false, "ALLOW_APPLY": false}}`, def,
			[]diag{{SeverityWarning, "structural", `unknown key "ALLOW_APPLY"`}, {SeverityWarning, "structural", `unknown key "Enabled"`}}},
		{"unknown key in a malformed section", `{"structural": {"x": 1, "enabled": "no"}}`, def,
			[]diag{{SeverityWarning, "structural", `unknown key "x"`}, {SeverityError, "structural", "enabled"}}},
		{"unknown sections sorted", `{"zeta": 1, "alpha": {}, "structural": {"enabled": false}}`,
			with(func(c *Config) { c.Structural.Enabled = false }),
			[]diag{{SeverityWarning, "", `unknown section "alpha" ignored`}, {SeverityWarning, "", `unknown section "zeta" ignored`}}},
		{"section names are case-sensitive", `{"Structural": {"enabled": false}}`, def,
			[]diag{{SeverityWarning, "", `unknown section "Structural"`}}},

		// Whole-file garbage.
		{"empty file", ``, def, []diag{{SeverityError, "", "is not a JSON object"}}},
		{"not JSON", `enabled = true`, def, []diag{{SeverityError, "", "is not a JSON object"}}},
		{"top-level array", `[{"structural": {}}]`, def, []diag{{SeverityError, "", "is not a JSON object"}}},
		{"top-level null", `null`, def, []diag{{SeverityError, "", "is not a JSON object (null)"}}},
		{"trailing garbage", `{"structural": {"enabled": false}} x`, def, []diag{{SeverityError, "", "is not a JSON object"}}},
		{"truncated", `{"structural": {"enabled": false`, def, []diag{{SeverityError, "", "is not a JSON object"}}},
		{"comments", "// config\n{}", def, []diag{{SeverityError, "", "is not a JSON object"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, diags := Parse([]byte(tc.in))
			check(t, tc.want, tc.diags, cfg, diags)
		})
	}
}

func TestDiagnosticsDoNotEchoSecrets(t *testing.T) {
	const key = "sk-live-0123456789abcdef"
	for _, in := range []string{
		`{"dependency_docs": {"api_key_env": "` + key + `"}}`,
		`{"dependency_docs": {"base_url": "https://u:` + key + `@x"}}`,
		`{"dependency_docs": {"base_url": "ftp://u:` + key + `@x"}}`,
	} {
		_, diags := Parse([]byte(in))
		if len(diags) != 1 || strings.Contains(diags[0].String(), key) {
			t.Errorf("diagnostics %v echo the key", diags)
		}
	}
}

func TestLoad(t *testing.T) {
	big := `{"structural": {"enabled": false}, "pad": "` + strings.Repeat("x", MaxSize) + `"}`
	tests := []struct {
		name  string
		fsys  fstest.MapFS
		want  Config
		diags []diag
	}{
		{"no file", fstest.MapFS{}, Default(), nil},
		{"spec example", fstest.MapFS{File: {Data: specExample(t)}},
			func() Config {
				c := Default()
				c.PrecisionIndex.Path = ".codecortex/precision/index.cortexidx"
				return c
			}(), nil},
		{"oversized", fstest.MapFS{File: {Data: []byte(big)}}, Default(),
			[]diag{{SeverityError, "", "larger than the 1048576-byte limit"}}},
		{"a directory", fstest.MapFS{File + "/x": {Data: []byte("{}")}}, Default(),
			[]diag{{SeverityError, "", "not a regular file"}}},
		{"a FIFO is not opened", fstest.MapFS{File: {Mode: os.ModeNamedPipe}}, Default(),
			[]diag{{SeverityError, "", "not a regular file"}}},
		{"garbage", fstest.MapFS{File: {Data: []byte("\x00\xff")}}, Default(),
			[]diag{{SeverityError, "", "is not a JSON object"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, diags, _ := loadConfig(tc.fsys)
			check(t, tc.want, tc.diags, cfg, diags)
		})
	}
}

func TestValidate(t *testing.T) {
	bad := Default()
	bad.Structural.MaxRewriteFiles = 0
	bad.DependencyDocs.APIKeyEnv = "no spaces"
	err := bad.Validate()
	if err == nil || !strings.Contains(err.Error(), "structural: max_rewrite_files") || !strings.Contains(err.Error(), "dependency_docs: api_key_env") {
		t.Errorf("Validate = %v, want both sections named", err)
	}
}

// FuzzParse checks that Parse never panics, that its result always
// validates, and that a section reported as an error holds its defaults.
func FuzzParse(f *testing.F) {
	f.Add(specExample(f))
	for _, s := range []string{`{}`, `null`, `[]`, `{"structural": null}`, `{"structural": {"enabled": "x"}}`,
		`{"precision_index": {"auto_generate": true, "generator_command": ["a"]}}`,
		`{"precision_index": {"language_servers": {"python": ["p", "--stdio"], "rust": [], "cobol": ["c"]}}}`,
		`{"dependency_docs": {"api_key_env": "A", "cache_ttl_seconds": 315360000}}`,
		`{"structural": {"Enabled": false, "command": "sg"}, "x": 1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, diags := Parse(data)
		if err := cfg.Validate(); err != nil {
			t.Fatalf("Parse(%q) does not validate: %v", data, err)
		}
		def := Default()
		for _, d := range diags {
			if d.Severity != SeverityError && d.Severity != SeverityWarning {
				t.Fatalf("bad severity %q", d.Severity)
			}
			if d.Severity != SeverityError {
				continue
			}
			var got, want any
			switch d.Section {
			case "":
				got, want = cfg, def
			case "precision_index":
				got, want = cfg.PrecisionIndex, def.PrecisionIndex
			case "dependency_docs":
				got, want = cfg.DependencyDocs, def.DependencyDocs
			case "structural":
				got, want = cfg.Structural, def.Structural
			default:
				t.Fatalf("unknown section %q in %v", d.Section, d)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("section %q reported as an error but not at its defaults (-want +got):\n%s", d.Section, diff)
			}
		}
		again, diags2 := Parse(data)
		if diff := cmp.Diff(cfg, again); diff != "" || len(diags) != len(diags2) {
			t.Fatalf("Parse is not deterministic:\n%s", diff)
		}
	})
}

func BenchmarkParseSpecExample(b *testing.B) {
	data := specExample(b)
	for b.Loop() {
		Parse(data)
	}
}

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func run(t *testing.T, dir string, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		if k == "XDG_CONFIG_HOME" {
			// TestMain's directory: the seal key and trust store of the
			// tests that do not name their own.
			return os.Getenv(k)
		}
		return ""
	}}
	code = Run(context.Background(), append([]string{"-C", dir}, args...), e)
	return code, out.String(), errb.String()
}

func writeConfig(t *testing.T, dir, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, ".codecortex"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".codecortex", "config.json"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestUsageAndExitCodes(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{nil, ExitUsage, "usage: cortex"},
		{[]string{"nope"}, ExitUsage, `unknown command "nope"`},
		{[]string{"help"}, ExitOK, "doctor"},
		{[]string{"help"}, ExitOK, "structural, sg"},
		{[]string{"version"}, ExitOK, "cortex " + Version},
		{[]string{"version", "--bogus"}, ExitUsage, "flag provided but not defined"},
		{[]string{"doctor", "extra"}, ExitUsage, "unexpected arguments"},
		{[]string{"doctor", "-h"}, ExitOK, "usage: cortex doctor"},
	} {
		code, out, errs := run(t, dir, nil, tc.args...)
		if code != tc.code || !strings.Contains(out+errs, tc.want) {
			t.Errorf("cortex %v: exit %d, want %d; output %q does not contain %q", tc.args, code, tc.code, out+errs, tc.want)
		}
	}
}

func TestDoctorWithoutConfig(t *testing.T) {
	// Precision is enabled by default and has no index here: unavailable,
	// but nothing is broken, so doctor exits 0 (TestDoctorExitCode).
	code, out, _ := run(t, t.TempDir(), nil, "doctor", "--json")
	if want := doctorExit(ExitOK); code != want {
		t.Fatalf("exit %d, want %d: no layer needs a fix", code, want)
	}
	var got struct {
		Layers []layerStatus `json:"layers"`
		Diags  []any         `json:"config_diagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	names := map[string]string{}
	for _, l := range got.Layers {
		names[l.Layer] = l.State
		if l.State != stateAvailable && l.Reason == "" {
			t.Errorf("%s is %s without a reason", l.Layer, l.State)
		}
	}
	want := []string{"precision intelligence", "language server", "structural engine", "local index", "project graph",
		"git history", "memory", "validation", "dependency manifests", "dependency docs"}
	for _, l := range want {
		if _, ok := names[l]; !ok {
			t.Errorf("doctor does not report %s", l)
		}
	}
	if len(names) != len(want) || names["dependency docs"] != stateDisabled || names["precision intelligence"] != stateUnavailable {
		t.Errorf("layers = %v", names)
	}
	if got.Diags == nil || len(got.Diags) != 0 {
		t.Errorf("diagnostics = %v, want []", got.Diags)
	}
}

func TestDoctorReportsConfigProblems(t *testing.T) {
	dir := t.TempDir()
	writeConfig(t, dir, `{"structural": {"max_rewrite_files": "fifty"}, "dependency_docs": {"enabled": true}, "extra": 1}`)
	code, out, _ := run(t, dir, map[string]string{"CODECORTEX_TRUST_CONFIG": "any"}, "doctor")
	if code != ExitFail {
		t.Errorf("exit %d, want %d for a section that fell back to defaults", code, ExitFail)
	}
	for _, want := range []string{"credentials missing", "CODECORTEX_DEPENDENCY_DOCS_API_KEY", "max_rewrite_files", `unknown section "extra"`} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, out)
		}
	}
}

// The API key's value never appears in any output, even when the
// configuration or the environment would put it there.
func TestConfigRedactsSecrets(t *testing.T) {
	dir := t.TempDir()
	const key = "ctx7sk-0123456789abcdef-secret"
	writeConfig(t, dir, `{"dependency_docs": {"enabled": true, "api_key_env": "MY_KEY"}, "`+key+`": true}`)
	env := map[string]string{"MY_KEY": key, "CODECORTEX_TRUST_CONFIG": "any"}
	for _, args := range [][]string{{"config"}, {"config", "--json"}, {"doctor"}, {"doctor", "--json"}} {
		_, out, errs := run(t, dir, env, args...)
		if strings.Contains(out+errs, key) || strings.Contains(out+errs, "0123456789abcdef") {
			t.Errorf("cortex %v leaked the key:\n%s%s", args, out, errs)
		}
	}
	_, out, _ := run(t, dir, env, "config", "--json")
	var got struct {
		APIKeySet bool `json:"api_key_set"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || !got.APIKeySet {
		t.Errorf("api_key_set not reported: %v\n%s", err, out)
	}
}

func TestMissingRoot(t *testing.T) {
	code, _, errs := run(t, filepath.Join(t.TempDir(), "absent"), nil, "doctor")
	if code != ExitUsage || !strings.Contains(errs, "-C") || !strings.Contains(errs, "no such file") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

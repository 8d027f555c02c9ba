package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func structuralDoctor(t *testing.T, config string) layerStatus {
	t.Helper()
	dir := t.TempDir()
	if config != "" {
		if err := os.MkdirAll(filepath.Join(dir, ".codecortex"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, ".codecortex", "config.json"), []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, out, errs := run(t, dir, map[string]string{"CODECORTEX_TRUST_CONFIG": "any"}, "doctor", "--json")
	var rep struct{ Layers []layerStatus }
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("doctor --json: %v\n%s\n%s", err, out, errs)
	}
	for _, l := range rep.Layers {
		if l.Layer == "structural engine" {
			return l
		}
	}
	t.Fatal("no structural engine line")
	return layerStatus{}
}

func fakeBinary(t *testing.T, version string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "ast-grep")
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho '"+version+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDoctorStructural(t *testing.T) {
	t.Run("disabled", func(t *testing.T) {
		if st := structuralDoctor(t, `{"structural":{"enabled":false}}`); st.State != stateDisabled {
			t.Errorf("state %q, want disabled", st.State)
		}
	})
	t.Run("external build: located, never run", func(t *testing.T) {
		bin, runs := spy(t, "ast-grep", `echo "ast-grep 0.51.1"`)
		st := structuralDoctor(t, `{"structural":{"command":"`+bin+`"}}`)
		if st.State != stateAvailable || st.Details["path"] != bin || !strings.Contains(st.Reason, "version not checked") {
			t.Errorf("got %+v, want available at %s, version not checked", st, bin)
		}
		if runs() != 0 {
			t.Errorf("doctor ran the configured binary %d times", runs())
		}
	})
	t.Run("missing external build", func(t *testing.T) {
		st := structuralDoctor(t, `{"structural":{"command":"/nonexistent/ast-grep"}}`)
		if st.State != stateUnavailable {
			t.Errorf("got %+v, want unavailable", st)
		}
	})
	t.Run("built in", func(t *testing.T) {
		st := structuralDoctor(t, "")
		want := stateAvailable
		if !cgoBuild {
			want = stateUnavailable
		}
		if st.State != want {
			t.Errorf("got %+v, want %s", st, want)
		}
	})
}

// An external ast-grep that is not the verified version is checked by the
// search that would use it: its output is not trusted, and the answer is
// the labelled fallback naming the version.
func TestSearchRefusesUnverifiedAstGrep(t *testing.T) {
	dir := structuralProject(t, `{"structural":{"command":"`+fakeBinary(t, "ast-grep 0.39.0")+`"}}`)
	code, out, errs := run(t, dir, map[string]string{"CODECORTEX_TRUST_CONFIG": "any"}, "search", "old_api($$$A)", "--lang", "python")
	if code != ExitOK || !strings.Contains(out, "lexical fallback") || !strings.Contains(out+errs, "0.39.0") {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
}

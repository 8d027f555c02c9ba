package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
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
	_, out, errs := run(t, dir, nil, "doctor", "--json")
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
	t.Run("verified external build", func(t *testing.T) {
		st := structuralDoctor(t, `{"structural":{"command":"`+fakeBinary(t, "ast-grep 0.51.1")+`"}}`)
		if st.State != stateAvailable || st.Details["installed_version"] != "0.51.1" {
			t.Errorf("got %+v, want available 0.51.1", st)
		}
	})
	t.Run("unverified external build", func(t *testing.T) {
		st := structuralDoctor(t, `{"structural":{"command":"`+fakeBinary(t, "ast-grep 0.39.0")+`"}}`)
		if st.State != stateUnavailable || st.Details["installed_version"] != "0.39.0" || st.Reason == "" {
			t.Errorf("got %+v, want unavailable naming 0.39.0", st)
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

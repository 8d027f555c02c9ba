package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// doctorExit is the exit code doctor should give where the layers need
// want: a build without cgo has no built-in structural engine, which is
// always something to fix.
func doctorExit(want int) int {
	if !cgoBuild {
		return ExitFail
	}
	return want
}

// cortex doctor exits 1 only when something can be fixed: a layer that is
// enabled or configured and broken or stale, or a configuration error;
// never merely because an optional layer is off.
func TestDoctorExitCode(t *testing.T) {
	trusted := map[string]string{"CODECORTEX_TRUST_CONFIG": "any"}
	tests := []struct {
		name  string
		setup func(t *testing.T) string
		env   map[string]string
		code  int
		fix   []string // the layers that need a fix
	}{
		{"nothing set up", func(t *testing.T) string { return t.TempDir() }, nil, ExitOK, nil},
		{"precision disabled", func(t *testing.T) string {
			dir := t.TempDir()
			writeConfig(t, dir, `{"precision_index": {"enabled": false}}`)
			return dir
		}, nil, ExitOK, nil},
		{"an index you accepted", precisionProject, nil, ExitOK, nil},
		{"a foreign index", func(t *testing.T) string {
			dir := t.TempDir()
			writeIndexed(t, dir, "m.go", "package m\n\n/* é */ func Héllo() {}\n\nvar _ = Héllo\n", cliSym,
				[]int32{2, 14, 20}, []int32{4, 8, 14})
			return dir
		}, nil, ExitFail, []string{"precision intelligence"}},
		{"an unreadable index", func(t *testing.T) string {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "index.scip"), []byte("not a SCIP index"), 0o644); err != nil {
				t.Fatal(err)
			}
			return dir
		}, nil, ExitFail, []string{"precision intelligence"}},
		{"a configured index path with nothing there", func(t *testing.T) string {
			dir := t.TempDir()
			writeConfig(t, dir, `{"precision_index": {"path": "build/index.scip"}}`)
			return dir
		}, nil, ExitFail, []string{"precision intelligence"}},
		{"an index generated on first use", func(t *testing.T) string {
			dir := t.TempDir()
			writeConfig(t, dir, `{"precision_index": {"path": "build/index.scip", "auto_generate": true, "generator_command": ["scip-go", "--output", "build/index.scip"]}}`)
			return dir
		}, trusted, ExitOK, nil},
		{"docs enabled without a key", func(t *testing.T) string {
			dir := t.TempDir()
			writeConfig(t, dir, `{"dependency_docs": {"enabled": true}}`)
			return dir
		}, trusted, ExitFail, []string{"dependency docs"}},
		{"a configured ast-grep that is not installed", func(t *testing.T) string {
			dir := t.TempDir()
			writeConfig(t, dir, `{"structural": {"command": "no-such-ast-grep-binary"}}`)
			return dir
		}, trusted, ExitFail, []string{"structural engine"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.setup(t)
			code, out, errs := run(t, dir, tt.env, "doctor", "--json")
			want, wantFix := doctorExit(tt.code), tt.fix
			if !cgoBuild && !slices.Contains(wantFix, "structural engine") {
				wantFix = append(wantFix, "structural engine")
			}
			if code != want {
				t.Errorf("exit %d, want %d\n%s%s", code, want, out, errs)
			}
			var doc doctorJSON
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			var fix []string
			for _, l := range doc.Layers {
				if l.FixNeeded {
					fix = append(fix, l.Layer)
					if l.Guidance == "" {
						t.Errorf("%s needs a fix but names none: %+v", l.Layer, l)
					}
				}
			}
			if diff := cmp.Diff(wantFix, fix, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
				t.Errorf("layers needing a fix (-want +got):\n%s", diff)
			}
			// The human report ends by saying what to fix.
			_, human, _ := run(t, dir, tt.env, "doctor")
			if len(wantFix) == 0 && !strings.Contains(human, "\nnothing to fix\n") ||
				len(wantFix) > 0 && !strings.Contains(human, "\nto fix         "+strings.Join(fix, ", ")) {
				t.Errorf("human report:\n%s", human)
			}
		})
	}
}

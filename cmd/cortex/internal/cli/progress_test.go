package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Progress goes to standard error only on a terminal, unless --progress
// or CODECORTEX_PROGRESS asks otherwise; the tests' standard error is a
// buffer, never a terminal.
func TestProgressOnlyWhenAsked(t *testing.T) {
	gen, _ := spy(t, "failing-gen", "exit 1")
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		shown   bool
		project func(t *testing.T) string
	}{
		{"index, not a terminal", []string{"index"}, nil, false, indexProject},
		{"index --progress", []string{"index", "--progress"}, nil, true, indexProject},
		{"index --json --progress", []string{"index", "--json", "--progress"}, nil, true, indexProject},
		{"index, CODECORTEX_PROGRESS=1", []string{"index"}, map[string]string{"CODECORTEX_PROGRESS": "1"}, true, indexProject},
		{"index --progress=false beats the environment", []string{"index", "--progress=false"}, map[string]string{"CODECORTEX_PROGRESS": "1"}, false, indexProject},
		{"precision generation, not a terminal", []string{"def", "m.go:1:9"}, nil, false, nil},
		{"precision generation --progress", []string{"def", "m.go:1:9", "--progress"}, nil, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var dir, want string
			env := map[string]string{"CODECORTEX_TRUST_CONFIG": "any"}
			for k, v := range tt.env {
				env[k] = v
			}
			if tt.project != nil {
				dir, want = tt.project(t), "cortex: indexed "
			} else {
				// A generator that fails: generation announces itself
				// before it runs.
				dir, want = t.TempDir(), "cortex: regenerating the precision index"
				if err := os.WriteFile(filepath.Join(dir, "m.go"), []byte("package m\n\nfunc F() {}\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				writeConfig(t, dir, fmt.Sprintf(`{"precision_index": {"path": "index.scip", "auto_generate": true, "generator_command": [%q, "--output", "index.scip"]}}`, gen))
			}
			_, out, errs := run(t, dir, env, tt.args...)
			if got := strings.Contains(errs, want); got != tt.shown {
				t.Errorf("progress shown: %v, want %v\nstderr: %q", got, tt.shown, errs)
			}
			if strings.Contains(out, want) {
				t.Errorf("progress reached standard output: %q", out)
			}
			if strings.Contains(strings.Join(tt.args, " "), "--json") && !json.Valid([]byte(out)) {
				t.Errorf("--json output is not one document: %q", out)
			}
		})
	}
}

// A file that is not a terminal shows no progress unless asked.
func TestProgressOutFile(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := newCmd(&Env{Stdout: f, Stderr: f, Getenv: func(string) string { return "" }}, "index", "")
	if w := c.progressOut(); w != nil {
		t.Errorf("progress to a regular file: %v", w)
	}
	if err := c.fs.Parse([]string{"--progress"}); err != nil {
		t.Fatal(err)
	}
	if w := c.progressOut(); w != f {
		t.Errorf("--progress: progress to %v, want the file", w)
	}
}

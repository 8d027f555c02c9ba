package rewrite

import (
	"context"
	"testing"
	"time"

	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/validation"
	"github.com/google/go-cmp/cmp"
)

// TestMigrateCobra migrates cobra v1.10.2, copied from the module cache,
// with a preview and an apply whose validation builds it, and checks the
// result against ast-grep's own --rewrite of the same pattern and template
// on a second copy: the trees must agree byte for byte, and the migrated
// module must build.
func TestMigrateCobra(t *testing.T) {
	requireSyntax(t)
	gobin := testtool.Require(t, "go", "install Go")
	sg := testtool.Require(t, "ast-grep", "npm install -g @ast-grep/cli@0.51.1")
	tests := []struct {
		name               string
		pattern, template  string
		minFiles, minMatch int
	}{
		// A multi capture, with its separators, in every expression
		// context Fprintf appears in (the results are the same types).
		{"Fprintf", "fmt.Fprintf($W, $$$ARGS)", "fmt.Fprint($W, fmt.Sprintf($$$ARGS))", 5, 31},
		// A single capture each, wrapped so that !HasPrefix stays !.
		{"HasPrefix", "strings.HasPrefix($S, $P)", "(strings.Index($S, $P) == 0)", 3, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			dir := testtool.ModuleCopy(t, testtool.Cobra)
			twin := testtool.ModuleCopy(t, testtool.Cobra)

			r := openTest(t, dir, func(o *Options) {
				o.SkipValidation = false
				o.Validator = validation.New(validation.Options{Dir: dir, Commands: []validation.Command{
					{Name: "go build", Argv: []string{gobin, "build", "./..."}, Format: "go"}}})
			})
			p, err := r.Preview(ctx, Request{Pattern: tt.pattern, Template: tt.template, Language: "go"})
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Files) < tt.minFiles || p.Matches < tt.minMatch {
				t.Errorf("preview: %d files, %d matches; want at least %d and %d", len(p.Files), p.Matches, tt.minFiles, tt.minMatch)
			}
			res, err := r.Apply(ctx, p.ID, Authorization{Principal: "test", Via: "go test"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != Applied || res.Validation.Status != ValidationPassed {
				t.Fatalf("outcome %s, validation %s: %s %+v", res.Outcome, res.Validation.Status, res.Validation.Reason, res.Validation.Outcome)
			}

			// ast-grep's rewrite of the same, on the twin.
			run, err := safeexec.Run(ctx, safeexec.Invocation{Path: sg, Dir: twin,
				Args: []string{"run", "--pattern", tt.pattern, "--rewrite", tt.template, "--lang", "go", "--update-all", "."},
				Env:  safeexec.Environ("HOME", "PATH")})
			if err != nil {
				t.Fatalf("ast-grep: %v\n%s%s", err, run.Stdout, run.Stderr)
			}
			if diff := cmp.Diff(snapshot(t, twin), snapshot(t, dir)); diff != "" {
				t.Errorf("the rewrite differs from ast-grep's (-ast-grep +rewrite):\n%s", diff)
			}

			// And the migrated module builds, checked apart from validation.
			build, err := safeexec.Run(ctx, safeexec.Invocation{Path: gobin, Args: []string{"build", "./..."}, Dir: dir,
				Timeout: 10 * time.Minute, Env: append(safeexec.Environ(validation.PassEnv()...), "GOTOOLCHAIN=local")})
			if err != nil {
				t.Fatalf("go build ./...: %v\n%s", err, build.Stderr)
			}
		})
	}
}

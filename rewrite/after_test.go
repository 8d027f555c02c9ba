package rewrite

import (
	"context"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/validation"
	"github.com/google/go-cmp/cmp"
)

// recordingReindexer is a [Reindexer] that records the paths it is
// given and reports a fixed refresh.
type recordingReindexer struct {
	paths [][]string
}

var refreshed = Reindex{Index: IndexRefreshed, IndexReason: "2 files reindexed",
	Precision: evidence.Report{Provider: "precision", State: evidence.StaleState, Reason: "older than the sources", Guidance: "regenerate it"}}

func (x *recordingReindexer) Reindex(_ context.Context, paths []string) Reindex {
	x.paths = append(x.paths, slices.Clone(paths))
	return refreshed
}

// validatorFunc is a [Validator] from a function.
type validatorFunc func(context.Context) (*validation.Outcome, error)

func (f validatorFunc) Run(ctx context.Context) (*validation.Outcome, error) { return f(ctx) }

// TestAfterTheChange checks steps 9 to 12 on a Go module: the Reindexer
// is given the changed files and its report is the result's (without
// one, the result says nothing was refreshed); the Validator's outcome
// decides the validation status (go build passes, or fails and sets the
// residual risk to 1 without hiding that the files were changed; no
// commands is skipped).
func TestAfterTheChange(t *testing.T) {
	requireSyntax(t)
	gobin := testtool.Require(t, "go", "install Go")
	build := func(dir string) Validator {
		return validation.New(validation.Options{Dir: dir, Commands: []validation.Command{
			{Name: "go build", Argv: []string{gobin, "build", "./..."}, Format: "go"}}})
	}
	noCommands := func(string) Validator {
		return validatorFunc(func(context.Context) (*validation.Outcome, error) { return nil, validation.ErrNoCommands })
	}
	tests := []struct {
		name       string
		template   string
		validator  func(dir string) Validator
		reindexer  bool
		validation string
	}{
		{"a change that builds", "api.NewAPI($X)", build, true, ValidationPassed},
		{"a change that breaks the build", "api.Missing($X)", build, true, ValidationFailed},
		{"no validation commands", "api.NewAPI($X)", noCommands, true, ValidationSkipped},
		{"no reindexer", "api.NewAPI($X)", noCommands, false, ValidationSkipped},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			dir := testtool.WriteTree(t, project)
			rx := &recordingReindexer{}
			r := openTest(t, dir, func(o *Options) {
				o.SkipValidation = false
				o.Validator = tt.validator(dir)
				if tt.reindexer {
					o.Reindexer = rx
				}
			})
			p, err := r.Preview(ctx, Request{Pattern: "api.OldAPI($X)", Template: tt.template, Language: "go"})
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.Apply(ctx, p.ID, Authorization{Principal: "alice"})
			if err != nil {
				t.Fatal(err)
			}
			if got.Outcome != Applied || got.FilesChanged != 2 {
				t.Fatalf("outcome %s, %d files", got.Outcome, got.FilesChanged)
			}
			if tt.reindexer {
				if diff := cmp.Diff([][]string{{"cart/cart.go", "main.go"}}, rx.paths); diff != "" {
					t.Errorf("the reindexer's paths (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(refreshed, got.Reindex); diff != "" {
					t.Errorf("reindex (-want +got):\n%s", diff)
				}
			} else if got.Reindex.Index != IndexSkipped || got.Reindex.IndexReason == "" || got.Reindex.Precision.State != evidence.Disabled {
				t.Errorf("reindex without a reindexer: %+v", got.Reindex)
			}
			if got.Validation.Status != tt.validation {
				t.Errorf("validation %s (%s), want %s", got.Validation.Status, got.Validation.Reason, tt.validation)
			}
			if got.ImpactAfter == nil || got.ImpactAfter.Stage != StageAfter {
				t.Fatalf("impact after: %+v", got.ImpactAfter)
			}
			switch tt.validation {
			case ValidationFailed:
				if got.ResidualRisk != 1 || got.OK() {
					t.Errorf("a failed validation: residual risk %v, OK %v", got.ResidualRisk, got.OK())
				}
			default:
				if got.ResidualRisk != got.ImpactAfter.Risk || !got.OK() {
					t.Errorf("residual risk %v, impact after %v, OK %v", got.ResidualRisk, got.ImpactAfter.Risk, got.OK())
				}
			}
		})
	}
}

// TestValidationBeforeAndAfter: with ValidateBefore, the result tells the
// diagnostics the change brought from those the project had already (go
// build, run on the files before and after), and those it fixed.
func TestValidationBeforeAndAfter(t *testing.T) {
	requireSyntax(t)
	gobin := testtool.Require(t, "go", "install Go")
	tests := []struct {
		name       string
		template   string
		validation string
		newMsgs    []string
		fixed      int
	}{
		{"a change that breaks the build", "api.Missing($X)", ValidationFailed, []string{"undefined: api.Missing", "undefined: api.Missing", "undefined: api.Missing"}, 0},
		{"a change that builds", "api.NewAPI($X)", ValidationFailed, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			files := maps.Clone(project)
			files["broken/broken.go"] = "package broken\n\nfunc Broken() int { return undefinedName }\n"
			dir := testtool.WriteTree(t, files)
			runs := 0
			v := validation.New(validation.Options{Dir: dir, Commands: []validation.Command{
				{Name: "go build", Argv: []string{gobin, "build", "./..."}, Format: "go"}}})
			r := openTest(t, dir, func(o *Options) {
				o.SkipValidation, o.ValidateBefore = false, true
				o.Validator = validatorFunc(func(ctx context.Context) (*validation.Outcome, error) { runs++; return v.Run(ctx) })
			})
			p, err := r.Preview(ctx, Request{Pattern: "api.OldAPI($X)", Template: tt.template, Language: "go"})
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.Apply(ctx, p.ID, Authorization{Principal: "alice"})
			if err != nil || got.Outcome != Applied {
				t.Fatalf("apply: %v %+v", err, got)
			}
			vr := got.Validation
			if runs != 2 || !vr.Compared || vr.Before == nil || vr.Status != tt.validation {
				t.Fatalf("%d runs, validation %+v", runs, vr)
			}
			var msgs []string
			for _, d := range vr.New {
				msgs = append(msgs, d.Message)
			}
			if diff := cmp.Diff(tt.newMsgs, msgs); diff != "" {
				t.Errorf("new diagnostics (-want +got):\n%s", diff)
			}
			if len(vr.Fixed) != tt.fixed {
				t.Errorf("fixed %+v, want %d", vr.Fixed, tt.fixed)
			}
		})
	}
}

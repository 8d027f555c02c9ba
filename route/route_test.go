package route_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/route"
)

// declared is what a repository with a few real dependencies declares.
var declared = []string{
	"npm:react", "go:github.com/spf13/cobra", "pypi:Django",
	"maven:org.slf4j:slf4j-api", "npm:@tanstack/react-query",
}

func layers(steps []route.Step) []route.Layer {
	var out []route.Layer
	for _, s := range steps {
		out = append(out, s.Layer)
	}
	return out
}

// The routing table of the specification, row by row: the optional layers
// of each plan are exactly the ones the table names, and a migration goes
// on to impact, preview and validation.
func TestSpecRoutingTable(t *testing.T) {
	for _, tc := range []struct {
		text     string
		optional []route.Layer
		follow   []route.Layer
		local    route.Layer // the local layer that answers, when no optional one does
	}{
		{"Where is AuthService defined?", []route.Layer{route.Precision}, nil, ""},
		{"Who calls refresh_token?", []route.Layer{route.Precision}, nil, ""},
		{"What changed in this file?", nil, nil, route.History},
		{"Is this method deprecated in our installed version?", []route.Layer{route.DependencyDocs}, nil, ""},
		{"Find all usages of this old API shape.", []route.Layer{route.Structural}, nil, ""},
		{"Migrate all old API calls to the new shape.",
			[]route.Layer{route.Precision, route.DependencyDocs, route.Structural},
			[]route.Layer{route.Impact, route.Preview, route.Validation}, ""},
	} {
		t.Run(tc.text, func(t *testing.T) {
			p := route.Route(route.Request{Text: tc.text, Declared: declared})
			if err := p.Validate(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.optional, p.Optional()); diff != "" {
				t.Errorf("optional layers (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.follow, layers(p.FollowOn)); diff != "" {
				t.Errorf("follow-on steps (-want +got):\n%s", diff)
			}
			if tc.local != "" && (len(p.Steps) == 0 || p.Steps[0].Layer != tc.local) {
				t.Errorf("steps %v: want %s first", p.Layers(), tc.local)
			}
		})
	}
}

// The deprecation row of the table names no dependency. It is routed to
// the documentation layer because its words ("our installed version") are
// about a dependency, and only when the repository declares some; a
// question naming a library the repository does not declare is not.
func TestDeprecationQuestionNeedsADeclaredDependency(t *testing.T) {
	const q = "Is this method deprecated in our installed version?"
	for _, tc := range []struct {
		name     string
		req      route.Request
		docs     bool
		reasonOf string // words the docs step's reason (or skip reason) must contain
	}{
		{"declared dependencies, none named", route.Request{Text: q, Declared: declared}, true, `"installed"`},
		{"nothing declared", route.Request{Text: q}, false, "declares no third-party dependencies"},
		{"a declared dependency named", route.Request{Text: "Is this react method deprecated in our installed version?", Declared: declared}, true, "npm:react"},
		{"an undeclared library named", route.Request{Text: "Is this method deprecated in the lodash version we use?", Declared: declared}, false, "lodash, which the repository does not declare"},
		{"a repository symbol, no dependency words", route.Request{Text: "Is AuthService.Login deprecated?", Declared: declared}, false, "names no declared dependency"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := route.Route(tc.req)
			if got := p.Proposes(route.DependencyDocs); got != tc.docs {
				t.Fatalf("proposes dependency docs = %v, want %v (steps %v)", got, tc.docs, p.Layers())
			}
			reason := ""
			for _, s := range append(append([]route.Step{}, p.Steps...), p.Skipped...) {
				if s.Layer == route.DependencyDocs {
					reason = s.Reason
				}
			}
			if !strings.Contains(reason, tc.reasonOf) {
				t.Errorf("reason %q does not say %q", reason, tc.reasonOf)
			}
		})
	}
}

// A migration is planned up to a preview; however the request insists, no
// plan holds a step that applies it.
func TestMigrationStopsAtPreview(t *testing.T) {
	for _, req := range []route.Request{
		{Text: "Migrate `oldAPI($X)` to `newAPI($X)` and apply it now, I authorize the mutation.", Declared: declared},
		{Text: "apply the rewrite preview 3f2a", Intent: "apply"},
		{Text: "rewrite all calls", Intent: route.IntentMigration},
	} {
		t.Run(req.Text, func(t *testing.T) {
			p := route.Route(req)
			if p.Intent != route.IntentMigration {
				t.Fatalf("intent %s, want migration", p.Intent)
			}
			if diff := cmp.Diff([]route.Layer{route.Impact, route.Preview, route.Validation}, layers(p.FollowOn)); diff != "" {
				t.Errorf("follow-on (-want +got):\n%s", diff)
			}
			if !strings.Contains(strings.Join(p.Notes, " "), "never routed") {
				t.Errorf("notes %q do not say mutation is never routed", p.Notes)
			}
		})
	}
}

// Every step says what led to it: the first step quotes the cue that
// decided the intent.
func TestFirstReasonQuotesTheCue(t *testing.T) {
	for _, text := range []string{
		"Where is AuthService defined?", "who calls refresh_token", "What changed in this file?",
		"which version of react do we use", "find all usages of `oldAPI($X)`", "does it build?",
	} {
		p := route.Route(route.Request{Text: text, Declared: declared})
		if !strings.Contains(p.Steps[0].Reason, p.Cue) {
			t.Errorf("%q: first reason %q does not quote the cue %s", text, p.Steps[0].Reason, p.Cue)
		}
	}
}

func TestPositionAndNotes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		req    route.Request
		reason string // in the first step
		notes  []string
	}{
		{"position", route.Request{Text: "who calls this?", Path: "auth/service.go", Line: 12, Column: 5},
			"the symbol at auth/service.go:12:5", nil},
		{"line only", route.Request{Path: "auth/service.go", Line: 12},
			"the symbol at auth/service.go:12", nil},
		{"file only", route.Request{Text: "What changed in this file?", Path: "auth/service.go"},
			"for auth/service.go", nil},
		{"no path", route.Request{Text: "who calls this?", Line: 3},
			"", []string{"The request has a line or column but no path, so its position was ignored."}},
		{"no path, words", route.Request{Text: "who calls the retry loop?", Line: 3},
			"the callers of retryLoop", []string{"The request has a line or column but no path, so its position was ignored.",
				"No name in the question is written as code: a ranked search of its words joins the lookup of retryLoop, retry_loop, loop and 1 more."}},
		{"negative line", route.Request{Text: "What changed in this file?", Path: "a.go", Line: -1},
			"for a.go", []string{"The request's line or column is negative, so only its path was kept."}},
		{"unknown intent", route.Request{Text: "who calls refresh_token", Intent: "rewrite-apply"},
			`"who calls"`, []string{`The request's intent "rewrite-apply" is not a known intent and was ignored.`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := route.Route(tc.req)
			if !strings.Contains(p.Steps[0].Reason, tc.reason) {
				t.Errorf("first reason %q does not contain %q", p.Steps[0].Reason, tc.reason)
			}
			if diff := cmp.Diff(tc.notes, p.Notes); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
		})
	}
}

// Only the beginning of a long text is read, and the plan says so.
func TestLongTextIsCapped(t *testing.T) {
	long := "Who calls refresh_token? " + strings.Repeat("é", route.MaxText) + " Migrate everything."
	p := route.Route(route.Request{Text: long})
	if !p.Truncated || p.Intent != route.IntentCallers {
		t.Fatalf("truncated=%v intent=%s, want truncated callers", p.Truncated, p.Intent)
	}
	short := route.Route(route.Request{Text: "Who calls refresh_token?"})
	if short.Truncated {
		t.Error("a short text is marked truncated")
	}
}

func TestValidateRejectsBrokenPlans(t *testing.T) {
	ok := route.Route(route.Request{Text: "Migrate all old API calls to the new shape.", Declared: declared})
	for _, tc := range []struct {
		name string
		edit func(p *route.Plan)
		want string
	}{
		{"unknown layer", func(p *route.Plan) { p.Steps = append(p.Steps, route.Step{Layer: "rewrite-apply", Reason: "x."}) },
			`steps: unknown layer "rewrite-apply"`},
		{"preview among steps", func(p *route.Plan) { p.Steps = append(p.Steps, route.Step{Layer: route.Preview, Reason: "x."}) },
			"steps: a rewrite preview is a follow-on step of a migration"},
		{"apply as a follow-on", func(p *route.Plan) {
			p.FollowOn = append(p.FollowOn, route.Step{Layer: "apply", Reason: "x."})
		}, `follow_on: unknown layer "apply"`},
		{"follow-on outside a migration", func(p *route.Plan) { p.Intent = route.IntentSearch },
			"follow_on: only a migration has follow-on steps, not search"},
		{"no reason", func(p *route.Plan) { p.Steps[0].Reason = " " }, "steps: layer precision has no reason"},
		{"two sentences on two lines", func(p *route.Plan) { p.Steps[0].Reason = "a.\nb." }, "not one sentence"},
		{"duplicate", func(p *route.Plan) { p.Steps = append(p.Steps, p.Steps[0]) }, "steps: layer precision appears twice"},
		{"optional layer missing", func(p *route.Plan) { p.Steps = p.Steps[1:] },
			"optional layer precision must appear exactly once in steps or skipped"},
		{"local layer skipped", func(p *route.Plan) {
			p.Skipped = append(p.Skipped, route.Step{Layer: route.History, Reason: "x."})
		}, "skipped: layer history is not optional"},
		{"unknown intent", func(p *route.Plan) { p.Intent = "apply" }, `unknown intent "apply"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := ok
			p.Steps = append([]route.Step(nil), ok.Steps...)
			p.FollowOn = append([]route.Step(nil), ok.FollowOn...)
			p.Skipped = append([]route.Step(nil), ok.Skipped...)
			tc.edit(&p)
			err := p.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Validate() = %v, want an error containing %q", err, tc.want)
			}
		})
	}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
}

package route_test

import (
	"fmt"

	"github.com/codecortex/codecortex/route"
)

// A question by name is routed to precision, with the local layers as its
// fallbacks; each step says why it is there.
func ExampleRoute() {
	p := route.Route(route.Request{Text: "Who calls refresh_token?"})
	fmt.Println(p.Intent, p.Cue, p.Names[0].Text)
	for _, s := range p.Steps {
		fmt.Printf("%s: %s\n", s.Layer, s.Reason)
	}
	// Output:
	// callers "Who calls" refresh_token
	// precision: Asked for callers ("Who calls"): precision resolves the callers of refresh_token by symbol identity.
	// graph: The graph's inferred call edges add callers of refresh_token that no index resolved.
	// local-index: The local symbol index finds refresh_token by name when no precision index answers.
}

// The remote documentation layer is proposed only for a dependency the
// repository declares, which the caller passes in Declared.
func ExampleRoute_dependency() {
	q := "is `useEffect` deprecated in react 18?"
	for _, declared := range [][]string{{"npm:react"}, {"npm:vue"}, nil} {
		p := route.Route(route.Request{Text: q, Declared: declared})
		fmt.Println(declared, p.Optional(), p.Dependencies)
	}
	// Output:
	// [npm:react] [dependency-docs precision] [npm:react]
	// [npm:vue] [precision] []
	// [] [precision] []
}

// A migration is planned up to a rewrite preview; applying it is never a
// step of any plan.
func ExampleRoute_migration() {
	p := route.Route(route.Request{
		Text:     "Migrate `oldAPI($X)` to `newAPI($X, nil)` and apply it.",
		Declared: []string{"go:github.com/spf13/cobra"},
	})
	fmt.Println(p.Intent, p.Optional())
	fmt.Printf("%s → %s\n", p.Pattern, p.Replacement)
	for _, s := range p.FollowOn {
		fmt.Println("then", s.Layer)
	}
	for _, n := range p.Notes {
		fmt.Println(n)
	}
	// Output:
	// migration [precision structural]
	// oldAPI($X) → newAPI($X, nil)
	// then impact
	// then rewrite-preview
	// then validation
	// A migration is planned up to a rewrite preview: applying it needs the preview's id and explicit authorization, and is never routed.
	// The text says "apply", but mutation is never routed: a rewrite is applied only from a preview's id with explicit authorization.
}

// A host that edits a plan checks it before running it.
func ExamplePlan_Validate() {
	p := route.Route(route.Request{Text: "What changed in this file?", Path: "auth/service.go"})
	fmt.Println(p.Layers(), p.Validate())
	p.Steps = append(p.Steps, route.Step{Layer: "rewrite-apply", Reason: "Apply it."})
	fmt.Println(p.Validate())
	// Output:
	// [history] <nil>
	// route: invalid plan: steps: unknown layer "rewrite-apply"
}

package validation_test

import (
	"context"
	"fmt"
	"log"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/validation"
)

// The Go toolchain's diagnostics, as go build and go vet print them.
func ExampleParseGoOutput() {
	out := "# example.com/m/sub\nsub/a.go:4:9: undefined: undefinedThing\nvet: main.go:6:14: fmt.Printf format %d has arg \"x\" of wrong type string\n"
	for _, d := range validation.ParseGoOutput([]byte(out)) {
		fmt.Printf("%s %s:%d:%d %s\n", d.Tool, d.Path, d.Line, d.Column, d.Message)
	}
	// Output:
	// go sub/a.go:4:9 undefined: undefinedThing
	// vet main.go:6:14 fmt.Printf format %d has arg "x" of wrong type string
}

// A failing test, with where it failed, from go test -json.
func ExampleParseGoTestJSON() {
	out := `{"Action":"output","Package":"example.com/m/auth","Test":"TestRefresh","Output":"    auth_test.go:42: token expired early\n"}
{"Action":"fail","Package":"example.com/m/auth","Test":"TestRefresh"}
{"Action":"fail","Package":"example.com/m/auth"}
`
	ds, err := validation.ParseGoTestJSON([]byte(out))
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range ds {
		fmt.Printf("%s %s %s:%d %s\n", d.Package, d.Test, d.Path, d.Line, d.Message)
	}
	// Output:
	// example.com/m/auth TestRefresh auth_test.go:42 token expired early
}

// tsc's diagnostics, with their codes.
func ExampleParseTSCOutput() {
	out := "src/a.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'.\n"
	for _, d := range validation.ParseTSCOutput([]byte(out)) {
		fmt.Printf("%s:%d:%d %s %s\n", d.Path, d.Line, d.Column, d.Code, d.Message)
	}
	// Output:
	// src/a.ts:1:7 TS2322 Type 'string' is not assignable to type 'number'.
}

// Run the project's checks when the user asks, then answer questions from
// the stored outcome without running anything.
func ExampleProvider() {
	ctx := context.Background()
	p := validation.New(validation.Options{Dir: "."}) // go build and go vet for a Go module
	o, err := p.Run(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range o.Results {
		fmt.Println(r.Name, r.Passed, len(r.Diagnostics))
	}
	resp, err := p.Gather(ctx, evidence.Query{Text: "does it build?"}) // runs nothing
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range resp.Records {
		fmt.Println(r.Location(), r.Metadata.Excerpt)
	}
}

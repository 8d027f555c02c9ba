package depdocs_test

import (
	"fmt"

	"github.com/codecortex/codecortex/depdocs"
)

func ExampleParse() {
	lock := []byte(`{"lockfileVersion": 3, "packages": {
		"": {"dependencies": {"next": "^15.0.0"}},
		"node_modules/next": {"version": "15.4.3"}}}`)
	f, err := depdocs.Parse("package-lock.json", lock)
	if err != nil {
		panic(err)
	}
	d := f.Deps[0]
	fmt.Println(f.Format, f.FormatVersion)
	fmt.Printf("%s declared %s, resolved %s (%s)\n", d.Name, d.Declared, d.Resolved, d.Relation)
	// Output:
	// package-lock.json 3
	// next declared ^15.0.0, resolved 15.4.3 (direct)
}

func ExampleSameRelease() {
	fmt.Println(depdocs.SameRelease(depdocs.NPM, "15.1.8", "v15.1.8"))
	fmt.Println(depdocs.SameRelease(depdocs.NPM, "2.0.0-rc.1", "2.0.0"))
	fmt.Println(depdocs.SameRelease(depdocs.PyPI, "1.0rc1", "1.0.0rc1"))
	fmt.Println(depdocs.SameRelease(depdocs.NPM, "latest", "15.1.8"))
	// Output:
	// true
	// false
	// true
	// false
}

func ExampleMultiVersions() {
	deps := []depdocs.Dependency{
		{Ecosystem: depdocs.NPM, Name: "zod", Resolved: "4.1.8", Relation: depdocs.Transitive, Source: depdocs.Registry},
		{Ecosystem: depdocs.NPM, Name: "zod", Resolved: "4.4.3", Relation: depdocs.Direct, Source: depdocs.Registry},
	}
	fmt.Println(depdocs.MultiVersions(deps))
	// Output:
	// [{npm zod [4.1.8 4.4.3] [4.4.3]}]
}

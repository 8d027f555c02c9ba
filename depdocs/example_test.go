package depdocs_test

import (
	"os"
	"path/filepath"

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

func ExampleScan() {
	dir, _ := os.MkdirTemp("", "scan")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.22\n\nrequire golang.org/x/mod v0.17.0\n\nreplace golang.org/x/mod => ../mod\n"), 0o644)
	p, _ := depdocs.Scan(dir, depdocs.ScanOptions{})
	fmt.Println("go mode:", p.GoMode)
	for _, d := range p.Deps {
		fmt.Printf("%s %s %s %q\n", d.Name, d.Relation, d.Source, d.SourceDetail)
	}
	// Output:
	// go mode: module
	// example.com/m root workspace ""
	// golang.org/x/mod direct replaced "=> ../mod"
}

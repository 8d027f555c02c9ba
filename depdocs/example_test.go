package depdocs_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/codecortex/codecortex/depdocs"
	"github.com/codecortex/codecortex/evidence"
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

// An npm alias is reported under the package it installs; each
// dependency knows the line that declares it.
func ExampleParse_alias() {
	f, _ := depdocs.Parse("package.json", []byte(`{
  "dependencies": {
    "next": "^15.0.0",
    "lodash3": "npm:lodash@^3.10.1"
  }
}`))
	for _, d := range f.Deps {
		fmt.Printf("%s:%d %s alias=%q declared %s\n", d.File, d.Line, d.Name, d.Alias, d.Declared)
	}
	// Output:
	// package.json:4 lodash alias="lodash3" declared ^3.10.1
	// package.json:3 next alias="" declared ^15.0.0
}

func ExampleReadFile() {
	dir, _ := os.MkdirTemp("", "readfile")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "requirements.txt"), []byte("# pinned\nflask==3.0.0\n"), 0o644)
	f, err := depdocs.ReadFile(dir, "requirements.txt", depdocs.ReadOptions{})
	if err != nil {
		panic(err)
	}
	d := f.Deps[0]
	fmt.Printf("%s %s at %s:%d\n", d.Name, d.Resolved, d.File, d.Line)
	_, err = depdocs.ReadFile(dir, "../elsewhere/requirements.txt", depdocs.ReadOptions{})
	fmt.Println(err != nil)
	// Output:
	// flask 3.0.0 at requirements.txt:2
	// true
}

// The manifest provider answers with records located at the line that
// resolves each dependency.
func ExampleManifestProvider() {
	dir, _ := os.MkdirTemp("", "manifests")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.22\n\nrequire golang.org/x/mod v0.17.0\n"), 0o644)
	p := &depdocs.ManifestProvider{Dir: dir}
	resp, _ := p.Gather(context.Background(), evidence.Query{Symbol: "golang.org/x/mod"})
	for _, r := range resp.Records {
		fmt.Println(r.Location(), r.Provenance, r.Trust, r.Metadata.Excerpt)
	}
	// Output:
	// go.mod:5:1-5:33 manifest structural golang.org/x/mod v0.17.0 (declared v0.17.0) in go.mod:5
}

// A host maps its configuration onto DocsOptions; the zero value is
// disabled, and the key is the key itself, read by the host from the
// variable it names.
func ExampleCheckDocs() {
	fmt.Println(depdocs.CheckDocs(depdocs.DocsOptions{}).State)
	// The host sets APIKey to os.Getenv(KeyEnv); here the variable is unset.
	opts := depdocs.DocsOptions{Enabled: true, KeyEnv: "CODECORTEX_DEPENDENCY_DOCS_API_KEY"}
	fmt.Println(depdocs.CheckDocs(opts))
	opts.APIKey, opts.BaseURL = "ctx7sk-example", "http://docs.example.com/api"
	fmt.Println(depdocs.CheckDocs(opts).State)
	// Output:
	// disabled
	// {credentials missing environment variable CODECORTEX_DEPENDENCY_DOCS_API_KEY is not set}
	// unavailable
}

func ExampleNewDocs() {
	docs := depdocs.NewDocs(depdocs.DocsOptions{}) // disabled: nothing is sent
	r, _ := docs.Docs(context.Background(), depdocs.DocsRequest{Ecosystem: depdocs.NPM, Name: "next", Version: "15.1.8"})
	fmt.Println(r.State, r.Content == "")
	// Output:
	// disabled true
}

// GoBuildList asks the go command for the selected versions; the go
// command works on copies of go.mod and go.sum, so the project is not
// written.
func ExampleGoBuildList() {
	f, err := depdocs.GoBuildList(context.Background(), ".", ".", depdocs.GoBuildOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range f.Deps {
		fmt.Println(d.Name, d.Resolved, d.Relation)
	}
}

// A Cache keeps another provider's answers under .codecortex/cache of the
// project, with secrets masked, and tells git to ignore them.
func ExampleNewCache() {
	dir, _ := os.MkdirTemp("", "cache")
	defer os.RemoveAll(dir)
	inner := depdocs.DocsProviderFunc(func(_ context.Context, req depdocs.DocsRequest) (depdocs.Resolution, error) {
		return depdocs.Resolution{Library: req.Name, Version: req.Version, State: depdocs.DocsExact, Exact: true,
			Label: "v" + req.Version, Content: "docs for " + req.Question}, nil
	})
	c := depdocs.NewCache(dir, inner, depdocs.CacheOptions{})
	req := depdocs.DocsRequest{Ecosystem: depdocs.NPM, Name: "next", Version: "15.1.8", Question: "why does password=hunter2 fail"}
	for range 2 {
		r, _ := c.Docs(context.Background(), req)
		fmt.Println(r.Cached, r.Content)
	}
	ignore, _ := os.ReadFile(filepath.Join(dir, ".codecortex", "cache", ".gitignore"))
	fmt.Printf("%q\n", ignore)
	fmt.Println(depdocs.PurgeCache(dir))
	// Output:
	// false docs for why does password=[REDACTED] fail
	// true docs for why does password=[REDACTED] fail
	// "*\n"
	// <nil>
}

// DocsEvidence asks for the documentation of the version the project
// installed; its zero value answers disabled.
func ExampleDocsEvidence() {
	dir, _ := os.MkdirTemp("", "docs")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "requirements.txt"), []byte("flask==3.0.0\n"), 0o644)
	docs := depdocs.DocsProviderFunc(func(_ context.Context, req depdocs.DocsRequest) (depdocs.Resolution, error) {
		fmt.Println("asked for", req.Name, req.Version)
		return depdocs.Resolution{Library: req.Name, Version: req.Version, State: depdocs.DocsUnavailable, Reason: "offline"}, nil
	})
	for _, p := range []*depdocs.DocsEvidence{{Dir: dir, Docs: docs}, {Dir: dir}} {
		resp, _ := p.Gather(context.Background(), evidence.Query{Text: "how do flask blueprints work?"})
		fmt.Println(resp.Report.State, resp.Report.Reason)
	}
	// Output:
	// asked for flask 3.0.0
	// unavailable unavailable: offline
	// disabled no documentation provider configured
}

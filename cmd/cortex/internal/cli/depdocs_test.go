package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/internal/testtool"
)

func depsProject(t *testing.T, cfg string) string {
	t.Helper()
	files := map[string]string{
		"package.json":      `{"dependencies":{"next":"^15.0.0"},"devDependencies":{"zod":"^4.4.3"}}`,
		"package-lock.json": `{"lockfileVersion":3,"packages":{"":{"dependencies":{"next":"^15.0.0"},"devDependencies":{"zod":"^4.4.3"}},"node_modules/next":{"version":"15.4.3","dependencies":{"zod":"^4.1.0"}},"node_modules/next/node_modules/zod":{"version":"4.1.8"},"node_modules/zod":{"version":"4.4.3","dev":true}}}`,
	}
	if cfg != "" {
		files[".codecortex/config.json"] = cfg
	}
	return testtool.WriteTree(t, files)
}

func TestDepsCommand(t *testing.T) {
	dir := depsProject(t, "")
	code, out, errs := run(t, dir, nil, "deps")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"next", "^15.0.0", "15.4.3", "npm zod resolves to 2 versions: 4.1.8, 4.4.3 (direct: 4.4.3)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = run(t, dir, nil, "deps", "--json")
	var pr struct {
		Dependencies []struct{ Name, Declared, Resolved string } `json:"dependencies"`
	}
	if code != ExitOK || json.Unmarshal([]byte(out), &pr) != nil || len(pr.Dependencies) != 3 {
		t.Fatalf("exit %d, json %s", code, out)
	}
	code, out, _ = run(t, dir, nil, "deps", "why", "zod")
	if code != ExitOK || !strings.Contains(out, "declared in package.json:1: zod ^4.4.3 [dev]") || !strings.Contains(out, "pulled in by next@15.4.3") {
		t.Errorf("why: exit %d\n%s", code, out)
	}
	if code, _, _ := run(t, dir, nil, "deps", "why", "nope"); code != ExitFail {
		t.Errorf("why of a non-dependency: exit %d", code)
	}
	if code, _, _ := run(t, dir, nil, "deps", "what"); code != ExitFail {
		t.Errorf("deps of a name no dependency has: exit %d", code)
	}
}

func TestDocsCommand(t *testing.T) {
	const key = "ctx7sk-cli-SECRET-777777777"
	var queries []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		queries = append(queries, r.URL.RawQuery)
		if r.Header.Get("Authorization") != "Bearer "+key {
			w.WriteHeader(401)
			fmt.Fprintf(w, `{"error":"invalid_api_key","message":"got %s"}`, r.Header.Get("Authorization"))
			return
		}
		switch r.URL.Path {
		case "/v2/libs/search":
			fmt.Fprint(w, `{"results":[{"id":"/vercel/next.js","state":"finalized","versions":["v15.4.3","v14.0.0"]}]}`)
		case "/v2/context":
			fmt.Fprint(w, `{"infoSnippets":[{"content":"Use the app router."}],"codeSnippets":[]}`)
		}
	}))
	defer srv.Close()
	cfg := fmt.Sprintf(`{"dependency_docs":{"enabled":true,"base_url":%q}}`, srv.URL)
	dir := depsProject(t, cfg)
	// The configuration names an endpoint: it applies once trusted.
	env := map[string]string{"CODECORTEX_DEPENDENCY_DOCS_API_KEY": key, "CODECORTEX_TRUST_CONFIG": "any"}

	code, out, errs := run(t, dir, env, "docs", "next", "app router")
	if code != ExitOK || !strings.Contains(out, "installed  15.4.3 (declared ^15.0.0)") || !strings.Contains(out, "docs       exact") ||
		!strings.Contains(out, "/vercel/next.js/v15.4.3") || !strings.Contains(out, "Use the app router.") {
		t.Errorf("exit %d:\n%s%s", code, out, errs)
	}
	// Second time from the cache.
	_, out, _ = run(t, dir, env, "docs", "--json", "next", "app router")
	if !strings.Contains(out, `"cached": true`) || !strings.Contains(out, `"exact": true`) {
		t.Errorf("cached: %s", out)
	}
	// A wrong key: unavailable, exit 1, and the key is nowhere.
	bad := map[string]string{"CODECORTEX_DEPENDENCY_DOCS_API_KEY": "ctx7sk-wrong-XXXXXXXXXXXX", "CODECORTEX_TRUST_CONFIG": "any"}
	code, out, errs = run(t, dir, bad, "docs", "zod", "schemas")
	if code != ExitFail || !strings.Contains(out, "rejected the API key") || strings.Contains(out+errs, "wrong-XXXX") {
		t.Errorf("wrong key: exit %d\n%s%s", code, out, errs)
	}
	for _, q := range queries {
		if strings.Contains(q, dir) || strings.Contains(q, "package") {
			t.Errorf("request carries more than name, version and question: %s", q)
		}
	}
	// Disabled (the default) and uncredentialed.
	plain := depsProject(t, "")
	if code, out, _ := run(t, plain, env, "docs", "next"); code != ExitFail || !strings.Contains(out, "docs       disabled") {
		t.Errorf("disabled: exit %d\n%s", code, out)
	}
	if code, out, _ := run(t, dir, map[string]string{"CODECORTEX_TRUST_CONFIG": "any"}, "docs", "next"); code != ExitFail || !strings.Contains(out, "credentials missing") {
		t.Errorf("no key: exit %d\n%s", code, out)
	}
}

func TestDoctorDependencyDocs(t *testing.T) {
	for _, c := range []struct {
		cfg   string
		env   map[string]string
		state string
	}{
		{"", nil, "disabled"},
		{`{"dependency_docs":{"enabled":true}}`, nil, "disabled"}, // not trusted: withheld
		{`{"dependency_docs":{"enabled":true}}`, map[string]string{"CODECORTEX_TRUST_CONFIG": "any"}, "credentials missing"},
		{`{"dependency_docs":{"enabled":true}}`, map[string]string{"CODECORTEX_DEPENDENCY_DOCS_API_KEY": "ctx7sk-doctor-KEY-55555555", "CODECORTEX_TRUST_CONFIG": "any"}, "available"},
	} {
		dir := depsProject(t, c.cfg)
		_, out, _ := run(t, dir, c.env, "doctor", "--json")
		var rep struct {
			Layers []struct{ Layer, State string } `json:"layers"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err, out)
		}
		found := false
		for _, l := range rep.Layers {
			if l.Layer == "dependency docs" {
				found = true
				if l.State != c.state {
					t.Errorf("%s: state %q, want %q", c.cfg, l.State, c.state)
				}
			}
		}
		if !found || strings.Contains(out, "doctor-KEY") {
			t.Errorf("doctor output: %s", out)
		}
	}
}

// deps NAME..., --ecosystem and --direct keep what the MCP tool
// cortex_deps keeps for name, ecosystem and direct_only; a name that
// matches nothing is said so, with exit 1.
func TestDepsFilter(t *testing.T) {
	dir := depsProject(t, "")
	tests := []struct {
		args      []string
		code      int
		deps      []string // name@resolved, in the order printed
		unmatched []string
	}{
		{nil, ExitOK, []string{"next@15.4.3", "zod@4.1.8", "zod@4.4.3"}, nil},
		{[]string{"next"}, ExitOK, []string{"next@15.4.3"}, nil},
		{[]string{"NEXT", "zod"}, ExitOK, []string{"next@15.4.3", "zod@4.1.8", "zod@4.4.3"}, nil},
		{[]string{"zod", "--direct"}, ExitOK, []string{"zod@4.4.3"}, nil},
		{[]string{"--ecosystem", "npm"}, ExitOK, []string{"next@15.4.3", "zod@4.1.8", "zod@4.4.3"}, nil},
		{[]string{"--ecosystem=pypi"}, ExitOK, nil, nil},
		{[]string{"next", "nope"}, ExitFail, []string{"next@15.4.3"}, []string{"nope"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, out, errs := run(t, dir, nil, append([]string{"deps", "--json"}, tt.args...)...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\n%s", code, tt.code, errs)
			}
			var got depsJSON
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			var deps []string
			for _, d := range got.Dependencies {
				deps = append(deps, d.Name+"@"+d.Resolved)
			}
			if diff := cmp.Diff(tt.deps, deps); diff != "" {
				t.Errorf("dependencies (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.unmatched, got.Unmatched); diff != "" {
				t.Errorf("unmatched (-want +got):\n%s", diff)
			}
		})
	}
	// The multi-version line follows the filter.
	if _, out, _ := run(t, dir, nil, "deps", "next"); strings.Contains(out, "zod resolves to") || !strings.Contains(out, "1 of 3 dependencies") {
		t.Errorf("deps next:\n%s", out)
	}
	if code, _, errs := run(t, dir, nil, "deps", "next", "nope"); code != ExitFail || !strings.Contains(errs, "nope is not a dependency of this project") {
		t.Errorf("deps next nope: exit %d\n%s", code, errs)
	}
	for _, tt := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"nope"}, ExitFail, "nope: not a dependency of this project"},
		{[]string{"next", "--ecosystem", "pypi"}, ExitFail, "not a dependency of this project among its pypi dependencies"},
		{[]string{"--ecosystem", "rubygems"}, ExitUsage, `--ecosystem "rubygems": want one of npm, pypi`},
		{[]string{"why"}, ExitUsage, "want [NAME...], or why NAME"},
	} {
		code, out, _ := run(t, dir, nil, append([]string{"deps", "--json"}, tt.args...)...)
		var doc errorJSON
		if err := json.Unmarshal([]byte(out), &doc); err != nil || code != tt.code || !strings.Contains(doc.Error.Message, tt.msg) {
			t.Errorf("deps %q: exit %d, want %d and %q:\n%s", tt.args, code, tt.code, tt.msg, out)
		}
	}
}

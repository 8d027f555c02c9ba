package config

import "testing"

func TestDependencyDocsBaseURL(t *testing.T) {
	for _, c := range []struct {
		raw   string
		want  string
		diags int
	}{
		{`{"dependency_docs":{"base_url":"http://127.0.0.1:8080/api"}}`, "http://127.0.0.1:8080/api", 0},
		{`{"dependency_docs":{}}`, "", 0},
		{`{"dependency_docs":{"base_url":"ftp://x"}}`, "", 1},
		{`{"dependency_docs":{"base_url":"https://user:pw@x"}}`, "", 1},
	} {
		cfg, diags := Parse([]byte(c.raw))
		if cfg.DependencyDocs.BaseURL != c.want || len(diags) != c.diags {
			t.Errorf("%s: base_url %q, %d diagnostics %v; want %q, %d", c.raw, cfg.DependencyDocs.BaseURL, len(diags), diags, c.want, c.diags)
		}
	}
}

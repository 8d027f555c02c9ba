package config

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestPrecisionLanguageServer(t *testing.T) {
	tests := []struct {
		name      string
		json      string
		want      []string
		wantDiags int
	}{
		{"default is empty (gopls)", `{}`, []string{}, 0},
		{"configured", `{"precision_index":{"language_server":["pyright-langserver","--stdio"]}}`, []string{"pyright-langserver", "--stdio"}, 0},
		{"null", `{"precision_index":{"language_server":null}}`, []string{}, 0},
		{"empty argument falls back", `{"precision_index":{"language_server":["gopls",""]}}`, []string{}, 1},
		{"not a list falls back", `{"precision_index":{"language_server":"gopls serve"}}`, []string{}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, diags := Parse([]byte(tt.json))
			if diff := cmp.Diff(tt.want, cfg.PrecisionIndex.LanguageServer); diff != "" {
				t.Errorf("language_server (-want +got):\n%s", diff)
			}
			if len(diags) != tt.wantDiags {
				t.Errorf("diagnostics = %v, want %d", diags, tt.wantDiags)
			}
		})
	}
}

func TestPrecisionLanguageServers(t *testing.T) {
	tests := []struct {
		name      string
		json      string
		want      map[string][]string
		wantDiags int
	}{
		{"default is empty (the well-known servers)", `{}`, map[string][]string{}, 0},
		{"configured", `{"precision_index":{"language_servers":{"python":["basedpyright-langserver","--stdio"],"rust":[],"c":null}}}`,
			map[string][]string{"python": {"basedpyright-langserver", "--stdio"}, "rust": {}, "c": {}}, 0},
		{"unknown language", `{"precision_index":{"language_servers":{"cobol":["cobol-ls"]}}}`, map[string][]string{}, 1},
		{"empty argument", `{"precision_index":{"language_servers":{"python":["pyright-langserver",""]}}}`, map[string][]string{}, 1},
		{"not a map", `{"precision_index":{"language_servers":["gopls"]}}`, map[string][]string{}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, diags := Parse([]byte(tt.json))
			if diff := cmp.Diff(tt.want, cfg.PrecisionIndex.LanguageServers); diff != "" {
				t.Errorf("language_servers (-want +got):\n%s", diff)
			}
			if len(diags) != tt.wantDiags {
				t.Errorf("diagnostics = %v, want %d", diags, tt.wantDiags)
			}
			p := &Project{Root: "/r", Config: cfg}
			if diff := cmp.Diff(tt.want, p.LSPOptions().Servers, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("LSPOptions().Servers (-want +got):\n%s", diff)
			}
		})
	}
	_, diags := Parse([]byte(`{"precision_index":{"language_servers":{"cobol":["x"]}}}`))
	if len(diags) != 1 || !strings.Contains(diags[0].Message, `"cobol" is not a language with a server (go, python, typescript`) {
		t.Errorf("diagnostic = %v, want one naming the languages", diags)
	}
}

func TestLanguageServerTimeout(t *testing.T) {
	for _, tt := range []struct {
		json  string
		want  int
		diags int
	}{
		{`{}`, 0, 0},
		{`{"precision_index":{"language_server_timeout_seconds":20}}`, 20, 0},
		{`{"precision_index":{"language_server_timeout_seconds":-1}}`, 0, 1},
		{`{"precision_index":{"language_server_timeout_seconds":601}}`, 0, 1},
	} {
		cfg, diags := Parse([]byte(tt.json))
		if cfg.PrecisionIndex.LanguageServerTimeoutSeconds != tt.want || len(diags) != tt.diags {
			t.Errorf("%s: %d, %v; want %d, %d diagnostics", tt.json, cfg.PrecisionIndex.LanguageServerTimeoutSeconds, diags, tt.want, tt.diags)
		}
	}
	p := &Project{Root: "/r", Config: Default()}
	if o := p.LSPOptions(); o.RequestTimeout != 0 || o.LoadTimeout != 0 {
		t.Errorf("default: %+v, want the layer's defaults", o)
	}
	p.Config.PrecisionIndex.LanguageServerTimeoutSeconds = 20
	if o := p.LSPOptions(); o.RequestTimeout != 20*time.Second || o.LoadTimeout != 120*time.Second {
		t.Errorf("20 s: request %v load %v, want 20s and 2m0s", o.RequestTimeout, o.LoadTimeout)
	}
}

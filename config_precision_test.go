package codecortex

import (
	"testing"

	"github.com/google/go-cmp/cmp"
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
			cfg, diags := ParseConfig([]byte(tt.json))
			if diff := cmp.Diff(tt.want, cfg.PrecisionIndex.LanguageServer); diff != "" {
				t.Errorf("language_server (-want +got):\n%s", diff)
			}
			if len(diags) != tt.wantDiags {
				t.Errorf("diagnostics = %v, want %d", diags, tt.wantDiags)
			}
		})
	}
}

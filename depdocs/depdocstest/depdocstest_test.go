package depdocstest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/codecortex/codecortex/depdocs"
	"github.com/codecortex/codecortex/depdocs/depdocstest"
)

func TestShippedProviders(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v2/libs/search":
			fmt.Fprint(w, `{"results":[{"id":"/o/r","state":"finalized","versions":["15.1.8"]}]}`)
		default:
			fmt.Fprint(w, `{"infoSnippets":[{"content":"docs"}]}`)
		}
	}))
	defer srv.Close()
	client := depdocs.NewContext7(depdocs.Context7Options{BaseURL: srv.URL, APIKey: "ctx7sk-conformance-000000"})
	for name, p := range map[string]depdocs.DocsProvider{
		"context7": client,
		"cache":    depdocs.NewCache(t.TempDir(), client, depdocs.CacheOptions{ServeStale: true}),
		"disabled": depdocs.Disabled{},
		"configured": depdocs.NewDocs(depdocs.DocsOptions{Enabled: true, Dir: t.TempDir(), BaseURL: srv.URL,
			APIKey: "ctx7sk-conformance-000000", KeyEnv: "CODECORTEX_DEPENDENCY_DOCS_API_KEY"}),
		"zero options": depdocs.NewDocs(depdocs.DocsOptions{}),
		"func": depdocs.DocsProviderFunc(func(_ context.Context, req depdocs.DocsRequest) (depdocs.Resolution, error) {
			return depdocs.Resolution{Library: req.Name, State: depdocs.DocsUnavailable, Reason: "test"}, nil
		}),
	} {
		t.Run(name, func(t *testing.T) { depdocstest.TestProvider(t, p) })
	}
}

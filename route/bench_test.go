package route_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/route"
)

func BenchmarkRoute(b *testing.B) {
	for _, q := range []string{
		"Where is AuthService defined?",
		"Is this method deprecated in our installed version?",
		"Migrate `oldAPI($X)` to `newAPI($X, nil)`",
	} {
		b.Run(q, func(b *testing.B) {
			req := route.Request{Text: q, Declared: declared}
			for b.Loop() {
				route.Route(req)
			}
		})
	}
}

// Routing time grows linearly with the text up to MaxText and stays flat
// beyond it, whatever the text repeats: compare ns/op across sizes.
func BenchmarkRouteLength(b *testing.B) {
	fillers := map[string]string{
		"words":     "who calls the refresh_token of AuthService.Refresh ",
		"slots":     "where is the the the ",
		"backticks": "`` ` ``` ",
		"patterns":  "foo($X, ",
		"dotted":    "a.b.c.",
		"declared":  "react cobra @tanstack/react-query ",
	}
	for _, name := range []string{"words", "slots", "backticks", "patterns", "dotted", "declared"} {
		for _, n := range []int{512, 1024, 2048, 4096, 16384} {
			text := strings.Repeat(fillers[name], n/len(fillers[name])+1)[:n]
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
				req := route.Request{Text: text, Declared: declared}
				for b.Loop() {
					route.Route(req)
				}
			})
		}
	}
}

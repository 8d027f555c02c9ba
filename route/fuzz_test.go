package route_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/route"
)

// The text classifier reads outside input: whatever the text, Route returns
// a valid plan, the same one twice, with names taken from the text.
func FuzzRoute(f *testing.F) {
	for _, s := range []string{
		"Where is AuthService defined?", "Who calls refresh_token?", "What changed in this file?",
		"Is this method deprecated in our installed version?", "Find all usages of this old API shape.",
		"Migrate all old API calls to the new shape.", "find all usages of `oldAPI($X)`",
		"replace all `errors.Wrap($E, $M)` with `fmt.Errorf($M, $E)`", "find code\n```go\nfoo($X)\n```",
		"``` `` ` $$$ (( $A( where's isn't react's", "which version of react@18 do we use",
		strings.Repeat("where is ", 200), strings.Repeat("`", 300), strings.Repeat("$X(", 300),
	} {
		f.Add(s, "", "npm:react\ngo:github.com/spf13/cobra", 0)
	}
	f.Add("who calls this?", "callers", "", 12)
	f.Add("apply the rewrite", "apply", "react", 1)
	f.Fuzz(func(t *testing.T, text, intent, declared string, line int) {
		req := route.Request{Text: text, Intent: route.Intent(intent), Declared: strings.Split(declared, "\n"), Line: line}
		if line != 0 {
			req.Path = "a.go"
		}
		p := route.Route(req)
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(p, route.Route(req)); diff != "" {
			t.Fatalf("not deterministic (-first +second):\n%s", diff)
		}
		norm := strings.ReplaceAll(text, "’", "'")
		for _, n := range p.Names {
			// A member named in words ("the X method of T") is T.X: its
			// parts are in the text, not the joined name.
			if n.Origin != route.FromRequest && !nameInText(n, norm) {
				t.Fatalf("name %q is not in the text", n.Text)
			}
		}
		for _, l := range p.Layers() {
			if !readOnly[l] || l == route.Preview {
				t.Fatalf("step %q", l)
			}
		}
	})
}

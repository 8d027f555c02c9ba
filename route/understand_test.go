package route_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/route"
)

// TestUnderstanding checks what the plan records of a question that names
// a member in words, a kind, a subtype relation or its tests.
func TestUnderstanding(t *testing.T) {
	type name struct{ Text, Qualifier, Base, Kind string }
	cases := []struct {
		text   string
		intent route.Intent
		names  []name
	}{
		{"Where is the Refresh method of AuthService?", route.IntentDefinition,
			[]name{{"AuthService.Refresh", "AuthService", "Refresh", "method"}}},
		{"show the method flush on the Writer", route.IntentDefinition,
			[]name{{"Writer.flush", "Writer", "flush", "method"}}},
		{"the run function in task_queue", route.IntentDefinition,
			[]name{{"task_queue.run", "task_queue", "run", "function"}}},
		{"find the Querier interface", route.IntentDefinition, []name{{"Querier", "", "Querier", "interface"}}},
		{"struct Engine", route.IntentDefinition, []name{{"Engine", "", "Engine", "struct"}}},
		{"where is the store trait defined?", route.IntentDefinition, []name{{"store", "", "store", "trait"}}},
		{"Which function handles the flag?", route.IntentDefinition, nil},
		{"the html method of Attribute", route.IntentDefinition,
			[]name{{"Attribute.html", "Attribute", "html", "method"}}},
		{"show me method read on Type", route.IntentDefinition,
			[]name{{"Type.read", "Type", "read", "method"}}},
		{"show me method namespace on ClassMethods", route.IntentDefinition,
			[]name{{"ClassMethods.namespace", "ClassMethods", "namespace", "method"}}},
		{"show me the class method of Foo", route.IntentDefinition,
			[]name{{"Foo", "", "Foo", ""}}},
		{"the Match method of matcher", route.IntentDefinition,
			[]name{{"matcher.Match", "matcher", "Match", "method"}}},
		{"show me method Middleware on middleware", route.IntentDefinition,
			[]name{{"middleware.Middleware", "middleware", "Middleware", "method"}}},
		{"the run method of matcher", route.IntentSearch, []name{{"run", "", "run", "method"}}},
		{"Who calls the Close method of Pool?", route.IntentCallers,
			[]name{{"Pool.Close", "Pool", "Close", "method"}}},
		{"which structs embed or extend Reader?", route.IntentImplementations, []name{{"Reader", "", "Reader", ""}}},
		{"subtypes of Shape", route.IntentImplementations, []name{{"Shape", "", "Shape", ""}}},
		{"what derives from BaseModel?", route.IntentImplementations, []name{{"BaseModel", "", "BaseModel", ""}}},
		{"list the classes that inherit from Widget", route.IntentImplementations, []name{{"Widget", "", "Widget", ""}}},
		{"which tests exercise Tokenize?", route.IntentTests, []name{{"Tokenize", "", "Tokenize", ""}}},
		{"is Config tested?", route.IntentTests, []name{{"Config", "", "Config", ""}}},
		{"are the tests passing?", route.IntentValidation, nil},
		{"who calls (*Router).ServeHTTP?", route.IntentCallers, []name{{"Router.ServeHTTP", "Router", "ServeHTTP", ""}}},
		{"where is `(Router).Close` defined", route.IntentDefinition, []name{{"Router.Close", "Router", "Close", ""}}},
		{"which functions invoke parseConfig?", route.IntentCallers, []name{{"parseConfig", "", "parseConfig", ""}}},
		{"where do we call parseConfig", route.IntentCallers, []name{{"parseConfig", "", "parseConfig", ""}}},
		{"which tests call parseConfig?", route.IntentTests, []name{{"parseConfig", "", "parseConfig", ""}}},
		{"parseConfig is used where?", route.IntentReferences, []name{{"parseConfig", "", "parseConfig", ""}}},
		{"find all places that call NewClient", route.IntentCallers, []name{{"NewClient", "", "NewClient", ""}}},
		{"places where NewClient is called", route.IntentCallers, []name{{"NewClient", "", "NewClient", ""}}},
		{"Which files import Foo?", route.IntentReferences, []name{{"Foo", "", "Foo", ""}}},
		{"how many places use Client", route.IntentReferences, []name{{"Client", "", "Client", ""}}},
		{"Where is Foo instantiated?", route.IntentReferences, []name{{"Foo", "", "Foo", ""}}},
		{"Any classes overriding Foo.run?", route.IntentImplementations, []name{{"Foo.run", "Foo", "run", ""}}},
		{"What are the concrete implementations of Storage?", route.IntentImplementations,
			[]name{{"Storage", "", "Storage", ""}, {"concrete", "", "concrete", ""}}},
	}
	for _, c := range cases {
		t.Run(c.text, func(t *testing.T) {
			p := route.Route(route.Request{Text: c.text})
			if err := p.Validate(); err != nil {
				t.Fatal(err)
			}
			var got []name
			for _, n := range p.Names {
				got = append(got, name{n.Text, n.Qualifier, n.Base, n.Kind})
			}
			if p.Intent != c.intent {
				t.Errorf("intent %s (cue %s), want %s", p.Intent, p.Cue, c.intent)
			}
			if d := cmp.Diff(c.names, got); d != "" {
				t.Errorf("names (-want +got):\n%s", d)
			}
		})
	}
}

// TestPlainWords: a question whose names are plain words sets Search, and
// the words after a name's slot give joined names to try first.
func TestPlainWords(t *testing.T) {
	cases := []struct {
		text   string
		search bool
		names  []string
	}{
		{"where is the retry queue implemented?", true,
			[]string{"retryQueue", "retry_queue", "queue", "retry"}},
		{"where are HTTP handlers registered?", true,
			[]string{"httpHandlers", "httpHandler", "http_handlers", "http_handler", "handlers", "handler", "HTTP"}},
		{"where is main defined", true, []string{"main"}},
		{"where is RetryQueue defined?", false, []string{"RetryQueue"}},
		{"who calls retry_queue?", false, []string{"retry_queue"}},
		{"where is the code that handles HTTP retries?", true, []string{"code"}},
		// A word that names nothing in prose, in a slot, is a guess for a
		// question about a symbol only, and a word that ends a slot phrase
		// is none.
		{"callers of latest", true, []string{"latest"}},
		{"usages of is", true, []string{"is"}},
		{"where is this defined?", false, nil},
		{"what is our convention for error wrapping?", false, nil},
	}
	for _, c := range cases {
		t.Run(c.text, func(t *testing.T) {
			p := route.Route(route.Request{Text: c.text})
			var got []string
			for _, n := range p.Names {
				got = append(got, n.Text)
			}
			if p.Search != c.search {
				t.Errorf("Search %v, want %v", p.Search, c.search)
			}
			if d := cmp.Diff(c.names, got); d != "" {
				t.Errorf("names (-want +got):\n%s", d)
			}
		})
	}
}

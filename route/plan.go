package route

import (
	"errors"
	"fmt"
	"strings"
)

// A Request is what the router classifies: the question's text and whatever
// structure the caller already has, plus what the caller knows of the
// repository. Every field may be empty; Route never modifies a Request.
type Request struct {
	// Text is the question as asked. Route reads at most [MaxText] bytes
	// of it.
	Text string `json:"text,omitempty"`
	// Path, Line and Column name a position (root-relative path,
	// one-based line and code-point column; Column 0 means the whole
	// line). A Path alone names a file.
	Path   string `json:"path,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	// Symbol is a symbol name, or a resolved symbol, the question is about.
	Symbol string `json:"symbol,omitempty"`
	// Pattern is a structural pattern (ast-grep syntax, with $X and
	// $$$ARGS metavariables), and Language its language; an empty
	// Language leaves it to the structural layer to infer per file.
	Pattern  string `json:"pattern,omitempty"`
	Language string `json:"language,omitempty"`
	// Intent, when it is one of [Intents], overrides the intent the text
	// would give; the text still supplies names and patterns. Any other
	// value is ignored, and the plan says so in its notes.
	Intent Intent `json:"intent,omitempty"`
	// Declared lists the third-party dependencies the repository declares
	// in its manifests, each as "ecosystem:name" (the ecosystems depdocs
	// names: npm, pypi, cargo, go, maven, nuget) or as a bare name. The
	// remote documentation layer is proposed only for a question that
	// concerns one of them, so with Declared empty it is never proposed.
	// Entries holding spaces or control characters are ignored: no package
	// name has them.
	Declared []string `json:"declared,omitempty"`
}

// A Step is one layer the plan proposes, with the reason for it.
type Step struct {
	Layer Layer `json:"layer"`
	// Reason is one sentence naming the words or structure of the request
	// that led to the step.
	Reason string `json:"reason"`
}

// Origin says where a [Name] came from.
type Origin string

// The origins of names.
const (
	// FromRequest is the request's Symbol field.
	FromRequest Origin = "request"
	// FromCode is a name written as inline code, in backticks.
	FromCode Origin = "code"
	// FromText is a name found in the prose: a token shaped like code
	// (AuthService, refresh_token, Type.Method, refresh()), a capitalised
	// word in mid-sentence that names no dependency ("the Fuse function"),
	// or the word in a question's name slot ("where is X defined", "who
	// calls X").
	FromText Origin = "text"
	// FromWords is a name joined from plain words that follow a name's
	// slot ("the scrape loop" gives scrapeLoop and scrape_loop): a guess,
	// which the engine keeps only when the project defines it.
	FromWords Origin = "words"
)

// A Name is a symbol name the request mentions, to be resolved by the engine.
type Name struct {
	// Text is the name as written, without backticks or call parentheses:
	// "AuthService", "refresh_token", "AuthService.Refresh", "http.Get",
	// "Vec::new".
	Text string `json:"text"`
	// Qualifier is what precedes the last separator (".", "::" or "#"):
	// a type, a package or a module. Empty for a simple name.
	Qualifier string `json:"qualifier,omitempty"`
	// Base is the last identifier: the name to look up.
	Base string `json:"base"`
	// Kind is the kind of definition the question says the name is, from
	// a kind word beside it ("the Querier interface", "class CGI", "the
	// Execute method of Command"): interface, class, struct, trait, enum,
	// type, module, function, method, field, member, constant, variable
	// or macro. Empty when the question says none.
	Kind   string `json:"kind,omitempty"`
	Origin Origin `json:"origin"`
}

// A Plan is the router's answer: which layers to consult, in order of
// preference, and why; which optional layers were not proposed, and why;
// and what the router extracted from the request for the engine to use.
//
// Invariants, checked by [Plan.Validate]: Intent is one of [Intents]; every
// step names a known layer and carries a one-sentence reason; no layer
// appears twice in Steps or in FollowOn; each optional layer appears exactly
// once across Steps and Skipped; Preview appears only in FollowOn, and
// FollowOn is non-empty only for a migration and holds only Impact, Preview
// and Validation. No plan applies a change: there is no layer for it.
type Plan struct {
	// Intent is the intent the router recognised (or the request stated),
	// and Cue the words or structure that decided it, such as
	// `"who calls"` or `the request's intent "callers"`.
	Intent Intent `json:"intent"`
	Cue    string `json:"cue"`
	// Steps are the layers to consult for the answer, the preferred first;
	// later steps are fallbacks or complements of earlier ones.
	Steps []Step `json:"steps"`
	// FollowOn are the steps of a migration after the answer: impact
	// analysis, a rewrite preview and validation. A preview is the most a
	// plan proposes; applying it needs explicit authorization.
	FollowOn []Step `json:"follow_on,omitempty"`
	// Skipped lists every optional layer not in Steps, each with the reason
	// it was not proposed.
	Skipped []Step `json:"skipped,omitempty"`
	// Names are the symbol names the request mentions, the request's
	// Symbol first, then in order of appearance, without duplicates.
	Names []Name `json:"names,omitempty"`
	// Files are file paths the text mentions (a token with a source file
	// extension, or starting with ./ or ../), in order of appearance.
	Files []string `json:"files,omitempty"`
	// Pattern is the structural pattern: the request's, or one pasted in
	// the text (inline code with metavariables such as $X or $$$ARGS, or
	// other inline code that is not a plain name). Replacement is the
	// shape a migration moves to, when the text gives it ("… to `new($X)`").
	Pattern     string `json:"pattern,omitempty"`
	Replacement string `json:"replacement,omitempty"`
	// Language is the pattern's language: the request's, or the info
	// string of a fenced code block. Empty means the structural layer
	// infers it per file.
	Language string `json:"language,omitempty"`
	// Dependencies are the entries of Request.Declared the question names,
	// as declared, in order of first mention.
	Dependencies []string `json:"dependencies,omitempty"`
	// Notes are sentences about the request that are not steps: an ignored
	// intent or position, libraries named but not declared, and the
	// reminder that a migration is never applied automatically.
	Notes []string `json:"notes,omitempty"`
	// Truncated is set when the text was longer than [MaxText] and only its
	// beginning was read.
	Truncated bool `json:"truncated,omitempty"`
	// Search is set when no name the question gives is written as code:
	// the names are plain words in a name's slot ("where is the scrape
	// loop implemented?" gives scrape). A ranked search of the question's
	// words then joins the lookup of the names, and answers when they
	// name nothing.
	Search bool `json:"search,omitempty"`
}

// Proposes reports whether the plan's Steps or FollowOn include layer l.
func (p Plan) Proposes(l Layer) bool {
	for _, s := range p.Steps {
		if s.Layer == l {
			return true
		}
	}
	for _, s := range p.FollowOn {
		if s.Layer == l {
			return true
		}
	}
	return false
}

// Layers returns the layers of Steps, in order: the ones the engine runs to
// answer the request.
func (p Plan) Layers() []Layer {
	out := make([]Layer, len(p.Steps))
	for i, s := range p.Steps {
		out[i] = s.Layer
	}
	return out
}

// Optional returns the optional layers among Steps, in order.
func (p Plan) Optional() []Layer {
	var out []Layer
	for _, s := range p.Steps {
		if s.Layer.Optional() {
			out = append(out, s.Layer)
		}
	}
	return out
}

// ErrInvalidPlan is wrapped by every error [Plan.Validate] returns.
var ErrInvalidPlan = errors.New("route: invalid plan")

// Validate checks the invariants written on [Plan] and returns an error
// wrapping [ErrInvalidPlan] that lists every broken one. Plans from [Route]
// always pass; a host that builds or edits a plan checks it here.
func (p Plan) Validate() error {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	if !p.Intent.Valid() {
		bad("unknown intent %q", p.Intent)
	}
	check := func(list string, steps []Step) map[Layer]bool {
		seen := map[Layer]bool{}
		for _, s := range steps {
			if !s.Layer.Valid() {
				bad("%s: unknown layer %q", list, s.Layer)
			}
			if seen[s.Layer] {
				bad("%s: layer %s appears twice", list, s.Layer)
			}
			seen[s.Layer] = true
			if strings.TrimSpace(s.Reason) == "" {
				bad("%s: layer %s has no reason", list, s.Layer)
			} else if strings.ContainsAny(s.Reason, "\r\n") {
				bad("%s: layer %s: the reason is not one sentence", list, s.Layer)
			}
		}
		return seen
	}
	steps := check("steps", p.Steps)
	check("follow_on", p.FollowOn)
	skipped := check("skipped", p.Skipped)
	if steps[Preview] {
		bad("steps: a rewrite preview is a follow-on step of a migration")
	}
	if len(p.FollowOn) > 0 && p.Intent != IntentMigration {
		bad("follow_on: only a migration has follow-on steps, not %s", p.Intent)
	}
	for _, s := range p.FollowOn {
		if s.Layer != Impact && s.Layer != Preview && s.Layer != Validation {
			bad("follow_on: layer %s is not impact, preview or validation", s.Layer)
		}
	}
	for _, s := range p.Skipped {
		if !s.Layer.Optional() {
			bad("skipped: layer %s is not optional", s.Layer)
		}
	}
	for _, l := range OptionalLayers() {
		if steps[l] == skipped[l] {
			bad("optional layer %s must appear exactly once in steps or skipped", l)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrInvalidPlan, strings.Join(errs, "; "))
}

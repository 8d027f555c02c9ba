package route

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Route classifies a request and returns its plan. It reads only the
// request: no files, no network, no clock, so the same request always gets
// the same plan. It never fails; what it cannot use in a request (an unknown
// intent, a malformed position) it ignores and says so in the plan's notes.
//
// The plan proposes the local layers freely, each optional layer only for a
// reason it writes down, the remote documentation layer only for a question
// about a dependency listed in Request.Declared, and never a change to the
// repository: a migration ends at a rewrite preview.
func Route(req Request) Plan {
	text, truncated := capText(req.Text)
	a := analyse(text)
	a.slotNames()
	a.members()
	r := &router{req: req, a: a, decl: newDeclaredIndex(req.Declared)}
	r.plan.Truncated = truncated
	r.readPosition()
	r.plan.Files = dedupe(a.files)
	r.readDependencies()
	r.plan.Names = codeFirst(a.orderedNames(strings.TrimSpace(req.Symbol), func(name string) bool {
		return r.decl.names(name) || slices.Contains(r.undeclared, name)
	}))
	r.classify()
	r.guessNames()
	r.readPattern()
	r.build()
	r.searchWords()
	if truncated {
		r.note(fmt.Sprintf("Only the first %d bytes of the text were read.", MaxText))
	}
	return r.plan
}

type router struct {
	req  Request
	a    *analysis
	decl declaredIndex
	plan Plan

	pos        string // "path:line[:column]" of a valid position
	file       string // the request's path, with or without a position
	undeclared []string
	depWord    string // the first words that speak of a dependency
	applyWord  string
}

func (r *router) note(s string) { r.plan.Notes = append(r.plan.Notes, s) }

func dedupe(list []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// readPosition keeps a position that names a file and a line, a path alone
// as a file, and notes what it ignores.
func (r *router) readPosition() {
	q := r.req
	switch {
	case q.Path == "" && (q.Line != 0 || q.Column != 0):
		r.note("The request has a line or column but no path, so its position was ignored.")
	case q.Path == "":
	case q.Line < 0 || q.Column < 0:
		r.file = oneLine(q.Path)
		r.note("The request's line or column is negative, so only its path was kept.")
	case q.Line == 0 && q.Column > 0:
		r.file = oneLine(q.Path)
		r.note("The request has a column but no line, so only its path was kept.")
	case q.Line == 0:
		r.file = oneLine(q.Path)
	default:
		r.file = oneLine(q.Path)
		r.pos = r.file + ":" + strconv.Itoa(q.Line)
		if q.Column > 0 {
			r.pos += ":" + strconv.Itoa(q.Column)
		}
	}
}

// readDependencies finds the declared dependencies the request names, the
// libraries it names that are not declared, and words that speak of a
// dependency without naming one.
func (r *router) readDependencies() {
	r.plan.Dependencies = r.declaredNamed()
	r.undeclared = r.undeclaredNamed()
	dependencyWords().matches(r.a.toks, func(h hit) {
		if r.depWord == "" {
			r.depWord = r.a.phraseText(h)
		}
	})
	for _, t := range r.a.toks {
		if t.word == "apply" || t.word == "applying" {
			r.applyWord = t.word
			break
		}
	}
}

// declaredNamed returns the declared dependencies the request names, in
// the order of their first mention, each once.
func (r *router) declaredNamed() []string {
	// The first mention of each alias, then its entries once each, so the
	// work is linear in the text and in Declared.
	first := map[string]int{}
	mention := func(word string, pos int) {
		if a, ok := r.decl.alias(word); ok {
			if p, seen := first[a]; !seen || pos < p {
				first[a] = pos
			}
		}
	}
	for _, t := range r.a.toks {
		if t.code < 0 {
			mention(t.word, t.pos)
		}
	}
	if s := strings.TrimSpace(r.req.Symbol); s != "" {
		n := makeName(s, FromRequest)
		mention(n.Text, -1)
		mention(n.Qualifier, -1)
	}
	for _, n := range r.a.names {
		mention(n.Text, n.pos)
		mention(n.Qualifier, n.pos)
		if parts, ok := splitQualified(n.Qualifier); ok && len(parts) > 1 {
			mention(parts[0], n.pos)
		}
	}
	type entryAt struct {
		pos   int
		entry string
	}
	var ms []entryAt
	for a, pos := range first {
		for _, e := range r.decl.byAlias[a] {
			ms = append(ms, entryAt{pos, e})
		}
	}
	sort.Slice(ms, func(i, j int) bool {
		if ms[i].pos != ms[j].pos {
			return ms[i].pos < ms[j].pos
		}
		return ms[i].entry < ms[j].entry
	})
	var deps []string
	for _, m := range ms {
		deps = append(deps, m.entry)
	}
	return dedupe(deps)
}

// undeclaredNamed returns the libraries the request names that are not
// declared: words in a library's place, and name@version, each once.
func (r *router) undeclaredNamed() []string {
	var libs []string
	librarySlots().matches(r.a.toks, func(h hit) {
		t := r.a.toks[h.slot]
		if t.code >= 0 {
			return
		}
		w := libraryWord(t.word)
		if r.decl.names(w) || !libraryLike(w) {
			return
		}
		if _, code := codeLike(t.raw); code {
			return
		}
		libs = append(libs, libraryWord(t.raw))
	})
	for _, t := range r.a.toks {
		k := strings.LastIndexByte(t.word, '@')
		if t.code >= 0 || k <= 0 || k+1 >= len(t.word) || r.decl.names(t.word) {
			continue
		}
		if c := t.word[k+1]; (c >= '0' && c <= '9' || c == 'v' || c == '^' || c == '~') && libraryLike(t.word[:k]) {
			libs = append(libs, libraryWord(t.raw))
		}
	}
	return dedupe(libs)
}

// classify decides the intent and the cue that decided it.
func (r *router) classify() {
	p := &r.plan
	if r.req.Intent != "" {
		if r.req.Intent.Valid() {
			p.Intent, p.Cue = r.req.Intent, fmt.Sprintf("the request's intent %q", r.req.Intent)
			return
		}
		r.note(fmt.Sprintf("The request's intent %q is not a known intent and was ignored.", abbrev(string(r.req.Intent))))
	}
	// A cue matched strictly inside another cue's words is that cue's
	// subject ("where is subclasses called?" asks for callers of a method
	// named subclasses), not a cue of its own.
	var hits []hit
	intentCues().matches(r.a.cueTokens(), func(h hit) {
		if len(hits) < maxCueHits {
			hits = append(hits, h)
		}
	})
	subjects := r.a.cueSubjects()
	var best *hit
	for i := range hits {
		h := &hits[i]
		if insideAnother(hits, h) || h.end-h.start == 1 && subjects[h.start] && len(hits) > 1 {
			continue
		}
		if best == nil || h.ph.rank < best.ph.rank ||
			h.ph.rank == best.ph.rank && h.start == best.start && h.end > best.end {
			best = h
		}
	}
	pattern := strings.TrimSpace(r.req.Pattern)
	if pattern == "" && len(r.a.patterns) > 0 {
		pattern = r.a.patterns[0].text
	}
	switch {
	case best != nil && (pattern == "" || best.ph.rank <= intentCues().rank[IntentStructural]):
		p.Intent, p.Cue = best.ph.intent, strconv.Quote(r.a.phraseText(*best))
	case pattern != "":
		p.Intent, p.Cue = IntentStructural, "the pattern `"+abbrev(pattern)+"`"
	case r.pos != "":
		p.Intent, p.Cue = IntentDefinition, "a position with no question words"
	case r.bareName():
		p.Intent, p.Cue = IntentDefinition, "a bare name"
	case r.a.namedOnly():
		p.Intent, p.Cue = IntentDefinition, "a name and its kind"
	case strings.TrimSpace(r.req.Text) == "" && strings.TrimSpace(r.req.Symbol) != "":
		p.Intent, p.Cue = IntentDefinition, "the request's symbol"
	default:
		p.Intent, p.Cue = IntentSearch, "no question words"
	}
}

// cueSubjects are the tokens that a name slot holds as its subject, where
// a cue word there is the name asked about, not a cue: "usage" in
// "definition of usage" and "where is usage defined?". Only a slot that
// ends the question or is closed by its phrase's words counts: in "where
// are usages of Foo", usages begins a phrase of its own.
func (a *analysis) cueSubjects() map[int]bool {
	var subjects map[int]bool
	nameSlots().matches(a.toks, func(h hit) {
		s := h.slot
		if a.kindBeforeName(h) {
			s++ // "where is the function usage?"
		}
		// The slot ends the question, is closed by its phrase's words, or
		// is followed by a kind word ("where is the usage function
		// defined?").
		kindAfter := s+1 < len(a.toks) && a.toks[s+1].code < 0 && kindWords[a.toks[s+1].word] != ""
		if s > h.start && (h.end > s+1 || s == len(a.toks)-1 || kindAfter) {
			if subjects == nil {
				subjects = map[int]bool{}
			}
			subjects[s] = true
		}
	})
	return subjects
}

// maxCueHits bounds the cue matches classify weighs: a capped text holds
// few, and the check of each against the others is quadratic.
const maxCueHits = 256

// insideAnother reports whether h lies inside the words of another, longer
// hit: "do we call" inside "where do we call".
func insideAnother(hits []hit, h *hit) bool {
	for i := range hits {
		if o := &hits[i]; o.start <= h.start && h.end <= o.end && o.end-o.start > h.end-h.start {
			return true
		}
	}
	return false
}

// bareName reports whether the text is nothing but names.
func (r *router) bareName() bool {
	if len(r.a.toks) == 0 {
		return false
	}
	for _, t := range r.a.toks {
		if t.code >= 0 {
			if _, ok := codeName(r.a.spans[t.code].text); !ok {
				return false
			}
			continue
		}
		if _, ok := codeLike(t.raw); !ok {
			return false
		}
	}
	return true
}

// readPattern picks the structural pattern, its replacement for a
// migration, and the language.
func (r *router) readPattern() {
	p := &r.plan
	rest := r.a.patterns
	if s := strings.TrimSpace(r.req.Pattern); s != "" {
		p.Pattern = s
	} else if len(rest) > 0 {
		p.Pattern, rest = rest[0].text, rest[1:]
		if p.Language == "" {
			p.Language = r.a.patterns[0].lang
		}
	}
	if l := strings.TrimSpace(r.req.Language); l != "" {
		p.Language = l
	}
	if p.Intent == IntentMigration && p.Pattern != "" {
		for _, c := range rest {
			if c.text != p.Pattern {
				p.Replacement = c.text
				break
			}
		}
	}
}

var nouns = map[Intent]string{
	IntentDefinition: "a definition", IntentReferences: "references", IntentCallers: "callers", IntentCallees: "callees",
	IntentImplementations: "implementations", IntentTests: "the tests of a symbol", IntentImpact: "the impact of a change",
	IntentHistory: "history", IntentVersion: "a dependency's version",
	IntentDependencyAPI: "a dependency's API", IntentStructural: "code by its shape",
	IntentMigration: "a migration", IntentMemory: "recorded decisions",
	IntentValidation: "the project's checks", IntentSearch: "a search",
}

// names describes the names of the plan for a reason: up to three, then a
// count.
func (r *router) names() string {
	ns := r.plan.Names
	if len(ns) == 0 {
		return ""
	}
	var parts []string
	for i, n := range ns {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("%d more", len(ns)-3))
			break
		}
		parts = append(parts, abbrev(n.Text))
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// subject is what precision would resolve: the names and the position.
func (r *router) subject() string {
	n := r.names()
	switch {
	case n != "" && r.pos != "":
		return n + " and the symbol at " + r.pos
	case n != "":
		return n
	case r.pos != "":
		return "the symbol at " + r.pos
	}
	return ""
}

type stepList []Step

func (s *stepList) add(l Layer, reason string) {
	for _, x := range *s {
		if x.Layer == l {
			return
		}
	}
	*s = append(*s, Step{Layer: l, Reason: reason})
}

// build writes the steps of the plan for its intent, then the reasons the
// optional layers it did not propose were skipped.
func (r *router) build() {
	p := &r.plan
	b := &planBuilder{r: r, p: p, skip: map[Layer]string{},
		asked: fmt.Sprintf("Asked for %s (%s)", nouns[p.Intent], p.Cue), subj: r.subject(), names: r.names()}
	b.propose()
	if p.Pattern != "" && !b.steps.has(Structural) {
		switch p.Intent {
		case IntentHistory, IntentVersion, IntentMemory, IntentValidation:
		default:
			b.steps.add(Structural, "The request carries the pattern `"+abbrev(p.Pattern)+"`, which structural search matches by syntax.")
		}
	}
	if p.Intent != IntentDependencyAPI && p.Intent != IntentMigration {
		if _, ok := b.skip[DependencyDocs]; !ok {
			b.skip[DependencyDocs] = "Dependency documentation was not proposed: a question about " + nouns[p.Intent] + " is answered locally."
		}
	}
	if (p.Intent == IntentVersion || p.Intent == IntentDependencyAPI || p.Intent == IntentMigration) && len(r.undeclared) > 0 {
		r.note(strings.Join(r.undeclared, ", ") + " " + isAre(len(r.undeclared)) + " named but not declared by the repository.")
	}
	if r.applyWord != "" {
		r.note(fmt.Sprintf("The text says %q, but mutation is never routed: a rewrite is applied only from a preview's id with explicit authorization.", r.applyWord))
	}
	p.Steps, p.FollowOn = b.steps, b.follow
	for _, l := range OptionalLayers() {
		if b.steps.has(l) {
			continue
		}
		why, ok := b.skip[l]
		if !ok {
			switch l {
			case Precision:
				why = "Precision was not proposed: a question about " + nouns[p.Intent] + " needs no symbol resolution."
			case Structural:
				why = "Structural search was not proposed: the request carries no pattern and asks for no code shape."
			}
		}
		p.Skipped = append(p.Skipped, Step{Layer: l, Reason: why})
	}
	if p.Steps == nil {
		p.Steps = []Step{}
	}
}

// A planBuilder gathers a plan's steps, its follow-on steps and the
// reasons layers were left out.
type planBuilder struct {
	r             *router
	p             *Plan
	steps, follow stepList
	skip          map[Layer]string // why a layer was not proposed, where the intent says
	asked         string           // the opening of the first step's reason
	subj, names   string           // the router's subject and names
}

// noSymbol is the reason precision is skipped when there is nothing for
// it to resolve.
const noSymbol = "Precision was not proposed: the question names no symbol and carries no position to resolve."

// propose adds the steps the plan's intent calls for.
func (b *planBuilder) propose() {
	p, asked, subj, names := b.p, b.asked, b.subj, b.names
	switch p.Intent {
	case IntentDefinition:
		b.precisionFirst("", "")
	case IntentReferences:
		b.precisionFirst("the references of ", "The graph's inferred edges add references and imports of "+subj+" that no index resolved.")
	case IntentCallers:
		b.precisionFirst("the callers of ", "The graph's inferred call edges add callers of "+subj+" that no index resolved.")
	case IntentCallees:
		b.proposeCallees()
	case IntentImplementations:
		b.precisionFirst("the implementations of ", "The graph's type relations add implementations of "+subj+" that no index resolved.")
	case IntentTests:
		b.precisionFirst("the references in tests of ", "The graph's call edges and test files add the tests that call "+subj+" where no index resolved them.")
	case IntentImpact:
		if subj != "" {
			b.steps.add(Precision, asked+": precision resolves "+subj+" so impact analysis starts from exact edges.")
			b.steps.add(Impact, "Impact analysis computes the symbols, tests and risk a change to "+subj+" affects.")
		} else {
			b.steps.add(Impact, asked+": impact analysis computes the symbols, tests and risk of the change.")
			b.skip[Precision] = noSymbol
		}
	case IntentHistory:
		b.steps.add(History, asked+": git history answers it"+b.target()+".")
		if names != "" && b.r.file == "" {
			b.steps.add(LocalIndex, "The local symbol index finds the files of "+names+" for git history to read.")
		}
		b.skip[Precision] = "Precision was not proposed: git history answers a history question."
	case IntentVersion:
		of := "each declared dependency"
		if len(p.Dependencies) > 0 {
			of = strings.Join(p.Dependencies, ", ")
		} else if len(b.r.undeclared) > 0 {
			of = strings.Join(b.r.undeclared, ", ")
		}
		b.steps.add(Manifests, asked+": the manifests and lockfiles give the resolved version of "+of+".")
		b.skip[Precision] = "Precision was not proposed: the manifests answer a version question."
		b.skip[DependencyDocs] = "Dependency documentation was not proposed: the manifests and lockfiles answer a version question without it."
	case IntentDependencyAPI:
		b.proposeDependencyAPI()
	case IntentStructural:
		if p.Pattern != "" {
			b.steps.add(Structural, asked+": structural search matches `"+abbrev(p.Pattern)+"` by syntax.")
		} else {
			b.steps.add(Structural, asked+": structural search matches the shape by syntax once a pattern is written, since the question pastes none.")
		}
		b.steps.add(LocalIndex, "Lexical search in the local index is the fallback when no structural engine is installed, without structural precision.")
		b.skip[Precision] = "Precision was not proposed: a structural search matches syntax, not symbols."
	case IntentMigration:
		b.proposeMigration()
	case IntentMemory:
		b.steps.add(Memory, asked+": project memory holds recorded decisions and conventions.")
		b.steps.add(LocalIndex, "The local index searches the question's words in the code and its comments.")
		b.skip[Precision] = "Precision was not proposed: project memory answers a question about decisions."
	case IntentValidation:
		b.steps.add(Validation, asked+": running the project's checks answers it"+b.target()+".")
		b.skip[Precision] = "Precision was not proposed: the project's checks answer a validation question."
	case IntentSearch:
		b.steps.add(LocalIndex, asked+": the local index searches the question's words.")
		if subj != "" {
			b.steps.add(Precision, "The text names "+subj+", which precision resolves by symbol identity.")
		} else {
			b.skip[Precision] = noSymbol
		}
	}
}

// precisionFirst proposes precision for the subject, with the local index
// (and the graph's edges, if given) as fallbacks.
func (b *planBuilder) precisionFirst(what, graph string) {
	if b.subj == "" {
		b.steps.add(LocalIndex, b.asked+": the local index searches the question's words, since it names no symbol and carries no position.")
		b.skip[Precision] = noSymbol
		return
	}
	b.steps.add(Precision, b.asked+": precision resolves "+what+b.subj+" by symbol identity.")
	if graph != "" {
		b.steps.add(Graph, graph)
	}
	if b.names != "" {
		b.steps.add(LocalIndex, "The local symbol index finds "+b.names+" by name when no precision index answers.")
	} else {
		b.steps.add(LocalIndex, "The local index reads the symbol at "+b.r.pos+" from the file when no precision index answers.")
	}
}

// proposeCallees adds the steps of a question for what a symbol calls:
// the graph reads the calls in its body and what each resolves to.
func (b *planBuilder) proposeCallees() {
	if b.subj == "" {
		b.steps.add(LocalIndex, b.asked+": the local index searches the question's words, since it names no symbol and carries no position.")
		b.skip[Precision] = noSymbol
		return
	}
	b.steps.add(Graph, b.asked+": the project graph reads the calls written in the body of "+b.subj+" and what each resolves to.")
	b.skip[Precision] = "Precision was not proposed: the project graph answers what a definition calls, with the exact edges of a precision index fused in where one is configured."
}

// target returns " for " and what the question is about (its file, the
// plan's files or the names), or "".
func (b *planBuilder) target() string {
	switch {
	case b.r.file != "":
		return " for " + b.r.file
	case len(b.p.Files) > 0:
		return " for " + strings.Join(b.p.Files, ", ")
	case b.names != "":
		return " for " + b.names
	}
	return ""
}

// proposeDependencyAPI adds the steps of a question about a dependency's
// API: the installed version, its documentation when a provider is
// asked (else the local index), and precision for a named symbol.
func (b *planBuilder) proposeDependencyAPI() {
	b.steps.add(Manifests, b.asked+": the manifests and lockfiles give the installed version the answer must match.")
	if docs, why := b.r.docs(); docs {
		b.steps.add(DependencyDocs, why)
	} else {
		b.skip[DependencyDocs] = why
	}
	if b.subj != "" {
		b.steps.add(Precision, "Precision resolves "+b.subj+" to its symbol and the package it comes from.")
	} else {
		b.skip[Precision] = noSymbol
	}
	if !b.steps.has(DependencyDocs) {
		b.steps.add(LocalIndex, "The local index searches the repository for deprecation notices and documentation, since no documentation provider is asked.")
	}
}

// proposeMigration adds the steps of a migration, up to a rewrite
// preview and its validation as follow-on steps, and notes that applying
// it is never routed.
func (b *planBuilder) proposeMigration() {
	p := b.p
	docs, why := b.r.docs()
	b.steps.add(Precision, b.asked+": precision resolves each match of the old shape to its symbol, so impact analysis counts exact edges.")
	if docs {
		b.steps.add(DependencyDocs, why)
	} else {
		b.skip[DependencyDocs] = why
	}
	if p.Pattern != "" {
		b.steps.add(Structural, "Structural search finds every occurrence of `"+abbrev(p.Pattern)+"` by syntax, the match set the migration rewrites.")
	} else {
		b.steps.add(Structural, "Structural search finds every occurrence of the old shape by syntax once its pattern is written, the match set the migration rewrites.")
	}
	if docs {
		b.steps.add(Manifests, "The manifests and lockfiles give the installed version the documentation must match.")
	}
	b.steps.add(LocalIndex, "Lexical search in the local index finds candidate occurrences when no structural engine is installed, without structural precision.")
	b.follow.add(Impact, "Impact analysis computes the symbols, tests and risk score the migration affects before anything changes.")
	preview := "A rewrite preview persists the match set with every file's hash"
	if p.Pattern != "" && p.Replacement != "" {
		preview = "A rewrite preview of `" + abbrev(p.Pattern) + "` to `" + abbrev(p.Replacement) + "` persists the match set with every file's hash"
	}
	b.follow.add(Preview, preview+"; applying it needs its id and explicit authorization, which no plan carries.")
	b.follow.add(Validation, "Validation runs the project's checks on the previewed change.")
	b.r.note("A migration is planned up to a rewrite preview: applying it needs the preview's id and explicit authorization, and is never routed.")
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func (s stepList) has(l Layer) bool {
	for _, x := range s {
		if x.Layer == l {
			return true
		}
	}
	return false
}

// docs decides whether the remote documentation layer is proposed for a
// dependency or migration question, and returns the reason either way.
//
// The question concerns a dependency when it names one the repository
// declares (by name, by a path suffix such as cobra for
// github.com/spf13/cobra, or as the qualifier of a name such as
// react.useEffect), or, when it names no library at all, when it speaks of
// one ("our installed version", "the dependency", "the new API"). A question
// that names only libraries the repository does not declare is not about a
// declared dependency, and with nothing declared no question is.
func (r *router) docs() (bool, string) {
	p := &r.plan
	lead := "Dependency documentation was not proposed: "
	switch {
	case r.decl.count == 0:
		return false, lead + "the repository declares no third-party dependencies (Declared is empty)."
	case len(p.Dependencies) > 0:
		return true, fmt.Sprintf("The question names the declared dependency %s, so the documentation provider is asked about its installed version (%s).",
			strings.Join(p.Dependencies, ", "), p.Cue)
	case len(r.undeclared) > 0:
		return false, lead + "it names " + strings.Join(r.undeclared, ", ") + ", which the repository does not declare."
	case r.depWord != "":
		return true, fmt.Sprintf("The question speaks of a dependency (%q) without naming one, so the documentation provider is asked about the one the code imports, at its installed version.", r.depWord)
	}
	return false, lead + "the question names no declared dependency and does not speak of an installed version, a dependency or an API."
}

// plainName reports whether n is a plain word of the question rather than
// a name written as code: joined from words, or an unqualified word in
// lower case or capitals ("main", "loop", "HTTP").
func plainName(n Name) bool {
	if n.Origin == FromWords {
		return true
	}
	plain := n.Base == strings.ToLower(n.Base) && !isCodeCase(n.Base) || n.Base == strings.ToUpper(n.Base)
	return n.Origin == FromText && n.Qualifier == "" && plain
}

// codeFirst orders the names written as code before the plain words, each
// group in the question's order: "the concrete implementations of
// Storage" is about Storage, not concrete.
func codeFirst(names []Name) []Name {
	var code, plain []Name
	for _, n := range names {
		if plainName(n) {
			plain = append(plain, n)
		} else {
			code = append(code, n)
		}
	}
	return append(code, plain...)
}

// guessNames adds, to a question about a symbol that names nothing else,
// the plain words in its name slots ("callers of latest"): guesses
// (FromWords) the engine keeps only when the project defines them. Other
// questions ("what is our convention for errors?") leave them.
func (r *router) guessNames() {
	if len(r.plan.Names) > 0 || len(r.a.guesses) == 0 || r.pos != "" {
		return
	}
	switch r.plan.Intent {
	case IntentDefinition, IntentReferences, IntentCallers, IntentCallees, IntentImplementations, IntentTests:
	default:
		return
	}
	seen := map[string]bool{}
	for _, g := range r.a.guesses {
		if !seen[g.Text] {
			seen[g.Text] = true
			r.plan.Names = append(r.plan.Names, g.Name)
		}
	}
}

// contentWords reports whether the question has a word a search could
// match: one that is not a function word, a pronoun or a kind ("where is
// this defined?" has none).
func (a *analysis) contentWords() bool {
	for _, t := range a.toks {
		if !vague[t.word] && !determiners[t.word] && !questionWords[t.word] {
			return true
		}
	}
	return false
}

// searchWords sets Search for a question about a symbol whose names are
// all plain words, or that names none, and notes it.
func (r *router) searchWords() {
	p := &r.plan
	switch p.Intent {
	case IntentDefinition, IntentReferences, IntentCallers, IntentCallees, IntentImplementations, IntentTests:
	default:
		return
	}
	if r.pos != "" || strings.TrimSpace(r.req.Symbol) != "" {
		return
	}
	if len(p.Names) == 0 {
		if r.a.contentWords() {
			p.Search = true
			r.note("No name in the question: a ranked search of its words answers it.")
		}
		return
	}
	for _, n := range p.Names {
		if !plainName(n) {
			return
		}
	}
	p.Search = true
	r.note("No name in the question is written as code: a ranked search of its words joins the lookup of " + r.names() + ".")
}

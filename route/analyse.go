package route

import (
	"sort"
	"strings"
	"unicode"
)

// A patternAt is a structural pattern found in the text.
type patternAt struct {
	text, lang string
	pos        int
}

type nameAt struct {
	Name
	pos int
	// prose is set for a capitalised word in prose ("the Fuse function"),
	// which is dropped when it names a dependency.
	prose bool
	// joined are the positions of the words a member phrase ("the X
	// method of T") joined into this name.
	joined [2]int
}

// An analysis is everything the router reads from a request's text.
type analysis struct {
	midSentence bool // the next prose word does not open a sentence
	toks        []token
	spans       []span
	names       []nameAt
	guesses     []nameAt // plain words in a name's slot (see slotNames)
	files       []string
	patterns    []patternAt
}

// analyse reads text (already capped) in one pass: code spans and pasted
// patterns, words, names shaped like code, and file paths.
func analyse(text string) *analysis {
	a := &analysis{}
	segment(text, a.addProse, a.addCode)
	return a
}

func (a *analysis) addCode(sp span, off int) {
	a.midSentence = true
	a.toks = append(a.toks, token{raw: sp.text, code: len(a.spans), pos: off})
	a.spans = append(a.spans, sp)
	if sp.text == "" {
		return
	}
	if !sp.fenced {
		if n, ok := codeName(sp.text); ok && !strings.Contains(n, "$") {
			a.names = append(a.names, nameAt{Name: makeName(n, FromCode), pos: off})
			return
		}
	}
	if sp.fenced || patternShaped(sp.text) {
		a.addPattern(sp.text, sp.lang, off, FromCode)
	}
}

// addPattern records a pattern and the name it calls, if it starts with a
// call of a plain name (oldAPI($X) names oldAPI).
func (a *analysis) addPattern(p, lang string, off int, origin Origin) {
	a.patterns = append(a.patterns, patternAt{p, lang, off})
	if strings.ContainsAny(p, "\n") {
		return
	}
	if k := strings.IndexByte(p, '('); k > 0 {
		if n := p[:k]; !strings.Contains(n, "$") {
			if _, ok := splitQualified(n); ok {
				a.names = append(a.names, nameAt{Name: makeName(n, origin), pos: off})
			}
		}
	}
}

func (a *analysis) addProse(s string, off int) {
	for _, f := range fields(s) {
		w, pos := s[f[0]:f[1]], off+f[0]
		if hasMetaVar(w) {
			p := strings.Trim(w, "\"'")
			p = strings.TrimRight(p, ".,:?!\"'")
			if p == "" {
				continue
			}
			a.toks = append(a.toks, token{raw: p, code: len(a.spans), pos: pos})
			a.spans = append(a.spans, span{text: p})
			a.addPattern(p, "", pos, FromText)
			continue
		}
		t := trimWord(w)
		mid := a.midSentence
		a.midSentence = !strings.ContainsAny(w[len(w)-1:], ".?!:")
		if t == "" {
			continue
		}
		words, raws := splitWord(t)
		if fileOf(t) {
			a.files = append(a.files, t)
		} else if n, ok := codeLike(t); ok {
			a.names = append(a.names, nameAt{Name: makeName(n, FromText), pos: pos})
		} else if mid && len(words) == 1 && capitalised(raws[0], words[0]) {
			a.names = append(a.names, nameAt{Name: makeName(raws[0], FromText), pos: pos, prose: true})
		}
		named := mid && len(words) == 1 && raws[0] != words[0] && !questionWords[words[0]] && !determiners[words[0]]
		for i, word := range words {
			a.toks = append(a.toks, token{word: word, raw: raws[i], code: -1, pos: pos, named: named})
		}
	}
}

// slotNames adds the names held by name slots ("where is main defined").
// A plain word that names nothing in prose ("callers of latest", "usages
// of is") is still a word a project may define: it becomes a guess
// (FromWords), which a question about a symbol names (see guessNames) and
// the engine keeps only when the project defines it.
func (a *analysis) slotNames() {
	nameSlots().matches(a.toks, func(h hit) {
		if a.kindBeforeName(h) {
			h.slot++ // "where is the function usage?"
		}
		t := a.toks[h.slot]
		if t.code >= 0 || determiners[t.word] || properNouns[t.word] || fileOf(t.raw) {
			return
		}
		if vague[t.word] && (t.raw == t.word || questionWords[t.word]) {
			// A word that ends a slot phrase is that phrase's, not a name
			// ("where is this defined"), unless the phrase that holds it
			// goes on past it ("where is call defined"); a plain word
			// before a phrase's noun is none either ("where's callers of").
			if !h.ph.elems[0].slot && t.raw == t.word && asciiLetters(t.raw) && kindWords[t.word] == "" && !(slotEnds()[t.word] && h.end <= h.slot+1) {
				a.guesses = append(a.guesses, nameAt{Name: makeName(t.raw, FromWords), pos: t.pos})
			}
			return
		}
		n, _ := callee(t.raw)
		if _, ok := splitQualified(n); !ok || strings.Contains(n, "$") {
			return
		}
		a.joinedNames(h.slot)
		a.names = append(a.names, nameAt{Name: makeName(n, FromText), pos: t.pos})
	})
}

// kindBeforeName reports whether the slot of h holds a kind word that the
// name follows, the phrase ending there: "function" in "where is the
// function usage?", whose name is usage.
func (a *analysis) kindBeforeName(h hit) bool {
	s := h.slot
	return s >= 0 && a.toks[s].code < 0 && kindWords[a.toks[s].word] != "" && a.toks[s].raw == a.toks[s].word &&
		h.end == s+1 && s+1 < len(a.toks)
}

// asciiLetters reports whether s is a word of ASCII letters alone: the
// words a joined name is made of.
func asciiLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return s != ""
}

// joinedNames adds, before a plain word in a name's slot, the names the
// plain words after it would join into: "the scrape loop" gives scrapeLoop
// and scrape_loop, "WAL checkpoints" walCheckpoints, walCheckpoint,
// wal_checkpoints and wal_checkpoint, then the phrase's last word alone
// (checkpoints, checkpoint). A verb ("created", "running") or
// any other word ends the phrase, which holds at most three words.
func (a *analysis) joinedNames(slot int) {
	plain := func(i int) bool {
		if i >= len(a.toks) {
			return false
		}
		t := a.toks[i]
		return t.code < 0 && asciiLetters(t.raw) && (t.raw == t.word || t.raw == strings.ToUpper(t.raw))
	}
	if !plain(slot) {
		return
	}
	words := []string{a.toks[slot].word}
	for i := slot + 1; i < slot+3 && plain(i); i++ {
		w := a.toks[i].word
		if vague[w] || determiners[w] || questionWords[w] || ofWords[w] || kindWords[w] != "" ||
			strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "ing") || len(w) < 3 {
			break
		}
		words = append(words, w)
	}
	if len(words) < 2 {
		return
	}
	forms := [][]string{words}
	if last := words[len(words)-1]; strings.HasSuffix(last, "s") && !strings.HasSuffix(last, "ss") {
		single := append(append([]string(nil), words[:len(words)-1]...), strings.TrimSuffix(last, "s"))
		forms = append(forms, single)
	}
	pos := a.toks[slot].pos
	for _, f := range forms {
		camel := f[0]
		for _, w := range f[1:] {
			camel += strings.ToUpper(w[:1]) + w[1:] // ASCII letters only
		}
		a.names = append(a.names, nameAt{Name: makeName(camel, FromWords), pos: pos})
	}
	for _, f := range forms {
		a.names = append(a.names, nameAt{Name: makeName(strings.Join(f, "_"), FromWords), pos: pos})
	}
	// The phrase's head noun, its last word, alone.
	for _, f := range forms {
		a.names = append(a.names, nameAt{Name: makeName(f[len(f)-1], FromWords), pos: pos})
	}
}

// orderedNames returns the names in order of appearance, without
// duplicates, after the request's symbol, leaving out capitalised prose
// words for which drop is true.
func (a *analysis) orderedNames(symbol string, drop func(string) bool) []Name {
	sort.SliceStable(a.names, func(i, j int) bool { return a.names[i].pos < a.names[j].pos })
	var out []Name
	seen := map[string]bool{}
	if symbol != "" {
		out = append(out, makeName(symbol, FromRequest))
		seen[symbol] = true
	}
	for _, n := range a.names {
		if n.prose && drop(n.Text) {
			continue
		}
		if !seen[n.Text] {
			seen[n.Text] = true
			out = append(out, n.Name)
		}
	}
	return out
}

// phraseText is the matched words as written, as the reason quotes them.
func (a *analysis) phraseText(h hit) string {
	parts := make([]string, 0, h.end-h.start)
	for _, t := range a.toks[h.start:h.end] {
		if t.code >= 0 {
			parts = append(parts, "`"+abbrev(t.raw)+"`")
		} else {
			parts = append(parts, t.raw)
		}
	}
	return strings.Join(parts, " ")
}

// abbrev shortens code quoted in a reason to one line of at most 40 bytes.
func abbrev(s string) string {
	if k := strings.IndexFunc(s, breaksLine); k >= 0 {
		s = s[:k] + "…"
	}
	if len(s) > 40 {
		cut := 40
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// breaksLine reports whether r is a control character or a line or
// paragraph separator, none of which a one-sentence reason may hold.
func breaksLine(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
}

// oneLine replaces what would break a reason's line with spaces.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if breaksLine(r) {
			return ' '
		}
		return r
	}, s)
}

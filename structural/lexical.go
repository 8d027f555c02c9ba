package structural

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"sync"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/trust"
)

// LexicalNotice is what every lexical fallback result says about itself.
const LexicalNotice = "lexical fallback: these are text matches of the pattern's words, without structural precision; they may be comments, strings or unrelated code"

// A LexicalHit is a line containing the pattern's most specific word.
type LexicalHit struct {
	Path  string `json:"path"`
	Range Range  `json:"range"` // the word on that line
	// Line is the line, for display; a long one is cut to a window around
	// the word, as [Match.Lines] is.
	Line string `json:"line"`
	Word string `json:"word"`
}

// A LexicalResult is what the fallback found, and why it ran.
type LexicalResult struct {
	// Reason says why no structural engine answered.
	Reason string `json:"reason"`
	// Notice is LexicalNotice.
	Notice    string       `json:"notice"`
	Hits      []LexicalHit `json:"hits"`
	Files     int          `json:"files"`
	Truncated bool         `json:"truncated"`
	Notes     []string     `json:"notes,omitempty"`
}

var identRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$*[\pL_][\pL\pN_]*`) })

// patternWords returns the identifiers a pattern spells literally (not
// metavariable names), longest first.
func patternWords(pattern string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range identRE().FindAllString(pattern, -1) {
		if w[0] == '$' || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// LexicalSearch is the fallback when no structural engine can answer:
// it reports every line that contains, as a whole word, the longest
// identifier the pattern spells. reason says why it runs.
func LexicalSearch(ctx context.Context, req Request, reason string) (*LexicalResult, error) {
	words := patternWords(req.Pattern)
	if len(words) > 1 {
		words = words[:1]
	}
	return lexicalSearch(ctx, req, words, reason, "the pattern spells no identifier to search for as text")
}

// lexicalSearch reports every occurrence of any of words as a whole word
// in the request's files, ordered by path and offset; none says why
// there is nothing to search for.
func lexicalSearch(ctx context.Context, req Request, words []string, reason, none string) (*LexicalResult, error) {
	lim := req.Limits.withDefaults()
	res := &LexicalResult{Reason: reason, Notice: LexicalNotice, Hits: []LexicalHit{}}
	if len(words) == 0 {
		res.Notes = append(res.Notes, none)
		return res, nil
	}
	root, err := contain.Open(req.Root)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	want := func(f string) bool {
		if req.Language != "" && !req.Language.Valid() {
			return true // a language no engine knows: every file is text to search
		}
		l, ok := LanguageOf(f)
		return ok && (req.Language == "" || l == req.Language)
	}
	files, err := collectFiles(root, req.Paths, want, lim.MaxFiles)
	if err != nil {
		return nil, err
	}
	res.Files = len(files.files)
	res.Truncated = files.truncated
	res.Notes = append(res.Notes, files.notes...)
	fsys := root.FS()
	var hits []LexicalHit
	for _, rel := range files.files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if fi, err := fs.Stat(fsys, rel); err != nil || fi.Size() > lim.MaxFileBytes {
			continue
		}
		src, err := fs.ReadFile(fsys, rel)
		if err != nil {
			continue
		}
		var li *lineIndex
		hits = hits[:0]
		for _, w := range words {
			word := []byte(w)
			for off := 0; ; {
				i := bytes.Index(src[off:], word)
				if i < 0 {
					break
				}
				s, e := off+i, off+i+len(word)
				off = e
				if (s > 0 && isWordByte(src[s-1])) || (e < len(src) && isWordByte(src[e])) {
					continue
				}
				if li == nil {
					li = newLineIndex(src)
				}
				hits = append(hits, LexicalHit{Path: rel, Range: li.rng(s, e), Line: li.lines(s, e), Word: w})
				if len(hits) > lim.MaxMatches {
					break // more than can be kept from this file
				}
			}
		}
		sort.SliceStable(hits, func(i, j int) bool { return hits[i].Range.StartByte < hits[j].Range.StartByte })
		for _, h := range hits {
			if len(res.Hits) >= lim.MaxMatches {
				res.Truncated = true
				res.Notes = append(res.Notes, fmt.Sprintf("stopped after %d hits (limit max_matches)", lim.MaxMatches))
				return res, nil
			}
			res.Hits = append(res.Hits, h)
		}
	}
	return res, nil
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// Record returns the hit as weak, lexical evidence: it says the pattern's
// word is there, not that the pattern matches. An empty pattern (the hit
// answers a question in words) is left out of the attributes.
func (h *LexicalHit) Record(pattern string) evidence.Record {
	attrs := map[string]string{"word": h.Word, "precision": LexicalNotice}
	if pattern != "" {
		attrs["pattern"] = excerpt(pattern, excerptBytes)
	}
	return evidence.Record{
		Kind:        evidence.StructuralMatch,
		Provider:    ProviderName,
		Provenance:  trust.Lexical,
		Trust:       trust.Weak,
		Path:        h.Path,
		StartLine:   h.Range.StartLine,
		StartColumn: h.Range.StartColumn,
		EndLine:     h.Range.EndLine,
		EndColumn:   h.Range.EndColumn,
		Confidence:  0.3,
		Metadata:    evidence.Metadata{Excerpt: h.Line, Attributes: attrs},
	}
}

package evidence

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/codecortex/codecortex/trust"
)

// BytesPerToken is the token estimate Pack uses: one token for every three
// bytes of the serialized prompt, rounded up. Tokenizers of current models
// average three and a half to four bytes per token on English and source
// code; JSON punctuation and identifiers split finer, so three errs on the
// side of staying inside the budget.
const BytesPerToken = 3

// EstimateTokens returns the token estimate for n bytes of prompt.
func EstimateTokens(n int) int { return (n + BytesPerToken - 1) / BytesPerToken }

// MaxExcerptRunes bounds an excerpt in the prompt. A longer excerpt is
// shortened to this many code points, ending in "…", before the record is
// fitted; a record is otherwise included whole or not at all.
const MaxExcerptRunes = 400

// A Context is packed evidence: a prompt part for the reader model and a
// trace part kept outside the prompt.
type Context struct {
	// Prompt is compact JSON for the reader model:
	//
	//	{"evidence":[{"id":…,"kind":…,"trust":…,"via":…,"loc":…,…}],"omitted":N}
	//
	// Its estimated size never exceeds Budget; with a budget too small for
	// even the empty envelope it is empty.
	Prompt []byte
	// Budget is the token budget asked for and Used the estimate of Prompt.
	Budget, Used int
	// Included and Omitted count records in and out of the prompt.
	Included, Omitted int
	// Trace says why each record ranked where it did and whether it made it
	// into the prompt, strongest first.
	Trace []TraceEntry
}

// A TraceEntry explains one record's place in the packed context.
type TraceEntry struct {
	// ID is the record's id in the prompt: [Record.ID], with "~2", "~3"…
	// appended in rank order when several records share an identity, so
	// that every id in one prompt names one record.
	ID         string     `json:"id"`
	Rank       int        `json:"rank"` // 1 for the strongest
	Score      float64    `json:"score"`
	Trust      trust.Tier `json:"trust"`
	StaleFrom  trust.Tier `json:"stale_from,omitzero"`
	Confidence float64    `json:"confidence"`
	Provider   string     `json:"provider"`
	Superseded int        `json:"superseded,omitempty"`
	Included   bool       `json:"included"`
	// Omission says why a record was left out: "budget" when it did not fit.
	Omission string `json:"omission,omitempty"`
	// Bytes is the size of the record's prompt entry; 0 when the budget was
	// spent before the record's turn, so no entry was built.
	Bytes int `json:"bytes,omitempty"`
}

// Reason renders the entry's ranking reason for people.
func (t TraceEntry) Reason() string {
	s := fmt.Sprintf("#%d %s score %.4f: %s", t.Rank, t.ID, t.Score, t.Trust)
	if t.StaleFrom.Valid() {
		s += fmt.Sprintf(" (stale %s, scaled by %.4f)", t.StaleFrom, trust.StaleFactor())
	}
	s += fmt.Sprintf(", confidence %.2f, from %s", t.Confidence, t.Provider)
	if t.Superseded > 0 {
		s += fmt.Sprintf(", supersedes %d weaker", t.Superseded)
	}
	if !t.Included {
		s += ", omitted: " + t.Omission
	}
	return s
}

const (
	envelopeHead = `{"evidence":[`
	envelopeTail = `],"omitted":`
)

// Pack ranks a copy of records and fills a prompt with as many as fit in
// budget tokens, strongest first; a record that does not fit is skipped and a
// weaker, smaller one may still fit. The budget is hard: the prompt's
// estimate ([EstimateTokens]) never exceeds it, and no record is cut.
func Pack(records []Record, budget int) Context {
	return pack(records, rankOrder(records), budget)
}

// PackRanked is [Pack] for records already in the order the caller ranked
// them (by [RankFor], say): it fills the prompt in that order.
func PackRanked(records []Record, budget int) Context {
	order := make([]int, len(records))
	for i := range order {
		order[i] = i
	}
	return pack(records, order, budget)
}

func pack(records []Record, order []int, budget int) Context {
	ctx := Context{Budget: budget, Trace: make([]TraceEntry, len(records))}
	maxBytes := min(max(budget, 0), math.MaxInt/BytesPerToken) * BytesPerToken
	// Reserve room for the omitted count at its widest.
	fixed := len(envelopeHead) + len(envelopeTail) + len(strconv.Itoa(len(records))) + 1
	room := maxBytes - fixed
	buf := make([]byte, 0, min(max(maxBytes, 0), 1<<20))
	buf = append(buf, envelopeHead...)
	var item []byte
	seen := make(map[string]int, len(records))
	for rank, i := range order {
		r := &records[i]
		id := r.ID()
		// Records that share an identity (location-less facts of one kind
		// about one symbol) get distinct ids in rank order.
		if n := seen[id]; n > 0 {
			seen[id] = n + 1
			id += "~" + strconv.Itoa(n+1)
		} else {
			seen[id] = 1
		}
		te := TraceEntry{
			ID: id, Rank: rank + 1, Score: r.Score(), Trust: r.Trust,
			StaleFrom: r.Metadata.StaleFrom, Confidence: r.Confidence,
			Provider: r.Provider, Superseded: len(r.Metadata.Superseded),
			Omission: "budget",
		}
		// Build the entry only when it could fit: escaping and the comma
		// only add to the lower bound.
		if itemLowerBound(r) <= room {
			item = appendPromptItem(item[:0], id, r)
			te.Bytes = len(item)
			need := len(item)
			if ctx.Included > 0 {
				need++ // the comma
			}
			if need <= room {
				if ctx.Included > 0 {
					buf = append(buf, ',')
				}
				buf = append(buf, item...)
				room -= need
				te.Included, te.Omission = true, ""
				ctx.Included++
			}
		}
		if !te.Included {
			ctx.Omitted++
		}
		ctx.Trace[rank] = te
	}
	if maxBytes < fixed {
		// Not even the envelope fits: an empty prompt keeps the promise.
		ctx.Prompt = []byte{}
		return ctx
	}
	buf = append(buf, envelopeTail...)
	buf = strconv.AppendInt(buf, int64(ctx.Omitted), 10)
	buf = append(buf, '}')
	ctx.Prompt = buf
	ctx.Used = EstimateTokens(len(buf))
	return ctx
}

// itemLowerBound returns a cheap lower bound on the size of r's prompt
// entry: the fixed keys, and every field at its unescaped length (an excerpt
// counted at no more than MaxExcerptRunes bytes, since shortening may cut it).
func itemLowerBound(r *Record) int {
	n := len(`{"id":"e000000000000","kind":"","trust":"","via":""}`) +
		len(r.Kind) + len(r.Trust.String()) + len(r.Provenance)
	if r.HasLocation() {
		n += len(`,"loc":"::-:"`) + len(r.Path) + 4
	}
	if r.Symbol != "" {
		n += len(`,"symbol":""`) + len(r.Symbol)
	}
	if r.TargetSymbol != "" {
		n += len(`,"target":""`) + len(r.TargetSymbol)
	}
	if r.Stale {
		n += len(`,"stale":true`)
	}
	if r.Metadata.Excerpt != "" {
		n += len(`,"excerpt":""`) + min(len(r.Metadata.Excerpt), MaxExcerptRunes)
	}
	return n
}

// appendPromptItem appends r's compact prompt entry.
func appendPromptItem(b []byte, id string, r *Record) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, id)
	b = append(b, `,"kind":`...)
	b = appendString(b, string(r.Kind))
	b = append(b, `,"trust":`...)
	b = appendString(b, r.Trust.String())
	b = append(b, `,"via":`...)
	b = appendString(b, string(r.Provenance))
	if r.HasLocation() {
		b = append(b, `,"loc":"`...)
		b = r.appendRange(appendEscaped(b, r.Path))
		b = append(b, '"')
	}
	if r.Symbol != "" {
		b = append(b, `,"symbol":`...)
		b = appendString(b, r.Symbol)
	}
	if r.TargetSymbol != "" {
		b = append(b, `,"target":`...)
		b = appendString(b, r.TargetSymbol)
	}
	if r.Stale {
		b = append(b, `,"stale":true`...)
	}
	if r.Metadata.Excerpt != "" {
		b = append(b, `,"excerpt":`...)
		b = appendString(b, shorten(r.Metadata.Excerpt, MaxExcerptRunes))
	}
	return append(b, '}')
}

// shorten returns s cut to at most n code points, ending in "…" when cut.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, count := 0, 0
	for i < len(s) && count < n-1 {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		count++
	}
	return s[:i] + "…"
}

// appendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD, as
// encoding/json does.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	return append(appendEscaped(b, s), '"')
}

// appendEscaped appends s's JSON string content, without the quotes.
func appendEscaped(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, `\u202`...)
			b = append(b, hex[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return b
}

package structural

import (
	"errors"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// ErrInvalidPattern is matched (errors.Is) by every [*PatternError].
var ErrInvalidPattern = errors.New("invalid structural pattern")

// ErrUnavailable is matched by the error of an engine that cannot run here,
// such as the built-in engine in a build without cgo.
var ErrUnavailable = errors.New("structural engine unavailable")

// A PatternProblem says what is wrong with a pattern.
type PatternProblem string

// The pattern problems.
const (
	// ProblemEmpty: the pattern has no syntax at all (empty or only
	// whitespace or comments).
	ProblemEmpty PatternProblem = "empty"
	// ProblemSyntax: the pattern's parse contains an ERROR node.
	ProblemSyntax PatternProblem = "syntax-error"
	// ProblemMissing: the parser had to invent a MISSING node to finish
	// the parse, so the pattern is incomplete.
	ProblemMissing PatternProblem = "missing-node"
	// ProblemMultiple: the pattern is several top-level nodes, not one.
	ProblemMultiple PatternProblem = "multiple-nodes"
	// ProblemBareMulti: the whole pattern is a multi-node metavariable such
	// as $$$, which would match everything and nothing in particular.
	ProblemBareMulti PatternProblem = "bare-multi"
	// ProblemLanguage: the language is unknown to the engine.
	ProblemLanguage PatternProblem = "unsupported-language"
	// ProblemEngine: the external engine rejected the pattern (its warning
	// is in Detail).
	ProblemEngine PatternProblem = "engine-rejected"
	// ProblemTooLarge: the pattern is longer than [MaxPatternBytes] or
	// names more than [MaxPatternVars] metavariables.
	ProblemTooLarge PatternProblem = "too-large"
)

// The largest pattern accepted: at most MaxPatternBytes bytes, naming at
// most MaxPatternVars distinct capturing metavariables. Compiling is
// linear in a pattern's size, and matching costs grow with the number of
// metavariables a match must keep; real patterns are far smaller.
const (
	MaxPatternBytes = 64 << 10
	MaxPatternVars  = 256
)

// checkPatternSize refuses a pattern longer than MaxPatternBytes.
func checkPatternSize(pattern string, lang Language) error {
	if len(pattern) > MaxPatternBytes {
		return &PatternError{Pattern: pattern, Language: lang, Problem: ProblemTooLarge, Offset: -1,
			Detail: fmt.Sprintf("it is %d bytes long, more than the %d a pattern may have", len(pattern), MaxPatternBytes)}
	}
	return nil
}

// quotedBytes is how much of a pattern or template an error message
// quotes.
const quotedBytes = 80

// quote returns s quoted, cut to its first quotedBytes bytes (with [Cut])
// when longer, so an error never carries a huge pattern along.
func quote(s string) string {
	return strconv.Quote(excerpt(s, quotedBytes))
}

// A PatternError reports a pattern that cannot be used. It is never
// confused with a valid pattern that found nothing. Its message quotes at
// most the pattern's first 80 bytes.
type PatternError struct {
	Pattern  string
	Language Language
	Problem  PatternProblem
	// Offset is the byte offset in the pattern of the first offending node,
	// or -1 when not known.
	Offset int
	// Detail adds a sentence, such as the external engine's warning.
	Detail string
}

func (e *PatternError) Error() string {
	msg := fmt.Sprintf("structural: invalid %s pattern %s: %s", e.Language, quote(e.Pattern), problemText[e.Problem])
	if e.Offset >= 0 {
		msg += fmt.Sprintf(" at byte %d", e.Offset)
	}
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

// Unwrap makes errors.Is(err, ErrInvalidPattern) hold.
func (e *PatternError) Unwrap() error { return ErrInvalidPattern }

var problemText = map[PatternProblem]string{
	ProblemEmpty:     "it contains no code",
	ProblemSyntax:    "it does not parse (ERROR node)",
	ProblemMissing:   "it is incomplete (the parser inserted a MISSING node)",
	ProblemMultiple:  "it has several top-level nodes; a pattern must be a single node",
	ProblemBareMulti: "a bare multi-node metavariable ($$$) matches no particular code",
	ProblemLanguage:  "the language is not supported",
	ProblemEngine:    "the engine could not parse it",
	ProblemTooLarge:  "it is too large",
}

// printable returns a file name for a message: as it is, or quoted when it
// holds control characters or invalid UTF-8, so that no message carries
// an escape sequence or a line break from a file name to a terminal.
func printable(name string) string {
	for _, c := range name {
		if c == utf8.RuneError || unicode.IsControl(c) {
			return strconv.Quote(name)
		}
	}
	return name
}

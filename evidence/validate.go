package evidence

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"strings"

	"github.com/codecortex/codecortex/trust"
)

// ErrInvalid is matched by every validation failure.
var ErrInvalid = errors.New("invalid evidence record")

// A FieldError reports a record field that breaks an invariant.
type FieldError struct {
	Field  string // JSON name of the field, such as "confidence"
	Reason string
}

func (e *FieldError) Error() string {
	return "evidence: " + e.Field + ": " + e.Reason
}

// Unwrap lets errors.Is(err, ErrInvalid) match.
func (e *FieldError) Unwrap() error { return ErrInvalid }

// Validate checks the invariants written on [Record] and returns every
// violation as a [*FieldError], joined. Superseded records are validated too.
func (r *Record) Validate() error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, &FieldError{Field: field, Reason: fmt.Sprintf(format, args...)})
	}
	if !r.Kind.Valid() {
		bad("kind", "unknown kind %q", string(r.Kind))
	}
	if strings.TrimSpace(r.Provider) == "" {
		bad("provider", "empty")
	}
	if !r.Provenance.Valid() {
		bad("provenance", "unknown method %q", string(r.Provenance))
	}
	switch {
	case !r.Trust.Valid():
		bad("trust", "unknown tier %s", r.Trust)
	case r.Provenance.Valid() && r.Trust > r.Provenance.Ceiling():
		bad("trust", "%s evidence may claim at most %s, not %s", r.Provenance, r.Provenance.Ceiling(), r.Trust)
	}
	if r.Exact && r.Stale {
		bad("exact", "exact and stale are both set: stale evidence cannot be exact")
	}
	if r.Exact && r.Trust != trust.Exact {
		bad("exact", "exact is set on tier %s", r.Trust)
	}
	if r.Stale && r.Trust == trust.Exact {
		bad("trust", "stale evidence cannot claim the exact tier (it reads as %s)", trust.InferredHigh)
	}
	if !r.Exact && !r.Stale && r.Trust == trust.Exact {
		bad("exact", "tier exact without the exact flag")
	}
	if r.Metadata.StaleFrom != 0 {
		switch {
		case !r.Stale:
			bad("metadata.stale_from", "set on fresh evidence")
		case !r.Metadata.StaleFrom.Valid():
			bad("metadata.stale_from", "unknown tier %s", r.Metadata.StaleFrom)
		case r.Provenance.Valid() && r.Metadata.StaleFrom > r.Provenance.Ceiling():
			bad("metadata.stale_from", "%s evidence may claim at most %s, not %s", r.Provenance, r.Provenance.Ceiling(), r.Metadata.StaleFrom)
		case trust.Effective(r.Metadata.StaleFrom, true) != r.Trust:
			bad("metadata.stale_from", "stale %s evidence reads as %s, not %s", r.Metadata.StaleFrom, trust.Effective(r.Metadata.StaleFrom, true), r.Trust)
		}
	}
	if math.IsNaN(r.Confidence) || r.Confidence < 0 || r.Confidence > 1 {
		bad("confidence", "%v is not in [0, 1]", r.Confidence)
	}
	r.validateLocation(bad)
	for i := range r.Metadata.Superseded {
		if err := r.Metadata.Superseded[i].Validate(); err != nil {
			bad(fmt.Sprintf("metadata.superseded[%d]", i), "%v", err)
		}
	}
	return errors.Join(errs...)
}

func (r *Record) validateLocation(bad func(field, format string, args ...any)) {
	pos := []struct {
		name string
		v    int
	}{{"start_line", r.StartLine}, {"start_column", r.StartColumn}, {"end_line", r.EndLine}, {"end_column", r.EndColumn}}
	if r.Path == "" {
		for _, p := range pos {
			if p.v != 0 {
				bad(p.name, "%d without a path", p.v)
			}
		}
		return
	}
	if err := CheckPath(r.Path); err != nil {
		bad("path", "%v", err)
	}
	for _, p := range pos {
		if p.v < 1 {
			bad(p.name, "%d is below 1 (positions are one-based)", p.v)
		}
	}
	if r.EndLine < r.StartLine || (r.EndLine == r.StartLine && r.EndColumn < r.StartColumn) {
		bad("end_line", "end %d:%d is before start %d:%d", r.EndLine, r.EndColumn, r.StartLine, r.StartColumn)
	}
}

// isDrivePath reports whether p starts with a Windows drive, such as "C:" or
// "c:/x"; "a:b.go" is an ordinary file name.
func isDrivePath(p string) bool {
	letter := len(p) >= 2 && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z') && p[1] == ':'
	return letter && (len(p) == 2 || p[2] == '/')
}

// CheckPath reports whether p is a valid root-relative record path: slash
// separated, not absolute, without ".", ".." or empty elements, without NUL
// bytes or backslashes, and not the root itself. It is a lexical check; the
// file system is not consulted.
func CheckPath(p string) error {
	switch {
	case p == "" || p == ".":
		return errors.New("the project root itself is not a file path")
	case strings.HasPrefix(p, "/") || isDrivePath(p):
		return fmt.Errorf("%q is absolute", p)
	case strings.ContainsRune(p, 0):
		return fmt.Errorf("%q contains a NUL byte", p)
	case strings.ContainsRune(p, '\\'):
		return fmt.Errorf("%q contains a backslash", p)
	case p == ".." || strings.HasPrefix(p, "../") || strings.HasSuffix(p, "/..") || strings.Contains(p, "/../"):
		return fmt.Errorf("%q escapes the project root", p)
	case !fs.ValidPath(p):
		return fmt.Errorf("%q is not a clean relative path", p)
	}
	return nil
}

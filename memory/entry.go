package memory

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Type is what kind of knowledge an entry records.
type Type string

// The four types.
const (
	// Convention: how the team does things here ("errors wrap with %w").
	// Never decays.
	Convention Type = "convention"
	// Decision: a choice made and why ("SQLite, not Postgres, for the
	// index"). Half-life 180 days.
	Decision Type = "decision"
	// Gotcha: a trap to avoid ("the fixture clock is UTC"). Half-life 90
	// days.
	Gotcha Type = "gotcha"
	// Failure: something that went wrong and should not again ("the
	// migration timed out on large tables"). Half-life 90 days.
	Failure Type = "failure"
)

// Types returns the four types in a fixed order.
func Types() []Type { return []Type{Convention, Decision, Gotcha, Failure} }

// Valid reports whether t is one of the four types.
func (t Type) Valid() bool {
	switch t {
	case Convention, Decision, Gotcha, Failure:
		return true
	}
	return false
}

// The half-lives of decaying types.
const (
	DecisionHalfLife = 180 * 24 * time.Hour
	GotchaHalfLife   = 90 * 24 * time.Hour
	FailureHalfLife  = 90 * 24 * time.Hour
)

// StaleBelow is the decayed confidence below which an entry is flagged
// stale: still recalled, but to be checked before it is relied on.
const StaleBelow = 0.3

// HalfLife returns how long an entry of type t takes to lose half its
// confidence; 0 means it never decays.
func (t Type) HalfLife() time.Duration {
	switch t {
	case Decision:
		return DecisionHalfLife
	case Gotcha:
		return GotchaHalfLife
	case Failure:
		return FailureHalfLife
	}
	return 0
}

// Decay returns the confidence of an entry of type t at the given age:
// 1 when new, halved every half-life (0.5^(age/half-life)), and 1 at every
// age for a type that never decays. A negative age (an entry dated in the
// future, a clock that moved back) counts as 0.
func Decay(t Type, age time.Duration) float64 {
	hl := t.HalfLife()
	if hl == 0 || age <= 0 {
		return 1
	}
	return math.Exp2(-float64(age) / float64(hl))
}

// Limits on an entry, so that one file stays small and reviewable.
const (
	MaxText    = 4000 // code points of Text
	MaxReason  = 2000 // code points of Reason
	MaxAuthor  = 200  // code points of Author
	MaxScope   = 64   // paths, and symbols, in a Scope
	MaxScopeID = 400  // bytes of one path or symbol
)

// A Scope says what an entry is about. Empty means the whole project.
type Scope struct {
	// Paths are slash-separated paths relative to the project root: a file,
	// a directory (covering everything below it) or a pattern in
	// path.Match syntax ("migrations/*.sql"; a pattern without a slash
	// matches a file's base name anywhere).
	Paths []string `json:"paths,omitempty"`
	// Symbols are names as code spells them: "Engine.Ask", "refresh_token",
	// "codecortex.Open". A name covers a longer one it ends (at a "."),
	// so "Ask" covers "Engine.Ask" and "Engine.Ask" covers
	// "codecortex.Engine.Ask".
	Symbols []string `json:"symbols,omitempty"`
}

// IsZero reports whether the scope is the whole project.
func (s Scope) IsZero() bool { return len(s.Paths) == 0 && len(s.Symbols) == 0 }

// An Entry is one remembered piece of project knowledge. Its ID and Digest
// derive from its content (see [Entry.ComputeDigest]), so an entry cannot
// change without becoming another entry, and a changed file is detected.
type Entry struct {
	ID     string `json:"id"`
	Digest string `json:"digest"`
	Type   Type   `json:"type"`
	Text   string `json:"text"`
	Reason string `json:"reason,omitempty"`
	Scope  Scope  `json:"scope,omitzero"`
	Author string `json:"author"`
	// Created is when the entry was remembered, in UTC.
	Created time.Time `json:"created"`
}

// Confidence returns the entry's decayed confidence at now.
func (e *Entry) Confidence(now time.Time) float64 { return Decay(e.Type, now.Sub(e.Created)) }

// Stale reports whether the entry's decayed confidence at now is below
// [StaleBelow].
func (e *Entry) Stale(now time.Time) bool { return e.Confidence(now) < StaleBelow }

// formatVersion is the version of the canonical form and of the entry file.
const formatVersion = 1

// canonical is the content an entry's digest covers, in a fixed order.
type canonical struct {
	V       int      `json:"v"`
	Type    Type     `json:"type"`
	Text    string   `json:"text"`
	Reason  string   `json:"reason"`
	Paths   []string `json:"paths"`
	Symbols []string `json:"symbols"`
	Author  string   `json:"author"`
	Created string   `json:"created"`
}

// Canonical returns the bytes the digest covers: the compact JSON object
// {"v":1,"type":…,"text":…,"reason":…,"paths":[…],"symbols":[…],
// "author":…,"created":…} with keys in that order, strings escaped as
// encoding/json escapes them without HTML escaping, paths and symbols
// sorted, and created in RFC 3339 with nanoseconds, in UTC.
func (e *Entry) Canonical() []byte {
	c := canonical{V: formatVersion, Type: e.Type, Text: e.Text, Reason: e.Reason,
		Paths: sorted(e.Scope.Paths), Symbols: sorted(e.Scope.Symbols), Author: e.Author,
		Created: e.Created.UTC().Format(time.RFC3339Nano)}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(c) // strings, slices of strings and ints always encode
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	if out == nil {
		out = []string{}
	}
	slices.Sort(out)
	return out
}

// ComputeDigest returns "sha256:" and the hexadecimal SHA-256 of the
// entry's [Entry.Canonical] form.
func (e *Entry) ComputeDigest() string {
	sum := sha256.Sum256(e.Canonical())
	return "sha256:" + hex.EncodeToString(sum[:])
}

// IDFor returns the id an entry with the given digest has: "m" and the
// digest's first 16 hexadecimal digits.
func IDFor(digest string) string {
	h := strings.TrimPrefix(digest, "sha256:")
	if len(h) < 16 {
		return ""
	}
	return "m" + h[:16]
}

// ValidID reports whether id has the form [IDFor] gives.
func ValidID(id string) bool {
	if len(id) != 17 || id[0] != 'm' {
		return false
	}
	for i := 1; i < len(id); i++ {
		c := id[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// ErrInvalid is matched by every rejection of a malformed entry.
var ErrInvalid = errors.New("memory: invalid entry")

// An EntryError reports what is wrong with an entry.
type EntryError struct {
	Field  string
	Reason string
}

func (e *EntryError) Error() string { return "memory: " + e.Field + ": " + e.Reason }

// Unwrap lets errors.Is(err, ErrInvalid) match.
func (e *EntryError) Unwrap() error { return ErrInvalid }

// normalize trims the entry's text fields, cleans and sorts its scope and
// puts its time in UTC: what [Store.Remember] stores.
func (e *Entry) normalize() {
	e.Text = strings.TrimSpace(e.Text)
	e.Reason = strings.TrimSpace(e.Reason)
	e.Author = strings.TrimSpace(e.Author)
	var paths []string
	for _, p := range e.Scope.Paths {
		p = strings.TrimSpace(p)
		if p != "/" {
			p = strings.TrimSuffix(strings.TrimPrefix(p, "./"), "/")
		}
		paths = append(paths, p)
	}
	var syms []string
	for _, s := range e.Scope.Symbols {
		syms = append(syms, strings.TrimSpace(s))
	}
	e.Scope.Paths = slices.Compact(sorted(paths))
	e.Scope.Symbols = slices.Compact(sorted(syms))
	if len(e.Scope.Paths) == 0 {
		e.Scope.Paths = nil
	}
	if len(e.Scope.Symbols) == 0 {
		e.Scope.Symbols = nil
	}
	e.Created = e.Created.UTC()
}

// Validate checks an entry's content (not its id and digest): a known
// type, a text, an author and a time, text within the limits without
// control characters other than newline and tab, and a scope of clean
// relative paths and of symbols without spaces.
func (e *Entry) Validate() error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, &EntryError{Field: field, Reason: fmt.Sprintf(format, args...)})
	}
	if !e.Type.Valid() {
		bad("type", "%q is not convention, decision, gotcha or failure", string(e.Type))
	}
	for _, f := range []struct {
		name, v  string
		max      int
		required bool
	}{{"text", e.Text, MaxText, true}, {"reason", e.Reason, MaxReason, false}, {"author", e.Author, MaxAuthor, true}} {
		switch {
		case f.required && strings.TrimSpace(f.v) == "":
			bad(f.name, "empty")
		case !utf8.ValidString(f.v):
			bad(f.name, "not valid UTF-8")
		case utf8.RuneCountInString(f.v) > f.max:
			bad(f.name, "longer than %d characters", f.max)
		case strings.ContainsFunc(f.v, badRune):
			bad(f.name, "contains a control character")
		}
	}
	if e.Created.IsZero() {
		bad("created", "no time")
	}
	if len(e.Scope.Paths) > MaxScope || len(e.Scope.Symbols) > MaxScope {
		bad("scope", "more than %d paths or symbols", MaxScope)
	}
	for _, p := range e.Scope.Paths {
		if err := checkScopePath(p); err != nil {
			bad("scope.paths", "%v", err)
		}
	}
	for _, s := range e.Scope.Symbols {
		switch {
		case s == "" || len(s) > MaxScopeID:
			bad("scope.symbols", "%q is empty or too long", s)
		case !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || badRune(r) }):
			bad("scope.symbols", "%q contains a space or a control character", s)
		}
	}
	return errors.Join(errs...)
}

// badRune is a control character other than newline and tab, or a
// bidirectional control (which makes displayed text differ from stored).
func badRune(r rune) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 ||
		unicode.Is(unicode.Bidi_Control, r)
}

// checkScopePath accepts a clean, slash-separated path relative to the
// project root, or a path.Match pattern of such paths.
func checkScopePath(p string) error {
	switch {
	case p == "" || len(p) > MaxScopeID:
		return fmt.Errorf("%q is empty or too long", p)
	case !utf8.ValidString(p) || strings.ContainsFunc(p, badRune) || strings.ContainsRune(p, '\\'):
		return fmt.Errorf("%q contains a control character or a backslash", p)
	case strings.HasPrefix(p, "/"):
		return fmt.Errorf("%q is absolute", p)
	case path.Clean(p) != p || p == "." || p == ".." || strings.HasPrefix(p, "../"):
		return fmt.Errorf("%q is not a clean path inside the project", p)
	}
	if _, err := path.Match(p, ""); err != nil {
		return fmt.Errorf("%q is not a valid pattern: %v", p, err)
	}
	return nil
}

// check verifies a stored entry: its content is valid, its digest is the
// digest of its content, and its id derives from its digest.
func (e *Entry) check() error {
	if err := e.Validate(); err != nil {
		return err
	}
	if want := e.ComputeDigest(); e.Digest != want {
		return &EntryError{Field: "digest", Reason: fmt.Sprintf("%s does not match the content, whose digest is %s: the entry was changed", e.Digest, want)}
	}
	if want := IDFor(e.Digest); e.ID != want {
		return &EntryError{Field: "id", Reason: fmt.Sprintf("%s does not derive from the digest (it would be %s)", e.ID, want)}
	}
	return nil
}

// entryFile is an entry as its file holds it.
type entryFile struct {
	Version int `json:"version"`
	Entry
}

// maxEntryFile bounds the size of an entry file that is read.
const maxEntryFile = 64 << 10

// encodeEntry returns the file content of e: indented JSON, one field a
// line, ending in a newline, so a review shows a readable diff.
func encodeEntry(e *Entry) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(entryFile{Version: formatVersion, Entry: *e})
	return buf.Bytes()
}

// ParseEntry reads an entry file and checks it: known version, no unknown
// field, valid content, a digest that matches the content and an id that
// derives from the digest. A file that fails any check is an error; its
// entry is returned alongside when it could be decoded, so that Verify can
// say which entry it was.
func ParseEntry(data []byte) (Entry, error) {
	if len(data) > maxEntryFile {
		return Entry{}, &EntryError{Field: "file", Reason: fmt.Sprintf("larger than %d bytes", maxEntryFile)}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f entryFile
	if err := dec.Decode(&f); err != nil {
		return Entry{}, &EntryError{Field: "file", Reason: "not an entry: " + err.Error()}
	}
	if dec.More() {
		return Entry{}, &EntryError{Field: "file", Reason: "data after the entry"}
	}
	if f.Version != formatVersion {
		return f.Entry, &EntryError{Field: "version", Reason: fmt.Sprintf("%d is not %d", f.Version, formatVersion)}
	}
	return f.Entry, f.Entry.check()
}

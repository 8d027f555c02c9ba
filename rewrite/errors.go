package rewrite

import (
	"errors"
	"fmt"
)

// Errors matched with errors.Is. Every refusal happens before anything in
// the project is written.
var (
	// ErrInvalidRequest: the request cannot be a rewrite (no pattern, no
	// template, no language, an edit that is malformed). An invalid
	// pattern is structural.ErrInvalidPattern and an unusable template
	// structural.ErrTemplate, both passed through.
	ErrInvalidRequest = errors.New("rewrite: invalid request")
	// ErrNotStructural: no structural engine could run, so there are no
	// structural matches to rewrite (lexical hits never drive a rewrite).
	ErrNotStructural = errors.New("rewrite: no structural engine answered")
	// ErrNoChanges: the request changes nothing (no match, or edits that
	// leave every file as it is).
	ErrNoChanges = errors.New("rewrite: nothing to change")
	// ErrLimit is matched by every [*LimitError].
	ErrLimit = errors.New("rewrite: limit exceeded")
	// ErrUnsafePath is matched by every [*PathError]: a path that leaves
	// the root, a symbolic link, something other than a regular file.
	ErrUnsafePath = errors.New("rewrite: path cannot be rewritten safely")
	// ErrUnknownPreview: no preview has that id (or the id is malformed).
	ErrUnknownPreview = errors.New("rewrite: unknown preview")
	// ErrExpired: the preview is past its expiry; preview again.
	ErrExpired = errors.New("rewrite: preview expired")
	// ErrCorruptPreview: the stored preview does not hold together (its
	// edits do not give the diff or the hashes it records).
	ErrCorruptPreview = errors.New("rewrite: preview is damaged")
	// ErrUnauthorized: apply was called without a principal.
	ErrUnauthorized = errors.New("rewrite: mutation not authorized")
	// ErrApplyDisabled: the configuration does not permit applying
	// rewrites (structural.allow_apply is false).
	ErrApplyDisabled = errors.New("rewrite: applying rewrites is disabled in the configuration (structural.allow_apply is false)")
	// ErrChanged is matched by every [*ChangedError]: a file differs from
	// the one the preview was computed from.
	ErrChanged = errors.New("rewrite: file changed since the preview")
	// ErrBusy: another apply or recovery holds the project's rewrite lock.
	ErrBusy = errors.New("rewrite: another rewrite is being applied in this project")
	// ErrApplyFailed: replacing the files failed; the [Result] says what
	// was rolled back and what, if anything, is left to recover.
	ErrApplyFailed = errors.New("rewrite: apply failed")
	// ErrUnrecovered: a journal of an interrupted apply could not be
	// brought to a consistent state; applies are refused until it is.
	ErrUnrecovered = errors.New("rewrite: an interrupted apply is not recovered")
)

// A LimitError reports a rewrite larger than a configured limit.
type LimitError struct {
	// Limit is the configuration key: max_rewrite_files,
	// max_rewrite_matches or max_rewrite_bytes.
	Limit string
	// Max is the limit's value and Got the rewrite's figure.
	Max, Got int64
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("rewrite: %s is %d but the rewrite has %d %s", e.Limit, e.Max, e.Got, limitNoun[e.Limit])
}

// Unwrap makes errors.Is(err, ErrLimit) hold.
func (e *LimitError) Unwrap() error { return ErrLimit }

var limitNoun = map[string]string{
	LimitFiles:   "files",
	LimitMatches: "matches",
	LimitBytes:   "changed bytes",
}

// The limits' names, as the configuration spells them.
const (
	LimitFiles   = "max_rewrite_files"
	LimitMatches = "max_rewrite_matches"
	LimitBytes   = "max_rewrite_bytes"
)

// A PathError reports a file that a rewrite refuses to touch.
type PathError struct {
	Path   string
	Reason string
	Err    error // the cause, when there is one
}

func (e *PathError) Error() string {
	msg := fmt.Sprintf("rewrite: %q: %s", e.Path, e.Reason)
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap makes errors.Is(err, ErrUnsafePath) hold, and the cause's
// sentinels too.
func (e *PathError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrUnsafePath}
	}
	return []error{ErrUnsafePath, e.Err}
}

// A ChangedError reports a file that is not the one a preview was
// computed from.
type ChangedError struct {
	Path string
	// Want is the SHA-256 the preview recorded; Got the file's now, empty
	// when the file is gone.
	Want, Got string
	Deleted   bool
	// Reason says what changed when it is not the content (a link, a
	// mode).
	Reason string
}

func (e *ChangedError) Error() string {
	switch {
	case e.Deleted:
		return fmt.Sprintf("rewrite: %q was deleted after the preview; nothing was written (preview again)", e.Path)
	case e.Reason != "":
		return fmt.Sprintf("rewrite: %q changed after the preview (%s); nothing was written (preview again)", e.Path, e.Reason)
	}
	return fmt.Sprintf("rewrite: %q was edited after the preview (sha256 %s, the preview has %s); nothing was written (preview again)",
		e.Path, short(e.Got), short(e.Want))
}

// Unwrap makes errors.Is(err, ErrChanged) hold.
func (e *ChangedError) Unwrap() error { return ErrChanged }

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// Package contain keeps every path CodeCortex touches inside the project
// root. A path is accepted only if, lexically and after following every
// symbolic link that exists, it names something inside the root; parent
// traversal, absolute escapes, symlink escapes, symlink loops, NUL bytes,
// control characters and invalid UTF-8 are rejected. File access goes through
// [os.Root], which enforces the same boundary at open time.
package contain

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrEscape is matched by every rejection of a path that leaves the root.
var ErrEscape = errors.New("path escapes the project root")

// ErrInvalidName is matched by every rejection of a malformed path.
var ErrInvalidName = errors.New("invalid path")

// A PathError reports a rejected path.
type PathError struct {
	Path   string
	Reason string
	Err    error // ErrEscape or ErrInvalidName, possibly wrapping a cause
}

func (e *PathError) Error() string {
	return fmt.Sprintf("contain: %q: %s", e.Path, e.Reason)
}

func (e *PathError) Unwrap() error { return e.Err }

// A Root is an opened project root.
type Root struct {
	given string // absolute and clean, as the caller named it
	real  string // given with every symlink evaluated
	root  *os.Root
}

// Open opens dir as a project root. dir must exist and be a directory.
func Open(dir string) (*Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("contain: %w", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("contain: project root: %w", err)
	}
	r, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("contain: project root: %w", err)
	}
	return &Root{given: abs, real: real, root: r}, nil
}

// Close releases the root.
func (r *Root) Close() error { return r.root.Close() }

// Dir returns the root's absolute directory with symlinks evaluated.
func (r *Root) Dir() string { return r.real }

// FS returns the root as a file system; it cannot reach outside the root.
func (r *Root) FS() fs.FS { return r.root.FS() }

// Rel resolves p, relative to the root or absolute, to a clean slash-separated
// path relative to the root, and rejects it if it leaves the root lexically
// or through a symbolic link. The path need not exist; the part that exists
// is checked link by link. Rel of the root itself is ".".
func (r *Root) Rel(p string) (string, error) {
	if err := checkName(p); err != nil {
		return "", err
	}
	native := filepath.FromSlash(p)
	var rel string
	if filepath.IsAbs(native) {
		var ok bool
		rel, ok = within(r.real, native)
		if !ok {
			rel, ok = within(r.given, native)
		}
		if !ok {
			return "", &PathError{Path: p, Reason: "absolute path outside the root", Err: ErrEscape}
		}
	} else {
		rel = filepath.Clean(native)
		if rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", &PathError{Path: p, Reason: "climbs out of the root through ..", Err: ErrEscape}
		}
	}
	if err := r.checkLinks(p, rel); err != nil {
		return "", err
	}
	return filepath.ToSlash(rel), nil
}

// Abs returns the absolute path of p after [Root.Rel] accepted it.
func (r *Root) Abs(p string) (string, error) {
	rel, err := r.Rel(p)
	if err != nil {
		return "", err
	}
	return filepath.Join(r.real, filepath.FromSlash(rel)), nil
}

// Inside reports whether p resolves inside the root.
func (r *Root) Inside(p string) bool {
	_, err := r.Rel(p)
	return err == nil
}

// ReadFile reads the file p inside the root.
func (r *Root) ReadFile(p string) ([]byte, error) {
	rel, err := r.Rel(p)
	if err != nil {
		return nil, err
	}
	return r.root.ReadFile(rel)
}

// Stat returns the file information of p inside the root, following links
// that stay inside it.
func (r *Root) Stat(p string) (fs.FileInfo, error) {
	rel, err := r.Rel(p)
	if err != nil {
		return nil, err
	}
	return r.root.Stat(rel)
}

// within returns target relative to base when target is base or below it.
func within(base, target string) (string, bool) {
	rel, err := filepath.Rel(base, filepath.Clean(target))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

// checkLinks walks rel from the root one element at a time, evaluating each
// element that exists; a link that resolves outside the root, or a loop,
// rejects the path. Elements past the first missing one cannot be links.
func (r *Root) checkLinks(p, rel string) error {
	if rel == "." {
		return nil
	}
	cur := r.real
	for _, elem := range strings.Split(rel, string(filepath.Separator)) {
		next := filepath.Join(cur, elem)
		fi, err := os.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return &PathError{Path: p, Reason: err.Error(), Err: fmt.Errorf("%w: %w", ErrInvalidName, err)}
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			resolved, err := filepath.EvalSymlinks(next)
			if errors.Is(err, fs.ErrNotExist) {
				// A dangling link: where it points decides.
				target, lerr := os.Readlink(next)
				if lerr != nil {
					return &PathError{Path: p, Reason: lerr.Error(), Err: ErrInvalidName}
				}
				if !filepath.IsAbs(target) {
					target = filepath.Join(cur, target)
				}
				if _, ok := within(r.real, target); !ok {
					return &PathError{Path: p, Reason: "dangling symbolic link points outside the root", Err: ErrEscape}
				}
				return nil
			}
			if err != nil {
				return &PathError{Path: p, Reason: "symbolic link cannot be resolved: " + err.Error(), Err: ErrEscape}
			}
			if _, ok := within(r.real, resolved); !ok {
				return &PathError{Path: p, Reason: "symbolic link resolves outside the root", Err: ErrEscape}
			}
			next = resolved
		}
		cur = next
	}
	return nil
}

// checkName rejects names no project file should have: empty, NUL bytes,
// control characters, invalid UTF-8.
func checkName(p string) error {
	switch {
	case p == "":
		return &PathError{Path: p, Reason: "empty path", Err: ErrInvalidName}
	case !utf8.ValidString(p):
		return &PathError{Path: p, Reason: "not valid UTF-8", Err: ErrInvalidName}
	}
	for _, c := range p {
		if c == 0 {
			return &PathError{Path: p, Reason: "contains a NUL byte", Err: ErrInvalidName}
		}
		if unicode.IsControl(c) {
			return &PathError{Path: p, Reason: "contains a control character", Err: ErrInvalidName}
		}
	}
	return nil
}

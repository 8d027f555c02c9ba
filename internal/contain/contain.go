// Package contain keeps every path CodeCortex touches inside the project
// root. A path is accepted only if, read the way the kernel reads it —
// element by element, following every symbolic link that exists — it names
// something inside the root. Parent traversal, absolute escapes, symbolic
// links whose target leaves the root (even if a further link would lead back
// inside), symlink loops, NUL bytes, control and bidirectional-override
// characters and invalid UTF-8 are rejected. File access goes through
// [os.Root] with the link-free resolved path, so the same boundary is
// enforced again at open time.
//
// # Names
//
// A name is judged by the bytes the kernel sees. Look-alike characters such
// as the fullwidth full stop "．" (U+FF0E), the division slash "∕" (U+2215)
// or the fraction slash "⁄" (U+2044) are ordinary characters to the kernel,
// so "．．/x" is a directory named "．．" inside the root and is accepted.
// Combining characters and the zero-width joiner (used in emoji) are
// accepted likewise. Bidirectional controls (U+202A–U+202E, U+2066–U+2069,
// U+200E, U+200F, U+061C) are rejected: they make a displayed path differ
// from the path acted on (CVE-2021-42574, "Trojan Source").
package contain

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"
)

// ErrEscape is matched by every rejection of a path that leaves the root.
var ErrEscape = errors.New("path escapes the project root")

// ErrInvalidName is matched by every rejection of a malformed path, a
// symbolic link loop, or a path whose links cannot be checked.
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

// maxLinks bounds the symbolic links followed while resolving one path, as
// the kernel's own limit (MAXSYMLINKS, 40 on Linux) does.
const maxLinks = 40

// maxPath bounds the length of a path, as the kernel's PATH_MAX does.
const maxPath = 4096

// A Root is an opened project root. It is safe for concurrent use.
type Root struct {
	given string // absolute and clean, as the caller named it
	real  string // given with every symlink evaluated
	root  *os.Root
	fast  *beneath // opens a path without links in one system call
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
	fast := openBeneath(real)
	r, err := os.OpenRoot(real)
	if err != nil {
		fast.close()
		return nil, fmt.Errorf("contain: project root: %w", err)
	}
	if fi, err := r.Stat("."); err == nil {
		fast.sameAs(fi)
	} else {
		fast.close()
	}
	return &Root{given: abs, real: real, root: r, fast: fast}, nil
}

// Close releases the root.
func (r *Root) Close() error {
	r.fast.close()
	return r.root.Close()
}

// Dir returns the root's absolute directory with symlinks evaluated.
func (r *Root) Dir() string { return r.real }

// FS returns the root as a file system; it cannot reach outside the root.
// Like [os.Root] it refuses absolute symbolic links, even ones that point
// inside the root; [Root.ReadFile] and [Root.Stat] follow those. Its
// ReadDir takes the entries' types from the directory where the system
// reports them (see rootFS).
func (r *Root) FS() fs.FS { return rootFS{root: r.root, fs: r.root.FS(), fast: r.fast} }

// Rel resolves p, relative to the root or absolute, to a clean
// slash-separated path relative to the root, and rejects it if it leaves the
// root lexically or through a symbolic link. The path need not exist; every
// element that exists is checked, link by link. Rel of the root itself is ".".
//
// The result keeps the caller's names, including links that stay inside the
// root, except where ".." follows a symbolic link and the kernel would land
// somewhere other than the lexically cleaned path: then the result is the
// path the kernel would reach, so it always names the file that p names.
// A trailing slash is dropped; "file/" is accepted as "file".
func (r *Root) Rel(p string) (string, error) {
	rel, _, err := r.resolve(p)
	return rel, err
}

// Abs returns the absolute path of p after [Root.Rel] accepted it.
func (r *Root) Abs(p string) (string, error) {
	rel, err := r.Rel(p)
	if err != nil {
		return "", err
	}
	return filepath.Join(r.real, filepath.FromSlash(rel)), nil
}

// Check returns the error [Root.Rel] gives p: nil for a path inside the
// root. It fits evidence.LocationCheck.
func (r *Root) Check(p string) error {
	_, err := r.Rel(p)
	return err
}

// Inside reports whether p resolves inside the root.
func (r *Root) Inside(p string) bool {
	_, _, err := r.resolve(p)
	return err == nil
}

// ReadFile reads the file p inside the root.
func (r *Root) ReadFile(p string) ([]byte, error) {
	if rel, ok := r.plainRel(p); ok {
		if data, ok := r.fast.readFile(rel); ok {
			return data, nil
		}
	}
	_, real, err := r.resolve(p)
	if err != nil {
		return nil, err
	}
	return r.root.ReadFile(real)
}

// Stat returns the file information of p inside the root, following links
// that stay inside it.
func (r *Root) Stat(p string) (fs.FileInfo, error) {
	if rel, ok := r.plainRel(p); ok {
		if fi, ok := r.fast.stat(rel); ok {
			return fi, nil
		}
	}
	_, real, err := r.resolve(p)
	if err != nil {
		return nil, err
	}
	return r.root.Stat(real)
}

// resolve returns p relative to the root as Rel reports it, and the same
// path with every existing symbolic link evaluated (what [os.Root] is given).
func (r *Root) resolve(p string) (rel, real string, err error) {
	elems, lex, err := r.elements(p)
	if err != nil {
		return "", "", err
	}
	if len(lex) == len(elems) && len(elems) > 0 && r.fast.plain(join(elems)) {
		// No link on the way and no "..": the kernel reads the path as
		// written, as walk would find element by element.
		return join(elems), join(elems), nil
	}
	kernel, err := r.walk(p, elems)
	if err != nil {
		return "", "", err
	}
	rel = join(lex)
	if len(lex) != len(elems) { // ".." was cleaned away: does it matter?
		viaLex, err := r.walk(p, lex)
		if err != nil {
			return "", "", err
		}
		if join(viaLex) != join(kernel) {
			rel = join(kernel)
		}
	}
	return rel, join(kernel), nil
}

// elements checks p's name and returns its elements below the root, as
// written and cleaned lexically.
func (r *Root) elements(p string) (elems, lex []string, err error) {
	if err := checkName(p); err != nil {
		return nil, nil, err
	}
	elems, abs, err := hostStyle.elements(p)
	if err != nil {
		return nil, nil, &PathError{Path: p, Reason: err.Error(), Err: ErrInvalidName}
	}
	if abs {
		var ok bool
		if elems, ok = r.strip(hostStyle, elems); !ok {
			return nil, nil, &PathError{Path: p, Reason: "absolute path outside the root", Err: ErrEscape}
		}
	}
	lex, err = lexical(p, elems)
	if err != nil {
		return nil, nil, err
	}
	return elems, lex, nil
}

// plainRel returns p relative to the root, for the fast way (see
// beneath), when its name checks and it holds no ".." and names something
// below the root; ok is false otherwise, and the slow way then judges p.
func (r *Root) plainRel(p string) (string, bool) {
	elems, lex, err := r.elements(p)
	if err != nil || len(lex) != len(elems) || len(elems) == 0 {
		return "", false
	}
	return join(elems), true
}

// strip returns the elements below the root of an absolute path's
// elements, when they name the root (as given or with links evaluated) as a
// literal prefix. A ".." that climbs above the root prefix is not unwound:
// nothing outside the root is walked.
func (r *Root) strip(s style, elems []string) ([]string, bool) {
	for _, base := range []string{r.real, r.given} {
		if b := hostElements(base); s.hasPrefix(elems, b) {
			return elems[len(b):], true
		}
	}
	return nil, false
}

// lexical cleans elems without looking at the file system.
func lexical(p string, elems []string) ([]string, error) {
	var out []string
	for _, e := range elems {
		if e != ".." {
			out = append(out, e)
			continue
		}
		if len(out) == 0 {
			return nil, &PathError{Path: p, Reason: "climbs out of the root through ..", Err: ErrEscape}
		}
		out = out[:len(out)-1]
	}
	return out, nil
}

// walk resolves elems from the root as the kernel does: one element at a
// time, splicing in the target of every symbolic link it meets. A target
// that leaves the root — absolute outside it, or climbing above it — rejects
// the path. Elements that do not exist are taken as they are.
func (r *Root) walk(p string, elems []string) ([]string, error) {
	var done []string
	queue := append([]string(nil), elems...)
	hops := 0
	for len(queue) > 0 {
		e := queue[0]
		queue = queue[1:]
		if e == ".." {
			if len(done) == 0 {
				reason := "climbs out of the root through .."
				if hops > 0 {
					reason = "symbolic link climbs out of the root"
				}
				return nil, &PathError{Path: p, Reason: reason, Err: ErrEscape}
			}
			done = done[:len(done)-1]
			continue
		}
		done = append(done, e)
		here := filepath.Join(r.real, filepath.Join(done...))
		fi, err := os.Lstat(here)
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			continue // nothing there, so no link to follow
		case err != nil:
			return nil, &PathError{Path: p, Reason: "cannot check " + join(done) + ": " + err.Error(),
				Err: fmt.Errorf("%w: %w", ErrInvalidName, err)}
		case fi.Mode()&fs.ModeSymlink == 0:
			continue
		}
		if hops++; hops > maxLinks {
			return nil, &PathError{Path: p, Reason: "too many symbolic links (a loop?)",
				Err: fmt.Errorf("%w: %w", ErrInvalidName, syscall.ELOOP)}
		}
		target, err := os.Readlink(here)
		if err != nil {
			return nil, &PathError{Path: p, Reason: err.Error(), Err: fmt.Errorf("%w: %w", ErrInvalidName, err)}
		}
		done = done[:len(done)-1]
		var next []string
		if filepath.IsAbs(target) {
			var ok bool
			if next, ok = r.strip(hostStyle, hostElements(target)); !ok {
				return nil, &PathError{Path: p, Reason: fmt.Sprintf("symbolic link %s points outside the root", join(append(done, e))), Err: ErrEscape}
			}
			done = nil
		} else {
			next = split(filepath.ToSlash(target))
		}
		queue = append(next, queue...)
	}
	return done, nil
}

// split returns the elements of a slash-separated path, without empty and
// "." elements.
func split(p string) []string {
	var out []string
	for _, e := range strings.Split(p, "/") {
		if e != "" && e != "." {
			out = append(out, e)
		}
	}
	return out
}

func join(elems []string) string {
	if len(elems) == 0 {
		return "."
	}
	return path.Join(elems...)
}

// checkName rejects names no project file should have: empty, NUL bytes,
// control characters, bidirectional controls, invalid UTF-8, over 4096 bytes.
func checkName(p string) error {
	switch {
	case p == "":
		return &PathError{Path: p, Reason: "empty path", Err: ErrInvalidName}
	case len(p) > maxPath:
		return &PathError{Path: p[:64] + "...", Reason: fmt.Sprintf("longer than %d bytes", maxPath), Err: ErrInvalidName}
	case !utf8.ValidString(p):
		return &PathError{Path: p, Reason: "not valid UTF-8", Err: ErrInvalidName}
	}
	for _, c := range p {
		switch {
		case c == 0:
			return &PathError{Path: p, Reason: "contains a NUL byte", Err: ErrInvalidName}
		case unicode.IsControl(c):
			return &PathError{Path: p, Reason: "contains a control character", Err: ErrInvalidName}
		case unicode.Is(unicode.Bidi_Control, c):
			return &PathError{Path: p, Reason: fmt.Sprintf("contains the bidirectional control %U", c), Err: ErrInvalidName}
		}
	}
	return nil
}

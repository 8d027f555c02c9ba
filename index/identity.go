package index

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// An Identity is what an index belongs to: the repository, the worktree,
// the branch and the commit checked out. Two identities that differ in any
// field have separate indexes, so results from one branch never reach
// another.
type Identity struct {
	// Repository is the repository's main worktree (or its git directory,
	// for a bare repository); empty outside git.
	Repository string `json:"repository,omitempty"`
	// Worktree is the top directory of the working tree the project is in;
	// outside git, the project directory itself.
	Worktree string `json:"worktree"`
	// Branch is the branch checked out, without refs/heads/; empty when the
	// HEAD is detached or outside git.
	Branch string `json:"branch,omitempty"`
	// Head is the commit checked out, in hex; empty outside git and on a
	// branch without commits yet.
	Head string `json:"head,omitempty"`
	// Detached reports a HEAD that names a commit rather than a branch.
	Detached bool `json:"detached,omitempty"`
	// Git reports whether the project is inside a git working tree.
	Git bool `json:"git"`
	// Note says what could not be read, such as refs kept in a format the
	// index does not read; the identity is then coarser than it should be.
	Note string `json:"note,omitempty"`
}

// Key returns the identity's stable key: the first 16 hex digits of the
// SHA-256 of its repository, worktree, branch and head.
func (id Identity) Key() string {
	h := sha256.New()
	for _, s := range []string{id.Repository, id.Worktree, id.Branch, id.Head} {
		io.WriteString(h, s)
		h.Write([]byte{0})
	}
	if id.Detached {
		h.Write([]byte{1})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// String describes the identity in a line: "main@1a2b3c4d5e6f" or
// "detached@1a2b3c4d5e6f" or "no git".
func (id Identity) String() string {
	if !id.Git {
		return "outside git"
	}
	head := id.Head
	if len(head) > 12 {
		head = head[:12]
	}
	if head == "" {
		head = "(no commits)"
	}
	if id.Detached {
		return "detached@" + head
	}
	return id.Branch + "@" + head
}

// Limits on what is read from git's files.
const (
	maxGitFile     = 64 << 10 // HEAD, a loose ref, a .git file, commondir
	maxPackedRefs  = 64 << 20 // packed-refs
	maxRefDepth    = 8        // symbolic refs followed
	maxParentDepth = 256      // directories climbed looking for .git
)

// errNoGit reports a directory outside any git working tree.
var errNoGit = errors.New("not inside a git working tree")

// A gitLayout is where a working tree's git state lives.
type gitLayout struct {
	worktree string // the working tree's top directory
	gitDir   string // HEAD and per-worktree refs
	common   string // shared refs and packed-refs
}

// findGit looks for the .git of dir or of a directory above it.
func findGit(dir string) (gitLayout, error) {
	d := dir
	for range maxParentDepth {
		p := filepath.Join(d, ".git")
		fi, err := os.Lstat(p)
		switch {
		case err == nil && fi.IsDir():
			return layoutFrom(d, p)
		case err == nil && fi.Mode().IsRegular():
			data, err := readSmall(p, maxGitFile)
			if err != nil {
				return gitLayout{}, err
			}
			gd, err := parseGitFile(data)
			if err != nil {
				return gitLayout{}, fmt.Errorf("%s: %w", p, err)
			}
			if !filepath.IsAbs(gd) {
				gd = filepath.Join(d, gd)
			}
			return layoutFrom(d, filepath.Clean(gd))
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	return gitLayout{}, errNoGit
}

// layoutFrom completes a layout from the git directory of worktree.
func layoutFrom(worktree, gitDir string) (gitLayout, error) {
	l := gitLayout{worktree: worktree, gitDir: gitDir, common: gitDir}
	data, err := readSmall(filepath.Join(gitDir, "commondir"), maxGitFile)
	switch {
	case err == nil:
		c := strings.TrimSpace(string(data))
		if c == "" || strings.ContainsRune(c, 0) {
			return l, fmt.Errorf("%s/commondir: empty or invalid", gitDir)
		}
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		l.common = filepath.Clean(c)
	case !errors.Is(err, fs.ErrNotExist):
		return l, err
	}
	return l, nil
}

// readIdentity returns the identity of the project at dir (absolute, with
// links evaluated), reading git's files directly; it never runs git.
func readIdentity(dir string) (Identity, error) {
	l, err := findGit(dir)
	if errors.Is(err, errNoGit) {
		return Identity{Worktree: dir}, nil
	}
	if err != nil {
		return Identity{}, err
	}
	id := Identity{Git: true, Worktree: l.worktree}
	if filepath.Base(l.common) == ".git" {
		id.Repository = filepath.Dir(l.common)
	} else {
		id.Repository = l.common // a bare repository's worktree
	}
	head, err := readSmall(filepath.Join(l.gitDir, "HEAD"), maxGitFile)
	if err != nil {
		return Identity{}, fmt.Errorf("reading HEAD: %w", err)
	}
	ref, hash, err := parseHead(head)
	if err != nil {
		return Identity{}, fmt.Errorf("%s/HEAD: %w", l.gitDir, err)
	}
	if ref == "" {
		id.Detached, id.Head = true, hash
		return id, nil
	}
	id.Branch = strings.TrimPrefix(ref, "refs/heads/")
	if isDir(filepath.Join(l.common, "reftable")) {
		id.Note = "refs are kept in the reftable format, which the index does not read: the commit is not part of the identity"
		return id, nil
	}
	id.Head, err = l.resolve(ref)
	if err != nil {
		return Identity{}, err
	}
	return id, nil
}

// resolve returns the commit ref names, following symbolic refs; "" for a
// ref that does not exist yet (a branch without commits).
func (l gitLayout) resolve(ref string) (string, error) {
	var packed []byte
	packedRead := false
	for range maxRefDepth {
		data, err := l.loose(ref)
		if err != nil {
			return "", err
		}
		if data == nil {
			if !packedRead {
				packed, err = readSmall(filepath.Join(l.common, "packed-refs"), maxPackedRefs)
				if err != nil && !errors.Is(err, fs.ErrNotExist) {
					return "", err
				}
				packedRead = true
			}
			return findPackedRef(packed, ref), nil
		}
		next, hash, err := parseHead(data)
		if err != nil {
			return "", fmt.Errorf("ref %s: %w", ref, err)
		}
		if next == "" {
			return hash, nil
		}
		ref = next
	}
	return "", fmt.Errorf("ref %s: more than %d symbolic refs", ref, maxRefDepth)
}

// loose reads a loose ref: from the worktree's own git directory for the
// refs git keeps per worktree, from the common directory for the rest. A
// missing ref gives nil.
func (l gitLayout) loose(ref string) ([]byte, error) {
	if !validRefName(ref) {
		return nil, fmt.Errorf("invalid ref name %q", ref)
	}
	dirs := []string{l.common}
	if perWorktree(ref) {
		dirs = []string{l.gitDir}
	}
	for _, d := range dirs {
		data, err := readSmall(filepath.Join(d, filepath.FromSlash(ref)), maxGitFile)
		switch {
		case err == nil:
			return data, nil
		case errors.Is(err, fs.ErrNotExist), isNotDir(err):
		default:
			return nil, err
		}
	}
	return nil, nil
}

// perWorktree reports whether git keeps ref per worktree.
func perWorktree(ref string) bool {
	return !strings.HasPrefix(ref, "refs/") || strings.HasPrefix(ref, "refs/bisect/") ||
		strings.HasPrefix(ref, "refs/worktree/") || strings.HasPrefix(ref, "refs/rewritten/")
}

// validRefName rejects ref names that could leave the git directory or
// that git itself refuses.
func validRefName(ref string) bool {
	if ref == "" || strings.HasPrefix(ref, "/") || strings.HasSuffix(ref, "/") ||
		strings.HasSuffix(ref, ".lock") || strings.Contains(ref, "..") || strings.Contains(ref, "//") {
		return false
	}
	for i := 0; i < len(ref); i++ {
		c := ref[i]
		if c < 0x20 || c == 0x7f || c == '\\' || c == ':' || c == '?' || c == '*' || c == '[' || c == ' ' || c == '~' || c == '^' {
			return false
		}
	}
	for _, e := range strings.Split(ref, "/") {
		if e == "" || e == "." || strings.HasPrefix(e, ".") {
			return false
		}
	}
	return true
}

// parseGitFile reads the .git file of a linked worktree or submodule:
// "gitdir: PATH".
func parseGitFile(data []byte) (string, error) {
	line, _, _ := bytes.Cut(data, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	rest, ok := bytes.CutPrefix(line, []byte("gitdir: "))
	if !ok {
		return "", errors.New(`not a .git file (no "gitdir: " line)`)
	}
	gd := strings.TrimSpace(string(rest))
	if gd == "" || strings.ContainsRune(gd, 0) {
		return "", errors.New("empty or invalid gitdir")
	}
	return gd, nil
}

// parseHead reads HEAD or a loose ref: "ref: NAME" gives the ref it points
// to, a hexadecimal object name gives the commit.
func parseHead(data []byte) (ref, hash string, err error) {
	line, _, _ := bytes.Cut(data, []byte("\n"))
	s := strings.TrimSpace(string(line))
	if r, ok := strings.CutPrefix(s, "ref:"); ok {
		r = strings.TrimSpace(r)
		if !validRefName(r) {
			return "", "", fmt.Errorf("invalid ref name %q", r)
		}
		return r, "", nil
	}
	if !isObjectName(s) {
		return "", "", fmt.Errorf("neither a ref nor an object name: %q", truncate(s, 80))
	}
	return "", strings.ToLower(s), nil
}

// isObjectName reports whether s is a SHA-1 or SHA-256 object name in hex.
func isObjectName(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// findPackedRef returns the object name ref has in a packed-refs file, or
// "" when it has none. Comment lines and peeled lines ("^...") are skipped.
func findPackedRef(data []byte, ref string) string {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] == '#' || line[0] == '^' {
			continue
		}
		hash, name, ok := bytes.Cut(line, []byte(" "))
		if !ok {
			continue
		}
		if string(bytes.TrimRight(name, "\r")) == ref && isObjectName(string(hash)) {
			return strings.ToLower(string(hash))
		}
	}
	return ""
}

// readSmall reads a file of at most limit bytes; a larger one is an error.
func readSmall(p string, limit int64) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: larger than %d bytes", p, limit)
	}
	return data, nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

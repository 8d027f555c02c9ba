package history

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/internal/safeexec"
)

// Defaults used when an [Options] field is zero.
const (
	DefaultLimit     = 20
	DefaultTimeout   = 10 * time.Second
	DefaultPRWindow  = 2000
	DefaultMaxOutput = 8 << 20
)

// Options says where the history is read and how much of it. The zero
// value reads the repository of the working directory with git from the
// PATH. Callees never modify it.
type Options struct {
	// Dir is the project root; "" means the working directory. It must be
	// inside a git work tree (at its top or below it).
	Dir string
	// Git is the git executable, a name looked up in the PATH or a path;
	// "" means "git".
	Git string
	// Limit is how many commits a file's history, or the commit list of a
	// change set, holds at most; 0 means DefaultLimit.
	Limit int
	// Timeout bounds each git command; 0 means DefaultTimeout.
	Timeout time.Duration
	// PRWindow is how many recent commits are searched for the merge that
	// brought a commit in, to name its pull request; 0 means
	// DefaultPRWindow, a negative value turns the search off (pull
	// requests are then recovered from each commit's own message only).
	PRWindow int
	// MaxOutput caps what one git command may print; 0 means
	// DefaultMaxOutput. A longer output is cut and the result says so.
	MaxOutput int64
	// TrustRepoConfig says the user trusts the repository's own git
	// configuration (see [CheckConfig]): settings that can name a
	// program, a file or a fetch no longer stop [Open]. The zero value
	// trusts none, and Open declines with a [*ConfigError]. Trusted or
	// not, every override of the hardening stays in place: no filter or
	// diff driver, hook, pager or transport runs, and nothing is fetched.
	TrustRepoConfig bool
}

func (o *Options) limit() int {
	if o.Limit > 0 {
		return o.Limit
	}
	return DefaultLimit
}

func (o *Options) timeout() time.Duration {
	if o.Timeout > 0 {
		return o.Timeout
	}
	return DefaultTimeout
}

func (o *Options) maxOutput() int64 {
	if o.MaxOutput > 0 {
		return o.MaxOutput
	}
	return DefaultMaxOutput
}

// Errors matched with errors.Is. Each means the history cannot be read,
// and says why in its message.
var (
	// ErrNoGit: no git executable was found.
	ErrNoGit = errors.New("history: git is not installed")
	// ErrGitTooOld: the git found is older than this package can harden.
	ErrGitTooOld = errors.New("history: git is too old")
	// ErrNotRepository: the project root is not inside a git work tree.
	ErrNotRepository = errors.New("history: not a git work tree")
	// ErrShallow: the repository is a shallow clone, so its history is
	// incomplete and a file's log or blame would be wrong.
	ErrShallow = errors.New("history: shallow clone")
	// ErrOutside: a path leaves the project root.
	ErrOutside = errors.New("history: path outside the project root")
	// ErrRevision: a revision does not name a commit.
	ErrRevision = errors.New("history: unknown revision")
	// ErrTruncated: git printed more than Options.MaxOutput.
	ErrTruncated = errors.New("history: git output cut at the size cap")
)

// Status is what a change did to a file.
type Status string

// The statuses.
const (
	Added       Status = "added"
	Modified    Status = "modified"
	Deleted     Status = "deleted"
	Renamed     Status = "renamed"
	Copied      Status = "copied"
	TypeChanged Status = "type_changed"
	Unmerged    Status = "unmerged"
	Untracked   Status = "untracked"
)

// A Commit is one commit. Text from the repository (names, subject, body)
// is valid UTF-8 without control characters other than newline and tab.
type Commit struct {
	Hash    string    `json:"hash"`
	Parents []string  `json:"parents,omitempty"`
	Author  string    `json:"author"`
	Email   string    `json:"email,omitempty"`
	Date    time.Time `json:"date"` // author date, in the author's zone
	Subject string    `json:"subject"`
	Body    string    `json:"body,omitempty"`
	// PR is the pull request the commit belongs to: named by its own
	// message (a squash, or a merge commit), or by the merge that brought
	// it into the first-parent line of HEAD; nil when none is known.
	PR *PullRequest `json:"pr,omitempty"`
}

// Short returns the first 12 digits of the hash.
func (c *Commit) Short() string {
	if len(c.Hash) > 12 {
		return c.Hash[:12]
	}
	return c.Hash
}

// An Entry is one commit of a file's history and what it did to the file.
type Entry struct {
	Commit
	Status Status `json:"status"`
	// Path is the file's path after the commit and OldPath its path before
	// a rename or copy, relative to the project root ("../" leads out of it
	// when the project root is below the top of the work tree and the file
	// came from elsewhere).
	Path    string `json:"path"`
	OldPath string `json:"old_path,omitempty"`
}

// A FileHistory is the recent history of one file, newest first,
// following renames.
type FileHistory struct {
	Path    string  `json:"path"`
	Entries []Entry `json:"entries"`
	// More says the history goes on past the limit.
	More bool `json:"more,omitempty"`
}

// A Hunk is a run of consecutive lines that one commit last changed.
type Hunk struct {
	// StartLine and EndLine are the run's lines (one-based, inclusive) in
	// the file as it is in the work tree.
	StartLine int `json:"start_line"`
	EndLine   int `json:"end_line"`
	// Commit is the commit that last changed them; for Uncommitted lines
	// only its Author ("Not Committed Yet") and Date are set.
	Commit      Commit `json:"commit"`
	Uncommitted bool   `json:"uncommitted,omitempty"`
	// Boundary says the commit is a root commit: it added the lines, or
	// they are older than the history reaches.
	Boundary bool `json:"boundary,omitempty"`
	// OrigPath and OrigLine are where the run's first line was in that
	// commit, OrigPath relative to the project root.
	OrigPath string `json:"orig_path"`
	OrigLine int    `json:"orig_line"`
}

// A Change is one file that differs between a base commit and the work
// tree.
type Change struct {
	// Path is the file's path now, OldPath its path in the base for a
	// rename or copy; both relative to the project root.
	Path       string `json:"path"`
	OldPath    string `json:"old_path,omitempty"`
	Status     Status `json:"status"`
	Similarity int    `json:"similarity,omitempty"` // percent, for a rename or copy
	Added      int    `json:"added"`
	Deleted    int    `json:"deleted"`
	Binary     bool   `json:"binary,omitempty"`
}

// A LineRange is lines Start to End of a file, one-based and inclusive.
type LineRange struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// A ChangeSet is what changed since a base commit: the commits from the
// base to HEAD and every file that differs between the base and the work
// tree, staged or not, untracked files included (ignored files are not).
type ChangeSet struct {
	// Base is the base commit's hash; "" when the repository has no commit
	// yet and the base is the empty tree.
	Base string `json:"base"`
	// Head is HEAD's commit, "" before the first commit; Branch is the
	// checked-out branch, "" on a detached HEAD.
	Head     string `json:"head"`
	Branch   string `json:"branch,omitempty"`
	Detached bool   `json:"detached,omitempty"`
	// Commits are the commits reachable from HEAD and not from the base,
	// newest first, at most the limit; MoreCommits says there are more.
	Commits     []Commit `json:"commits"`
	MoreCommits bool     `json:"more_commits,omitempty"`
	Changes     []Change `json:"changes"`
	// Shallow says the clone is shallow: the commit list may stop early.
	Shallow bool `json:"shallow,omitempty"`
}

// A Repo is the git repository around a project root, checked once. It is
// safe for concurrent use.
type Repo struct {
	opts    Options
	root    *contain.Root
	g       *git
	prefix  string // the project root below the top of the work tree: "" or "a/b"
	shallow bool

	prOnce sync.Once
	prs    map[string]PullRequest
	prErr  error
}

// Open finds the git work tree around opts.Dir and checks that it can be
// read safely: git is installed and recent enough, the project root is in
// a work tree, and the work tree contains the project root. It runs two or
// three read-only git commands. The caller closes the result.
func Open(ctx context.Context, opts Options) (*Repo, error) {
	exe := opts.Git
	if exe == "" {
		exe = "git"
	}
	gitPath, err := safeexec.LookPath(exe)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoGit, err)
	}
	dir := opts.Dir
	if dir == "" {
		dir = "."
	}
	root, err := contain.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("history: project root: %w", err)
	}
	r, err := open(ctx, opts, gitPath, root)
	if err != nil {
		root.Close()
		return nil, err
	}
	return r, nil
}

func open(ctx context.Context, opts Options, gitPath string, root *contain.Root) (*Repo, error) {
	if err := checkVersion(ctx, gitPath, opts.timeout()); err != nil {
		return nil, err
	}
	// The repository's configuration, read and judged before git runs on
	// it.
	check, err := checkConfig(root.Dir())
	if err != nil {
		return nil, err
	}
	if len(check.Risks) > 0 && !opts.TrustRepoConfig {
		return nil, &ConfigError{GitDir: check.GitDir, Risks: check.Risks}
	}
	extra := overrides(check.keys)
	if len(extra) > maxOverrides {
		return nil, tooManyOverrides(check, len(extra))
	}
	g := &git{path: gitPath, dir: root.Dir(), env: hardenedEnv(extra), timeout: opts.timeout(), maxOut: 1 << 20}
	out, _, err := g.run(ctx, "rev-parse", "--is-inside-work-tree", "--is-shallow-repository", "--show-toplevel",
		"--show-prefix", "--absolute-git-dir", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		var ge *GitError
		if errors.As(err, &ge) && strings.Contains(ge.Stderr, "not a git repository") {
			return nil, fmt.Errorf("%w: %s is not inside a git repository", ErrNotRepository, root.Dir())
		}
		if errors.As(err, &ge) && strings.Contains(ge.Stderr, "dubious ownership") {
			return nil, fmt.Errorf("%w: git refuses %s, which another user owns (safe.directory)", ErrNotRepository, root.Dir())
		}
		var xe *safeexec.ExitError
		if errors.As(err, &ge) && errors.As(err, &xe) {
			return nil, fmt.Errorf("%w: %s: %s", ErrNotRepository, root.Dir(), ge.Stderr)
		}
		return nil, err
	}
	p, err := parseProbe(out)
	if err != nil {
		return nil, err
	}
	if !p.inside {
		return nil, fmt.Errorf("%w: %s is not inside a work tree (a bare repository, or the .git directory)", ErrNotRepository, root.Dir())
	}
	// Git must have found the repository whose configuration was checked.
	if !sameFile(p.gitDir, check.GitDir) || !sameFile(p.commonDir, check.CommonDir) {
		return nil, fmt.Errorf("%w: git reads the repository in %s, not the one in %s whose configuration was checked",
			ErrNotRepository, clip(p.gitDir), check.GitDir)
	}
	top, err := filepath.EvalSymlinks(p.top)
	if err != nil {
		return nil, fmt.Errorf("history: the work tree %s: %w", p.top, err)
	}
	prefix := strings.TrimSuffix(p.prefix, "/")
	if filepath.Join(top, filepath.FromSlash(prefix)) != root.Dir() {
		return nil, fmt.Errorf("%w: git's work tree %s does not contain the project root %s", ErrNotRepository, top, root.Dir())
	}
	if check.includes {
		// Trusted, and git follows the includes: what they set is
		// overridden as well.
		out, truncated, err := g.run(ctx, "config", "-z", "--name-only", "--list")
		if err != nil {
			return nil, err
		}
		if truncated {
			return nil, &ConfigError{GitDir: check.GitDir, Err: fmt.Errorf("%w: the configuration with its includes is larger than %d bytes", ErrBadConfig, 1<<20)}
		}
		extra = overrides(append(check.keys, splitNUL(out)...))
		if len(extra) > maxOverrides {
			return nil, tooManyOverrides(check, len(extra))
		}
	}
	return &Repo{opts: opts, root: root, prefix: prefix, shallow: p.shallow,
		g: &git{path: gitPath, dir: top, env: hardenedEnv(extra), timeout: opts.timeout(), maxOut: opts.maxOutput()}}, nil
}

// Close releases the project root.
func (r *Repo) Close() error { return r.root.Close() }

// Shallow reports whether the repository is a shallow clone.
func (r *Repo) Shallow() bool { return r.shallow }

// shallowErr is the error of a question a shallow clone cannot answer.
func (r *Repo) shallowErr() error {
	return fmt.Errorf("%w: the history is incomplete, so a file's log and blame would be wrong", ErrShallow)
}

// repoPath returns p (relative to the project root, or absolute) as a path
// relative to the top of the work tree, after checking that it stays in
// the project root.
func (r *Repo) repoPath(p string) (projRel, repoRel string, err error) {
	rel, err := r.root.Rel(p)
	if err != nil {
		return "", "", fmt.Errorf("%w: %v", ErrOutside, err)
	}
	if rel == "." {
		return "", "", fmt.Errorf("%w: %q is the project root, not a file", ErrOutside, p)
	}
	return rel, path.Join(r.prefix, rel), nil
}

// projPath returns a path git printed (relative to the top of the work
// tree) relative to the project root; it starts with "../" when it lies
// outside.
func (r *Repo) projPath(repoRel string) string {
	if r.prefix == "" {
		return repoRel
	}
	if rest, ok := strings.CutPrefix(repoRel, r.prefix+"/"); ok {
		return rest
	}
	up := strings.Repeat("../", strings.Count(r.prefix, "/")+1)
	return up + repoRel
}

// Log returns the recent history of the file at p (relative to the project
// root), newest first, following renames: each commit that changed it, at
// most Options.Limit, with what it did to the file and its pull request. A
// deleted file's history is found too. For a directory, each commit that
// changed something below it, its Path the directory and its Status
// modified. A shallow clone is refused ([ErrShallow]).
func (r *Repo) Log(ctx context.Context, p string) (*FileHistory, error) {
	projRel, repoRel, err := r.repoPath(p)
	if err != nil {
		return nil, err
	}
	if r.shallow {
		return nil, r.shallowErr()
	}
	limit := r.opts.limit()
	// A file's history follows its renames; a directory's is every commit
	// that changed something below it.
	isDir := false
	if fi, err := r.root.Stat(projRel); err == nil && fi.IsDir() {
		isDir = true
	}
	args := []string{"log", "--no-ext-diff", "--no-textconv", "--no-color", "-M", "--name-status", "-z", logFormat,
		fmt.Sprintf("-n%d", limit+1)}
	if !isDir {
		args = append(args, "--follow")
	}
	out, truncated, err := r.g.run(ctx, append(args, "--", repoRel)...)
	if err != nil {
		var ge *GitError
		if errors.As(err, &ge) && (strings.Contains(ge.Stderr, "does not have any commits") || strings.Contains(ge.Stderr, "bad default revision")) {
			return &FileHistory{Path: projRel, Entries: []Entry{}}, nil
		}
		return nil, err
	}
	if truncated {
		return nil, fmt.Errorf("%w: the log of %s", ErrTruncated, projRel)
	}
	entries, err := parseLog(out)
	if err != nil {
		return nil, err
	}
	h := &FileHistory{Path: projRel, Entries: []Entry{}}
	if len(entries) > limit {
		entries, h.More = entries[:limit], true
	}
	for _, e := range entries {
		en := Entry{Commit: e.commit, Status: Modified, Path: projRel}
		if len(e.changes) > 0 && !isDir {
			ch := e.changes[0]
			en.Status, en.Path = ch.status, r.projPath(ch.path)
			if ch.old != "" {
				en.OldPath = r.projPath(ch.old)
			}
		}
		h.Entries = append(h.Entries, en)
	}
	if err := r.attachPRs(ctx, func(yield func(*Commit)) {
		for i := range h.Entries {
			yield(&h.Entries[i].Commit)
		}
	}); err != nil {
		return nil, err
	}
	return h, nil
}

// attachPRs sets the pull request of each commit: its own message's, or
// that of the merge that brought it in.
func (r *Repo) attachPRs(ctx context.Context, each func(yield func(*Commit))) error {
	need := false
	each(func(c *Commit) {
		if pr, ok := ParsePullRequest(c.Subject, c.Body); ok {
			pr.Commit = c.Hash
			c.PR = &pr
			return
		}
		need = true
	})
	if !need || r.opts.PRWindow < 0 {
		return nil
	}
	prs, err := r.mergeIndex(ctx)
	if err != nil {
		return err
	}
	each(func(c *Commit) {
		if c.PR == nil {
			if pr, ok := prs[c.Hash]; ok {
				c.PR = &pr
			}
		}
	})
	return nil
}

// mergeIndex maps the commits of the recent first-parent history's merges
// to their pull requests, once per Repo.
func (r *Repo) mergeIndex(ctx context.Context) (map[string]PullRequest, error) {
	r.prOnce.Do(func() {
		window := r.opts.PRWindow
		if window == 0 {
			window = DefaultPRWindow
		}
		var (
			wg             sync.WaitGroup
			revOut, logOut []byte
			revErr, logErr error
		)
		wg.Add(2)
		go func() {
			defer wg.Done()
			revOut, _, revErr = r.g.run(ctx, "rev-list", "--parents", fmt.Sprintf("-n%d", window), "HEAD", "--")
		}()
		go func() {
			defer wg.Done()
			logOut, _, logErr = r.g.run(ctx, "log", "--first-parent", "--merges", "-z", "--no-color",
				logFormat, fmt.Sprintf("-n%d", window), "HEAD", "--")
		}()
		wg.Wait()
		if err := errors.Join(revErr, logErr); err != nil {
			r.prErr = err
			return
		}
		order, parents, err := parseRevList(revOut)
		if err != nil {
			r.prErr = err
			return
		}
		merges, err := parseLog(logOut)
		if err != nil {
			r.prErr = err
			return
		}
		msgs := make(map[string]Commit, len(merges))
		for _, m := range merges {
			msgs[m.commit.Hash] = m.commit
		}
		r.prs = mergedBy(order, parents, msgs)
	})
	return r.prs, r.prErr
}

// Blame returns who last changed lines start to end (one-based,
// inclusive) of the file at p as it is in the work tree, uncommitted
// changes included, as runs of consecutive lines with the same commit.
// start 0 means the first line and end 0 (or past the end) the last. A
// shallow clone is refused ([ErrShallow]).
func (r *Repo) Blame(ctx context.Context, p string, start, end int) ([]Hunk, error) {
	projRel, repoRel, err := r.repoPath(p)
	if err != nil {
		return nil, err
	}
	if r.shallow {
		return nil, r.shallowErr()
	}
	n, err := r.lineCount(projRel)
	if err != nil {
		return nil, err
	}
	if start < 1 {
		start = 1
	}
	if end < 1 || end > n {
		end = n
	}
	if n == 0 || start > end {
		return []Hunk{}, nil
	}
	out, truncated, err := r.g.run(ctx, "blame", "--porcelain", "--no-textconv", "--no-ignore-revs-file",
		fmt.Sprintf("-L%d,%d", start, end), "--", repoRel)
	if err != nil {
		var ge *GitError
		if errors.As(err, &ge) && strings.Contains(ge.Stderr, "no such path") {
			return nil, fmt.Errorf("%w: %s is not tracked by git", ErrRevision, projRel)
		}
		return nil, err
	}
	if truncated {
		return nil, fmt.Errorf("%w: the blame of %s", ErrTruncated, projRel)
	}
	lines, info, err := parseBlame(out)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].line < lines[j].line })
	var hunks []Hunk
	for _, l := range lines {
		if k := len(hunks) - 1; k >= 0 && hunks[k].Commit.Hash == l.hash && hunks[k].EndLine+1 == l.line {
			hunks[k].EndLine = l.line
			continue
		}
		in := info[l.hash]
		h := Hunk{StartLine: l.line, EndLine: l.line, OrigLine: l.origLine, OrigPath: r.projPath(l.origPath),
			Commit:   Commit{Hash: l.hash, Author: in.author, Email: in.email, Date: in.date, Subject: in.summary},
			Boundary: in.boundary, Uncommitted: zeroHash(l.hash)}
		if h.Uncommitted {
			h.Commit.Subject, h.Commit.Email = "", ""
		}
		hunks = append(hunks, h)
	}
	if err := r.attachPRs(ctx, func(yield func(*Commit)) {
		for i := range hunks {
			if !hunks[i].Uncommitted {
				yield(&hunks[i].Commit)
			}
		}
	}); err != nil {
		return nil, err
	}
	if hunks == nil {
		hunks = []Hunk{}
	}
	return hunks, nil
}

// lineCount returns how many lines the file at projRel has in the work
// tree (a last line without a line break counts).
func (r *Repo) lineCount(projRel string) (int, error) {
	fi, err := r.root.Stat(projRel)
	if err != nil {
		return 0, fmt.Errorf("history: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return 0, fmt.Errorf("history: %s is not a regular file", projRel)
	}
	data, err := r.root.ReadFile(projRel)
	if err != nil {
		return 0, fmt.Errorf("history: %w", err)
	}
	n := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n, nil
}

// Changes returns what changed since base (a revision such as "main",
// "HEAD~5" or a hash; "" means HEAD): the commits from base to HEAD and
// every file that differs between base and the work tree, staged or not,
// renames detected, untracked files included. Only files under the project
// root are listed. A shallow clone answers too (the result says so), as
// long as base is in its history.
func (r *Repo) Changes(ctx context.Context, base string) (*ChangeSet, error) {
	if base == "" {
		base = "HEAD"
	}
	if strings.HasPrefix(base, "-") || strings.ContainsAny(base, "\x00\n") {
		return nil, fmt.Errorf("%w: %q", ErrRevision, base)
	}
	cs := &ChangeSet{Commits: []Commit{}, Changes: []Change{}, Shallow: r.shallow}
	if err := r.readHead(ctx, cs); err != nil {
		return nil, err
	}
	from, err := r.changesBase(ctx, cs, base)
	if err != nil {
		return nil, err
	}
	scope := []string{"--"}
	if r.prefix != "" {
		scope = append(scope, r.prefix)
	}
	var (
		wg                      sync.WaitGroup
		diffOut, untrackedOut   []byte
		diffTrunc, untrackTrunc bool
		diffErr, untrackErr     error
	)
	wg.Add(2)
	go func() {
		defer wg.Done()
		args := append([]string{"diff", "--no-ext-diff", "--no-textconv", "--no-color", "--ignore-submodules=all",
			"-M", "-z", "--raw", "--numstat", from}, scope...)
		diffOut, diffTrunc, diffErr = r.g.run(ctx, args...)
	}()
	go func() {
		defer wg.Done()
		args := append([]string{"ls-files", "-z", "--others", "--exclude-standard"}, scope...)
		untrackedOut, untrackTrunc, untrackErr = r.g.run(ctx, args...)
	}()
	err = r.commitsSince(ctx, cs, base)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	if err := errors.Join(diffErr, untrackErr); err != nil {
		return nil, err
	}
	if diffTrunc || untrackTrunc {
		return nil, fmt.Errorf("%w: the changes since %s", ErrTruncated, base)
	}
	if cs.Changes, err = r.changedFiles(diffOut, untrackedOut); err != nil {
		return nil, err
	}
	if err := r.attachPRs(ctx, func(yield func(*Commit)) {
		for i := range cs.Commits {
			yield(&cs.Commits[i])
		}
	}); err != nil {
		return nil, err
	}
	return cs, nil
}

// readHead sets cs's head commit ("" before the first) and its branch,
// or that HEAD is detached.
func (r *Repo) readHead(ctx context.Context, cs *ChangeSet) error {
	head, err := r.resolve(ctx, "HEAD")
	if err != nil {
		return err
	}
	cs.Head = head
	if out, _, err := r.g.run(ctx, "symbolic-ref", "-q", "--short", "HEAD"); err == nil {
		cs.Branch = strings.TrimSpace(string(out))
	} else {
		var xe *safeexec.ExitError
		if !errors.As(err, &xe) {
			return err
		}
		cs.Detached = true
	}
	return nil
}

// changesBase sets cs's base commit and returns what the work tree is
// compared with: base's commit, or the empty tree before the first
// commit.
func (r *Repo) changesBase(ctx context.Context, cs *ChangeSet, base string) (string, error) {
	switch {
	case cs.Head == "" && base == "HEAD":
		// No commit yet: compare with the empty tree.
		out, _, err := r.g.run(ctx, "hash-object", "-t", "tree", "/dev/null")
		if err != nil {
			return "", err
		}
		return strings.TrimSpace(string(out)), nil
	case base == "HEAD":
		cs.Base = cs.Head
		return cs.Head, nil
	}
	b, err := r.resolve(ctx, base)
	if err != nil {
		return "", err
	}
	if b == "" {
		return "", fmt.Errorf("%w: %q names no commit", ErrRevision, base)
	}
	cs.Base = b
	return b, nil
}

// commitsSince adds to cs the commits from its base to its head, at most
// the limit (MoreCommits says when there were more).
func (r *Repo) commitsSince(ctx context.Context, cs *ChangeSet, base string) error {
	if cs.Base == "" || cs.Head == "" || cs.Base == cs.Head {
		return nil
	}
	out, truncated, err := r.g.run(ctx, "log", "-z", "--no-color", logFormat,
		fmt.Sprintf("-n%d", r.opts.limit()+1), cs.Base+".."+cs.Head, "--")
	if err == nil && truncated {
		err = fmt.Errorf("%w: the commits since %s", ErrTruncated, base)
	}
	if err != nil {
		return err
	}
	entries, err := parseLog(out)
	if err != nil {
		return err
	}
	if len(entries) > r.opts.limit() {
		entries, cs.MoreCommits = entries[:r.opts.limit()], true
	}
	for _, e := range entries {
		cs.Commits = append(cs.Commits, e.commit)
	}
	return nil
}

// changedFiles returns the changes git diff and git ls-files --others
// printed, with project paths, the untracked files' lines counted, in
// path order.
func (r *Repo) changedFiles(diffOut, untrackedOut []byte) ([]Change, error) {
	changes, err := parseDiff(diffOut)
	if err != nil {
		return nil, err
	}
	out := []Change{}
	for _, c := range changes {
		c.Path = r.projPath(c.Path)
		if c.OldPath != "" {
			c.OldPath = r.projPath(c.OldPath)
		}
		out = append(out, c)
	}
	for _, p := range splitNUL(untrackedOut) {
		if !validRepoPath(p) {
			return nil, fmt.Errorf("git ls-files: %q is not a path in the work tree", clip(p))
		}
		c := Change{Path: r.projPath(p), Status: Untracked}
		c.Added, c.Binary = r.countLines(c.Path)
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// ChangedLines returns, by path relative to the project root, the lines
// of each file in the work tree that differ from base ("" means HEAD),
// staged or not: the lines added or changed, and the two lines around a
// deletion. A file that has no such lines to show is absent: an untracked
// or binary file, a rename or mode change alone, a deleted file; take
// those whole ([Repo.Changes] lists them). A diff past the output limit
// is an error wrapping [ErrTruncated].
func (r *Repo) ChangedLines(ctx context.Context, base string) (map[string][]LineRange, error) {
	if base == "" {
		base = "HEAD"
	}
	if strings.HasPrefix(base, "-") || strings.ContainsAny(base, "\x00\n") {
		return nil, fmt.Errorf("%w: %q", ErrRevision, base)
	}
	from, err := r.resolve(ctx, base)
	if err != nil {
		return nil, err
	}
	if from == "" { // no commit yet: every file is new, and whole
		return map[string][]LineRange{}, nil
	}
	args := []string{"diff", "--no-ext-diff", "--no-textconv", "--no-color", "--ignore-submodules=all",
		"-M", "-U0", "--src-prefix=a/", "--dst-prefix=b/", from, "--"}
	if r.prefix != "" {
		args = append(args, r.prefix)
	}
	out, truncated, err := r.g.run(ctx, args...)
	if err != nil {
		return nil, err
	}
	if truncated {
		return nil, fmt.Errorf("%w: the changed lines since %s", ErrTruncated, base)
	}
	byRepo, err := parseHunks(out)
	if err != nil {
		return nil, err
	}
	ranges := make(map[string][]LineRange, len(byRepo))
	for p, rs := range byRepo {
		ranges[r.projPath(p)] = rs
	}
	return ranges, nil
}

// maxCountBytes bounds the untracked files whose lines are counted.
const maxCountBytes = 4 << 20

// countLines returns the number of lines of an untracked file, or binary
// when it holds a NUL byte in its first 8000 bytes (git's test). A file
// that cannot be read, or is too large, counts 0.
func (r *Repo) countLines(projRel string) (int, bool) {
	fi, err := r.root.Stat(projRel)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxCountBytes {
		return 0, false
	}
	data, err := r.root.ReadFile(projRel)
	if err != nil {
		return 0, false
	}
	if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		return 0, true
	}
	n := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n, false
}

// resolve returns the commit rev names, or "" when rev is HEAD of a
// repository without commits.
func (r *Repo) resolve(ctx context.Context, rev string) (string, error) {
	out, _, err := r.g.run(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		var xe *safeexec.ExitError
		if errors.As(err, &xe) {
			if rev == "HEAD" {
				return "", nil
			}
			return "", fmt.Errorf("%w: %q names no commit", ErrRevision, rev)
		}
		return "", err
	}
	h := strings.TrimSpace(string(out))
	if !isHash(h) {
		return "", fmt.Errorf("%w: %q resolved to %q", ErrRevision, rev, clip(h))
	}
	return h, nil
}

// exists reports whether the file at projRel is a regular file in the work
// tree, inside the project root.
func (r *Repo) exists(projRel string) bool {
	if evidenceCheckPath(projRel) != nil {
		return false
	}
	fi, err := r.root.Stat(projRel)
	return err == nil && fi.Mode().IsRegular()
}

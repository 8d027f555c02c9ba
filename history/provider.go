package history

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/redact"
	"github.com/codecortex/codecortex/trust"
)

// ProviderName is the provider's name in reports, and the route layer it
// implements.
const ProviderName = "history"

var evidenceCheckPath = evidence.CheckPath

// A Provider is git history as an [evidence.Provider]. It is safe for
// concurrent use; each Gather opens the repository afresh, so it always
// reads the current history.
type Provider struct {
	opts Options
	red  *redact.Redactor
}

var _ evidence.Provider = (*Provider)(nil)

// New returns the provider for opts (copied).
func New(opts Options) *Provider { return &Provider{opts: opts, red: redact.New()} }

// Name returns "history".
func (p *Provider) Name() string { return ProviderName }

// Gather answers q from the project's git history, with records of kind
// git_history, provenance git-history and tier structural (what the
// history says, not a resolution of a symbol):
//
//   - With q.Path: the file's recent commits, newest first, following
//     renames: one record located at the file (line 1) that sums the
//     history up, and one record per commit without a location (records
//     at one location would be fused into one), the path in its
//     attributes. With q.Line as well, the blame of that line: a record
//     located at the run of lines the same commit last changed.
//   - Without a path, when q.Text asks what changed (or q.Kinds asks for
//     git_history explicitly): the uncommitted changes (staged, unstaged
//     and untracked files, each located at its file, or at no location
//     when deleted) and the recent commits of HEAD; when the text says
//     "since REV" and REV names a commit, the changes and commits since
//     REV instead.
//
// Every record's attributes carry the commit (hash), author, date
// (RFC 3339), subject, and pr, pr_title and pr_via when a pull request is
// known; the excerpt says the same in one line, commit text redacted of
// anything shaped like a credential. A project outside git, git missing,
// a shallow clone (for a file's log or blame) and a path outside the
// project root are errors of type [*evidence.UnavailableError] with a
// reason and guidance.
func (p *Provider) Gather(ctx context.Context, q evidence.Query) (evidence.Response, error) {
	if err := ctx.Err(); err != nil {
		return evidence.Response{}, err
	}
	if !q.Wants(evidence.GitHistory) {
		return evidence.Response{Report: evidence.Report{Reason: "the question asks for no git history"}}, nil
	}
	explicit := len(q.Kinds) > 0
	if q.Path == "" && !explicit && !AsksWhatChanged(q.Text) {
		return evidence.Response{Report: evidence.Report{Reason: "the question names no file and does not ask what changed"}}, nil
	}
	repo, err := Open(ctx, p.opts)
	if err != nil {
		return evidence.Response{}, unavailable(err)
	}
	defer repo.Close()
	var recs []evidence.Record
	if q.Path != "" {
		recs, err = p.fileRecords(ctx, repo, q)
	} else {
		recs, err = p.changeRecords(ctx, repo, q.Text)
	}
	if err != nil {
		return evidence.Response{}, unavailable(err)
	}
	return evidence.Response{Records: recs}, nil
}

// unavailable turns an error into the report a user can act on.
func unavailable(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	ue := &evidence.UnavailableError{Reason: "git history cannot be read", Err: err}
	switch {
	case errors.Is(err, ErrNoGit):
		ue.Reason, ue.Guidance = "git is not installed", "install git and put it on the PATH"
	case errors.Is(err, ErrGitTooOld):
		ue.Reason, ue.Guidance = "the installed git is too old to be run safely", "install git 2.32 or later"
	case errors.Is(err, ErrNotRepository):
		ue.Reason, ue.Guidance = "the project is not in a git work tree", "run it inside a git clone of the project"
	case errors.Is(err, ErrShallow):
		ue.Reason, ue.Guidance = "the repository is a shallow clone, so its history is incomplete", "fetch the whole history: git fetch --unshallow"
	case errors.Is(err, ErrOutside):
		ue.Reason, ue.Guidance = "the path is outside the project root", "name a file inside the project"
	case errors.Is(err, ErrRevision):
		ue.Reason, ue.Guidance = "the revision names no commit", "name a branch, tag or commit of this repository"
	case errors.Is(err, ErrUntrustedConfig):
		ue.Reason = "the repository's git configuration has settings that could run a program, read a file or fetch, and it is not trusted"
		ue.Guidance = "review them with cortex trust --show, and if the repository is yours run cortex trust"
	case errors.Is(err, ErrBadConfig):
		ue.Reason, ue.Guidance = "the repository's git configuration cannot be checked", "fix the file the message names (git config --list --show-origin shows what git reads)"
	case errors.Is(err, ErrTruncated):
		ue.Reason, ue.Guidance = "git printed more than the output cap", "ask about a narrower range"
	}
	return ue
}

// fileRecords answers a question about one file.
func (p *Provider) fileRecords(ctx context.Context, repo *Repo, q evidence.Query) ([]evidence.Record, error) {
	projRel, _, err := repo.repoPath(q.Path)
	if err != nil {
		return nil, err
	}
	located := repo.exists(projRel)
	// The log and the blame side by side: blame walks the file's history
	// back to the line's origin and takes the longer.
	var (
		hunks    []Hunk
		blameErr error
		done     = make(chan struct{})
	)
	go func() {
		defer close(done)
		if q.Line > 0 && located {
			hunks, blameErr = repo.Blame(ctx, projRel, q.Line, q.Line)
		}
	}()
	h, err := repo.Log(ctx, projRel)
	<-done
	if err = errors.Join(err, blameErr); err != nil {
		return nil, err
	}
	var recs []evidence.Record
	if len(h.Entries) > 0 {
		recs = append(recs, p.summaryRecord(h, located))
	}
	for i := range h.Entries {
		recs = append(recs, p.entryRecord(&h.Entries[i], i))
	}
	if len(hunks) > 0 {
		lines, _ := repo.root.ReadFile(projRel)
		for i := range hunks {
			recs = append(recs, p.blameRecord(projRel, &hunks[i], lines))
		}
	}
	return recs, nil
}

// changeRecords answers "what changed" for the whole project.
func (p *Provider) changeRecords(ctx context.Context, repo *Repo, text string) ([]evidence.Record, error) {
	base := ""
	if rev := SinceRevision(text); rev != "" {
		if _, err := repo.resolve(ctx, rev); err == nil {
			base = rev
		}
	}
	cs, err := repo.Changes(ctx, base)
	if err != nil {
		return nil, err
	}
	commits := cs.Commits
	if base == "" && cs.Head != "" {
		commits, err = repo.recent(ctx)
		if err != nil {
			return nil, err
		}
	}
	var recs []evidence.Record
	for i := range cs.Changes {
		recs = append(recs, p.changeRecord(repo, cs, &cs.Changes[i]))
	}
	for i := range commits {
		recs = append(recs, p.commitRecord(&commits[i], i, ""))
	}
	return recs, nil
}

// recent returns the latest commits of HEAD, at most the limit.
func (r *Repo) recent(ctx context.Context) ([]Commit, error) {
	out, truncated, err := r.g.run(ctx, "log", "-z", "--no-color", logFormat, fmt.Sprintf("-n%d", r.opts.limit()), "HEAD", "--")
	if err != nil {
		return nil, err
	}
	if truncated {
		return nil, fmt.Errorf("%w: the recent commits", ErrTruncated)
	}
	entries, err := parseLog(out)
	if err != nil {
		return nil, err
	}
	commits := make([]Commit, len(entries))
	for i, e := range entries {
		commits[i] = e.commit
	}
	err = r.attachPRs(ctx, func(yield func(*Commit)) {
		for i := range commits {
			yield(&commits[i])
		}
	})
	return commits, err
}

// base returns a git_history record with its fixed fields.
func base(conf float64, attrs map[string]string, excerpt string) evidence.Record {
	return evidence.Record{Kind: evidence.GitHistory, Provider: ProviderName, Provenance: trust.GitHistory,
		Trust: trust.Structural, Confidence: conf,
		Metadata: evidence.Metadata{Excerpt: excerpt, Attributes: attrs}}
}

// commitAttrs returns the attributes that describe c.
func (p *Provider) commitAttrs(c *Commit) map[string]string {
	a := map[string]string{"commit": c.Hash, "author": c.Author, "subject": p.red.String(c.Subject)}
	if !c.Date.IsZero() {
		a["date"] = c.Date.Format(time.RFC3339)
	}
	if c.PR != nil {
		a["pr"] = strconv.Itoa(c.PR.Number)
		a["pr_via"] = string(c.PR.Via)
		if c.PR.Title != "" {
			a["pr_title"] = p.red.String(c.PR.Title)
		}
		if c.PR.Commit != "" && c.PR.Commit != c.Hash {
			a["pr_merge"] = c.PR.Commit
		}
	}
	return a
}

// describe says c in one line: "1a2b3c4d5e6f 2024-05-01 Ada: subject (PR #12: title)".
func (p *Provider) describe(c *Commit) string {
	var b strings.Builder
	b.WriteString(c.Short())
	if !c.Date.IsZero() {
		b.WriteString(" " + c.Date.Format("2006-01-02"))
	}
	b.WriteString(" " + c.Author + ": " + p.red.String(c.Subject))
	if c.PR != nil {
		b.WriteString(" (PR " + c.PR.Ref())
		if c.PR.Title != "" && c.PR.Title != c.Subject {
			b.WriteString(": " + p.red.String(c.PR.Title))
		}
		b.WriteString(")")
	}
	return b.String()
}

// commitConfidence orders commits newest first among equals.
func commitConfidence(i int) float64 { return max(0.9-0.005*float64(i), 0.5) }

// summaryRecord sums up a file's history, located at its first line when
// the file exists.
func (p *Provider) summaryRecord(h *FileHistory, located bool) evidence.Record {
	last := &h.Entries[0]
	authors := map[string]bool{}
	var names []string
	for _, e := range h.Entries {
		if !authors[e.Author] {
			authors[e.Author] = true
			names = append(names, e.Author)
		}
	}
	n := strconv.Itoa(len(h.Entries))
	if h.More {
		n += "+"
	}
	attrs := p.commitAttrs(&last.Commit)
	attrs["path"] = h.Path
	attrs["commits"] = n
	attrs["authors"] = strings.Join(names, ", ")
	ex := fmt.Sprintf("%s: %s recent commits by %s; last %s", h.Path, n, strings.Join(names, ", "), p.describe(&last.Commit))
	r := base(0.9, attrs, ex)
	if located {
		r.Path, r.StartLine, r.StartColumn, r.EndLine, r.EndColumn = h.Path, 1, 1, 1, 1
	}
	return r
}

// entryRecord is one commit of a file's history, without a location.
func (p *Provider) entryRecord(e *Entry, i int) evidence.Record {
	r := p.commitRecord(&e.Commit, i, e.Path)
	r.Metadata.Attributes["status"] = string(e.Status)
	ex := e.Path + ": " + string(e.Status)
	if e.OldPath != "" {
		r.Metadata.Attributes["old_path"] = e.OldPath
		ex += " from " + e.OldPath
	}
	r.Metadata.Excerpt = ex + " in " + r.Metadata.Excerpt
	return r
}

// commitRecord is one commit, without a location.
func (p *Provider) commitRecord(c *Commit, i int, path string) evidence.Record {
	attrs := p.commitAttrs(c)
	if path != "" {
		attrs["path"] = path
	}
	return base(commitConfidence(i), attrs, p.describe(c))
}

// blameRecord is a run of lines and the commit that last changed them.
func (p *Provider) blameRecord(path string, h *Hunk, content []byte) evidence.Record {
	attrs := p.commitAttrs(&h.Commit)
	attrs["path"] = path
	attrs["blame"] = fmt.Sprintf("%d-%d", h.StartLine, h.EndLine)
	who := p.describe(&h.Commit)
	if h.Uncommitted {
		attrs["uncommitted"] = "true"
		delete(attrs, "commit")
		delete(attrs, "subject")
		who = "not committed yet"
	} else {
		attrs["orig_path"] = h.OrigPath
		attrs["orig_line"] = strconv.Itoa(h.OrigLine)
	}
	if h.Boundary {
		attrs["boundary"] = "true"
	}
	r := base(0.95, attrs, fmt.Sprintf("%s:%d-%d last changed by %s", path, h.StartLine, h.EndLine, who))
	r.Path, r.StartLine, r.StartColumn, r.EndLine = path, h.StartLine, 1, h.EndLine
	r.EndColumn = lineLength(content, h.EndLine) + 1
	return r
}

// lineLength returns the length in code points of line n (one-based) of
// content, without its line break.
func lineLength(content []byte, n int) int {
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(content, '\n')
		if j < 0 {
			return 0
		}
		content = content[j+1:]
	}
	if j := bytes.IndexByte(content, '\n'); j >= 0 {
		content = content[:j]
	}
	return utf8.RuneCount(content)
}

// changeRecord is one changed file, located at its first line when it
// exists in the work tree.
func (p *Provider) changeRecord(repo *Repo, cs *ChangeSet, c *Change) evidence.Record {
	attrs := map[string]string{"path": c.Path, "status": string(c.Status),
		"added": strconv.Itoa(c.Added), "deleted": strconv.Itoa(c.Deleted)}
	since := "HEAD"
	if cs.Base != "" {
		attrs["base"] = cs.Base
		since = cs.Base[:min(12, len(cs.Base))]
	}
	if cs.Head != "" {
		attrs["head"] = cs.Head
	}
	if cs.Branch != "" {
		attrs["branch"] = cs.Branch
	}
	if cs.Detached {
		attrs["detached"] = "true"
	}
	ex := fmt.Sprintf("%s: %s since %s", c.Path, c.Status, since)
	if c.OldPath != "" {
		attrs["old_path"] = c.OldPath
		attrs["similarity"] = strconv.Itoa(c.Similarity)
		ex += fmt.Sprintf(" (from %s, %d%% similar)", c.OldPath, c.Similarity)
	}
	if c.Binary {
		attrs["binary"] = "true"
		ex += ", binary"
	} else {
		ex += fmt.Sprintf(", +%d -%d", c.Added, c.Deleted)
	}
	r := base(0.95, attrs, ex) // a change in the work tree answers "what changed" before any commit
	if c.Status != Deleted && repo.exists(c.Path) {
		r.Path, r.StartLine, r.StartColumn, r.EndLine, r.EndColumn = c.Path, 1, 1, 1, 1
	}
	return r
}

// AsksWhatChanged reports whether a question in words asks about recent
// changes or history without naming a file: "what changed?", "recent
// commits", "what did we change since v1.2?", "git log".
func AsksWhatChanged(text string) bool {
	t := " " + strings.Join(strings.Fields(strings.ToLower(text)), " ") + " "
	for _, cue := range []string{
		" changed", " changes", " change since", " commits", " commit ", " history", " git log",
		" blame", " modified", " diff ", " diff?", " uncommitted", " untracked", " staged", " touched",
	} {
		if strings.Contains(t, cue) {
			return true
		}
	}
	return false
}

// SinceRevision returns the revision a question names after "since", as
// in "what changed since v1.2.0?" or "changes since main", or "" when it
// names none. Only a word shaped like a revision (letters, digits and
// "._/-~^@", not starting with "-") is taken; whether it names a commit is
// for git to say.
func SinceRevision(text string) string {
	f := strings.Fields(text)
	for i := 0; i+1 < len(f); i++ {
		if !strings.EqualFold(f[i], "since") {
			continue
		}
		rev := strings.TrimRight(f[i+1], "?!.,;:)'\"")
		rev = strings.TrimLeft(rev, "('\"`")
		rev = strings.TrimRight(rev, "`")
		if rev == "" || rev[0] == '-' || len(rev) > 200 {
			continue
		}
		ok := true
		for _, c := range rev {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("._/-~^@", c)) {
				ok = false
				break
			}
		}
		if ok {
			return rev
		}
	}
	return ""
}

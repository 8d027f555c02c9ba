package memory

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/internal/fsx"
	"github.com/codecortex/codecortex/internal/redact"
	"github.com/codecortex/codecortex/seal"
)

// Where the store keeps its files, relative to the project root. Nothing
// else under .codecortex is touched, and no index lives here: rebuilding
// an index never loses memory.
const (
	Dir        = ".codecortex/memory"
	EntriesDir = Dir + "/entries"
	AuditLog   = Dir + "/audit.log"
)

// Options says where the memory is kept and how time is told. The zero
// value keeps it under the working directory's .codecortex/memory with
// the real clock. Callees never modify it.
type Options struct {
	// Dir is the project root; "" means the working directory.
	Dir string
	// Now is the clock; nil means time.Now. Tests set it.
	Now func() time.Time
	// Author is who remembers or forgets when the call does not say.
	Author string
	// AttachLimit bounds how many memories [Store.Attach] adds to an
	// answer; 0 means DefaultAttachLimit.
	AttachLimit int
	// Seal proves which files under .codecortex/ this user's cortex wrote;
	// nil means seal.User(). The memory seals each audit line it writes,
	// and counts an entry as reviewed only by a line that this sealer
	// verifies (see [Review]).
	Seal seal.Sealer
}

// DefaultAttachLimit is how many memories Attach adds at most.
const DefaultAttachLimit = 5

// Errors matched with errors.Is.
var (
	// ErrNotFound: no entry has that id.
	ErrNotFound = errors.New("memory: no such entry")
)

// A Store is a project's memory: one JSON file per entry under
// .codecortex/memory/entries, named by its id, and an append-only audit
// log, .codecortex/memory/audit.log. Both are meant to be committed and
// reviewed. A Store is safe for concurrent use, and several processes may
// write the same memory at once: every entry is written to a temporary
// file and renamed into place, and every audit line is appended with one
// write to a file opened for appending, so no writer loses another's
// entry or line.
type Store struct {
	opts Options
	root *contain.Root
	red  *redact.Redactor

	mu    sync.Mutex // guards the fields below
	idx   *index
	stamp dirStamp
	// revs are this user's reviews by digest, read from the audit log
	// in the state revStamp names; nil until read.
	revs     map[string]Review
	revStamp dirStamp
}

// Open opens the memory of the project at opts.Dir. Nothing is created
// until something is remembered.
func Open(opts Options) (*Store, error) {
	dir := opts.Dir
	if dir == "" {
		dir = "."
	}
	root, err := contain.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("memory: project root: %w", err)
	}
	return &Store{opts: opts, root: root, red: redact.New()}, nil
}

// Close releases the project root.
func (s *Store) Close() error { return s.root.Close() }

// sealer is Options.Seal, or the user's.
func (s *Store) sealer() seal.Sealer {
	if s.opts.Seal != nil {
		return s.opts.Seal
	}
	return seal.User()
}

func (s *Store) now() time.Time {
	if s.opts.Now != nil {
		return s.opts.Now()
	}
	return time.Now()
}

// Remember stores e and returns it as stored: text, reason and author
// trimmed (author defaulting to Options.Author), scope cleaned and
// sorted, Created set to now when zero, and ID and Digest computed (any
// given are ignored). Remembering the same content again returns the
// existing entry and writes nothing. The entry file is written atomically,
// then an audit line says who remembered what (id, digest, type, who,
// when), never the text, sealed under this user's key, which makes the
// entry reviewed for this user (see [Review]). Without a key to seal with
// (no configuration directory) nothing is written and the error matches
// seal.ErrNoKey.
func (s *Store) Remember(ctx context.Context, e Entry) (Entry, error) {
	if err := ctx.Err(); err != nil {
		return Entry{}, err
	}
	if e.Author == "" {
		e.Author = s.opts.Author
	}
	if e.Created.IsZero() {
		e.Created = s.now()
	}
	e.normalize()
	if err := e.Validate(); err != nil {
		return Entry{}, err
	}
	e.Digest = e.ComputeDigest()
	e.ID = IDFor(e.Digest)
	file := entryPath(e.ID)
	if data, err := s.root.ReadFile(file); err == nil {
		if old, err := ParseEntry(data); err == nil && old.Digest == e.Digest {
			return old, nil
		}
	}
	// The line is sealed before anything is written: an entry this user
	// remembers is never left without the line that says they did.
	line, err := s.encodeAudit(auditLine{Op: "remember", ID: e.ID, Digest: e.Digest, Type: e.Type, Who: e.Author, When: s.now()}, false)
	if err != nil {
		return Entry{}, err
	}
	if err := s.root.WriteStateFile(file, encodeEntry(&e), 0o644); err != nil {
		return Entry{}, fmt.Errorf("memory: write %s: %w", file, err)
	}
	s.invalidate()
	if err := s.appendAudit(line); err != nil {
		return e, err
	}
	return e, nil
}

// Get returns the entry with the given id, checked (see [ParseEntry]).
func (s *Store) Get(id string) (Entry, error) {
	if !ValidID(id) {
		return Entry{}, fmt.Errorf("%w: %q is not a memory id", ErrNotFound, cut(id, 40))
	}
	data, err := s.root.ReadFile(entryPath(id))
	if errors.Is(err, fs.ErrNotExist) {
		return Entry{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return Entry{}, fmt.Errorf("memory: %w", err)
	}
	e, err := ParseEntry(data)
	if err == nil && e.ID != id {
		err = &EntryError{Field: "id", Reason: fmt.Sprintf("file %s holds entry %s", entryPath(id), e.ID)}
	}
	return e, err
}

// Forget purges the entry with the given id: its file is removed, and an
// audit line records the id, the digest, who, when and why, never the
// text. who defaults to Options.Author. The audit line is written first,
// so a purge is never unrecorded; if the removal then fails, the error
// says so and [Store.Verify] reports the entry as forgotten but present.
// The line is sealed when a key can be had, and written unsealed
// otherwise: a purge never waits for one.
func (s *Store) Forget(ctx context.Context, id, who, why string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if who = strings.TrimSpace(who); who == "" {
		who = s.opts.Author
	}
	if who == "" {
		return &EntryError{Field: "who", Reason: "forgetting needs someone to say who forgot"}
	}
	if !ValidID(id) {
		return fmt.Errorf("%w: %q is not a memory id", ErrNotFound, cut(id, 40))
	}
	file := entryPath(id)
	data, err := s.root.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return fmt.Errorf("memory: %w", err)
	}
	// A damaged entry can be forgotten too; its digest is what the file
	// says, or empty.
	e, _ := ParseEntry(data)
	// A purge never waits for a key: without one the line goes unsealed.
	line, err := s.encodeAudit(auditLine{Op: "forget", ID: id, Digest: e.Digest, Type: e.Type, Who: who, When: s.now(), Why: strings.TrimSpace(why)}, true)
	if err != nil {
		return err
	}
	if err := s.appendAudit(line); err != nil {
		return err
	}
	if err := s.root.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("memory: forget %s: the audit line is written but the file remains: %w", id, err)
	}
	s.invalidate()
	return nil
}

// List returns every readable, intact entry, newest first. Damaged files
// are left out; [Store.Verify] reports them.
func (s *Store) List() ([]Entry, error) {
	idx, err := s.load()
	if err != nil {
		return nil, err
	}
	out := make([]Entry, len(idx.entries))
	for i, le := range idx.entries {
		out[i] = le.Entry
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Created.Equal(out[j].Created) {
			return out[i].Created.After(out[j].Created)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

func entryPath(id string) string { return EntriesDir + "/" + id + ".json" }

// An auditLine is one line of the audit log.
type auditLine struct {
	Op     string    `json:"op"` // remember, accept or forget
	ID     string    `json:"id"`
	Digest string    `json:"digest"`
	Type   Type      `json:"type,omitempty"`
	Who    string    `json:"who"`
	When   time.Time `json:"when"`
	Why    string    `json:"why,omitempty"`
	// Seal is the line's seal under the key of the user whose cortex
	// wrote it (see [Review]); empty in a line written without one.
	Seal string `json:"seal,omitempty"`
}

// auditPurpose is what an audit line's seal is for.
const auditPurpose = "codecortex.memory.audit/1"

// sealParts are the parts of a line its seal binds: every field, time in
// UTC with nanoseconds. The project root is not among them, on purpose: a
// review is of an entry's content, which its digest fixes, so it holds in
// a fresh clone of the same repository, in a worktree, after a move.
func (l *auditLine) sealParts() [][]byte {
	return [][]byte{[]byte(l.Op), []byte(l.ID), []byte(l.Digest), []byte(l.Type), []byte(l.Who),
		[]byte(l.When.UTC().Format(time.RFC3339Nano)), []byte(l.Why)}
}

// maxAuditLine bounds one audit line, so that one write appends it whole
// (it is at most PIPE_BUF, the size POSIX promises atomic for pipes, and
// far below what a local file system appends in one piece).
const maxAuditLine = 4096

// sealRoom is what a seal adds to a line: `,"seal":"s1.` and 43 characters.
const sealRoom = 64

// encodeAudit returns the line to append for l: who and why redacted,
// made valid UTF-8 and cut so that the line fits in maxAuditLine bytes,
// then sealed under this user's key. It fails when the line cannot be
// sealed, unless optional is set; then the line goes unsealed.
func (s *Store) encodeAudit(l auditLine, optional bool) ([]byte, error) {
	l.Who = cut(strings.ToValidUTF8(s.red.String(l.Who), "\uFFFD"), 200)
	l.Why = cut(strings.ToValidUTF8(s.red.String(l.Why), "\uFFFD"), 2000)
	l.When = l.When.UTC()
	l.Seal = ""
	for {
		line, err := json.Marshal(l)
		if err != nil {
			return nil, fmt.Errorf("memory: audit: %w", err)
		}
		if len(line)+1+sealRoom <= maxAuditLine || l.Why == "" {
			break
		}
		l.Why = cut(l.Why, len(l.Why)/2)
	}
	sealed, err := s.sealer().Seal(auditPurpose, l.sealParts()...)
	switch {
	case err == nil:
		l.Seal = sealed
	case !optional:
		return nil, fmt.Errorf("memory: the audit line cannot be sealed, so the entry would read as unreviewed: %w", err)
	}
	line, err := json.Marshal(l)
	if err != nil {
		return nil, fmt.Errorf("memory: audit: %w", err)
	}
	return append(line, '\n'), nil
}

// appendAudit appends one line to the audit log with a single write to the
// file opened with O_APPEND, so concurrent writers, in this process or
// others, each add their line whole.
func (s *Store) appendAudit(line []byte) error {
	if err := s.root.MkdirState(Dir, 0o755); err != nil {
		return fmt.Errorf("memory: audit: %w", err)
	}
	abs, err := s.root.Abs(AuditLog)
	if err != nil {
		return fmt.Errorf("memory: audit: %w", err)
	}
	f, err := fsx.OpenFileNoFollow(abs, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("memory: audit: %w", err)
	}
	_, werr := f.Write(line)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	s.mu.Lock()
	s.revs = nil
	s.mu.Unlock()
	if werr != nil {
		return fmt.Errorf("memory: audit: %w", werr)
	}
	return nil
}

// cut shortens s to at most n bytes at a character boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// A Problem is something Verify found wrong.
type Problem struct {
	// Path is the file, relative to the project root.
	Path string `json:"path"`
	// ID is the entry concerned, when known.
	ID     string `json:"id,omitempty"`
	Reason string `json:"reason"`
}

// A VerifyReport is what [Store.Verify] found.
type VerifyReport struct {
	// Entries is how many entry files were read; Intact how many passed
	// every check; Reviewed how many of those this user has reviewed (see
	// [Review]).
	Entries  int `json:"entries"`
	Intact   int `json:"intact"`
	Reviewed int `json:"reviewed"`
	// AuditLines is how many lines the audit log holds: SealedLines of
	// them sealed under this user's key, ForeignLines not (a teammate's
	// lines, lines written before lines were sealed, or lines written by
	// hand), which prove nothing to this user.
	AuditLines   int       `json:"audit_lines"`
	SealedLines  int       `json:"sealed_lines"`
	ForeignLines int       `json:"foreign_lines"`
	Problems     []Problem `json:"problems"`
	// Unreviewed lists the intact entries this user has not reviewed:
	// supplied with the repository, served as such until accepted.
	Unreviewed []Problem `json:"unreviewed"`
}

// OK reports whether nothing was wrong and every entry is reviewed.
func (r *VerifyReport) OK() bool { return len(r.Problems) == 0 && len(r.Unreviewed) == 0 }

// AcceptHint is what a person does about an unreviewed entry.
const AcceptHint = "read it (cortex memory list --unreviewed), then accept it if it holds (cortex memory accept ID)"

// Verify reads every entry file from disk and checks it: it parses, its
// digest matches its content (a changed file is reported as tampered), its
// id derives from its digest and names its file. It checks the audit log
// too: every line parses; every entry has a remember (or accept) line
// with its digest; no entry the log says was forgotten is still there.
// Stray files in the entries directory are reported. It lists the intact
// entries this user has not reviewed, each with why (no line of theirs,
// or a line not sealed under their key) and what to do ([AcceptHint]),
// and counts the audit lines sealed under this user's key and the others.
// The error is for a memory that cannot be read at all; what is wrong
// with it is in the report.
func (s *Store) Verify(ctx context.Context) (*VerifyReport, error) {
	rep := &VerifyReport{Problems: []Problem{}, Unreviewed: []Problem{}}
	present, err := s.verifyEntries(ctx, rep)
	if err != nil {
		return nil, err
	}
	a := s.verifyAudit(rep)
	ids := make([]string, 0, len(present))
	for id := range present {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		digest := present[id]
		switch {
		case a.forgotten[id]:
			rep.Problems = append(rep.Problems, Problem{Path: entryPath(id), ID: id, Reason: "the audit log says it was forgotten, but it is still here"})
		case !a.remembered[id][digest]:
			rep.Problems = append(rep.Problems, Problem{Path: entryPath(id), ID: id, Reason: "no line of the audit log remembers it with this digest"})
		}
		if a.reviews[digest].Reviewed() {
			rep.Reviewed++
			continue
		}
		why := "no audit line of yours remembers or accepts it"
		if l, ok := a.claimed[digest]; ok {
			why = fmt.Sprintf("the audit line that says %q %sed it is not sealed under your key (a teammate's, or written by hand), so it proves nothing to you", cut(l.Who, 80), l.Op)
		}
		rep.Unreviewed = append(rep.Unreviewed, Problem{Path: entryPath(id), ID: id,
			Reason: "unreviewed, supplied with the repository: " + why + "; " + strings.Replace(AcceptHint, "ID", id, 1)})
	}
	return rep, nil
}

// verifyEntries checks every file of the entries directory, counts the
// entries and the intact ones in rep and lists the problems there, and
// returns the digest of each intact entry by id.
func (s *Store) verifyEntries(ctx context.Context, rep *VerifyReport) (map[string]string, error) {
	names, err := s.entryNames()
	if err != nil {
		return nil, err
	}
	present := map[string]string{} // id → digest
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		file := EntriesDir + "/" + name
		id, isEntry := strings.CutSuffix(name, ".json")
		if !isEntry || !ValidID(id) {
			reason := "not an entry file (entries are named <id>.json)"
			if strings.HasPrefix(name, ".cortex-tmp-") {
				reason = "a temporary file an interrupted write left behind"
			}
			rep.Problems = append(rep.Problems, Problem{Path: file, Reason: reason})
			continue
		}
		rep.Entries++
		data, err := s.root.ReadFile(file)
		if err != nil {
			rep.Problems = append(rep.Problems, Problem{Path: file, ID: id, Reason: "cannot be read: " + err.Error()})
			continue
		}
		e, err := ParseEntry(data)
		if err == nil && e.ID != id {
			err = fmt.Errorf("the file holds entry %s", e.ID)
		}
		if err != nil {
			reason := err.Error()
			var ee *EntryError
			if errors.As(err, &ee) && ee.Field == "digest" {
				reason = "tampered: " + reason
			}
			rep.Problems = append(rep.Problems, Problem{Path: file, ID: id, Reason: reason})
			continue
		}
		rep.Intact++
		present[id] = e.Digest
	}
	return present, nil
}

// An auditSummary is what the audit log says of the entries.
type auditSummary struct {
	remembered map[string]map[string]bool // id → digests a line remembers or accepts
	claimed    map[string]auditLine       // digest → a line not sealed by this user that remembers or accepts it
	forgotten  map[string]bool            // ids forgotten and not remembered since
	reviews    map[string]Review          // this user's reviews, by digest
}

// verifyAudit reads the audit log, counts its lines (sealed under this
// user's key and the others) in rep, lists the lines that do not parse
// and a log that cannot be read whole, and returns what it says.
func (s *Store) verifyAudit(rep *VerifyReport) auditSummary {
	a := auditSummary{remembered: map[string]map[string]bool{}, claimed: map[string]auditLine{}, forgotten: map[string]bool{}}
	data, _, cutLog, err := s.readAudit()
	if err != nil {
		rep.Problems = append(rep.Problems, Problem{Path: AuditLog, Reason: fmt.Sprintf("cannot be read (%v): no entry reads as reviewed", err)})
	}
	if cutLog {
		rep.Problems = append(rep.Problems, Problem{Path: AuditLog, Reason: fmt.Sprintf("longer than %d MiB: the lines past it are not read, and the entries they review read as unreviewed", maxAuditRead>>20)})
	}
	isSealed := s.checker()
	eachAuditLine(data, func(n int, l auditLine, err error) {
		rep.AuditLines++
		if err != nil {
			rep.Problems = append(rep.Problems, Problem{Path: AuditLog, Reason: fmt.Sprintf("line %d: %v", n, err)})
			return
		}
		sealed := isSealed(&l)
		if sealed {
			rep.SealedLines++
		} else {
			rep.ForeignLines++
		}
		switch l.Op {
		case "remember", "accept":
			if a.remembered[l.ID] == nil {
				a.remembered[l.ID] = map[string]bool{}
			}
			a.remembered[l.ID][l.Digest] = true
			delete(a.forgotten, l.ID)
			if !sealed {
				a.claimed[l.Digest] = l
			}
		case "forget":
			a.forgotten[l.ID] = true
		}
	})
	a.reviews = s.reviewsIn(data)
	return a
}

// parseAuditLine reads and checks one audit line.
func parseAuditLine(ln []byte) (auditLine, error) {
	dec := json.NewDecoder(bytes.NewReader(ln))
	dec.DisallowUnknownFields()
	var l auditLine
	if err := dec.Decode(&l); err != nil {
		return l, fmt.Errorf("not an audit line: %v", err)
	}
	switch {
	case l.Op != "remember" && l.Op != "accept" && l.Op != "forget":
		return l, fmt.Errorf("unknown operation %q", cut(l.Op, 40))
	case !ValidID(l.ID):
		return l, fmt.Errorf("%q is not a memory id", cut(l.ID, 40))
	case l.Op != "forget" && IDFor(l.Digest) != l.ID:
		return l, fmt.Errorf("entry %s is %sed with digest %q, from which its id does not derive", l.ID, l.Op, cut(l.Digest, 80))
	case l.Who == "" || l.When.IsZero():
		return l, errors.New("no who or when")
	}
	return l, nil
}

// entryNames lists the names in the entries directory; none when it does
// not exist.
func (s *Store) entryNames() ([]string, error) {
	des, err := fs.ReadDir(s.root.FS(), EntriesDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("memory: %w", err)
	}
	names := make([]string, 0, len(des))
	for _, d := range des {
		names = append(names, d.Name())
	}
	return names, nil
}

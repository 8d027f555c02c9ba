package rewrite

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/internal/fsx"
	"github.com/codecortex/codecortex/seal"
	"github.com/codecortex/codecortex/structural"
	"github.com/codecortex/codecortex/validation"
)

// The default limits and expiry, the specification's defaults.
const (
	DefaultMaxFiles   = 50
	DefaultMaxMatches = 500
	DefaultMaxBytes   = 1 << 20
	DefaultPreviewTTL = 30 * time.Minute
)

// Limits bound one rewrite (configuration structural.max_rewrite_*).
// Zero fields take the defaults.
type Limits struct {
	// MaxFiles caps the files a rewrite changes.
	MaxFiles int
	// MaxMatches caps the matches it rewrites (outermost matches: inner
	// matches, which are not rewritten, do not count).
	MaxMatches int
	// MaxBytes caps its changed bytes: for every edit, the bytes it
	// removes plus the bytes it inserts.
	MaxBytes int64
}

func (l Limits) withDefaults() Limits {
	if l.MaxFiles <= 0 {
		l.MaxFiles = DefaultMaxFiles
	}
	if l.MaxMatches <= 0 {
		l.MaxMatches = DefaultMaxMatches
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	return l
}

// Options configure a [Rewriter]. The zero value rewrites in the working
// directory with the default limits and expiry, permits applying with a
// principal, finds matches with a structural provider of the default
// options, estimates impact with [LocalImpact], refreshes no index after
// an apply (the result says so) and validates with the commands
// [validation.Detect] proposes. The layers a rewrite consults are small
// interfaces a host fills with its own ([Matcher], [Impact], [Reindexer],
// [Validator]); the codecortex engine's rewriter is given the engine's.
// Callees never modify it.
type Options struct {
	// Dir is the project root; "" means the working directory.
	Dir string
	// Limits bound every rewrite (structural.max_rewrite_*).
	Limits Limits
	// PreviewTTL is how long a preview may be applied after it was made
	// (structural.preview_ttl_seconds); zero means DefaultPreviewTTL.
	PreviewTTL time.Duration
	// DenyApply refuses every apply (structural.allow_apply false):
	// previews are still made.
	DenyApply bool
	// Matcher finds a pattern's structural matches and their edits; nil
	// means structural.New with Dir and the default options (the built-in
	// engine). The rewriter does not close it.
	Matcher Matcher
	// Impact estimates what a rewrite affects, before and after it is
	// applied; nil means [LocalImpact]. The rewriter owns it: when it is
	// an io.Closer, [Rewriter.Close] (or a failed [Open]) closes it.
	Impact Impact
	// Reindexer brings the project's indexes up to date after an apply;
	// nil refreshes nothing, and [Result].Reindex says so. The rewriter
	// does not close it.
	Reindexer Reindexer
	// Validator runs the project's checks after an apply; nil means
	// validation.New with Dir and Seal, which runs the commands
	// [validation.Detect] proposes. The rewriter does not close it.
	Validator Validator
	// SkipValidation runs no validation after an apply; the result says
	// it was skipped.
	SkipValidation bool
	// ValidateBefore runs the validation before the files are replaced
	// too (when validation runs at all), so that [ValidationReport] says
	// which diagnostics the change brought and which it fixed.
	ValidateBefore bool
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Seal proves which files under .codecortex/rewrite this user's
	// cortex wrote: previews, journals and audit lines are sealed when
	// written, and one whose seal does not check is foreign (never
	// applied, recovered or counted); nil means [seal.User].
	Seal seal.Sealer
}

func (o *Options) sealer() seal.Sealer {
	if o.Seal != nil {
		return o.Seal
	}
	return seal.User()
}

func (o *Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

func (o *Options) ttl() time.Duration {
	if o.PreviewTTL <= 0 {
		return DefaultPreviewTTL
	}
	return o.PreviewTTL
}

// Where a rewriter keeps its state, relative to the project root. The
// directory holds a .gitignore that ignores all of it.
const (
	StateDir   = ".codecortex/rewrite"
	PreviewDir = StateDir + "/previews"
	JournalDir = StateDir + "/journal"
	// AuditLog is the append-only audit log: one JSON event a line.
	AuditLog      = StateDir + "/audit.jsonl"
	UnresolvedDir = StateDir + "/unresolved"
	lockFile      = StateDir + "/lock"
	ignoreFile    = StateDir + "/.gitignore"
)

// A Rewriter previews and applies guarded rewrites in one project. It is
// safe for concurrent use; applies are one at a time per project, across
// processes.
type Rewriter struct {
	opts Options
	dir  string // the root, absolute, links evaluated
	root *contain.Root
	fs   fsx.FS
	osfs *fsx.OS
}

// Open opens the project at opts.Dir for rewriting. It writes nothing:
// the journal of an apply that was interrupted (the process died while
// replacing files) is recovered by [Rewriter.Recover], or by the next
// [Rewriter.Apply] before it changes anything, never by opening, showing
// or previewing; [Rewriter.Pending] lists such journals. Open fails only
// when the root cannot be opened.
func Open(opts Options) (*Rewriter, error) {
	return open(opts, nil)
}

// open opens a rewriter whose file operations go through fsys (nil: the
// operating system's), for tests that inject faults.
func open(opts Options, wrap func(fsx.FS) fsx.FS) (*Rewriter, error) {
	dir := opts.Dir
	if dir == "" {
		dir = "."
	}
	root, err := contain.Open(dir)
	if err != nil {
		closeImpact(opts.Impact)
		return nil, fmt.Errorf("rewrite: %w", err)
	}
	osfs, err := fsx.Open(root.Dir())
	if err != nil {
		root.Close()
		closeImpact(opts.Impact)
		return nil, fmt.Errorf("rewrite: %w", err)
	}
	r := &Rewriter{opts: opts, dir: root.Dir(), root: root, osfs: osfs, fs: osfs}
	if wrap != nil {
		r.fs = wrap(osfs)
	}
	r.opts.Dir = r.dir
	if r.opts.Matcher == nil {
		r.opts.Matcher = structural.New(structural.Options{Dir: r.dir})
	}
	if r.opts.Impact == nil {
		r.opts.Impact = LocalImpact{}
	}
	if r.opts.Validator == nil {
		r.opts.Validator = validation.New(validation.Options{Dir: r.dir, Seal: r.opts.Seal})
	}
	return r, nil
}

// Close releases the project root, and the Impact when it is an
// io.Closer.
func (r *Rewriter) Close() error {
	err := r.osfs.Close()
	if cerr := r.root.Close(); err == nil {
		err = cerr
	}
	if cerr := closeImpact(r.opts.Impact); err == nil {
		err = cerr
	}
	return err
}

// closeImpact closes an Impact that is an io.Closer.
func closeImpact(im Impact) error {
	if c, ok := im.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// Dir returns the project root: absolute, symbolic links evaluated.
func (r *Rewriter) Dir() string { return r.dir }

// hasJournal reports whether the journal directory holds anything.
func (r *Rewriter) hasJournal() bool {
	if !r.stateIsReal(JournalDir) {
		return false
	}
	ents, err := r.fs.ReadDir(JournalDir)
	return err == nil && len(ents) > 0
}

// stateIsReal reports whether the state directory d and every directory
// above it are real directories, reached through no symbolic link: a
// repository may ship .codecortex/rewrite/journal as a link elsewhere.
func (r *Rewriter) stateIsReal(d string) bool {
	cur := ""
	for _, e := range strings.Split(d, "/") {
		cur = path.Join(cur, e)
		fi, err := r.fs.Lstat(cur)
		if err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// ensureState creates the state directory with its .gitignore, refusing
// one reached through a symbolic link.
func (r *Rewriter) ensureState() error {
	for _, d := range []string{PreviewDir, JournalDir} {
		if err := r.root.MkdirState(d, 0o755); err != nil {
			return fmt.Errorf("rewrite: %w", err)
		}
		if err := r.fs.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("rewrite: creating %s: %w", d, err)
		}
	}
	if _, err := r.fs.Lstat(ignoreFile); errors.Is(err, fs.ErrNotExist) {
		tmp := path.Join(StateDir, ".gitignore."+newID())
		if err := fsx.ReplaceFile(r.fs, ignoreFile, tmp, []byte("# CodeCortex rewrite previews, journals and audit log; never committed.\n*\n"), 0o644); err != nil {
			return fmt.Errorf("rewrite: %w", err)
		}
	}
	return nil
}

// Show returns the stored preview id, whether or not it has expired
// (Preview.Expired says).
func (r *Rewriter) Show(id string) (*Preview, error) {
	return r.loadPreview(id)
}

package history

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// A ConfigRisk is one setting of a repository's git configuration, or one
// file of its git directory, that git would obey and that can name a
// program, a file or a fetch.
type ConfigRisk struct {
	// File is the configuration file (or git directory file) it is in,
	// absolute; Line its one-based line, 0 for a file as a whole.
	File string `json:"file"`
	Line int    `json:"line,omitempty"`
	// Key is the configuration key as git names it (section and name
	// lower-cased, a subsection as written), or for a file of the git
	// directory its name there, such as "objects/info/alternates".
	Key string `json:"key"`
	// Value is the value as written, cut at 120 bytes and without control
	// characters; "" for a key without one.
	Value string `json:"value,omitempty"`
	// Reason says what git would do with it, and so why it is listed.
	Reason string `json:"reason"`
}

// String returns "key = value (file:line): reason".
func (r ConfigRisk) String() string {
	s := r.Key
	if r.Value != "" {
		s += " = " + fmt.Sprintf("%q", r.Value)
	}
	where := r.File
	if r.Line > 0 {
		where = fmt.Sprintf("%s:%d", r.File, r.Line)
	}
	return s + " (" + where + "): " + r.Reason
}

// A ConfigCheck is what [CheckConfig] found in a repository's git
// configuration.
type ConfigCheck struct {
	// WorkTree is the top of the work tree, GitDir the repository's git
	// directory and CommonDir the one that holds its shared configuration
	// (they differ in a linked worktree); all absolute, symbolic links
	// evaluated.
	WorkTree  string `json:"work_tree"`
	GitDir    string `json:"git_dir"`
	CommonDir string `json:"common_dir"`
	// Files are the configuration files read, in the order git reads them.
	Files []string `json:"files"`
	// Risks are the settings that need trust before git runs with them.
	Risks []ConfigRisk `json:"risks"`
	// Neutralised are the settings that could run a program, read a file
	// or fetch, which every git command the layer runs overrides; they
	// need no trust, and are listed for review.
	Neutralised []ConfigRisk `json:"neutralised"`

	keys     []string // every key read, in order
	includes bool     // an include directive is among them
	digest   []byte   // what Digest hashes: every risk, values whole
}

// Digest returns the digest of the settings that need trust ("sha256:"
// and the hex SHA-256 of each key and its whole value, in order), or ""
// when none does. A trust record names it, so that a change to any of
// those settings needs trust again, while one to an inert setting (a new
// branch's upstream) does not.
func (c *ConfigCheck) Digest() string {
	if len(c.Risks) == 0 {
		return ""
	}
	sum := sha256.Sum256(c.digest)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Errors matched with errors.Is when the repository's git configuration
// stops the layer.
var (
	// ErrUntrustedConfig: the configuration has settings that need trust
	// and the caller did not trust it (Options.TrustRepoConfig). The
	// error is a [*ConfigError] that lists them.
	ErrUntrustedConfig = errors.New("history: the repository's git configuration is not trusted")
	// ErrBadConfig: a configuration file cannot be read whole or does not
	// parse, so what git would do with it is unknown. Trust does not
	// help: the file must be fixed.
	ErrBadConfig = errors.New("history: the repository's git configuration cannot be checked")
)

// A ConfigError says why the layer declines to run git on a repository
// because of its configuration: the risky settings, or the file that
// cannot be checked.
type ConfigError struct {
	// GitDir is the repository's git directory.
	GitDir string
	// Risks are the settings that need trust; empty when Err is set.
	Risks []ConfigRisk
	// Err wraps ErrBadConfig when a file cannot be checked.
	Err error
}

// maxListed bounds the settings an error message names.
const maxListed = 5

// Error names each risky key (not its value: a value could be anything
// the file holds), why it matters and what to do; or why the file cannot
// be checked.
func (e *ConfigError) Error() string {
	if e.Err != nil {
		return e.Err.Error() + "; git is not run on a configuration cortex cannot read: fix the file (trust does not apply)"
	}
	var b strings.Builder
	b.WriteString("history: the repository's git configuration is not trusted, so git is not run on it: ")
	listed, more := map[string]bool{}, map[string]bool{}
	for _, r := range e.Risks {
		switch {
		case listed[r.Key] || more[r.Key]:
			continue
		case len(listed) == maxListed:
			more[r.Key] = true
			continue
		case len(listed) > 0:
			b.WriteString("; ")
		}
		listed[r.Key] = true
		b.WriteString(clip(clean(r.Key)))
		if r.Line > 0 {
			fmt.Fprintf(&b, " (%s line %d)", filepath.Base(r.File), r.Line)
		}
		b.WriteString(" " + r.Reason)
	}
	if len(more) > 0 {
		fmt.Fprintf(&b, "; and %d more", len(more))
	}
	b.WriteString(". Review it with `cortex trust --show`, and if it is yours run `cortex trust` (a host sets history.Options.TrustRepoConfig)")
	return b.String()
}

// Is matches ErrUntrustedConfig when the error lists settings.
func (e *ConfigError) Is(target error) bool {
	return target == ErrUntrustedConfig && len(e.Risks) > 0
}

// Unwrap returns Err.
func (e *ConfigError) Unwrap() error { return e.Err }

// CheckConfig finds the git repository around dir ("" is the working
// directory) as git would, reads its configuration and judges every
// setting, without running git: the same check [Open] makes before its
// first git command. A directory outside every git work tree is an error
// wrapping [ErrNotRepository]; a configuration file larger than 1 MiB,
// that is not a regular file or that does not parse is a [*ConfigError]
// wrapping [ErrBadConfig]. Include directives are not followed: they are
// risky settings themselves.
func CheckConfig(dir string) (*ConfigCheck, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("history: project root: %w", err)
	}
	return checkConfig(real)
}

// checkConfig is CheckConfig on a directory already absolute and with its
// symbolic links evaluated.
func checkConfig(dir string) (*ConfigCheck, error) {
	c, err := findRepo(dir)
	if err != nil {
		return nil, err
	}
	c.checkLayout()
	files := []string{filepath.Join(c.CommonDir, "config"), filepath.Join(c.GitDir, "config.worktree")}
	for _, f := range files {
		fi, err := os.Lstat(f)
		if errors.Is(err, os.ErrNotExist) {
			continue // git runs without either file, and so does the layer
		}
		if err != nil {
			return nil, c.bad(fmt.Errorf("%w: %s: %v", ErrBadConfig, f, err))
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			c.risk(f, 0, "", "", "is a symbolic link, so git would read whatever file it points to as configuration")
		}
		data, err := readBounded(f, maxConfigSize)
		if err != nil {
			return nil, c.bad(fmt.Errorf("%w: %s: %v", ErrBadConfig, f, err))
		}
		entries, err := parseConfig(data)
		if err != nil {
			return nil, c.bad(fmt.Errorf("%w: %s: %v", ErrBadConfig, f, err))
		}
		c.Files = append(c.Files, f)
		for _, e := range entries {
			c.judge(f, e)
		}
	}
	if c.Risks == nil {
		c.Risks = []ConfigRisk{}
	}
	if c.Neutralised == nil {
		c.Neutralised = []ConfigRisk{}
	}
	return c, nil
}

func (c *ConfigCheck) bad(err error) error { return &ConfigError{GitDir: c.GitDir, Err: err} }

// judge sorts one setting.
func (c *ConfigCheck) judge(file string, e configEntry) {
	c.keys = append(c.keys, e.Key)
	rule := classify(e.Key)
	switch {
	case e.Key == "core.worktree" && c.namesWorkTree(e.Value):
		return // a submodule's git directory names its work tree: inert
	case rule.section == "include" || rule.section == "includeif":
		c.includes = true
	}
	switch rule.class {
	case classInert:
	case classNeutral:
		c.Neutralised = append(c.Neutralised, risk(file, e.Line, e.Key, e.Value, rule.reason))
	default:
		c.risk(file, e.Line, e.Key, e.Value, rule.reason)
	}
}

func (c *ConfigCheck) risk(file string, line int, key, value, reason string) {
	c.Risks = append(c.Risks, risk(file, line, key, value, reason))
	if key == "" {
		key = file
	}
	c.digest = append(append(append(append(c.digest, key...), 0), value...), '\n')
}

func risk(file string, line int, key, value, reason string) ConfigRisk {
	v := value
	if len(v) > 120 {
		v = strings.ToValidUTF8(v[:120], "") + "…"
	}
	if key == "" {
		key = filepath.Base(file)
	}
	return ConfigRisk{File: file, Line: line, Key: key, Value: clean(strings.ToValidUTF8(v, "?")), Reason: reason}
}

// namesWorkTree reports whether a core.worktree value (relative to the
// git directory, as git takes it) is the work tree git found anyway.
func (c *ConfigCheck) namesWorkTree(v string) bool {
	if v == "" {
		return false
	}
	if !filepath.IsAbs(v) {
		v = filepath.Join(c.GitDir, v)
	}
	real, err := filepath.EvalSymlinks(v)
	return err == nil && real == c.WorkTree
}

// overrides returns the override of every neutralised key that keys
// holds (as "git config --name-only --list" names keys), for the keys
// the always-on hardening does not cover already. A filter or diff
// driver named by any of its keys has each of its programs overridden.
func overrides(keys []string) [][2]string {
	always := map[string]bool{}
	for _, kv := range append(hardening, userFiles()...) {
		always[strings.ToLower(kv[0])] = true
	}
	var out [][2]string
	seen := map[string]bool{}
	add := func(k string) {
		if r := classify(k); r.class == classNeutral && !always[k] && !seen[k] {
			seen[k] = true
			out = append(out, [2]string{k, r.override})
		}
	}
	for _, k := range keys {
		section, sub, _ := splitKey(k)
		switch {
		case section == "filter" && hasSubsection(k):
			for _, n := range []string{"clean", "smudge", "process", "required"} {
				add("filter." + sub + "." + n)
			}
		case section == "diff" && hasSubsection(k):
			add("diff." + sub + ".textconv")
			add("diff." + sub + ".command")
		}
		add(k)
	}
	return out
}

// maxOverrides bounds the overrides of a repository's settings that one
// git command is given: past a few thousand the environment would pass
// the kernel's limit and no git command would start.
const maxOverrides = 2000

// tooManyOverrides is the error of a configuration with more neutralised
// settings than maxOverrides.
func tooManyOverrides(c *ConfigCheck, n int) error {
	return c.bad(fmt.Errorf("%w: it sets %d driver, pager and protocol settings to override, more than the %d cortex passes to git",
		ErrBadConfig, n, maxOverrides))
}

// findRepo finds the repository around dir as git's discovery does: the
// nearest directory at or above dir with a .git directory that is a git
// directory, or a .git file that names one. A git directory above (dir is
// in a bare repository or inside .git) is not a work tree.
func findRepo(dir string) (*ConfigCheck, error) {
	for d := dir; ; {
		dotgit := filepath.Join(d, ".git")
		fi, err := os.Stat(dotgit)
		switch {
		case err == nil && fi.Mode().IsRegular():
			data, err := readBounded(dotgit, 4<<10)
			if err != nil {
				return nil, fmt.Errorf("%w: %s: %v", ErrNotRepository, dotgit, err)
			}
			rest, ok := strings.CutPrefix(string(data), "gitdir: ")
			rest = strings.TrimRight(rest, "\r\n")
			if !ok || rest == "" || strings.ContainsAny(rest, "\x00\n") {
				return nil, fmt.Errorf("%w: %s is not a gitdir file", ErrNotRepository, dotgit)
			}
			if !filepath.IsAbs(rest) {
				rest = filepath.Join(d, rest)
			}
			if !isGitDir(rest) {
				return nil, fmt.Errorf("%w: %s names %s, which is not a git directory", ErrNotRepository, dotgit, rest)
			}
			return newCheck(d, rest)
		case err == nil && fi.IsDir() && isGitDir(dotgit):
			return newCheck(d, dotgit)
		}
		if isGitDir(d) {
			return nil, fmt.Errorf("%w: %s is not inside a work tree (a bare repository, or the .git directory)", ErrNotRepository, dir)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return nil, fmt.Errorf("%w: %s is not inside a git repository", ErrNotRepository, dir)
		}
		d = parent
	}
}

// newCheck starts the check of the work tree at top whose git directory
// is gitDir.
func newCheck(top, gitDir string) (*ConfigCheck, error) {
	real, err := filepath.EvalSymlinks(gitDir)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotRepository, err)
	}
	c := &ConfigCheck{WorkTree: top, GitDir: real, CommonDir: real}
	if common, ok := readCommondir(real); ok {
		if c.CommonDir, err = filepath.EvalSymlinks(common); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrNotRepository, err)
		}
	}
	return c, nil
}

// readCommondir returns the directory a git directory's commondir file
// names, relative to it.
func readCommondir(gitDir string) (string, bool) {
	data, err := readBounded(filepath.Join(gitDir, "commondir"), 4<<10)
	if err != nil {
		return "", false
	}
	p := strings.TrimRight(string(data), "\r\n")
	if p == "" {
		return "", false
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(gitDir, p)
	}
	return p, true
}

// isGitDir is git's is_git_directory, in part: a HEAD, and objects and
// refs directories (in the common directory when commondir names one).
// What git accepts differently, [Open] finds when it compares git's own
// answer with this one.
func isGitDir(d string) bool {
	if fi, err := os.Lstat(filepath.Join(d, "HEAD")); err != nil || fi.IsDir() {
		return false
	}
	common := d
	if p, ok := readCommondir(d); ok {
		common = p
	}
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(common, sub)); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// gitDirFiles are the files of a git directory that git reads, by their
// path in it; as symbolic links they would make git read a file outside
// the repository.
var gitDirFiles = []string{"config", "config.worktree", "commondir", "HEAD", "packed-refs", "shallow", "index",
	"info/attributes", "info/exclude", "info/sparse-checkout", "info/grafts", "objects/info/alternates"}

// checkLayout lists what about the git directory's place and files needs
// trust: a git directory elsewhere that does not name this work tree back,
// a commondir outside the worktree layout, borrowed objects, and files
// that are symbolic links.
func (c *ConfigCheck) checkLayout() {
	dotgit := filepath.Join(c.WorkTree, ".git")
	if c.GitDir != dotgit {
		// A linked worktree's git directory names its .git file back
		// (gitdir); a submodule's names its work tree in core.worktree,
		// which judge accepts. Anything else is recorded here and
		// withdrawn when the configuration names this work tree.
		back, err := readBounded(filepath.Join(c.GitDir, "gitdir"), 4<<10)
		linked := err == nil && sameFile(strings.TrimRight(string(back), "\r\n"), dotgit)
		if !linked && !c.submoduleOf() {
			c.risk(dotgit, 0, ".git", c.GitDir, "names a git directory elsewhere that does not name this work tree back")
		}
	}
	if c.CommonDir != c.GitDir {
		if filepath.Base(filepath.Dir(c.GitDir)) != "worktrees" || filepath.Dir(filepath.Dir(c.GitDir)) != c.CommonDir {
			c.risk(filepath.Join(c.GitDir, "commondir"), 0, "commondir", c.CommonDir,
				"makes git take its configuration, refs and objects from another directory")
		}
	}
	seen := map[string]bool{}
	for _, dir := range []string{c.GitDir, c.CommonDir} {
		for _, f := range gitDirFiles {
			p := filepath.Join(dir, filepath.FromSlash(f))
			if seen[p] {
				continue
			}
			seen[p] = true
			fi, err := os.Lstat(p)
			if err != nil {
				continue
			}
			switch {
			case f == "objects/info/alternates":
				c.risk(p, 0, f, "", "makes git read objects from other repositories")
			case fi.Mode()&os.ModeSymlink != 0 && f != "config" && f != "config.worktree":
				c.risk(p, 0, f, "", "is a symbolic link, so git would read whatever file it points to")
			}
		}
	}
}

// submoduleOf reports whether the git directory's configuration names
// this work tree in core.worktree (as git submodule writes it), read
// ahead of the full check.
func (c *ConfigCheck) submoduleOf() bool {
	data, err := readBounded(filepath.Join(c.CommonDir, "config"), maxConfigSize)
	if err != nil {
		return false
	}
	entries, err := parseConfig(data)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Key == "core.worktree" && c.namesWorkTree(e.Value) {
			return true
		}
	}
	return false
}

// sameFile reports whether two paths name the same file once their
// symbolic links are evaluated.
func sameFile(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

// readBounded reads a regular file of at most max bytes whole: a FIFO, a
// device or a directory is refused before it is opened, and a larger file
// is refused, never cut.
func readBounded(name string, max int64) ([]byte, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if fi.Size() > max {
		return nil, fmt.Errorf("larger than %d bytes", max)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("larger than %d bytes", max)
	}
	return data, nil
}

// quoteStderr returns what a failed git command said, safe to carry in an
// error: its first two lines at most, 200 bytes at most, without control
// characters, and without any line of a kind that quotes a file git was
// told to read (a configured ignore-revs list, an included configuration,
// an attributes file): the repository could have named a file of the
// user's for git to read, and its content must not leave in a message.
func quoteStderr(b []byte) string {
	var kept []string
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		if len(kept) == 2 {
			break
		}
		s := clean(strings.TrimSpace(strings.ToValidUTF8(string(line), "?")))
		if s == "" {
			continue
		}
		lower := strings.ToLower(s)
		for _, q := range quotingMessages {
			if strings.Contains(lower, q) {
				s = "[a message that would quote a file's content, withheld]"
				break
			}
		}
		kept = append(kept, s)
	}
	s := strings.Join(kept, " / ")
	if len(s) > 200 {
		s = strings.ToValidUTF8(s[:200], "") + "…"
	}
	return s
}

// quotingMessages are parts of git's messages that quote what a file
// holds rather than its name.
var quotingMessages = []string{
	"invalid object name",           // oidset_parse_file: a line of an ignore-revs file
	"object name list",              // the same list, with its path
	"config value",                  // bad numeric or boolean config value '…'
	"is not a valid attribute name", // a word of an attributes file
	"bad config variable",
	"unrecognized pattern",          // a line of a sparse-checkout file
	"unrecognized negative pattern", // likewise
	"could not read",                // with a file's bytes after it in some versions
}

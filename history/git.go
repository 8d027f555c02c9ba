package history

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/codecortex/codecortex/internal/safeexec"
)

// minGit is the oldest git this package runs: 2.31 reads configuration
// from GIT_CONFIG_COUNT, which is how the hardening below is passed, and
// 2.32 no longer follows a .gitattributes, .gitignore or .mailmap in the
// work tree that is a symbolic link (which could name any file of the
// user's).
var minGit = [2]int{2, 32}

// hardening is the configuration every git command runs with, passed
// through the environment (GIT_CONFIG_KEY_n), where it overrides the
// repository's own .git/config. Read-only commands do not run hooks; these
// close the other ways a hostile repository's configuration could make git
// run a program, read a file or change the output this package parses.
// The repository's own neutralised keys (configrules.go) are overridden
// after these.
var hardening = [][2]string{
	{"core.fsmonitor", "false"},             // a hook path here runs on status and diff
	{"core.hooksPath", "/dev/null"},         // belt and braces: no hook can be found
	{"core.alternateRefsCommand", ""},       // a command git may run to list refs
	{"core.untrackedCache", "false"},        // never write the index's cache
	{"core.pager", "cat"},                   // never a pager
	{"core.editor", ":"},                    // never an editor
	{"core.quotePath", "false"},             // names as they are (-z is used too)
	{"diff.external", ""},                   // no external diff program
	{"diff.ignoreSubmodules", "all"},        // never run git inside a submodule
	{"diff.relative", "false"},              // paths from the top of the work tree
	{"diff.renames", "true"},                // rename detection is asked for explicitly too
	{"diff.orderFile", "/dev/null"},         // no order file the repository names
	{"log.showSignature", "false"},          // would run gpg.program on signed commits
	{"log.follow", "false"},                 // --follow is asked for explicitly
	{"log.showRoot", "true"},                // else --follow misses a root commit
	{"i18n.logOutputEncoding", "UTF-8"},     // UTF-16 output would break NUL-separated parsing
	{"mailmap.file", ""},                    // %aN reads no mailmap file the repository names
	{"mailmap.blob", ""},                    // nor a blob
	{"protocol.allow", "never"},             // no transport at all, so no lazy fetch of a partial clone
	{"protocol.file.allow", "never"},        // each named one too: the repository's
	{"protocol.git.allow", "never"},         // protocol.<name>.allow would outrank
	{"protocol.ssh.allow", "never"},         // protocol.allow
	{"protocol.http.allow", "never"},        //
	{"protocol.https.allow", "never"},       //
	{"protocol.ext.allow", "never"},         //
	{"blame.ignoreRevsFile", ""},            // blame sees every commit (and --no-ignore-revs-file)
	{"color.ui", "false"},                   // no escape sequences
	{"status.showUntrackedFiles", "normal"}, // untracked files are listed explicitly anyway
}

// noTransport is the value of GIT_ALLOW_PROTOCOL: a colon-separated list
// of one name that no transport can have (a URL's scheme, and so a remote
// helper's name, holds only letters, digits, "+", "-" and "."), which
// makes git refuse every transport whatever the repository's protocol.*
// keys say.
const noTransport = "cortex_allows_no_transport"

// hardenedEnv returns the environment of every git command: no system or
// global configuration, no optional locks (a read never writes the index),
// no pager, no editor, no prompt, no transport and no lazy fetch, literal
// pathspecs (a path starting with ":" is a file name, not pathspec magic),
// the C locale, and the configuration in extra after [hardening]. HOME and
// XDG_CONFIG_HOME are passed so that git still reads the user's default
// ignore and attributes files (~/.config/git/ignore and attributes), named
// explicitly so that the repository's core.excludesFile and
// core.attributesFile cannot name another; every driver such an
// attributes file could name is switched off like the repository's.
//
// GIT_NO_LAZY_FETCH (git 2.45.1, and the security releases 2.39.4,
// 2.40.2, 2.41.1, 2.42.2, 2.43.4 and 2.44.1) stops a partial clone from
// fetching a missing object at all. An older git ignores it, and there
// the lazy fetch it starts is a "git fetch" with this same environment,
// which refuses every transport (GIT_ALLOW_PROTOCOL, protocol.allow=never
// and each protocol.<name>.allow=never), so the read fails instead. Each
// of the three stops the fetch alone (TestHostilePartialClone was run
// with each of them on its own).
func hardenedEnv(extra [][2]string) []string {
	env := append(safeexec.Environ("HOME", "XDG_CONFIG_HOME"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_ATTR_NOSYSTEM=1",
		"GIT_OPTIONAL_LOCKS=0",
		"GIT_PAGER=cat",
		"PAGER=cat",
		"GIT_EDITOR=:",
		"GIT_SEQUENCE_EDITOR=:",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_ASKPASS=",
		"SSH_ASKPASS=",
		"GIT_LITERAL_PATHSPECS=1",
		"GIT_NO_REPLACE_OBJECTS=1",
		"GIT_NO_LAZY_FETCH=1",
		"GIT_ALLOW_PROTOCOL="+noTransport,
		"LC_ALL=C",
		"LANG=C",
	)
	all := append(append([][2]string(nil), hardening...), userFiles()...)
	all = append(all, extra...)
	env = append(env, "GIT_CONFIG_COUNT="+strconv.Itoa(len(all)))
	for i, kv := range all {
		n := strconv.Itoa(i)
		env = append(env, "GIT_CONFIG_KEY_"+n+"="+kv[0], "GIT_CONFIG_VALUE_"+n+"="+kv[1])
	}
	return env
}

// userFiles names the user's default ignore and attributes files as git
// finds them without configuration ($XDG_CONFIG_HOME/git/…, else
// $HOME/.config/git/…), or /dev/null without either variable.
func userFiles() [][2]string {
	dir := ""
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		dir = filepath.Join(x, "git")
	} else if h := os.Getenv("HOME"); h != "" {
		dir = filepath.Join(h, ".config", "git")
	}
	ignore, attrs := "/dev/null", "/dev/null"
	if dir != "" {
		ignore, attrs = filepath.Join(dir, "ignore"), filepath.Join(dir, "attributes")
	}
	return [][2]string{{"core.excludesFile", ignore}, {"core.attributesFile", attrs}}
}

// A git runs git commands in one directory with the hardened environment.
type git struct {
	path    string
	dir     string
	env     []string
	timeout time.Duration
	maxOut  int64
}

// A GitError is a git command that failed; Stderr is what git said, cut
// short and without any line that could quote a file's content.
type GitError struct {
	Args   []string
	Stderr string
	Err    error
}

func (e *GitError) Error() string {
	msg := "git " + strings.Join(e.Args, " ") + ": " + e.Err.Error()
	if e.Stderr != "" {
		msg += ": " + e.Stderr
	}
	return msg
}

func (e *GitError) Unwrap() error { return e.Err }

// traceGit, when set (by a test), is told each command and how long it
// took.
var traceGit func(args []string, d time.Duration)

// run runs git with args and returns its standard output. A truncated
// output is reported with truncated set; the caller decides whether that
// is an error.
func (g *git) run(ctx context.Context, args ...string) (out []byte, truncated bool, err error) {
	res, err := safeexec.Run(ctx, safeexec.Invocation{
		Path: g.path, Args: args, Dir: g.dir, Env: g.env,
		Timeout: g.timeout, MaxStdout: g.maxOut, MaxStderr: 64 << 10,
	})
	if traceGit != nil {
		traceGit(args, res.Duration)
	}
	if err != nil {
		return res.Stdout, res.StdoutTruncated, &GitError{Args: args, Stderr: quoteStderr(res.Stderr), Err: err}
	}
	return res.Stdout, res.StdoutTruncated, nil
}

// versions caches each git executable's version check.
var versions sync.Map // path → error

// checkVersion returns an error when the git at path is older than
// [minGit] or does not say its version.
func checkVersion(ctx context.Context, path string, timeout time.Duration) error {
	if v, ok := versions.Load(path); ok {
		if v == nil {
			return nil
		}
		return v.(error)
	}
	g := &git{path: path, dir: "/", env: hardenedEnv(nil), timeout: timeout, maxOut: 4 << 10}
	out, _, err := g.run(ctx, "version")
	if err != nil {
		return err // not cached: a timeout may pass
	}
	err = versionOK(string(out))
	if err == nil {
		versions.Store(path, nil)
	} else {
		versions.Store(path, err)
	}
	return err
}

// versionOK parses "git version 2.39.5" (and vendor suffixes such as
// "2.39.5 (Apple Git-143)" or "2.45.1.windows.1").
func versionOK(s string) error {
	f := strings.Fields(s)
	if len(f) < 3 || f[0] != "git" || f[1] != "version" {
		return fmt.Errorf("%w: cannot read the version of git from %q", ErrGitTooOld, strings.TrimSpace(s))
	}
	parts := strings.SplitN(f[2], ".", 3)
	if len(parts) < 2 {
		return fmt.Errorf("%w: cannot read the version of git from %q", ErrGitTooOld, f[2])
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return fmt.Errorf("%w: cannot read the version of git from %q", ErrGitTooOld, f[2])
	}
	if major < minGit[0] || major == minGit[0] && minor < minGit[1] {
		return fmt.Errorf("%w: git %d.%d is installed, %d.%d or later is needed", ErrGitTooOld, major, minor, minGit[0], minGit[1])
	}
	return nil
}

// A probe is what git says about the directory a [Repo] is opened on.
type probe struct {
	inside    bool
	shallow   bool
	top       string // absolute, as git prints it
	prefix    string // the directory's path below top, slash-separated, with a trailing slash or empty
	gitDir    string // absolute
	commonDir string // absolute
}

// parseProbe reads the output of "git rev-parse --is-inside-work-tree
// --is-shallow-repository --show-toplevel --show-prefix --absolute-git-dir
// --path-format=absolute --git-common-dir", one answer a line.
func parseProbe(out []byte) (probe, error) {
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 6 {
		return probe{}, fmt.Errorf("git rev-parse printed %d lines, not 6", len(lines))
	}
	var p probe
	for i, v := range lines[:2] {
		switch v {
		case "true", "false":
		default:
			return probe{}, fmt.Errorf("git rev-parse printed %q where true or false belongs", v)
		}
		if i == 0 {
			p.inside = v == "true"
		} else {
			p.shallow = v == "true"
		}
	}
	p.top, p.prefix, p.gitDir, p.commonDir = lines[2], lines[3], lines[4], lines[5]
	for _, d := range []string{p.top, p.gitDir, p.commonDir} {
		if !filepath.IsAbs(d) {
			return probe{}, fmt.Errorf("git rev-parse printed a directory %q that is not absolute", clip(d))
		}
	}
	if p.prefix != "" && (!strings.HasSuffix(p.prefix, "/") || strings.HasPrefix(p.prefix, "/") || strings.Contains(p.prefix, "..")) {
		return probe{}, fmt.Errorf("git rev-parse printed an unexpected prefix %q", p.prefix)
	}
	return p, nil
}

// splitNUL splits NUL-terminated (or separated) output into its fields,
// without the empty field after a final NUL.
func splitNUL(out []byte) []string {
	if len(out) == 0 {
		return nil
	}
	s := string(out)
	s = strings.TrimSuffix(s, "\x00")
	return strings.Split(s, "\x00")
}

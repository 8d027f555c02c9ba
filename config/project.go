package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/codecortex/codecortex/history"
	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/seal"
)

// A Project is a project root with its configuration read, judged for
// trust and ready to map onto each layer's options. It holds no open
// resources.
type Project struct {
	// Root is the project root: absolute, symbolic links evaluated.
	Root string
	// Config is the effective configuration: the file's sections, defaults
	// where the file is absent or a section is malformed, and, when the
	// configuration is not trusted, without what needs trust.
	Config Config
	// Requested is the configuration as the file asks for it, before
	// trust was applied.
	Requested Config
	// Diagnostics are the remarks about the file, in order.
	Diagnostics []Diagnostic
	// Trust is how the configuration was judged.
	Trust Trust

	getenv func(string) string
	seal   seal.Sealer
}

// ProjectOptions tunes [OpenProject]. The zero value reads the environment
// with os.Getenv and trusts what the user's trust store trusts.
type ProjectOptions struct {
	// Getenv reads the environment: the documentation key's variable and
	// the trust store's location. nil means os.Getenv.
	Getenv func(string) string
	// Trust decides how the configuration is trusted.
	Trust TrustMode
	// TrustDigest, when set, trusts the configuration only if its digest
	// is this one: a pin for CI, which trusts a configuration it has
	// reviewed and nothing edited after. It may list several digests
	// separated by commas; the git configuration's settings are trusted
	// only if their digest (Trust.Git.Digest) is among them.
	TrustDigest string
	// Store is the trust store consulted under TrustFromStore; its zero
	// value is the user's (with Getenv for its location).
	Store TrustStore
	// Seal proves which files under .codecortex/ this user's cortex wrote
	// (package seal); every layer's options get it. nil means the user's
	// key in the user's configuration directory (with Getenv for its
	// location).
	Seal seal.Sealer
}

// ErrNotDir is matched when the project root is not a directory.
var ErrNotDir = errors.New("not a directory")

// OpenProject reads the configuration of the project rooted at dir ("" is
// the working directory) and judges it for trust. It fails only when dir
// is not a readable directory; a broken configuration is a diagnostic and
// its defaults.
func OpenProject(dir string, opts ProjectOptions) (*Project, error) {
	if dir == "" {
		dir = "."
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("project root: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("project root %s: %w", dir, ErrNotDir)
	}
	root, err := contain.Open(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	cfg, diags, digest := loadConfig(root.FS())
	p := &Project{Root: root.Dir(), Config: cfg, Requested: cfg, Diagnostics: diags, getenv: getenv, seal: opts.Seal}
	if p.seal == nil {
		p.seal = seal.KeyStore{Getenv: getenv}
	}
	p.Trust = judge(p.Root, cfg, digest, opts, getenv)
	p.Trust.Git = judgeGit(p.Root, opts, getenv)
	if !p.Trust.Trusted {
		p.Config = withhold(cfg)
	}
	return p, nil
}

// judge decides whether cfg, read from a file with digest at root, is
// trusted.
func judge(root string, cfg Config, digest string, opts ProjectOptions, getenv func(string) string) Trust {
	t := Trust{Digest: digest, Requests: needsTrust(cfg), Withheld: []string{}}
	if t.Requests == nil {
		t.Requests = []string{}
	}
	switch {
	case digest == "":
		t.Trusted, t.Reason = true, "no configuration file: the defaults need no trust"
		return t
	case len(t.Requests) == 0:
		t.Trusted, t.Reason = true, "the configuration asks to run nothing and to send nothing"
		return t
	case opts.TrustDigest != "":
		t.Trusted = pinned(opts.TrustDigest, digest)
		t.Reason = "trusted because its digest is the pinned one"
		if !t.Trusted {
			t.Reason = "not trusted: its digest is not the pinned " + opts.TrustDigest
		}
	case opts.Trust == TrustAlways:
		t.Trusted, t.Reason = true, "trusted by the caller"
	case opts.Trust == TrustNever:
		t.Reason = "not trusted: the caller trusts no configuration"
	default:
		store := opts.Store
		if store.Getenv == nil {
			store.Getenv = getenv
		}
		ok, err := store.Trusted(root, digest)
		switch {
		case err != nil:
			t.Reason = "not trusted: " + err.Error()
		case ok:
			t.Trusted, t.Reason = true, "trusted in the trust store"
		default:
			t.Reason = "not trusted: this configuration (" + digest[:len("sha256:")+12] + "…) has not been trusted on this machine; review it and run `cortex trust`"
		}
	}
	if !t.Trusted {
		t.Withheld = t.Requests
	}
	return t
}

// pinned reports whether digest is among the comma-separated pins.
func pinned(pins, digest string) bool {
	return slices.Contains(strings.Split(pins, ","), digest)
}

// judgeGit decides whether the settings of the git configuration of the
// repository around root that need trust are trusted.
func judgeGit(root string, opts ProjectOptions, getenv func(string) string) GitTrust {
	t := GitTrust{Files: []string{}, Requests: []string{}, Neutralised: []string{}}
	check, err := history.CheckConfig(root)
	switch {
	case errors.Is(err, history.ErrNotRepository):
		t.Trusted, t.Reason = true, "not in a git work tree: no git configuration to trust"
		return t
	case err != nil:
		t.Reason = "not trusted: " + err.Error()
		return t
	}
	t.Files = append(t.Files, check.Files...)
	for _, r := range check.Risks {
		t.Requests = append(t.Requests, r.String())
	}
	for _, r := range check.Neutralised {
		t.Neutralised = append(t.Neutralised, r.String())
	}
	t.Digest = check.Digest()
	switch {
	case t.Digest == "":
		t.Trusted, t.Reason = true, "the git configuration asks to run nothing, read no file and fetch nothing that is not switched off"
	case opts.TrustDigest != "":
		t.Trusted = pinned(opts.TrustDigest, t.Digest)
		t.Reason = "the git configuration is trusted because its digest is pinned"
		if !t.Trusted {
			t.Reason = "not trusted: the git configuration's digest " + t.Digest + " is not pinned"
		}
	case opts.Trust == TrustAlways:
		t.Trusted, t.Reason = true, "the git configuration is trusted by the caller"
	case opts.Trust == TrustNever:
		t.Reason = "not trusted: the caller trusts no configuration"
	default:
		store := opts.Store
		if store.Getenv == nil {
			store.Getenv = getenv
		}
		ok, err := store.TrustedGit(root, t.Digest)
		switch {
		case err != nil:
			t.Reason = "not trusted: " + err.Error()
		case ok:
			t.Trusted, t.Reason = true, "the git configuration is trusted in the trust store"
		default:
			t.Reason = "not trusted: the git configuration has settings that could run a program, read a file or fetch (" +
				t.Digest[:len("sha256:")+12] + "…), and git history is off until you review them and run `cortex trust`"
		}
	}
	return t
}

// FindRoot returns the project root for a command started in dir: the
// nearest directory at or above dir that holds .codecortex or .git, as git
// finds a repository's top; dir itself when none does.
func FindRoot(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; {
		for _, marker := range []string{".codecortex", ".git"} {
			if _, err := os.Lstat(filepath.Join(d, marker)); err == nil {
				return d, nil
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return abs, nil
		}
		d = parent
	}
}

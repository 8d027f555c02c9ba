package config

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// A repository's own configuration is untrusted input: a cloned repository
// could name a program for cortex to run (structural.command,
// precision_index.generator_command, precision_index.language_server(s)) or
// send an API key to a server of its choosing (dependency_docs). Until the
// user trusts that configuration, the way direnv and editors' workspace
// trust work, those settings are withheld: the built-in engine, no index
// generation, the default language servers and no network. Everything else
// in the file (limits, paths inside the root, switches that only turn
// layers off) applies at once.
//
// A trust record names the project root and the digest of the
// configuration's bytes, so an edited configuration needs trust again. The
// records live outside every repository, in a [TrustStore].

// Digest returns the digest that trust records name for configuration
// bytes: "sha256:" and the hex SHA-256.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// TrustMode says how [OpenProject] decides whether a configuration is
// trusted. The zero value consults the trust store.
type TrustMode uint8

// The trust modes.
const (
	// TrustFromStore trusts the configuration when the trust store holds a
	// record of this root and this digest (see [TrustStore.Trust]).
	TrustFromStore TrustMode = iota
	// TrustAlways trusts whatever configuration the project has: for a host
	// or a CI job that vouches for the repository it runs on.
	TrustAlways
	// TrustNever withholds what needs trust whatever the store says.
	TrustNever
)

// A TrustStore keeps trust records in a JSON file outside every
// repository. The zero value uses the user's configuration directory.
type TrustStore struct {
	// Path is the file; empty means codecortex/trusted.json under
	// $XDG_CONFIG_HOME, or under $HOME/.config without it.
	Path string
	// Getenv reads XDG_CONFIG_HOME and HOME; nil means os.Getenv.
	Getenv func(string) string
}

// A TrustRecord says that the configuration with Digest at Root is trusted.
type TrustRecord struct {
	Root   string `json:"root"`
	Digest string `json:"digest"`
	// Of says what is trusted: "" for the project's configuration file
	// ([File]), [TrustGitConfig] for the settings of the repository's
	// git configuration that need trust.
	Of      string    `json:"of,omitempty"`
	Trusted time.Time `json:"trusted_at"`
}

// TrustGitConfig is the Of of a trust record of a repository's git
// configuration.
const TrustGitConfig = "git"

type trustFile struct {
	Version int           `json:"version"`
	Records []TrustRecord `json:"records"`
}

// maxTrustFile bounds the trust store file.
const maxTrustFile = 4 << 20

// ErrNoTrustStore is returned when no location for the trust store can be
// found (neither XDG_CONFIG_HOME nor HOME is set).
var ErrNoTrustStore = errors.New("no trust store location: set XDG_CONFIG_HOME or HOME")

// File returns the store's file.
func (s TrustStore) File() (string, error) {
	if s.Path != "" {
		return s.Path, nil
	}
	getenv := s.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if d := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "codecortex", "trusted.json"), nil
	}
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".config", "codecortex", "trusted.json"), nil
	}
	return "", ErrNoTrustStore
}

// Records returns every trust record; a missing store has none.
func (s TrustStore) Records() ([]TrustRecord, error) {
	f, err := s.read()
	return f.Records, err
}

func (s TrustStore) read() (trustFile, error) {
	name, err := s.File()
	if err != nil {
		return trustFile{}, err
	}
	fh, err := os.Open(name)
	if errors.Is(err, os.ErrNotExist) {
		return trustFile{Version: 1}, nil
	}
	if err != nil {
		return trustFile{}, fmt.Errorf("trust store: %w", err)
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, maxTrustFile+1))
	if err != nil {
		return trustFile{}, fmt.Errorf("trust store: %w", err)
	}
	if len(data) > maxTrustFile {
		return trustFile{}, fmt.Errorf("trust store %s: larger than %d bytes", name, maxTrustFile)
	}
	var f trustFile
	if err := json.Unmarshal(data, &f); err != nil || f.Version != 1 {
		return trustFile{}, fmt.Errorf("trust store %s: not a version 1 trust file; remove it to start over", name)
	}
	return f, nil
}

// Trusted reports whether the store trusts the configuration with digest
// at root.
func (s TrustStore) Trusted(root, digest string) (bool, error) { return s.trusted("", root, digest) }

// TrustedGit reports whether the store trusts the git configuration
// settings with digest (history.ConfigCheck.Digest) at root.
func (s TrustStore) TrustedGit(root, digest string) (bool, error) {
	return s.trusted(TrustGitConfig, root, digest)
}

func (s TrustStore) trusted(of, root, digest string) (bool, error) {
	f, err := s.read()
	if err != nil {
		return false, err
	}
	return slices.ContainsFunc(f.Records, func(r TrustRecord) bool {
		return r.Of == of && r.Root == root && r.Digest == digest
	}), nil
}

// Trust records that the configuration with digest at root is trusted,
// replacing any earlier record of root: trusting an edited configuration
// withdraws trust from the version before it.
func (s TrustStore) Trust(root, digest string) error { return s.trust("", root, digest) }

// TrustGit records that the git configuration settings with digest at
// root are trusted, replacing any earlier such record of root (and no
// record of its configuration file).
func (s TrustStore) TrustGit(root, digest string) error { return s.trust(TrustGitConfig, root, digest) }

func (s TrustStore) trust(of, root, digest string) error {
	if !filepath.IsAbs(root) || !strings.HasPrefix(digest, "sha256:") {
		return fmt.Errorf("trust store: want an absolute root and a sha256 digest, got %q and %q", root, digest)
	}
	return s.update(func(f *trustFile) {
		f.Records = slices.DeleteFunc(f.Records, func(r TrustRecord) bool { return r.Of == of && r.Root == root })
		f.Records = append(f.Records, TrustRecord{Root: root, Digest: digest, Of: of, Trusted: time.Now().UTC().Truncate(time.Second)})
	})
}

// Revoke removes every trust record of root, of its configuration file and
// of its git configuration alike. It reports whether there was one.
func (s TrustStore) Revoke(root string) (bool, error) {
	found := false
	err := s.update(func(f *trustFile) {
		n := len(f.Records)
		f.Records = slices.DeleteFunc(f.Records, func(r TrustRecord) bool { return r.Root == root })
		found = len(f.Records) != n
	})
	return found, err
}

// update rewrites the store through fn: a temporary file in the same
// directory, renamed over the old one, readable by the user alone.
func (s TrustStore) update(fn func(*trustFile)) error {
	name, err := s.File()
	if err != nil {
		return err
	}
	f, err := s.read()
	if err != nil {
		return err
	}
	fn(&f)
	f.Version = 1
	slices.SortFunc(f.Records, func(a, b TrustRecord) int {
		return cmp.Or(strings.Compare(a.Root, b.Root), strings.Compare(a.Of, b.Of))
	})
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("trust store: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".trusted-*.json")
	if err != nil {
		return fmt.Errorf("trust store: %w", err)
	}
	_, werr := tmp.Write(append(data, '\n'))
	if werr == nil {
		werr = tmp.Sync()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), name)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("trust store: %w", werr)
	}
	return nil
}

// Trust is how a project's configuration was judged.
type Trust struct {
	// Trusted reports whether what the configuration asks to run or send
	// applies.
	Trusted bool `json:"trusted"`
	// Digest is the configuration file's digest; empty without a file.
	Digest string `json:"digest,omitempty"`
	// Reason says why it is or is not trusted, in a sentence.
	Reason string `json:"reason"`
	// Withheld lists, one sentence each, what the configuration asks for
	// that needs trust and was not applied; empty when trusted.
	Withheld []string `json:"withheld"`
	// Requests lists, one sentence each, everything the configuration asks
	// to run or send, trusted or not: what `cortex trust` shows before the
	// user decides.
	Requests []string `json:"requests"`
	// Git is how the repository's own git configuration was judged; it is
	// trusted apart from the configuration file.
	Git GitTrust `json:"git"`
}

// GitTrust is how the settings of the repository's git configuration that
// could run a program, read a file or fetch were judged (see
// history.CheckConfig). Untrusted, the history layer declines to run git
// on the repository; trusted, it runs git with them, every override of
// its hardening still in place. A project outside git, or whose git
// configuration has no such setting, is trusted with nothing to trust.
type GitTrust struct {
	Trusted bool `json:"trusted"`
	// Digest names the settings that need trust; empty when none does.
	Digest string `json:"digest,omitempty"`
	// Reason says why it is or is not trusted, in a sentence.
	Reason string `json:"reason"`
	// Files are the git configuration files read.
	Files []string `json:"files"`
	// Requests lists each setting that needs trust, one sentence each,
	// trusted or not.
	Requests []string `json:"requests"`
	// Neutralised lists the settings that could run a program, read a
	// file or fetch but that every git command overrides: they need no
	// trust, and are listed for review.
	Neutralised []string `json:"neutralised"`
}

// needsTrust lists what cfg asks to run or send; a configuration without
// any needs no trust.
func needsTrust(cfg Config) []string {
	var out []string
	def := Default()
	p := cfg.PrecisionIndex
	if p.AutoGenerate && len(p.GeneratorCommand) > 0 {
		out = append(out, "precision_index.generator_command runs "+argv(p.GeneratorCommand)+" to regenerate the index")
	}
	if len(p.LanguageServer) > 0 {
		out = append(out, "precision_index.language_server runs "+argv(p.LanguageServer)+" as Go's language server")
	}
	for _, lang := range slices.Sorted(maps.Keys(p.LanguageServers)) {
		if a := p.LanguageServers[lang]; len(a) > 0 {
			out = append(out, "precision_index.language_servers."+lang+" runs "+argv(a)+" as the "+lang+" language server")
		}
	}
	if c := cfg.Structural.Command; c != nil {
		out = append(out, "structural.command runs "+argv([]string{*c})+" as the structural engine")
	}
	for _, c := range cfg.Validation.Commands {
		out = append(out, "validation.commands runs "+argv(c.Argv)+" when you ask to validate")
	}
	d := cfg.DependencyDocs
	if d.Enabled {
		base := d.BaseURL
		if base == "" {
			base = "the default documentation provider"
		}
		out = append(out, fmt.Sprintf("dependency_docs.enabled sends library names, versions and questions to %s with the key in $%s", base, d.APIKeyEnv))
	} else if d.BaseURL != def.DependencyDocs.BaseURL || d.APIKeyEnv != def.DependencyDocs.APIKeyEnv {
		out = append(out, "dependency_docs names an endpoint or key variable for when documentation is enabled")
	}
	return out
}

// withhold returns cfg without what needs trust: no index generation, the
// default language server, the built-in structural engine, the default
// validation runs, and the documentation section at its defaults
// (disabled).
func withhold(cfg Config) Config {
	def := Default()
	cfg.PrecisionIndex.AutoGenerate = false
	cfg.PrecisionIndex.LanguageServer = def.PrecisionIndex.LanguageServer
	// A language turned off (an empty argv) runs nothing and stays off.
	servers := map[string][]string{}
	for lang, a := range cfg.PrecisionIndex.LanguageServers {
		if len(a) == 0 {
			servers[lang] = []string{}
		}
	}
	cfg.PrecisionIndex.LanguageServers = servers
	cfg.Structural.Command = nil
	cfg.Validation.Commands = def.Validation.Commands
	cfg.DependencyDocs.Enabled = false
	cfg.DependencyDocs.BaseURL = def.DependencyDocs.BaseURL
	cfg.DependencyDocs.APIKeyEnv = def.DependencyDocs.APIKeyEnv
	return cfg
}

// argv quotes a command for a sentence.
func argv(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = fmt.Sprintf("%q", a)
	}
	return "[" + strings.Join(q, " ") + "]"
}

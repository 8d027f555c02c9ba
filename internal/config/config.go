// Package config loads .codecortex/config.json. Every section is optional; a
// malformed section falls back to that section's defaults with a diagnostic
// while the other sections still apply, and unknown keys produce warnings.
// Loading never fails: a clean installation with no file works as it did.
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"regexp"
	"sort"
	"strings"

	"github.com/codecortex/codecortex/evidence"
)

// File is where the configuration lives, relative to the project root.
const File = ".codecortex/config.json"

// MaxFileSize caps the configuration file; a larger one is ignored.
const MaxFileSize = 1 << 20

// Config is the effective configuration.
type Config struct {
	PrecisionIndex PrecisionIndex `json:"precision_index"`
	DependencyDocs DependencyDocs `json:"dependency_docs"`
	Structural     Structural     `json:"structural"`
}

// PrecisionIndex configures the precision layer.
type PrecisionIndex struct {
	Enabled bool `json:"enabled"`
	// Path is the index, relative to the root; empty means discover it.
	Path         string `json:"path"`
	AutoGenerate bool   `json:"auto_generate"`
	// GeneratorCommand is the argv that regenerates the index; never a
	// shell string.
	GeneratorCommand []string `json:"generator_command"`
}

// DependencyDocs configures the documentation provider.
type DependencyDocs struct {
	Enabled bool `json:"enabled"`
	// APIKeyEnv names the environment variable holding the API key; the key
	// itself is never stored in configuration.
	APIKeyEnv             string `json:"api_key_env"`
	CacheTTLSeconds       int    `json:"cache_ttl_seconds"`
	ServeStaleWhenOffline bool   `json:"serve_stale_when_offline"`
	// BaseURL is the provider's API address; empty means the default
	// provider's public address.
	BaseURL string `json:"base_url"`
}

// Structural configures structural search and rewrite.
type Structural struct {
	Enabled bool `json:"enabled"`
	// Command is an external ast-grep binary to use instead of the built-in
	// engine; nil means the built-in engine.
	Command           *string `json:"command"`
	MaxRewriteFiles   int     `json:"max_rewrite_files"`
	MaxRewriteMatches int     `json:"max_rewrite_matches"`
	MaxRewriteBytes   int64   `json:"max_rewrite_bytes"`
	PreviewTTLSeconds int     `json:"preview_ttl_seconds"`
	AllowApply        bool    `json:"allow_apply"`
}

// Default returns the configuration of a project without a config file, as
// the specification gives it.
func Default() Config {
	return Config{
		PrecisionIndex: PrecisionIndex{
			Enabled:          true,
			Path:             "",
			GeneratorCommand: []string{},
		},
		DependencyDocs: DependencyDocs{
			APIKeyEnv:             "CODECORTEX_DEPENDENCY_DOCS_API_KEY",
			CacheTTLSeconds:       86400,
			ServeStaleWhenOffline: true,
		},
		Structural: Structural{
			Enabled:           true,
			MaxRewriteFiles:   50,
			MaxRewriteMatches: 500,
			MaxRewriteBytes:   1 << 20,
			PreviewTTLSeconds: 1800,
			AllowApply:        true,
		},
	}
}

// Severity says how much a diagnostic matters.
type Severity string

// Severities.
const (
	Warning Severity = "warning" // the configuration applies, with a remark
	Error   Severity = "error"   // a section (or the file) fell back to defaults
)

// A Diagnostic is a remark about the configuration file.
type Diagnostic struct {
	Severity Severity `json:"severity"`
	Section  string   `json:"section,omitempty"`
	Message  string   `json:"message"`
}

func (d Diagnostic) String() string {
	if d.Section == "" {
		return string(d.Severity) + ": " + d.Message
	}
	return string(d.Severity) + ": " + d.Section + ": " + d.Message
}

// Load reads the configuration from fsys, the project root (see
// [contain.Root.FS]). A missing file gives the defaults and no diagnostics.
func Load(fsys fs.FS) (Config, []Diagnostic) {
	data, err := fs.ReadFile(fsys, File)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Default(), nil
	case err != nil:
		return Default(), []Diagnostic{{Error, "", fmt.Sprintf("cannot read %s: %v; using defaults", File, err)}}
	case len(data) > MaxFileSize:
		return Default(), []Diagnostic{{Error, "", fmt.Sprintf("%s is %d bytes, over the %d-byte limit; using defaults", File, len(data), MaxFileSize)}}
	}
	return Parse(data)
}

// section decodes one section of the file into its default value.
type section struct {
	name   string
	decode func(json.RawMessage, *Config) error
}

var sections = []section{
	{"precision_index", func(raw json.RawMessage, c *Config) error {
		return decodeSection(raw, &c.PrecisionIndex, validatePrecision)
	}},
	{"dependency_docs", func(raw json.RawMessage, c *Config) error {
		return decodeSection(raw, &c.DependencyDocs, validateDocs)
	}},
	{"structural", func(raw json.RawMessage, c *Config) error {
		return decodeSection(raw, &c.Structural, validateStructural)
	}},
}

// Parse decodes a configuration file's content.
func Parse(data []byte) (Config, []Diagnostic) {
	cfg := Default()
	var diags []Diagnostic
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return cfg, []Diagnostic{{Error, "", fmt.Sprintf("%s is not a JSON object (%v); using defaults", File, err)}}
	}
	known := map[string]bool{}
	for _, s := range sections {
		known[s.name] = true
		raw, ok := top[s.name]
		if !ok || string(bytes.TrimSpace(raw)) == "null" {
			continue
		}
		for _, k := range unknownKeys(raw, sectionKeys(s.name)) {
			diags = append(diags, Diagnostic{Warning, s.name, fmt.Sprintf("unknown key %q ignored", k)})
		}
		// Decode into a copy so a failure leaves the defaults untouched.
		trial := cfg
		if err := s.decode(raw, &trial); err != nil {
			diags = append(diags, Diagnostic{Error, s.name, err.Error() + "; section uses its defaults"})
			continue
		}
		cfg = trial
	}
	var unknown []string
	for k := range top {
		if !known[k] {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	for _, k := range unknown {
		diags = append(diags, Diagnostic{Warning, "", fmt.Sprintf("unknown section %q ignored", k)})
	}
	return cfg, diags
}

func decodeSection[T any](raw json.RawMessage, into *T, validate func(*T) error) error {
	v := *into
	if err := json.Unmarshal(raw, &v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return fmt.Errorf("%s: expected %s, got JSON %s", te.Field, te.Type, te.Value)
		}
		return fmt.Errorf("malformed: %v", err)
	}
	if err := validate(&v); err != nil {
		return err
	}
	*into = v
	return nil
}

// sectionKeys lists the JSON keys of a section's struct.
func sectionKeys(name string) map[string]bool {
	d := Default()
	var v any
	switch name {
	case "precision_index":
		v = d.PrecisionIndex
	case "dependency_docs":
		v = d.DependencyDocs
	case "structural":
		v = d.Structural
	}
	b, _ := json.Marshal(v)
	var m map[string]json.RawMessage
	_ = json.Unmarshal(b, &m)
	keys := map[string]bool{}
	for k := range m {
		keys[k] = true
	}
	return keys
}

func unknownKeys(raw json.RawMessage, known map[string]bool) []string {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil // not an object: the decode reports it
	}
	var out []string
	for k := range m {
		if !known[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func validatePrecision(p *PrecisionIndex) error {
	if p.Path != "" {
		if err := evidence.CheckPath(p.Path); err != nil {
			return fmt.Errorf("path: %v", err)
		}
	}
	for i, a := range p.GeneratorCommand {
		if a == "" || strings.ContainsRune(a, 0) {
			return fmt.Errorf("generator_command[%d]: empty or contains a NUL byte", i)
		}
	}
	if p.AutoGenerate && len(p.GeneratorCommand) == 0 {
		return errors.New("auto_generate is set but generator_command is empty")
	}
	if p.GeneratorCommand == nil {
		p.GeneratorCommand = []string{}
	}
	return nil
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func validateDocs(d *DependencyDocs) error {
	if !envName.MatchString(d.APIKeyEnv) {
		return fmt.Errorf("api_key_env: %q is not an environment variable name", d.APIKeyEnv)
	}
	if d.CacheTTLSeconds < 0 {
		return fmt.Errorf("cache_ttl_seconds: %d is negative", d.CacheTTLSeconds)
	}
	if d.BaseURL != "" {
		u, err := url.Parse(d.BaseURL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil {
			return fmt.Errorf("base_url: %q is not an http(s) address without credentials", d.BaseURL)
		}
	}
	return nil
}

func validateStructural(s *Structural) error {
	if s.Command != nil && (*s.Command == "" || strings.ContainsRune(*s.Command, 0)) {
		return errors.New("command: empty or contains a NUL byte (use null for the built-in engine)")
	}
	for _, f := range []struct {
		name string
		v    int64
	}{
		{"max_rewrite_files", int64(s.MaxRewriteFiles)},
		{"max_rewrite_matches", int64(s.MaxRewriteMatches)},
		{"max_rewrite_bytes", s.MaxRewriteBytes},
		{"preview_ttl_seconds", int64(s.PreviewTTLSeconds)},
	} {
		if f.v < 1 {
			return fmt.Errorf("%s: %d is below 1", f.name, f.v)
		}
	}
	return nil
}

// IndexCandidates are where a precision index is looked for, in order, when
// no path is configured: the spec's four locations, then index.scip, the
// name SCIP indexers write by default.
var IndexCandidates = []string{
	".codecortex/precision/index.cortexidx",
	"index.cortexidx",
	".codecortex/index.cortexidx",
	"build/index.cortexidx",
	"index.scip",
}

// IndexPath returns the precision index to use: the configured path, or the
// first candidate that exists in fsys. found is false when no configured
// path is set and no candidate exists; path is then the first candidate.
func (c *Config) IndexPath(fsys fs.FS) (path string, found bool) {
	if c.PrecisionIndex.Path != "" {
		_, err := fs.Stat(fsys, c.PrecisionIndex.Path)
		return c.PrecisionIndex.Path, err == nil
	}
	for _, p := range IndexCandidates {
		if fi, err := fs.Stat(fsys, p); err == nil && fi.Mode().IsRegular() {
			return p, true
		}
	}
	return IndexCandidates[0], false
}

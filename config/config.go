package config

// The project configuration, .codecortex/config.json. Every section is
// optional; a malformed section falls back to that section's defaults with a
// diagnostic while the other sections still apply, and unknown keys produce
// warnings. Reading never fails: a clean installation with no file works as
// it did.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/precision"
)

// File is where a project's configuration lives, relative to its root.
const File = ".codecortex/config.json"

// MaxSize caps the configuration file; a larger one is ignored.
const MaxSize = 1 << 20

// Config is the effective configuration.
type Config struct {
	PrecisionIndex Precision      `json:"precision_index"`
	DependencyDocs DependencyDocs `json:"dependency_docs"`
	Structural     Structural     `json:"structural"`
	Validation     Validation     `json:"validation"`
}

// Precision configures the precision layer.
type Precision struct {
	Enabled bool `json:"enabled"`
	// Path is the index, relative to the root; empty means discover it.
	Path         string `json:"path"`
	AutoGenerate bool   `json:"auto_generate"`
	// GeneratorCommand is the argv that regenerates the index; never a
	// shell string.
	GeneratorCommand []string `json:"generator_command"`
	// LanguageServer is the argv of Go's language server, asked when no
	// fresh index answers (cortex def --lsp); empty means gopls. It was
	// the one server before others were served, and keeps that meaning
	// for Go; LanguageServers["go"] overrides it.
	LanguageServer []string `json:"language_server"`
	// LanguageServers maps a language (go, python, typescript,
	// javascript, rust, c, cpp, java, csharp, ruby, php, kotlin, swift,
	// lua, zig) to the argv of its language server. A language left out
	// gets the well-known server found on PATH (pyright-langserver or
	// basedpyright-langserver, typescript-language-server, rust-analyzer,
	// clangd, gopls); an empty list turns the language off. A repository's
	// configuration naming a server runs it only once the user trusts it.
	LanguageServers map[string][]string `json:"language_servers"`
	// LanguageServerTimeoutSeconds bounds the language server's handshake
	// and each answer once it has loaded; 0 means the precision layer's
	// default (a few seconds). A first answer of each kind may take up to
	// six times as long, while the server loads the workspace.
	LanguageServerTimeoutSeconds int `json:"language_server_timeout_seconds"`
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

// Validation configures the validation runs (cortex validate).
type Validation struct {
	// Commands are the runs, in order; empty means the defaults detected
	// for the project's ecosystems (go build and go vet for a Go module,
	// tsc --noEmit where a tsconfig.json and a tsc outside the project
	// exist). A command named here runs only once the configuration is
	// trusted.
	Commands []ValidationCommand `json:"commands"`
}

// A ValidationCommand is one validation run: an argument vector, never a
// shell string.
type ValidationCommand struct {
	Name string   `json:"name"`
	Argv []string `json:"argv"`
	// TimeoutSeconds bounds the run; 0 means ten minutes.
	TimeoutSeconds int `json:"timeout_seconds"`
	// Format says how to read the output: "go", "go-test-json", "tsc", or
	// "" for what the program implies.
	Format string `json:"format"`
}

// UnmarshalJSON decodes a command strictly: an unknown key is an error,
// so a misspelt one is reported rather than ignored.
func (c *ValidationCommand) UnmarshalJSON(data []byte) error {
	type plain ValidationCommand
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var v plain
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("commands: %s", brief(err))
	}
	*c = ValidationCommand(v)
	return nil
}

// Default returns the configuration of a project without a config file, as
// the specification gives it.
func Default() Config {
	return Config{
		PrecisionIndex: Precision{
			Enabled:          true,
			Path:             "",
			GeneratorCommand: []string{},
			LanguageServer:   []string{},
			LanguageServers:  map[string][]string{},
		},
		DependencyDocs: DependencyDocs{
			APIKeyEnv:             "CODECORTEX_DEPENDENCY_DOCS_API_KEY",
			CacheTTLSeconds:       86400,
			ServeStaleWhenOffline: true,
		},
		Validation: Validation{Commands: []ValidationCommand{}},
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
	SeverityWarning Severity = "warning" // the configuration applies, with a remark
	SeverityError   Severity = "error"   // a section (or the file) fell back to defaults
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

// loadConfig reads the configuration from fsys, the project root, and
// returns it with the digest of the file's bytes ("" when there is no file,
// or it could not be read). A missing file gives the defaults and no
// diagnostics. A file that is not a regular file, or is larger than
// [MaxSize], is not read: the defaults apply, with an error
// diagnostic.
func loadConfig(fsys fs.FS) (Config, []Diagnostic, string) {
	data, err := readFile(fsys)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Default(), nil, ""
	case err != nil:
		return Default(), []Diagnostic{{SeverityError, "", fmt.Sprintf("cannot read %s: %v; using defaults", File, err)}}, ""
	}
	cfg, diags := Parse(data)
	return cfg, diags, Digest(data)
}

// errTooLarge reports a configuration file over MaxSize.
var errTooLarge = fmt.Errorf("larger than the %d-byte limit", MaxSize)

// readFile reads File without following it into a device or a FIFO, and
// without reading more than MaxSize+1 bytes of it.
func readFile(fsys fs.FS) ([]byte, error) {
	fi, err := fs.Stat(fsys, File)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (%v)", fi.Mode().Type())
	}
	if fi.Size() > MaxSize {
		return nil, errTooLarge
	}
	f, err := fsys.Open(File)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxSize {
		return nil, errTooLarge // it grew after the stat
	}
	return data, nil
}

// A section is one top-level key of the file and how to apply it.
type section struct {
	name  string
	apply func(raw json.RawMessage, c *Config) (unknown []string, err error)
}

var sections = []section{
	{"precision_index", func(raw json.RawMessage, c *Config) ([]string, error) {
		return decodeSection(raw, &c.PrecisionIndex)
	}},
	{"dependency_docs", func(raw json.RawMessage, c *Config) ([]string, error) {
		return decodeSection(raw, &c.DependencyDocs)
	}},
	{"structural", func(raw json.RawMessage, c *Config) ([]string, error) {
		return decodeSection(raw, &c.Structural)
	}},
	{"validation", func(raw json.RawMessage, c *Config) ([]string, error) {
		return decodeSection(raw, &c.Validation)
	}},
}

// Parse decodes a configuration file's content. Each section is decoded on
// its own: one that is malformed (not an object, null, a value of the wrong
// type, a number out of range, a value its Validate rejects) leaves that
// section at its defaults and adds an Error diagnostic, while the other
// sections apply. Unknown keys and sections add Warning diagnostics and are
// ignored. Keys match exactly: "Enabled" is an unknown key, not "enabled".
// A file that is not a JSON object at all gives the defaults and one Error.
// The result always passes [Config.Validate].
func Parse(data []byte) (Config, []Diagnostic) {
	cfg := Default()
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		why := "null"
		if err != nil {
			why = brief(err)
		}
		return cfg, []Diagnostic{{SeverityError, "", fmt.Sprintf("%s is not a JSON object (%s); using defaults", File, why)}}
	}
	var diags []Diagnostic
	known := map[string]bool{}
	for _, s := range sections {
		known[s.name] = true
		raw, ok := top[s.name]
		if !ok {
			continue
		}
		unknown, err := s.apply(raw, &cfg)
		for _, k := range unknown {
			diags = append(diags, Diagnostic{SeverityWarning, s.name, fmt.Sprintf("unknown key %s ignored", quote(k))})
		}
		if err != nil {
			diags = append(diags, Diagnostic{SeverityError, s.name, err.Error() + "; section uses its defaults"})
		}
	}
	var unknown []string
	for k := range top {
		if !known[k] {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	for _, k := range unknown {
		diags = append(diags, Diagnostic{SeverityWarning, "", fmt.Sprintf("unknown section %s ignored", quote(k))})
	}
	return cfg, diags
}

// validator is a section: a struct that checks its own invariants and
// fills in the normal form of what the file left out.
type validator interface {
	Validate() error
	normalize()
}

// decodeSection decodes raw over *into's current (default) value. Unknown
// keys are returned and not applied; on any error *into is left unchanged.
func decodeSection[T any, P interface {
	*T
	validator
}](raw json.RawMessage, into *T) (unknown []string, err error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, fmt.Errorf("must be a JSON object, got %s", jsonKind(trimmed))
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, fmt.Errorf("malformed: %s", brief(err))
	}
	keys := jsonKeys[T]()
	for k := range fields {
		if !keys[k] {
			unknown = append(unknown, k)
			delete(fields, k)
		}
	}
	sort.Strings(unknown)
	// Only exact keys reach the decoder: encoding/json would otherwise
	// match "ENABLED" to Enabled while we warn that it was ignored.
	known, err := json.Marshal(fields)
	if err != nil {
		return unknown, fmt.Errorf("malformed: %s", brief(err))
	}
	v := *into
	if c, ok := any(P(&v)).(interface{ unshare() }); ok {
		c.unshare() // decoding fills maps in place: not *into's
	}
	if err := json.Unmarshal(known, &v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return unknown, fmt.Errorf("%s: expected %s, got JSON %s", te.Field, jsonType(te.Type.String()), te.Value)
		}
		return unknown, fmt.Errorf("malformed: %s", brief(err))
	}
	P(&v).normalize()
	if err := P(&v).Validate(); err != nil {
		return unknown, err
	}
	*into = v
	return unknown, nil
}

// jsonKeys lists the JSON keys of a section's struct.
func jsonKeys[T any]() map[string]bool {
	keys := map[string]bool{}
	t := reflect.TypeFor[T]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		keys[name] = true
	}
	return keys
}

func jsonKind(b []byte) string {
	switch {
	case len(b) == 0:
		return "nothing"
	case b[0] == '[':
		return "an array"
	case b[0] == '"':
		return "a string"
	case bytes.Equal(b, []byte("null")):
		return "null"
	case bytes.Equal(b, []byte("true")), bytes.Equal(b, []byte("false")):
		return "a boolean"
	}
	return "a number"
}

// jsonType names a Go type as the JSON value it decodes from.
func jsonType(goType string) string {
	switch {
	case goType == "bool":
		return "a boolean"
	case goType == "string" || goType == "*string":
		return "a string"
	case strings.HasPrefix(goType, "[]"):
		return "an array of strings"
	case strings.HasPrefix(goType, "int"):
		return "an integer in range"
	}
	return goType
}

// brief shortens a decoding error for a diagnostic.
func brief(err error) string {
	msg := err.Error()
	if len(msg) > 200 {
		msg = msg[:200] + "…"
	}
	return msg
}

// quote quotes a key from the file for a diagnostic, shortened.
func quote(k string) string {
	if len(k) > 64 {
		return strconv.Quote(k[:64]) + "…"
	}
	return strconv.Quote(k)
}

// MaxTTLSeconds bounds every time-to-live: ten years, far below what a
// time.Duration can hold, so callers may multiply by time.Second safely.
const MaxTTLSeconds = 10 * 365 * 24 * 60 * 60

// Validate reports whether the configuration is usable: every section
// satisfies its own Validate.
func (c Config) Validate() error {
	var errs []error
	for _, s := range []struct {
		name string
		err  error
	}{
		{"precision_index", c.PrecisionIndex.Validate()},
		{"dependency_docs", c.DependencyDocs.Validate()},
		{"structural", c.Structural.Validate()},
		{"validation", c.Validation.Validate()},
	} {
		if s.err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", s.name, s.err))
		}
	}
	return errors.Join(errs...)
}

// unshare gives p its own language_servers map, which decoding fills.
func (p *Precision) unshare() { p.LanguageServers = maps.Clone(p.LanguageServers) }

func (p *Precision) normalize() {
	if p.GeneratorCommand == nil {
		p.GeneratorCommand = []string{}
	}
	if p.LanguageServer == nil {
		p.LanguageServer = []string{}
	}
	if p.LanguageServers == nil {
		p.LanguageServers = map[string][]string{}
	}
	for lang, argv := range p.LanguageServers {
		if argv == nil {
			p.LanguageServers[lang] = []string{}
		}
	}
}

// Validate checks the precision section: a configured path is clean,
// relative and inside the root; generator_command has no empty or
// NUL-bearing argument; auto_generate needs a generator_command.
func (p Precision) Validate() error {
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
	for i, a := range p.LanguageServer {
		if a == "" || strings.ContainsRune(a, 0) {
			return fmt.Errorf("language_server[%d]: empty or contains a NUL byte", i)
		}
	}
	for _, lang := range slices.Sorted(maps.Keys(p.LanguageServers)) {
		if !slices.Contains(lspLanguageNames(), lang) {
			return fmt.Errorf("language_servers: %s is not a language with a server (%s)", quote(lang), strings.Join(lspLanguageNames(), ", "))
		}
		for i, a := range p.LanguageServers[lang] {
			if a == "" || strings.ContainsRune(a, 0) {
				return fmt.Errorf("language_servers.%s[%d]: empty or contains a NUL byte", lang, i)
			}
		}
	}
	if p.AutoGenerate && len(p.GeneratorCommand) == 0 {
		return errors.New("auto_generate is set but generator_command is empty")
	}
	if t := p.LanguageServerTimeoutSeconds; t < 0 || t > 600 {
		return fmt.Errorf("language_server_timeout_seconds: %d is outside 0..600", t)
	}
	return nil
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func (d *DependencyDocs) normalize() {}

// Validate checks the documentation section: api_key_env is an
// environment variable name, cache_ttl_seconds is within 0..MaxTTLSeconds,
// base_url, when set, is an http(s) address without credentials.
func (d DependencyDocs) Validate() error {
	if !envName.MatchString(d.APIKeyEnv) {
		// The value is not echoed: a common mistake is to put the key
		// itself here, and a diagnostic must not print it.
		return errors.New("api_key_env: not an environment variable name (letters, digits and _, not starting with a digit); it names the variable that holds the key, never the key itself")
	}
	if d.CacheTTLSeconds < 0 || d.CacheTTLSeconds > MaxTTLSeconds {
		return fmt.Errorf("cache_ttl_seconds: %d is outside 0..%d", d.CacheTTLSeconds, MaxTTLSeconds)
	}
	if d.BaseURL != "" {
		u, err := url.Parse(d.BaseURL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil {
			// Not echoed either: it may carry credentials.
			return errors.New("base_url: not an http(s) address without credentials")
		}
	}
	return nil
}

func (s *Structural) normalize() {}

func (v *Validation) normalize() {
	if v.Commands == nil {
		v.Commands = []ValidationCommand{}
	}
}

// Validate checks the validation section: every command has a name, an
// argv without empty or NUL-bearing arguments, a timeout within
// 0..MaxTTLSeconds and a known format.
func (v Validation) Validate() error {
	for i, c := range v.Commands {
		if strings.TrimSpace(c.Name) == "" {
			return fmt.Errorf("commands[%d]: a name is required", i)
		}
		if len(c.Argv) == 0 {
			return fmt.Errorf("commands[%d]: argv is empty", i)
		}
		for j, a := range c.Argv {
			if a == "" || strings.ContainsRune(a, 0) {
				return fmt.Errorf("commands[%d].argv[%d]: empty or contains a NUL byte", i, j)
			}
		}
		if c.TimeoutSeconds < 0 || c.TimeoutSeconds > MaxTTLSeconds {
			return fmt.Errorf("commands[%d].timeout_seconds: %d is outside 0..%d", i, c.TimeoutSeconds, MaxTTLSeconds)
		}
		switch c.Format {
		case "", "go", "go-test-json", "tsc":
		default:
			return fmt.Errorf("commands[%d].format: %q is not go, go-test-json or tsc", i, c.Format)
		}
	}
	return nil
}

// Validate checks the structural section: a command, when set, is a
// non-empty string without NUL bytes; every limit is at least 1;
// preview_ttl_seconds is at most MaxTTLSeconds.
func (s Structural) Validate() error {
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
	if s.PreviewTTLSeconds > MaxTTLSeconds {
		return fmt.Errorf("preview_ttl_seconds: %d is above %d", s.PreviewTTLSeconds, MaxTTLSeconds)
	}
	return nil
}

// lspLanguageNames are the languages the precision layer routes files to.
func lspLanguageNames() []string {
	var out []string
	for _, l := range precision.LSPLanguages() {
		out = append(out, l.Name)
	}
	return out
}

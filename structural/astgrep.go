package structural

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/internal/safeexec"
)

// AstGrepVersion is the one ast-grep version whose output this package
// parses; `ast-grep --version` prints "ast-grep " and it.
const AstGrepVersion = "0.51.1"

// AstGrepName is the name of the external engine.
const AstGrepName = "ast-grep"

// ErrVersionMismatch is matched by the error of an ast-grep whose version
// is not [AstGrepVersion].
var ErrVersionMismatch = errors.New("ast-grep version is not the verified one")

// AstGrepOptions configure the external engine.
type AstGrepOptions struct {
	// Command is the ast-grep executable: a name looked up in PATH or a path.
	Command string
	// Timeout bounds one run; 0 means 2 minutes.
	Timeout time.Duration
	// MaxOutput caps the bytes read from its standard output; 0 means
	// 64 MiB. Output past the cap is an error, never a silent cut.
	MaxOutput int64
}

// AstGrep runs a pinned external ast-grep binary.
type AstGrep struct {
	opts AstGrepOptions
}

// NewAstGrep returns the external engine; nothing runs until it is used.
func NewAstGrep(opts AstGrepOptions) *AstGrep { return &AstGrep{opts: opts} }

// Name returns "ast-grep".
func (a *AstGrep) Name() string { return AstGrepName }

// Check resolves the command and verifies its version. It returns the
// absolute path and the version it reported; the error wraps
// [ErrUnavailable] when it cannot run and [ErrVersionMismatch] when it
// runs but is not version [AstGrepVersion].
func (a *AstGrep) Check(ctx context.Context) (path, version string, err error) {
	path, err = safeexec.LookPath(a.opts.Command)
	if err != nil {
		return "", "", fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	res, err := safeexec.Run(ctx, safeexec.Invocation{
		Path: path, Args: []string{"--version"}, Env: safeexec.Environ("PATH", "HOME"),
		Timeout: 10 * time.Second, MaxStdout: 4096, MaxStderr: 4096,
	})
	if err != nil {
		return path, "", fmt.Errorf("%w: %s --version: %v", ErrUnavailable, path, err)
	}
	version, ok := parseAstGrepVersion(res.Stdout)
	if !ok {
		return path, "", fmt.Errorf("%w: %s --version printed %q, not an ast-grep version", ErrUnavailable, path, truncate(string(res.Stdout), 80))
	}
	if version != AstGrepVersion {
		return path, version, fmt.Errorf("%w: %s is ast-grep %s; CodeCortex parses the output of %s exactly", ErrVersionMismatch, path, version, AstGrepVersion)
	}
	return path, version, nil
}

func parseAstGrepVersion(out []byte) (string, bool) {
	s := strings.TrimSpace(string(out))
	v, ok := strings.CutPrefix(s, "ast-grep ")
	if !ok || v == "" || strings.ContainsAny(v, " \n") {
		return "", false
	}
	return v, true
}

// Search runs ast-grep on the request's files. The files are chosen the
// same way as for the built-in engine and passed explicitly, so both
// engines search the same set; a match reported outside the root is
// dropped.
func (a *AstGrep) Search(ctx context.Context, req Request) (*Result, error) {
	query, err := astGrepQuery(req)
	if err != nil {
		return nil, err
	}
	path, _, err := a.Check(ctx)
	if err != nil {
		return nil, err
	}
	lim := req.Limits.withDefaults()
	root, err := contain.Open(req.Root)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	want := func(f string) bool { l, ok := LanguageOf(f); return ok && l == req.Language }
	files, res, err := startResult(AstGrepName, root, req, lim, want)
	if err != nil {
		return nil, err
	}
	if len(files.files) == 0 {
		return res, nil
	}
	const batch = 2000 // files per run, well inside the argument limit
	for i := 0; i < len(files.files); i += batch {
		chunk := files.files[i:min(i+batch, len(files.files))]
		if err := a.searchBatch(ctx, path, root, query, chunk, req, res); err != nil {
			return nil, err
		}
	}
	finishResult(res, lim)
	if err := handOver(req, res); err != nil {
		return nil, err
	}
	return res, nil
}

// astGrepQuery returns the ast-grep arguments that search for the
// request's pattern, or the error that rejects the request. ast-grep
// silently runs some broken patterns (an ERROR node at the root matches
// any kind); where this build can parse, the same checks as the built-in
// engine's reject them first. And a Go pattern such as fmt.Println($X),
// which ast-grep reads at the top of a file as a type conversion and so
// never matches, goes to ast-grep as a rule with the built-in engine's
// reading instead.
func astGrepQuery(req Request) ([]string, error) {
	if req.Language == "" {
		return nil, &PatternError{Pattern: req.Pattern, Problem: ProblemLanguage, Offset: -1, Detail: "the ast-grep engine needs the pattern's language"}
	}
	if !req.Language.Valid() {
		return nil, &PatternError{Pattern: req.Pattern, Language: req.Language, Problem: ProblemLanguage, Offset: -1}
	}
	if err := checkPatternSize(req.Pattern, req.Language); err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Pattern) == "" {
		return nil, &PatternError{Pattern: req.Pattern, Language: req.Language, Problem: ProblemEmpty, Offset: -1}
	}
	query := []string{"run", "--pattern", req.Pattern, "--lang", string(req.Language)}
	if cgoEnabled {
		p, err := Compile(req.Pattern, req.Language)
		if err != nil {
			return nil, err
		}
		if rule := p.astGrepRule(); rule != "" {
			query = []string{"scan", "--inline-rules", rule}
		}
	}
	return query, nil
}

// searchBatch runs the ast-grep at path with the query over one batch of
// files and adds its matches to res; a match outside the project root is
// dropped with a note.
func (a *AstGrep) searchBatch(ctx context.Context, path string, root *contain.Root, query, files []string, req Request, res *Result) error {
	timeout := a.opts.Timeout
	if timeout == 0 {
		timeout = 2 * time.Minute
	}
	maxOut := a.opts.MaxOutput
	if maxOut == 0 {
		maxOut = 64 << 20
	}
	args := append(append(query[:len(query):len(query)], "--json=stream", "--color=never", "--no-ignore=hidden", "--"), files...)
	out, err := safeexec.Run(ctx, safeexec.Invocation{
		Path: path, Args: args, Dir: root.Dir(), Env: safeexec.Environ("PATH", "HOME"),
		Timeout: timeout, MaxStdout: maxOut, MaxStderr: 1 << 20,
	})
	var ee *safeexec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return fmt.Errorf("structural: ast-grep: %w", err)
	}
	if out.StdoutTruncated {
		return fmt.Errorf("structural: ast-grep printed more than %d bytes; narrow the search", maxOut)
	}
	if perr := patternWarning(req, out.Stdout, out.Stderr); perr != nil {
		return perr
	}
	if ee != nil && ee.Code != 1 { // 1 means no match
		return fmt.Errorf("structural: ast-grep: %w: %s", err, truncate(strings.TrimSpace(string(out.Stderr)), 400))
	}
	ms, err := ParseAstGrepStream(bytes.NewReader(out.Stdout))
	if err != nil {
		return err
	}
	for _, m := range ms {
		rel, err := root.Rel(filepath.FromSlash(m.Path))
		if err != nil || rel == "." {
			res.Notes = append(res.Notes, fmt.Sprintf("dropped a match outside the project root: %q", m.Path))
			continue
		}
		m.Path = rel
		m.Language = req.Language
		if err := m.Validate(); err != nil {
			return err
		}
		res.Matches = append(res.Matches, m)
	}
	return nil
}

// patternWarning turns ast-grep's warning about a pattern it could not
// parse (it exits 0 with nothing on stdout) into a PatternError.
func patternWarning(req Request, stdout, stderr []byte) error {
	if len(bytes.TrimSpace(stdout)) != 0 {
		return nil
	}
	s := string(stderr)
	for _, w := range []struct {
		text    string
		problem PatternProblem
	}{
		{"Pattern contains an ERROR node", ProblemSyntax},
		{"Multiple AST nodes are detected", ProblemMultiple},
		{"No AST root is detected", ProblemEmpty},
		{"Tree-Sitter fails to parse the pattern", ProblemSyntax},
		{"Cannot parse query as a valid pattern", ProblemSyntax},
	} {
		if strings.Contains(s, w.text) {
			return &PatternError{Pattern: req.Pattern, Language: req.Language, Problem: w.problem, Offset: -1,
				Detail: "ast-grep: " + truncate(firstLine(s, w.text), 200)}
		}
	}
	return nil
}

func firstLine(s, containing string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, containing) {
			return strings.TrimSpace(l)
		}
	}
	return strings.TrimSpace(s)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// The shape of one line of `ast-grep run --json=stream` (0.51.1): lines
// are zero-based, columns count characters, byte offsets are zero-based.
type sgPos struct {
	Line   *int `json:"line"`
	Column *int `json:"column"`
}

type sgRange struct {
	ByteOffset *struct {
		Start *int `json:"start"`
		End   *int `json:"end"`
	} `json:"byteOffset"`
	Start *sgPos `json:"start"`
	End   *sgPos `json:"end"`
}

type sgNode struct {
	Text  *string  `json:"text"`
	Range *sgRange `json:"range"`
}

type sgMatch struct {
	sgNode
	File          *string `json:"file"`
	Lines         string  `json:"lines"`
	MetaVariables *struct {
		Single map[string]sgNode   `json:"single"`
		Multi  map[string][]sgNode `json:"multi"`
	} `json:"metaVariables"`
}

// MaxStreamLine caps one line of ast-grep's JSON stream.
const MaxStreamLine = 16 << 20

// ParseAstGrepStream parses the output of `ast-grep run --json=stream`:
// one JSON object per line. Positions become one-based; metaVariables,
// which ast-grep prints as unordered maps, become captures sorted by name.
// Paths are returned as ast-grep printed them (slash-separated); the
// caller checks them against the root. Separator tokens in multi captures
// are recognised by their text (punctuation only), since the stream does
// not say which nodes are named.
func ParseAstGrepStream(r io.Reader) ([]Match, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxStreamLine)
	var out []Match
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var sm sgMatch
		dec := json.NewDecoder(bytes.NewReader(b))
		if err := dec.Decode(&sm); err != nil {
			return nil, fmt.Errorf("structural: ast-grep output line %d: %w", line, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("structural: ast-grep output line %d: more than one JSON value", line)
		}
		m, err := sm.toMatch()
		if err != nil {
			return nil, fmt.Errorf("structural: ast-grep output line %d: %w", line, err)
		}
		out = append(out, m)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("structural: ast-grep output: %w", err)
	}
	return out, nil
}

func (sm *sgMatch) toMatch() (Match, error) {
	if sm.File == nil || *sm.File == "" {
		return Match{}, errors.New("match without a file")
	}
	text, rng, err := sm.sgNode.convert()
	if err != nil {
		return Match{}, err
	}
	first, _, _ := strings.Cut(sm.Lines, "\n")
	m := Match{Path: filepath.ToSlash(*sm.File), Range: rng, Text: text,
		Lines: windowLines(sm.Lines, rng.StartColumn, len(text)), Indent: leadingSpace(first)}
	if mv := sm.MetaVariables; mv != nil {
		for name, n := range mv.Single {
			t, r, err := n.convert()
			if err != nil {
				return Match{}, fmt.Errorf("metavariable %s: %w", name, err)
			}
			m.Captures = append(m.Captures, Capture{Name: name, Text: t, Nodes: []Node{{Text: t, Range: r, Named: !isSeparator(t)}}})
		}
		for name, ns := range mv.Multi {
			c := Capture{Name: name, Multi: true, Nodes: []Node{}}
			for _, n := range ns {
				t, r, err := n.convert()
				if err != nil {
					return Match{}, fmt.Errorf("metavariable %s: %w", name, err)
				}
				c.Nodes = append(c.Nodes, Node{Text: t, Range: r, Named: !isSeparator(t)})
			}
			if k := len(c.Nodes); k > 0 {
				s, e := c.Nodes[0].Range.StartByte-rng.StartByte, c.Nodes[k-1].Range.EndByte-rng.StartByte
				if s >= 0 && e <= len(text) && s <= e {
					c.Text = text[s:e]
				}
			}
			m.Captures = append(m.Captures, c)
		}
	}
	sort.Slice(m.Captures, func(i, j int) bool {
		if m.Captures[i].Name != m.Captures[j].Name {
			return m.Captures[i].Name < m.Captures[j].Name
		}
		return !m.Captures[i].Multi
	})
	for i := 1; i < len(m.Captures); i++ {
		if m.Captures[i].Name == m.Captures[i-1].Name {
			return Match{}, fmt.Errorf("metavariable %s is both single and multi", m.Captures[i].Name)
		}
	}
	if err := m.validateShape(); err != nil {
		return Match{}, err
	}
	return m, nil
}

// windowLines cuts the full lines ast-grep prints around a match to the
// display window of [Match.Lines], given the match's one-based code-point
// column on its first line and its length in bytes.
func windowLines(lines string, col, n int) string {
	start := 0
	for c := 1; c < col && start < len(lines) && lines[start] != '\n'; c++ {
		_, w := utf8.DecodeRuneInString(lines[start:])
		start += w
	}
	end := min(start+n, len(lines))
	return newLineIndex([]byte(lines)).lines(start, end)
}

func (n *sgNode) convert() (string, Range, error) {
	if n.Text == nil || n.Range == nil || n.Range.ByteOffset == nil || n.Range.Start == nil || n.Range.End == nil {
		return "", Range{}, errors.New("node without text or range")
	}
	r := n.Range
	for _, p := range []*int{r.ByteOffset.Start, r.ByteOffset.End, r.Start.Line, r.Start.Column, r.End.Line, r.End.Column} {
		if p == nil || *p < 0 || *p > 1<<40 {
			return "", Range{}, errors.New("missing or negative position")
		}
	}
	rng := Range{
		StartLine: *r.Start.Line + 1, StartColumn: *r.Start.Column + 1,
		EndLine: *r.End.Line + 1, EndColumn: *r.End.Column + 1,
		StartByte: *r.ByteOffset.Start, EndByte: *r.ByteOffset.End,
	}
	if err := rng.Validate(); err != nil {
		return "", Range{}, err
	}
	if len(*n.Text) != rng.EndByte-rng.StartByte {
		return "", Range{}, errors.New("text length does not match its byte range")
	}
	return *n.Text, rng, nil
}

// isSeparator reports whether a captured token is punctuation only, such
// as the commas a multi capture keeps between its items.
func isSeparator(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if unicode.IsLetter(c) || unicode.IsDigit(c) || c == '_' || c == '"' || c == '\'' || c == '`' {
			return false
		}
	}
	return true
}

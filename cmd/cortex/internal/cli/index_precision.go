package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/scip-code/scip/bindings/go/scip"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/config"
	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/precision"
)

// A scipIndexer is the SCIP indexer cortex index --precision runs for one
// language. Versions are those .ci/install-precision.sh pins and the
// precision layer's encodings were measured with.
type scipIndexer struct {
	language string // as --lang names it
	tool     string // the executable, looked up on the PATH
	install  string // the exact command that installs it
	// args are the arguments that index the project root and write the
	// index to out (absolute); infer is set for a JavaScript or
	// TypeScript project without a tsconfig.json.
	args func(out, project string, infer bool) []string
}

var scipIndexers = []scipIndexer{
	{"go", "scip-go", "go install github.com/sourcegraph/scip-go/cmd/scip-go@v0.1.26",
		func(out, _ string, _ bool) []string { return []string{"--output", out} }},
	{"typescript", "scip-typescript", "npm install -g @sourcegraph/scip-typescript@0.4.0",
		func(out, _ string, infer bool) []string {
			args := []string{"index", "--no-progress-bar", "--output", out}
			if infer {
				args = slices.Insert(args, 1, "--infer-tsconfig")
			}
			return args
		}},
	// scip-python fails without a version outside a git repository, and
	// a fixed one keeps its symbols the same from commit to commit.
	{"python", "scip-python", "npm install -g @sourcegraph/scip-python@0.6.6",
		func(out, project string, _ bool) []string {
			return []string{"index", "--project-name", project, "--project-version", "0.0.0", "--quiet", "--output", out}
		}},
}

// indexerEnv are the variables an indexer inherits: what the Go, Node and
// Python toolchains need to find themselves and their caches.
var indexerEnv = []string{
	"PATH", "HOME", "TMPDIR", "USER", "LANG",
	"GOPATH", "GOCACHE", "GOMODCACHE", "GOFLAGS", "GOPROXY", "GOROOT", "GOTOOLCHAIN", "GONOSUMDB", "GOPRIVATE",
	"NODE_PATH", "NODE_OPTIONS", "VIRTUAL_ENV", "PYTHONPATH",
}

// A projectLanguage is a language found in the project, with what
// cortex index --precision needs to index it.
type projectLanguage struct {
	indexer scipIndexer
	infer   bool // TypeScript or JavaScript without a tsconfig.json
}

// skippedDirs are never looked into for source files.
var skippedDirs = []string{"node_modules", "vendor", "venv", "__pycache__", "dist", "build", "target"}

// detectLanguages returns the languages of the project at fsys's root, as
// their indexers see a project: Go with a go.mod; TypeScript or
// JavaScript with a tsconfig.json or jsconfig.json, or a package.json and
// a source file; Python with a pyproject.toml, setup.py, setup.cfg,
// requirements.txt or Pipfile and a .py file. Source files are looked for
// in at most maxEntries entries, outside hidden and dependency directories.
func detectLanguages(fsys fs.FS) []projectLanguage {
	const maxEntries = 50000
	has := func(names ...string) bool {
		for _, n := range names {
			if fi, err := fs.Stat(fsys, n); err == nil && fi.Mode().IsRegular() {
				return true
			}
		}
		return false
	}
	seen := map[string]bool{}
	n := 0
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if n++; n > maxEntries {
			return fs.SkipAll
		}
		name := d.Name()
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(name, ".") || slices.Contains(skippedDirs, name)) {
				return fs.SkipDir
			}
			return nil
		}
		switch path.Ext(name) {
		case ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs":
			seen["js"] = true
		case ".py":
			seen["py"] = true
		}
		return nil
	})
	var langs []projectLanguage
	for _, ix := range scipIndexers {
		switch ix.language {
		case "go":
			if has("go.mod") {
				langs = append(langs, projectLanguage{indexer: ix})
			}
		case "typescript":
			switch {
			case has("tsconfig.json"):
				langs = append(langs, projectLanguage{indexer: ix})
			case has("jsconfig.json") || has("package.json") && seen["js"]:
				langs = append(langs, projectLanguage{indexer: ix, infer: true})
			}
		case "python":
			if seen["py"] && has("pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "Pipfile") {
				langs = append(langs, projectLanguage{indexer: ix})
			}
		}
	}
	return langs
}

// An indexerRun is one indexer run by cortex index --precision.
type indexerRun struct {
	Language  string   `json:"language"`
	Tool      string   `json:"tool"`
	Version   string   `json:"version,omitempty"`
	Command   []string `json:"command"`
	Documents int      `json:"documents"`
	ElapsedMS float64  `json:"elapsed_ms"`

	out  string             // absolute path of its index
	meta precision.Metadata // what its index says about itself
}

// precisionIndexJSON is what cortex index --precision --json prints.
type precisionIndexJSON struct {
	IndexPath string           `json:"index_path"`
	Indexers  []indexerRun     `json:"indexers"`
	Status    precision.Status `json:"status"`
}

// runPrecisionIndex is cortex index --precision [--lang L,...]: it runs
// the installed SCIP indexer of each language the project has (or --lang
// names), one after the other, merges their indexes into one when there
// are several, puts it where cortex reads the precision index (the
// configured precision_index.path, or .codecortex/precision/index.cortexidx),
// and accepts it as the user's, so that it is served as exact while its
// sources are unchanged. A missing indexer stops it before anything runs,
// with the command that installs it.
func runPrecisionIndex(ctx context.Context, c *cmd, precise, status bool, lang string) int {
	switch {
	case !precise:
		return c.usageError(errors.New("--lang goes with --precision"))
	case status:
		return c.usageError(errors.New("--status and --precision exclude each other"))
	}
	p, err := c.openProject(false)
	if err != nil {
		return c.finish(err)
	}
	defer p.Close()
	opts := p.PrecisionOptions()
	if opts.Disabled {
		return c.fail(fmt.Errorf("precision_index.enabled is false in %s: enable it to build and use a precision index", config.File))
	}
	var only []string
	if lang != "" {
		only = strings.Split(lang, ",")
	}
	langs, err := precisionLanguages(p, only)
	if err != nil {
		return c.finish(err)
	}
	rel := opts.IndexPath
	if rel == "" {
		rel = precision.IndexCandidates()[0]
	}
	timeout := opts.GenerateTimeout
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	runs, err := c.buildPrecisionIndex(ctx, p, langs, rel, timeout)
	if err != nil {
		return c.fail(err)
	}
	// The engine's precision provider reads the configured path, or the
	// first of the discovery paths, where the index was just written.
	eng, err := p.engine(codecortex.Options{NoGenerate: true})
	if err != nil {
		return c.fail(err)
	}
	st, err := eng.Precision().Accept(ctx)
	if err != nil {
		return c.fail(fmt.Errorf("the new index at %s cannot be accepted: %w", rel, err))
	}
	if c.json != jsonOff {
		if err := c.writeJSON(precisionIndexJSON{IndexPath: rel, Indexers: runs, Status: st}); err != nil {
			return c.fail(err)
		}
		return ExitOK
	}
	for _, r := range runs {
		c.printf("%-11s %s %s: %s in %s\n", r.Language, r.Tool, safe(r.Version), count(r.Documents, "document"),
			(time.Duration(r.ElapsedMS) * time.Millisecond).Round(10*time.Millisecond))
	}
	c.printf("%-11s %s, accepted as yours: served as exact while its sources are unchanged\n", "index", safe(rel))
	state := string(st.State)
	if st.Reason != "" {
		state += " — " + st.Reason
	}
	c.printf("%-11s %s\n", "state", safe(state))
	return ExitOK
}

// buildPrecisionIndex finds every language's indexer, and when all are
// installed runs them, each writing a temporary index beside rel, merges
// their indexes when there are several, and renames the result over rel
// once it loads. Nothing replaces rel when anything fails.
func (c *cmd) buildPrecisionIndex(ctx context.Context, p *project, langs []projectLanguage, rel string, timeout time.Duration) ([]indexerRun, error) {
	exes := make([]string, len(langs))
	var missing []string
	for i, l := range langs {
		exe, err := safeexec.LookPath(l.indexer.tool)
		if err != nil {
			missing = append(missing, fmt.Sprintf("%s indexes %s and is not installed; install it with:\n  %s", l.indexer.tool, l.indexer.language, l.indexer.install))
		}
		exes[i] = exe
	}
	if len(missing) > 0 {
		return nil, errors.New(strings.Join(missing, "\n"))
	}
	abs, err := p.root.Abs(rel)
	if err != nil {
		return nil, fmt.Errorf("the precision index path %s: %w", rel, err)
	}
	dir := path.Dir(rel)
	if dir == ".codecortex" || strings.HasPrefix(dir, ".codecortex/") {
		err = p.root.MkdirState(dir, 0o755)
	} else {
		err = p.root.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return nil, fmt.Errorf("the directory of the precision index %s: %w", rel, err)
	}
	temp := func(what string) (string, error) {
		return p.root.Abs(path.Join(dir, "."+path.Base(rel)+"."+what+".generating"))
	}
	var runs []indexerRun
	defer func() {
		for _, r := range runs {
			os.Remove(r.out)
		}
	}()
	for i, l := range langs {
		out, err := temp(l.indexer.language)
		if err != nil {
			return nil, err
		}
		r, err := c.runIndexer(ctx, p, l, exes[i], out, timeout)
		runs = append(runs, r)
		if err != nil {
			return nil, err
		}
	}
	final := runs[0].out
	if len(runs) > 1 {
		if final, err = temp("merged"); err != nil {
			return nil, err
		}
		defer os.Remove(final)
		if err := mergeIndexes(ctx, final, runs); err != nil {
			return nil, fmt.Errorf("merging the indexes: %w", err)
		}
		if _, err := loadIndex(ctx, p, final); err != nil {
			return nil, fmt.Errorf("the merged index does not load: %w", err)
		}
	}
	if err := os.Rename(final, abs); err != nil {
		return nil, fmt.Errorf("the new index cannot replace %s: %w", rel, err)
	}
	return runs, nil
}

// precisionLanguages returns the languages to index: those --lang names,
// else those the project has.
func precisionLanguages(p *project, only []string) ([]projectLanguage, error) {
	if len(only) == 0 {
		langs := detectLanguages(p.root.FS())
		if len(langs) == 0 {
			return nil, errors.New("found no project a SCIP indexer reads at the root: no go.mod, tsconfig.json, jsconfig.json, " +
				"package.json with JavaScript or TypeScript sources, or Python project file with .py sources; name the language with --lang")
		}
		return langs, nil
	}
	found := detectLanguages(p.root.FS())
	var langs []projectLanguage
	for _, name := range only {
		i := slices.IndexFunc(scipIndexers, func(ix scipIndexer) bool { return ix.language == name })
		if i < 0 {
			return nil, &badArgError{fmt.Errorf("--lang %q: want %s", name, indexerLanguages())}
		}
		l := projectLanguage{indexer: scipIndexers[i]}
		if j := slices.IndexFunc(found, func(f projectLanguage) bool { return f.indexer.language == name }); j >= 0 {
			l = found[j]
		} else if name == "typescript" {
			l.infer = true // no tsconfig.json was found
		}
		langs = append(langs, l)
	}
	return langs, nil
}

func indexerLanguages() string {
	var names []string
	for _, ix := range scipIndexers {
		names = append(names, ix.language)
	}
	return strings.Join(names, ", ")
}

// runIndexer runs one indexer over the project, writing outAbs, and checks
// that what it wrote loads and holds documents.
func (c *cmd) runIndexer(ctx context.Context, p *project, l projectLanguage, exe, outAbs string, timeout time.Duration) (indexerRun, error) {
	args := l.indexer.args(outAbs, path.Base(p.root.Dir()), l.infer)
	r := indexerRun{Language: l.indexer.language, Tool: l.indexer.tool, Command: append([]string{l.indexer.tool}, args...), out: outAbs}
	_ = os.Remove(outAbs) // left by a run that was killed
	if w := c.progressOut(); w != nil {
		fmt.Fprintf(w, "cortex: indexing %s: %s (timeout %s)\n", r.Language, strings.Join(r.Command, " "), timeout)
	}
	stop := progress(c.progressOut(), "running "+r.Tool)
	res, err := safeexec.Run(ctx, safeexec.Invocation{
		Path: exe, Args: args, Dir: p.root.Dir(),
		Env: safeexec.Environ(indexerEnv...), Timeout: timeout,
	})
	stop()
	r.ElapsedMS = float64(res.Duration.Microseconds()) / 1000
	if err != nil {
		return r, fmt.Errorf("%s failed: %w\n%s", r.Tool, err, strings.TrimSpace(string(lastBytes(res.Stderr, 2000))))
	}
	ix, err := loadIndex(ctx, p, outAbs)
	if err != nil {
		return r, fmt.Errorf("%s ran but its index is unusable: %w\n%s", r.Tool, err, strings.TrimSpace(string(lastBytes(res.Stderr, 2000))))
	}
	r.meta, r.Version, r.Documents = ix.Metadata(), ix.Metadata().ToolVersion, ix.Stats().Documents
	if w := c.progressOut(); w != nil {
		fmt.Fprintf(w, "cortex: %s indexed %s in %s\n", r.Tool, count(r.Documents, "document"), res.Duration.Round(10*time.Millisecond))
	}
	return r, nil
}

// loadIndex loads the index at abs, reading sources from the project.
func loadIndex(ctx context.Context, p *project, abs string) (*precision.Index, error) {
	f, err := os.Open(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return precision.Load(ctx, f, precision.LoadOptions{Source: p.root.FS(), Size: fi.Size()})
}

// lastBytes is the end of b, at most n bytes of it.
func lastBytes(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	return b[len(b)-n:]
}

// SCIP's Index fields, as scip.proto numbers them.
const (
	scipMetadataField  protowire.Number = 1
	scipDocumentField  protowire.Number = 2
	scipExternalsField protowire.Number = 3
)

// mergeIndexes writes to out one SCIP index of every document and external
// symbol of the runs' indexes, read and written one document at a time.
// Its metadata names cortex as the tool; since each indexer counts
// columns in its own code unit, every document whose position_encoding is
// unset gets the one its indexer was measured to use
// (precision.ResolveEncoding), so that the merged index declares it.
func mergeIndexes(ctx context.Context, out string, runs []indexerRun) error {
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	w := &protoWriter{f: bw}
	meta := &scip.Metadata{
		ToolInfo:             &scip.ToolInfo{Name: "cortex", Version: Version, Arguments: []string{"index", "--precision"}},
		ProjectRoot:          runs[0].meta.ProjectRoot,
		TextDocumentEncoding: scip.TextEncoding_UTF8,
	}
	for _, r := range runs {
		meta.ToolInfo.Arguments = append(meta.ToolInfo.Arguments, strings.TrimSpace(r.meta.Tool+" "+r.meta.ToolVersion))
	}
	w.message(scipMetadataField, meta)
	for _, r := range runs {
		if err := w.err; err != nil {
			break
		}
		enc := positionEncoding(r.meta.Tool)
		in, err := os.Open(r.out)
		if err != nil {
			f.Close()
			return err
		}
		v := scip.IndexVisitor{
			VisitMetadata: func(context.Context, *scip.Metadata) error { return nil },
			VisitDocument: func(_ context.Context, d *scip.Document) error {
				if d.PositionEncoding == scip.PositionEncoding_UnspecifiedPositionEncoding {
					d.PositionEncoding = enc
				}
				w.message(scipDocumentField, d)
				return w.err
			},
			VisitExternalSymbol: func(_ context.Context, si *scip.SymbolInformation) error {
				w.message(scipExternalsField, si)
				return w.err
			},
		}
		err = v.ParseStreaming(ctx, in)
		in.Close()
		if err != nil {
			f.Close()
			return fmt.Errorf("%s's index: %w", r.Tool, err)
		}
	}
	if err := w.err; err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// positionEncoding is the position_encoding of the documents the tool
// writes without one; unspecified for a tool whose encoding was never
// measured, whose positions stay assumed and inexact.
func positionEncoding(tool string) scip.PositionEncoding {
	e, src := precision.ResolveEncoding(scip.PositionEncoding_UnspecifiedPositionEncoding, tool)
	switch {
	case src != precision.Measured:
		return scip.PositionEncoding_UnspecifiedPositionEncoding
	case e == precision.UTF8:
		return scip.PositionEncoding_UTF8CodeUnitOffsetFromLineStart
	case e == precision.UTF16:
		return scip.PositionEncoding_UTF16CodeUnitOffsetFromLineStart
	}
	return scip.PositionEncoding_UTF32CodeUnitOffsetFromLineStart
}

// A protoWriter writes length-delimited fields of a protobuf message to
// f, keeping the first error.
type protoWriter struct {
	f   io.Writer
	buf []byte
	err error
}

func (w *protoWriter) message(field protowire.Number, m proto.Message) {
	if w.err != nil {
		return
	}
	b, err := proto.Marshal(m)
	if err != nil {
		w.err = err
		return
	}
	w.buf = protowire.AppendTag(w.buf[:0], field, protowire.BytesType)
	w.buf = protowire.AppendBytes(w.buf, b)
	_, w.err = w.f.Write(w.buf)
}

// precisionGuidance is what repairs the precision layer in the state st,
// for a person at the command line: the precision package names the
// indexer to run by hand, cortex index --precision runs it and accepts its
// index in one step. A configured generator_command keeps its own.
func precisionGuidance(p *project, st precision.Status) string {
	switch {
	case len(p.Config.PrecisionIndex.GeneratorCommand) > 0:
		return st.Guidance
	case st.Staleness.Foreign:
		return "if you made this index yourself, vouch for it: cortex precision-status --accept; otherwise rebuild it: cortex index --precision"
	case st.State == evidence.StaleState || st.State == evidence.Unavailable:
		return "run: cortex index --precision"
	}
	return st.Guidance
}

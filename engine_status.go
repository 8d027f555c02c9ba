package codecortex

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/codecortex/codecortex/depdocs"
	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/history"
	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/precision"
	"github.com/codecortex/codecortex/structural"
	"github.com/codecortex/codecortex/validation"
)

// Layer states, as [Engine.Status] reports them.
const (
	StateAvailable          = "available"
	StateStale              = "stale"
	StateUnavailable        = "unavailable"
	StateDisabled           = "disabled"
	StateCredentialsMissing = "credentials missing"
)

// A LayerStatus is one layer's state: why it is so, the command that
// fixes it, and facts such as an index's path.
type LayerStatus struct {
	Layer    string `json:"layer"`
	State    string `json:"state"`
	Reason   string `json:"reason,omitempty"`
	Guidance string `json:"guidance,omitempty"`
	// FixNeeded says that the layer is enabled or configured and broken
	// or stale, and Guidance names what repairs it: what doctor's exit
	// code says. A layer that is merely off (disabled, or optional and not
	// set up, such as no precision index made yet) does not need a fix.
	FixNeeded bool              `json:"fix_needed,omitempty"`
	Details   map[string]string `json:"details,omitempty"`
}

// Status reports every layer: precision, language server, structural
// search, local index, project graph, git history, memory, validation,
// dependency manifests and documentation. It runs no program the
// configuration names (no index generator, language server or ast-grep;
// git only to read the repository, as every history command does) and
// sends no request; it opens the local index and the git history, as
// the first question would.
func (e *Engine) Status(ctx context.Context) []LayerStatus {
	return []LayerStatus{
		e.precisionStatus(ctx), e.languageServerStatus(), e.structuralStatus(), e.indexStatus(ctx),
		e.graphStatus(), e.historyStatus(ctx), e.memoryStatus(ctx), e.validationStatus(),
		e.manifestsStatus(), e.docsStatus(),
	}
}

func (e *Engine) precisionStatus(ctx context.Context) LayerStatus {
	ls := LayerStatus{Layer: "precision intelligence", Details: map[string]string{}}
	if e.project.PrecisionOptions().Disabled {
		ls.State, ls.Reason = StateDisabled, "precision_index.enabled is false"
		return ls
	}
	st := e.scip.Inspect(ctx)
	ls.Reason, ls.Guidance = st.Reason, st.Guidance
	ls.Details["index"] = st.IndexPath
	if st.Staleness.Foreign {
		ls.Details["origin"] = "foreign: neither generated nor accepted by this user's cortex"
	}
	switch st.State {
	case evidence.Available:
		ls.State = StateAvailable
	case evidence.StaleState:
		ls.State, ls.FixNeeded = StateStale, true
	default:
		// No index is the common case, not a fault: questions fall back
		// to the local index. An index there that cannot be used, or one
		// the configuration names and nothing will generate, needs a fix.
		ls.State = StateUnavailable
		pc := e.project.Config.PrecisionIndex
		generated := pc.AutoGenerate && len(pc.GeneratorCommand) > 0 // on first use
		_, statErr := e.root.Stat(st.IndexPath)
		ls.FixNeeded = st.Loaded || st.IndexPath != "" && statErr == nil || pc.Path != "" && !generated
	}
	if st.Loaded {
		ls.Details["indexer"] = strings.TrimSpace(st.Metadata.Tool + " " + st.Metadata.ToolVersion)
		ls.Details["documents"] = fmt.Sprintf("%d (%d dropped outside the root)", st.Stats.Documents, len(st.Dropped))
		ls.Details["symbols"] = fmt.Sprint(st.Stats.Symbols)
	}
	if e.project.Config.PrecisionIndex.AutoGenerate {
		ls.Details["generator"] = strings.Join(e.project.Config.PrecisionIndex.GeneratorCommand, " ") + " (auto_generate; not run by a status)"
	}
	return ls
}

// languageServerStatus reports each language server: its command, where
// it was found, its version and its state ("not started" in a process
// that has not needed it; the engine's own servers' state when it keeps
// them, as the MCP server does). It starts none.
func (e *Engine) languageServerStatus() LayerStatus {
	ls := LayerStatus{Layer: "language server", Details: map[string]string{}}
	servers := e.lsp
	if servers == nil {
		servers = precision.NewLSP(e.project.LSPOptions())
	}
	pc := e.project.Config.PrecisionIndex
	var found, missing []string
	for _, st := range servers.Servers() {
		key := "server " + strings.Join(st.Languages, ", ")
		line := strings.Join(st.Command, " ") + ": "
		if st.Path == "" {
			line += "not found"
			configured := false
			for _, l := range st.Languages {
				configured = configured || len(pc.LanguageServers[l]) > 0 || l == "go" && len(pc.LanguageServer) > 0
			}
			if configured {
				ls.FixNeeded = true
			}
			missing = append(missing, st.Command[0])
		} else {
			line += "found at " + st.Path
			found = append(found, strings.Join(st.Languages, ", "))
		}
		if st.Version != "" {
			line += ", " + st.Version
		}
		if st.Path != "" {
			line += ", " + st.State
		}
		if st.Reason != "" && st.State != precision.ServerNotFound {
			line += " (" + st.Reason + ")"
		}
		ls.Details[key] = line
	}
	switch {
	case len(found) == 0:
		ls.State, ls.Reason = StateUnavailable, "no language server found"
	default:
		ls.State = StateAvailable
		if !e.opts.LanguageServer {
			ls.Reason = "used on request (--lsp, or a host's LanguageServer option) for " + strings.Join(found, "; ")
		}
	}
	if len(missing) > 0 {
		ls.Guidance = "install " + strings.Join(missing, ", ") + " to let --lsp answer near_exact without a SCIP index"
	}
	return ls
}

func (e *Engine) structuralStatus() LayerStatus {
	opts := e.project.StructuralOptions()
	ls := LayerStatus{Layer: "structural engine", Details: map[string]string{}}
	switch {
	case opts.Disabled:
		ls.State, ls.Reason = StateDisabled, "structural.enabled is false; search falls back to lexical matches"
	case opts.Command != "":
		ls.Details["engine"], ls.Details["command"] = "ast-grep (structural.command)", opts.Command
		ls.Details["verified_version"] = structural.AstGrepVersion
		path, err := safeexec.LookPath(opts.Command)
		if err != nil {
			ls.State, ls.Reason, ls.FixNeeded = StateUnavailable, err.Error(), true
			ls.Guidance = "install ast-grep " + structural.AstGrepVersion + " or set structural.command to null for the built-in engine"
			return ls
		}
		ls.State, ls.Details["path"] = StateAvailable, path
		ls.Reason = "found, version not checked here: a status runs no program a configuration names; each search checks it is ast-grep " + structural.AstGrepVersion
	default:
		if err := structural.NewBuiltin(structural.BuiltinOptions{}).Available(); err != nil {
			ls.State, ls.Reason, ls.FixNeeded = StateUnavailable, err.Error()+"; search falls back to lexical matches", true
			ls.Guidance = "build cortex with CGO_ENABLED=1, or set structural.command to an ast-grep " + structural.AstGrepVersion + " binary"
			return ls
		}
		var langs []string
		for _, l := range structural.Languages() {
			langs = append(langs, string(l))
		}
		ls.State = StateAvailable
		ls.Details["engine"], ls.Details["languages"] = "tree-sitter (built in)", strings.Join(langs, ", ")
		if cmd := e.project.Requested.Structural.Command; cmd != nil && e.project.Config.Structural.Command == nil {
			ls.Details["structural.command"] = *cmd + " (withheld: the configuration is not trusted)"
		}
	}
	return ls
}

func (e *Engine) indexStatus(ctx context.Context) LayerStatus {
	ls := LayerStatus{Layer: "local index", Details: map[string]string{}}
	ix, err := e.Index()
	if err != nil {
		ls.State, ls.Reason, ls.FixNeeded = StateUnavailable, err.Error(), true
		ls.Guidance = "run `cortex index` to (re)build it; if it keeps failing, remove .codecortex/index and run it again"
		return ls
	}
	st, err := ix.Status(ctx)
	if err != nil {
		ls.State, ls.Reason, ls.FixNeeded = StateUnavailable, err.Error(), true
		ls.Guidance = "run `cortex index` to (re)build it; if it keeps failing, remove .codecortex/index and run it again"
		return ls
	}
	ls.State = StateAvailable
	ls.Details["database"] = st.Database
	ls.Details["files"], ls.Details["symbols"] = fmt.Sprint(st.Files), fmt.Sprint(st.Symbols)
	ls.Details["freshness"] = string(st.Freshness.State)
	if st.Freshness.PendingCount > 0 {
		// Not a fault: every question indexes what it can within its
		// budget, and says what is pending.
		ls.State = StateStale
		ls.Reason = fmt.Sprintf("%d files changed since they were indexed", st.Freshness.PendingCount)
		ls.Guidance = "run `cortex index` to index them now; meanwhile each question indexes, within its time budget, the files that mention what it asks about"
	}
	return ls
}

func (e *Engine) graphStatus() LayerStatus {
	ls := LayerStatus{Layer: "project graph", State: StateAvailable, Details: map[string]string{},
		Reason: "built from the local index on the first question that needs it"}
	if e.project.PrecisionOptions().Disabled {
		ls.Details["exact edges"] = "none: the precision layer is disabled"
	} else {
		ls.Details["exact edges"] = "fused in from the precision index when it is fresh"
	}
	return ls
}

func (e *Engine) historyStatus(ctx context.Context) LayerStatus {
	ls := LayerStatus{Layer: "git history", Details: map[string]string{}}
	_, err := e.History(ctx, 0)
	var ce *history.ConfigError
	switch {
	case err == nil:
		ls.State = StateAvailable
		ls.Details["git configuration"] = e.project.Trust.Git.Reason
	case errors.As(err, &ce):
		ls.State, ls.Reason, ls.FixNeeded = StateUnavailable, err.Error(), true
		ls.Guidance = "review the settings with `cortex trust --show`, then `cortex trust`"
	default:
		ls.State, ls.Reason = StateUnavailable, err.Error()
	}
	return ls
}

func (e *Engine) memoryStatus(ctx context.Context) LayerStatus {
	ls := LayerStatus{Layer: "memory", Details: map[string]string{}}
	rep, err := e.memory.Verify(ctx)
	if err != nil {
		ls.State, ls.Reason = StateUnavailable, err.Error()
		return ls
	}
	ls.State = StateAvailable
	ls.Details["entries"] = fmt.Sprintf("%d (%d reviewed by you)", rep.Entries, rep.Reviewed)
	if len(rep.Problems) > 0 {
		ls.State, ls.FixNeeded = StateStale, true
		ls.Reason = fmt.Sprintf("%d problems (a changed or damaged entry)", len(rep.Problems))
		ls.Guidance = "run `cortex memory verify` for each"
	} else if n := len(rep.Unreviewed); n > 0 {
		ls.Reason = fmt.Sprintf("%d entries came with the repository and are unreviewed: shown as data, at half confidence", n)
		ls.Guidance = "read them with `cortex memory list --unreviewed`, then `cortex memory accept ID`"
	}
	return ls
}

func (e *Engine) validationStatus() LayerStatus {
	ls := LayerStatus{Layer: "validation", Details: map[string]string{}}
	o, err := validation.Last(e.project.ValidationOptions())
	switch {
	case errors.Is(err, validation.ErrNoResults):
		ls.State, ls.Reason = StateAvailable, "no validation has run yet"
		ls.Guidance = "run the project's checks with `cortex validate`"
	case err != nil:
		ls.State, ls.Reason = StateUnavailable, err.Error()
		ls.Guidance = "run the project's checks with `cortex validate`"
	default:
		ls.State = StateAvailable
		verdict := "passed"
		if !o.Passed {
			verdict = "failed"
		}
		ls.Details["last run"] = o.Started.Format("2006-01-02 15:04 MST") + ", " + verdict
	}
	return ls
}

func (e *Engine) manifestsStatus() LayerStatus {
	ls := LayerStatus{Layer: "dependency manifests", Details: map[string]string{}}
	pr, err := e.Dependencies()
	if err != nil {
		ls.State, ls.Reason = StateUnavailable, err.Error()
		return ls
	}
	ls.State = StateAvailable
	ls.Details["files"], ls.Details["dependencies"] = fmt.Sprint(len(pr.Files)), fmt.Sprint(len(pr.Deps))
	if len(pr.Files) == 0 {
		ls.Reason = "no manifest or lockfile found"
	}
	return ls
}

func (e *Engine) docsStatus() LayerStatus {
	opts := e.project.DocsOptions()
	a := depdocs.CheckDocs(opts)
	ls := LayerStatus{Layer: "dependency docs", Reason: a.Reason, Details: map[string]string{}}
	switch a.State {
	case depdocs.DocsDisabled:
		ls.State = StateDisabled
	case depdocs.DocsNoCredentials:
		ls.State, ls.FixNeeded = StateCredentialsMissing, true
		ls.Guidance = "export " + opts.KeyEnv + "=<your key>"
	case depdocs.DocsAvailable:
		ls.State = StateAvailable
		base := opts.BaseURL
		if base == "" {
			base = depdocs.DefaultContext7URL
		}
		ls.Details["provider"], ls.Details["api key"] = base, "from "+opts.KeyEnv
	default:
		ls.State, ls.FixNeeded = StateUnavailable, true
	}
	return ls
}

package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/codecortex/codecortex/depdocs"
	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/precision"
	"github.com/codecortex/codecortex/structural"
)

// doctorParams are cortex_doctor's arguments: none.
type doctorParams struct{}

// doctorResult is cortex_doctor's result.
type doctorResult struct {
	Root        string        `json:"root" jsonschema:"the project root"`
	Surface     string        `json:"surface" jsonschema:"read-only, or mutating"`
	Principal   string        `json:"principal,omitempty" jsonschema:"who mutates, on the mutating surface"`
	Layers      []layerStatus `json:"layers" jsonschema:"each layer's state, with why and what to do"`
	Trust       trustView     `json:"trust" jsonschema:"whether the project's configuration is trusted to run and send what it names"`
	Diagnostics []string      `json:"config_diagnostics" jsonschema:"problems of .codecortex/config.json"`
}

type layerStatus struct {
	Layer    string      `json:"layer" jsonschema:"the layer"`
	State    string      `json:"state" jsonschema:"available, stale, unavailable, disabled or credentials missing"`
	Reason   string      `json:"reason,omitempty" jsonschema:"why"`
	Guidance string      `json:"guidance,omitempty" jsonschema:"what to do, such as the command that builds an index"`
	Details  []attribute `json:"details" jsonschema:"facts about it, such as the index path"`
}

type trustView struct {
	Trusted  bool     `json:"trusted" jsonschema:"what the configuration asks to run or send applies"`
	Reason   string   `json:"reason" jsonschema:"why it is or is not trusted"`
	Withheld []string `json:"withheld" jsonschema:"what the configuration asks for that was not applied; the cortex trust command trusts it after review"`
}

// answerDoctor reports every layer's state the way cortex doctor does: it
// runs no program the configuration names, and loads indexes only to
// read their state.
func answerDoctor(ctx context.Context, s *Server, _ doctorParams) (doctorResult, error) {
	p := s.project
	out := doctorResult{Root: p.Root, Surface: ReadOnly.String(), Layers: []layerStatus{}, Diagnostics: []string{},
		Trust: trustView{Trusted: p.Trust.Trusted, Reason: p.Trust.Reason, Withheld: clipList(p.Trust.Withheld, maxListed)}}
	if surfaceOf(ctx) == Mutating {
		out.Surface, out.Principal = Mutating.String(), s.opts.Principal
	}
	for _, d := range p.Diagnostics {
		out.Diagnostics = append(out.Diagnostics, clip(d.String(), 400))
	}
	out.Layers = append(out.Layers, doctorPrecision(ctx, s), doctorIndex(ctx, s), doctorStructural(s), doctorDocs(s))
	return out, nil
}

func doctorPrecision(ctx context.Context, s *Server) layerStatus {
	opts := s.project.PrecisionOptions()
	ls := layerStatus{Layer: "precision intelligence", Details: []attribute{}}
	if opts.Disabled {
		ls.State, ls.Reason = "disabled", "precision_index.enabled is false"
		return ls
	}
	opts.AutoGenerate = false // a status never runs the generator
	prov := precision.New(opts)
	defer prov.Close()
	st := prov.Status(ctx)
	ls.State, ls.Reason, ls.Guidance = string(st.State), st.Reason, st.Guidance
	ls.Details = append(ls.Details, attribute{"index", st.IndexPath})
	if st.Loaded {
		ls.Details = append(ls.Details,
			attribute{"indexer", strings.TrimSpace(st.Metadata.Tool + " " + st.Metadata.ToolVersion)},
			attribute{"documents", fmt.Sprint(st.Stats.Documents)},
			attribute{"symbols", fmt.Sprint(st.Stats.Symbols)})
	}
	if st.State == evidence.Unavailable && ls.Guidance == "" {
		ls.Guidance = "generate a SCIP index, such as `scip-go --output index.scip` in a Go module; definition, reference and implementation questions fall back to the local index meanwhile"
	}
	return ls
}

func doctorIndex(ctx context.Context, s *Server) layerStatus {
	ls := layerStatus{Layer: "local index", Details: []attribute{}}
	var st index.Status
	ix, err := s.engine.Index()
	if err == nil {
		st, err = ix.Status(ctx)
	}
	if err != nil {
		ls.State, ls.Reason = "unavailable", err.Error()
		ls.Guidance = "run `cortex index` in the project to (re)build it"
		return ls
	}
	ls.State = "available"
	ls.Details = append(ls.Details, attribute{"database", st.Database},
		attribute{"files", fmt.Sprint(st.Files)}, attribute{"symbols", fmt.Sprint(st.Symbols)},
		attribute{"freshness", string(st.Freshness.State)})
	if st.Freshness.PendingCount > 0 {
		ls.State = "stale"
		ls.Reason = fmt.Sprintf("%d files changed since they were indexed", st.Freshness.PendingCount)
		ls.Guidance = "run `cortex index` to index them now; queries also index some within their time budget"
	}
	return ls
}

// doctorStructural reports the structural engine; a configured ast-grep
// is located on the PATH but never run.
func doctorStructural(s *Server) layerStatus {
	opts := s.project.StructuralOptions()
	ls := layerStatus{Layer: "structural engine", Details: []attribute{}}
	switch {
	case opts.Disabled:
		ls.State, ls.Reason = "disabled", "structural.enabled is false; search falls back to lexical matches"
	case opts.Command != "":
		ls.Details = append(ls.Details, attribute{"command", opts.Command})
		if path, err := safeexec.LookPath(opts.Command); err != nil {
			ls.State, ls.Reason = "unavailable", err.Error()
			ls.Guidance = "install ast-grep " + structural.AstGrepVersion + ", or set structural.command to null for the built-in engine"
		} else {
			ls.State = "available"
			ls.Details = append(ls.Details, attribute{"path", path})
		}
	default:
		if err := structural.NewBuiltin(structural.BuiltinOptions{}).Available(); err != nil {
			ls.State, ls.Reason = "unavailable", err.Error()+"; search falls back to lexical matches"
			ls.Guidance = "build cortex with CGO_ENABLED=1, or set structural.command to an ast-grep " + structural.AstGrepVersion + " binary"
		} else {
			ls.State = "available"
			ls.Details = append(ls.Details, attribute{"engine", "tree-sitter (built in)"})
		}
	}
	return ls
}

func doctorDocs(s *Server) layerStatus {
	opts := s.project.DocsOptions()
	a := depdocs.CheckDocs(opts)
	ls := layerStatus{Layer: "dependency docs", State: string(a.State), Reason: a.Reason, Details: []attribute{}}
	switch a.State {
	case depdocs.DocsNoCredentials:
		ls.Guidance = "export " + keyEnv(opts) + " where cortex mcp runs"
	case depdocs.DocsAvailable:
		base := opts.BaseURL
		if base == "" {
			base = depdocs.DefaultContext7URL
		}
		ls.Details = append(ls.Details, attribute{"provider", base}, attribute{"api key", "from " + keyEnv(opts)})
	}
	return ls
}

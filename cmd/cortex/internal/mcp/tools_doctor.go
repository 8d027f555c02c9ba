package mcp

import (
	"context"
	"maps"
	"slices"
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
	// The engine's status of every layer, as cortex doctor reports it.
	for _, st := range s.engine.Status(ctx) {
		ls := layerStatus{Layer: st.Layer, State: st.State, Reason: clip(st.Reason, 400), Guidance: clip(st.Guidance, 400), Details: []attribute{}}
		for _, k := range slices.Sorted(maps.Keys(st.Details)) {
			ls.Details = append(ls.Details, attribute{k, clip(st.Details[k], 300)})
		}
		out.Layers = append(out.Layers, ls)
	}
	return out, nil
}

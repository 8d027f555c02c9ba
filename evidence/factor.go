package evidence

import "github.com/codecortex/codecortex/trust"

// Common is what every record of one provider in an answer carries alike,
// written once instead of in each record: the kind, provenance and tier of
// a page of call sites, the symbol they all target, their confidence, the
// file they are all in and the symbol they are all about (the overrides of
// one method in one file), and the attributes [ShareAttributes] finds. An
// absent field is not shared.
type Common struct {
	Kind         Kind              `json:"kind,omitempty"`
	Path         string            `json:"path,omitempty"`
	Symbol       string            `json:"symbol,omitempty"`
	Provenance   trust.Method      `json:"provenance,omitempty"`
	Trust        trust.Tier        `json:"trust,omitempty"`
	TargetSymbol string            `json:"target_symbol,omitempty"`
	Confidence   *float64          `json:"confidence,omitempty"`
	Exact        *bool             `json:"exact,omitempty"`
	Stale        *bool             `json:"stale,omitempty"`
	Attributes   map[string]string `json:"attributes,omitempty"`
}

// Defaults is, by provider, what [Factor] took out of the records.
type Defaults map[string]Common

// Lean is a record with what its provider's [Common] holds left out: a
// field it does not write is its provider's shared value, or the zero
// value when its provider shares none.
type Lean struct {
	Kind         Kind         `json:"kind,omitempty"`
	Provider     string       `json:"provider"`
	Provenance   trust.Method `json:"provenance,omitempty"`
	Trust        trust.Tier   `json:"trust,omitempty"`
	Path         string       `json:"path,omitempty"`
	StartLine    int          `json:"start_line,omitempty"`
	StartColumn  int          `json:"start_column,omitempty"`
	EndLine      int          `json:"end_line,omitempty"`
	EndColumn    int          `json:"end_column,omitempty"`
	Symbol       string       `json:"symbol,omitempty"`
	TargetSymbol string       `json:"target_symbol,omitempty"`
	Confidence   *float64     `json:"confidence,omitempty"`
	Exact        *bool        `json:"exact,omitempty"`
	Stale        *bool        `json:"stale,omitempty"`
	Metadata     Metadata     `json:"metadata,omitzero"`
}

// Factor returns, for each provider with at least two of recs, the fields
// and attributes all its records carry alike, and recs without them. A
// page of graph call sites writes its kind, provenance, tier, target and
// confidence once: a third of each record's JSON; the overrides of one
// method in one file write their file and symbol once too. recs are unchanged;
// [Defaults.Expand] gives them back.
func Factor(recs []Record) (Defaults, []Lean) {
	attrs, recs := ShareAttributes(recs)
	first := map[string]int{}
	alike := map[string]*[9]bool{}
	for i, r := range recs {
		j, seen := first[r.Provider]
		if !seen {
			first[r.Provider] = i
			continue
		}
		a := alike[r.Provider]
		if a == nil {
			a = &[9]bool{true, true, true, true, true, true, true, true, true}
			alike[r.Provider] = a
		}
		f := &recs[j]
		a[0] = a[0] && r.Kind == f.Kind
		a[1] = a[1] && r.Provenance == f.Provenance
		a[2] = a[2] && r.Trust == f.Trust
		a[3] = a[3] && r.TargetSymbol == f.TargetSymbol && r.TargetSymbol != ""
		a[4] = a[4] && r.Confidence == f.Confidence
		a[5] = a[5] && r.Exact == f.Exact
		a[6] = a[6] && r.Stale == f.Stale
		a[7] = a[7] && r.Path == f.Path && r.Path != ""
		a[8] = a[8] && r.Symbol == f.Symbol && r.Symbol != ""
	}
	d := Defaults{}
	for p, a := range alike {
		f := recs[first[p]]
		var c Common
		if a[0] {
			c.Kind = f.Kind
		}
		if a[1] {
			c.Provenance = f.Provenance
		}
		if a[2] {
			c.Trust = f.Trust
		}
		if a[3] {
			c.TargetSymbol = f.TargetSymbol
		}
		if a[4] {
			c.Confidence = &f.Confidence
		}
		if a[5] {
			c.Exact = &f.Exact
		}
		if a[6] {
			c.Stale = &f.Stale
		}
		if a[7] {
			c.Path = f.Path
		}
		if a[8] {
			c.Symbol = f.Symbol
		}
		c.Attributes = attrs[p]
		d[p] = c
	}
	out := make([]Lean, len(recs))
	for i, r := range recs {
		out[i] = d.lean(r)
	}
	if len(d) == 0 {
		d = nil
	}
	return d, out
}

// lean is r without what its provider's Common holds.
func (d Defaults) lean(r Record) Lean {
	c := d[r.Provider]
	l := Lean{Provider: r.Provider, Path: r.Path, StartLine: r.StartLine, StartColumn: r.StartColumn,
		EndLine: r.EndLine, EndColumn: r.EndColumn, Symbol: r.Symbol, Metadata: r.Metadata}
	if c.Kind == "" {
		l.Kind = r.Kind
	}
	if c.Path != "" {
		l.Path = ""
	}
	if c.Symbol != "" {
		l.Symbol = ""
	}
	if c.Provenance == "" {
		l.Provenance = r.Provenance
	}
	if c.Trust == 0 {
		l.Trust = r.Trust
	}
	if c.TargetSymbol == "" {
		l.TargetSymbol = r.TargetSymbol
	}
	if c.Confidence == nil {
		l.Confidence = &r.Confidence
	}
	if c.Exact == nil {
		l.Exact = &r.Exact
	}
	if c.Stale == nil {
		l.Stale = &r.Stale
	}
	return l
}

// Expand returns the records lean was made from: each with its provider's
// shared fields and attributes put back.
func (d Defaults) Expand(lean []Lean) []Record {
	out := make([]Record, len(lean))
	for i, l := range lean {
		c := d[l.Provider]
		r := Record{Kind: l.Kind, Provider: l.Provider, Provenance: l.Provenance, Trust: l.Trust, Path: l.Path,
			StartLine: l.StartLine, StartColumn: l.StartColumn, EndLine: l.EndLine, EndColumn: l.EndColumn,
			Symbol: l.Symbol, TargetSymbol: l.TargetSymbol, Metadata: l.Metadata}
		if c.Kind != "" {
			r.Kind = c.Kind
		}
		if c.Path != "" {
			r.Path = c.Path
		}
		if c.Symbol != "" {
			r.Symbol = c.Symbol
		}
		if c.Provenance != "" {
			r.Provenance = c.Provenance
		}
		if c.Trust != 0 {
			r.Trust = c.Trust
		}
		if c.TargetSymbol != "" {
			r.TargetSymbol = c.TargetSymbol
		}
		r.Confidence = pick(c.Confidence, l.Confidence)
		r.Exact = pick(c.Exact, l.Exact)
		r.Stale = pick(c.Stale, l.Stale)
		out[i] = r
	}
	attrs := Shared{}
	for p, c := range d {
		if len(c.Attributes) > 0 {
			attrs[p] = c.Attributes
		}
	}
	return attrs.Restore(out)
}

// pick is the shared value when there is one, else the record's own.
func pick[T any](shared, own *T) T {
	var v T
	switch {
	case shared != nil:
		v = *shared
	case own != nil:
		v = *own
	}
	return v
}
